#!/usr/bin/env python3
"""Compile the date constraints Apple applies to CAs into Sources/AppleTrustData/AppleDateConstraints.swift.

trustd keeps these constraints in its Valid database, which Apple does not publish in full, so the
source is date-constraints.json beside this script: the constraints Apple announced (each root by
SHA-256, its cut-off date, the announcement's URL and the date it was read, CONFIRMED or not) and
the rows read from the Valid snapshots security_certificates carried. When a security_certificates
checkout is given, every announced root's SHA-256 is recomputed from its file there.

The generated file records the JSON's SHA-256 and a SHA-256 over the data's canonical lines (see
`canonical_lines`); trustx's tests recompute the latter from the compiled values.

Run through update.py, or alone: gen_date_constraints.py [CHECKOUT [TAG]].
"""
import hashlib
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE / "date-constraints.json"
TIME = re.compile(r"^[0-9]{4}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$")
DIGEST = re.compile(r"^[0-9A-F]{64}$")


def fail(message: str) -> None:
    sys.exit(f"gen_date_constraints.py: {message}")


def checked(value, pattern, where: str):
    if value is not None and (not isinstance(value, str) or not pattern.match(value)):
        fail(f"{where}: {value!r} does not match {pattern.pattern}")
    return value


def read_entries(data: dict, checkout) -> list[dict]:
    if data.get("schema") != 1:
        fail(f"unknown schema {data.get('schema')!r}")
    entries = []
    for c in data["constraints"]:
        where = c["name"]
        if c["bound"] != "notAfter":
            fail(f"{where}: bound {c['bound']!r}; announced entries are not-after bounds")
        overridable = {"unknown": None, "true": True, "false": False}.get(str(c["overridable"]).lower(), "bad")
        if overridable == "bad":
            fail(f"{where}: overridable {c['overridable']!r}")
        if c["status"] not in ("CONFIRMED", "UNCONFIRMED"):
            fail(f"{where}: status {c['status']!r}")
        if checkout is not None and c.get("inStore"):
            der = (checkout / c["rootFile"]).read_bytes()
            if hashlib.sha256(der).hexdigest().upper() != c["sha256"]:
                fail(f"{where}: {c['rootFile']} does not hash to {c['sha256']}")
        entries.append({
            "sha256": checked(c["sha256"], DIGEST, where),
            "name": c["name"],
            "not_before": None,
            "not_after": checked(c["cutoffInstant"], TIME, where),
            "cutoff_date": c["cutoffDate"],
            "overridable": overridable,
            "requires_ct": bool(c["requiresCT"]),
            "source": c["source"],
            "read_on": c["readOn"],
            "confirmed": c["status"] == "CONFIRMED",
            "in_store": bool(c["inStore"]),
        })
    snapshot = data["validSnapshotRows"]
    for r in snapshot["rows"]:
        where = r["name"]
        bound = r["notAfter"] or r["notBefore"]
        entries.append({
            "sha256": checked(r["issuerSha256"], DIGEST, where),
            "name": r["name"],
            "not_before": checked(r["notBefore"], TIME, where),
            "not_after": checked(r["notAfter"], TIME, where),
            "cutoff_date": bound[:10],
            "overridable": bool(r["overridable"]),
            # trustd marks an entry "requires CT" when its not-after bound has passed.
            "requires_ct": r["notAfter"] is not None,
            "source": "valid_db_snapshot/valid.sqlite3 at security_certificates-55291 and -55294 (table dates)",
            "read_on": data["read"],
            "confirmed": r["status"] == "CONFIRMED",
            "in_store": bool(r["inStore"]),
        })
    digests = [e["sha256"] for e in entries]
    if len(set(digests)) != len(digests):
        fail("a CA is listed twice")
    return entries


def optional(flag) -> str:
    return "" if flag is None else ("overridable" if flag else "not-overridable")


def canonical_lines(entries: list[dict]) -> str:
    """One line per entry, fields joined by tabs, an absent value as an empty field; the digest is
    the SHA-256 of these lines joined by newlines (no final newline), as UTF-8."""
    return "\n".join("\t".join([
        e["sha256"], e["name"], e["not_before"] or "", e["not_after"] or "", e["cutoff_date"],
        optional(e["overridable"]), "ct" if e["requires_ct"] else "", e["source"], e["read_on"],
        "confirmed" if e["confirmed"] else "unconfirmed", "in-store" if e["in_store"] else "",
    ]) for e in entries)


def swift_string(text) -> str:
    if text is None:
        return "nil"
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def render(entries: list[dict], data: dict, json_digest: str) -> str:
    digest = hashlib.sha256(canonical_lines(entries).encode()).hexdigest()
    lines = [
        "// swift-format-ignore-file",
        "// Generated by scripts/apple-trust-data/gen_date_constraints.py from",
        "// scripts/apple-trust-data/date-constraints.json. Do not edit: regenerate.",
        "",
        "/// The date constraints of trustd's Valid database that Apple has announced or published: the CAs",
        "/// whose certificates are trusted only when issued within a range (docs/apple-trust-data.md).",
        "public enum AppleDateConstraints {",
        "    /// The security_certificates tag the roots' digests were checked against.",
        f"    public static let tag = {swift_string(data['securityCertificatesTag'])}",
        "    /// When the announcements were read.",
        f"    public static let read = {swift_string(data['read'])}",
        "    /// SHA-256 (hex) of date-constraints.json as generated from.",
        f"    public static let sourceSHA256 = {swift_string(json_digest)}",
        "    /// SHA-256 (hex) of the entries' canonical lines (`AppleDateConstraint.canonicalLine`, joined by newlines).",
        f"    public static let dataSHA256 = {swift_string(digest)}",
        "    /// The entries: Apple's announced roots first, then the Valid snapshot's rows.",
        "    public static let entries: [AppleDateConstraint] = [",
    ]
    for e in entries:
        overridable = "nil" if e["overridable"] is None else ("true" if e["overridable"] else "false")
        lines += [
            "        AppleDateConstraint(",
            f"            sha256: {swift_string(e['sha256'])},",
            f"            name: {swift_string(e['name'])},",
            f"            notBefore: {swift_string(e['not_before'])}, notAfter: {swift_string(e['not_after'])},",
            f"            cutoffDate: {swift_string(e['cutoff_date'])}, overridable: {overridable},",
            f"            requiresCT: {'true' if e['requires_ct'] else 'false'},",
            f"            source: {swift_string(e['source'])},",
            f"            readOn: {swift_string(e['read_on'])}, confirmed: {'true' if e['confirmed'] else 'false'},",
            f"            inStore: {'true' if e['in_store'] else 'false'}),",
        ]
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def generate(checkout, out_dir: pathlib.Path, tag: str) -> None:
    raw = SOURCE.read_bytes()
    data = json.loads(raw)
    if checkout is not None and tag not in ("unknown", data["securityCertificatesTag"]):
        print(f"gen_date_constraints.py: digests checked at {tag}; the JSON records "
              f"{data['securityCertificatesTag']}: re-read Apple's announcements", file=sys.stderr)
    entries = read_entries(data, checkout)
    (out_dir / "AppleDateConstraints.swift").write_text(render(entries, data, hashlib.sha256(raw).hexdigest()))


if __name__ == "__main__":
    if len(sys.argv) > 3:
        sys.exit(__doc__)
    generate(pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None,
             HERE.parent.parent / "Sources" / "AppleTrustData",
             sys.argv[2] if len(sys.argv) == 3 else "unknown")
