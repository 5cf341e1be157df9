#!/usr/bin/env python3
"""Apple's system pinning rules (Pinning/CertificatePinning.plist) as Swift data.

Writes Sources/AppleTrustData/ApplePinningData.swift: every pinning policy with its host patterns
(a domain suffix and a regular expression for the first label) and its rules (the alternatives
trustd tries, each a set of checks). The file records the source tag and the SHA-256 of the
canonical text of the compiled data (`canonical_lines` below; the Swift test that recomputes it
writes the same lines), so data edited by hand is caught.

Run through update.py, or alone: gen_pinning.py PATH-TO-CHECKOUT (the tag is read from the checkout).
"""
import hashlib
import pathlib
import plistlib
import subprocess
import sys

SOURCE = "Pinning/CertificatePinning.plist"
OUT_NAME = "ApplePinningData.swift"

# The rule keys trustd's SSL server policy understands and that this data carries. Anything else
# stops the generator: a new key is a new rule to read in trustd before it is compiled in.
KNOWN_RULE_KEYS = {
    "AnchorApple", "AnchorSHA256", "ChainLength", "CheckIntermediateMarkerOid",
    "CheckIntermediateCountry", "CheckIntermediateOrganization", "CheckLeafMarkerOid",
    "CheckLeafMarkersProdAndQA", "SubjectOrganization", "CertificatePolicy", "Revocation",
}


def markers(value, where):
    """A marker value as trustd reads it: an OID string (the extension must be present with a NULL
    value), a dict {OID: string} (the extension's value must be that string), or an array of them."""
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append((item, None))
        elif isinstance(item, dict):
            for oid, expected in sorted(item.items()):
                if not isinstance(expected, str):
                    sys.exit(f"gen_pinning.py: {where}: marker {oid} expects a non-string value")
                out.append((oid, expected))
        else:
            sys.exit(f"gen_pinning.py: {where}: unexpected marker value {item!r}")
    return out


def rule(raw, where):
    unknown = set(raw) - KNOWN_RULE_KEYS
    if unknown:
        sys.exit(f"gen_pinning.py: {where}: unknown rule keys {sorted(unknown)}")
    r = {
        "anchorApple": "AnchorApple" in raw,
        "anchorSHA256": [d.hex() for d in raw.get("AnchorSHA256", [])],
        "chainLength": raw.get("ChainLength"),
        "intermediateMarkerOID": raw.get("CheckIntermediateMarkerOid"),
        "intermediateCountry": raw.get("CheckIntermediateCountry"),
        "intermediateOrganization": raw.get("CheckIntermediateOrganization"),
        "leafMarkerOID": markers(raw["CheckLeafMarkerOid"], where) if "CheckLeafMarkerOid" in raw else None,
        # trustd checks only the production markers (SecPolicyCheckLeafMarkersProdAndQA).
        "leafMarkersProduction": (markers(raw["CheckLeafMarkersProdAndQA"]["ProdMarker"], where)
                                  if "CheckLeafMarkersProdAndQA" in raw else None),
        "subjectOrganization": raw.get("SubjectOrganization"),
        "certificatePolicy": raw.get("CertificatePolicy"),
        "revocation": raw.get("Revocation"),
    }
    for key in ("intermediateMarkerOID", "intermediateCountry", "intermediateOrganization",
                "subjectOrganization", "certificatePolicy", "revocation"):
        if r[key] is not None and not isinstance(r[key], str):
            sys.exit(f"gen_pinning.py: {where}: {key} is not a string")
    return r


def load(checkout: pathlib.Path):
    raw = plistlib.loads((checkout / SOURCE).read_bytes())
    if not raw or not isinstance(raw[0], int):
        sys.exit("gen_pinning.py: the plist does not start with its version number")
    version, policies = raw[0], []
    for index, entry in enumerate(raw[1:], start=1):
        name = entry["policyName"]
        where = f"entry {index} ({name})"
        policies.append({
            "name": name,
            "transparentConnection": bool(entry.get("transparentConnection", False)),
            "domains": [(d["suffix"], d["labelRegex"]) for d in entry["domains"]],
            "rules": [rule(r, f"{where} rule {i}") for i, r in enumerate(entry["rules"])],
        })
    return version, policies


def canonical_lines(version, policies):
    """One line per fact, tab-separated; absent values are left out."""
    lines = [f"version\t{version}"]
    for p in policies:
        lines.append(f"policy\t{p['name']}\t{1 if p['transparentConnection'] else 0}")
        for suffix, pattern in p["domains"]:
            lines.append(f"domain\t{suffix}\t{pattern}")
        for r in p["rules"]:
            lines.append("rule")
            if r["anchorApple"]:
                lines.append("anchorApple")
            for digest in r["anchorSHA256"]:
                lines.append(f"anchorSHA256\t{digest}")
            for key in ("chainLength", "intermediateMarkerOID", "intermediateCountry",
                        "intermediateOrganization", "subjectOrganization", "certificatePolicy", "revocation"):
                if r[key] is not None:
                    lines.append(f"{key}\t{r[key]}")
            for key in ("leafMarkerOID", "leafMarkersProduction"):
                if r[key] is not None:
                    lines.append(key)
                    for oid, value in r[key]:
                        lines.append(f"marker\t{oid}" + (f"\t{value}" if value is not None else ""))
    return lines


def swift_string(s):
    if s is None:
        return "nil"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def swift_markers(ms):
    if ms is None:
        return "nil"
    return "[" + ", ".join(
        f"ApplePinningMarker(oid: {swift_string(o)}, value: {swift_string(v)})" for o, v in ms) + "]"


def swift_rule(r, indent):
    pad = " " * indent
    digests = ", ".join(swift_string(d) for d in r["anchorSHA256"])
    chain = "nil" if r["chainLength"] is None else str(r["chainLength"])
    return (
        f"{pad}ApplePinningRule(\n"
        f"{pad}    anchorApple: {'true' if r['anchorApple'] else 'false'}, anchorSHA256: [{digests}],\n"
        f"{pad}    chainLength: {chain}, intermediateMarkerOID: {swift_string(r['intermediateMarkerOID'])},\n"
        f"{pad}    intermediateCountry: {swift_string(r['intermediateCountry'])},\n"
        f"{pad}    intermediateOrganization: {swift_string(r['intermediateOrganization'])},\n"
        f"{pad}    leafMarkerOID: {swift_markers(r['leafMarkerOID'])},\n"
        f"{pad}    leafMarkersProduction: {swift_markers(r['leafMarkersProduction'])},\n"
        f"{pad}    subjectOrganization: {swift_string(r['subjectOrganization'])},\n"
        f"{pad}    certificatePolicy: {swift_string(r['certificatePolicy'])}, revocation: {swift_string(r['revocation'])})"
    )


def render(tag, version, policies, digest):
    out = [
        "// swift-format-ignore-file",
        f"// Generated by scripts/apple-trust-data/gen_pinning.py from {SOURCE} of",
        f"// {tag}. Do not edit: regenerate (docs/apple-trust-data.md).",
        "",
        "extension ApplePinningData {",
        "    /// The security_certificates tag this file was generated from.",
        f"    public static let tag = {swift_string(tag)}",
        "    /// SHA-256 (hex) of the canonical text of `version` and `policies`.",
        f"    public static let sha256 = {swift_string(digest)}",
        "    /// The version number the plist starts with.",
        f"    public static let version = {version}",
        "    /// Every pinning policy, in the plist's order.",
        "    public static let policies: [ApplePinningPolicy] = [",
    ]
    for p in policies:
        domains = ",\n".join(
            f"                ApplePinningDomain(suffix: {swift_string(s)}, labelPattern: {swift_string(x)})"
            for s, x in p["domains"])
        rules = ",\n".join(swift_rule(r, 16) for r in p["rules"])
        out.append(
            f"        ApplePinningPolicy(\n"
            f"            name: {swift_string(p['name'])}, transparentConnection: "
            f"{'true' if p['transparentConnection'] else 'false'},\n"
            f"            domains: [\n{domains}\n            ],\n"
            f"            rules: [\n{rules}\n            ]),")
    out += ["    ]", "}", ""]
    return "\n".join(out)


def generate(checkout: pathlib.Path, out_dir: pathlib.Path, tag: str) -> None:
    version, policies = load(checkout)
    text = "\n".join(canonical_lines(version, policies)) + "\n"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    (out_dir / OUT_NAME).write_text(render(tag, version, policies, digest))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    checkout = pathlib.Path(sys.argv[1]).resolve()
    tag = subprocess.run(["git", "-C", str(checkout), "describe", "--tags", "--exact-match"],
                         capture_output=True, text=True).stdout.strip()
    if not tag:
        sys.exit("gen_pinning.py: the checkout is not at a tag")
    root = pathlib.Path(__file__).resolve().parent.parent.parent
    generate(checkout, root / "Sources" / "AppleTrustData", tag)
