#!/usr/bin/env python3
"""Runs NIST PKITS through the built trustx and counts the cases that reach PKITS's verdict.

Usage: scripts/pkits.py PKITS-DIR [--trustx PATH] [--require-revocation] [--no-crls]
                        [--apple-expectations PLIST] [--only SECTION...] [--verbose]

PKITS-DIR is BoringSSL's copy (pki/testdata/nist-pkits: certs/, crls/ and the case list
pkits_testcases-inl.h). Each case runs as

    trustx check --policy basic --anchor TrustAnchorRootCertificate --chain EE --chain CA...
                 --crl CRL... --at 2012-01-01T00:00:00Z [--require-revocation]

with the leaf first and the other certificates after it (the engine builds the path). A case
reaches PKITS's verdict when trustx's exit status is 0 for a case that should validate and 1 for
one that should not (exit status 65, an input file trustx refuses to decode, counts as not
trusted). Cases that set initial policy inputs (BoringSSL's SetInitialPolicySet and the like) are
skipped: trustx has no options for them. "Revocation cases" are sections 4.4 (basic CRL), 4.14 (distribution points)
and 4.15 (delta CRLs), and every other case whose name speaks of CRLs, revocation or a
self-issued CRL signing key.

--apple-expectations takes Apple's PKITS expectations (Security's
SecurityTests/nist-certs/Expectations.plist); the run then also lists the cases that trustx
trusts against PKITS's verdict and compares them with those Apple marks "CRLs not supported".
Nothing of PKITS is written anywhere.
"""

import argparse
import os
import plistlib
import re
import subprocess
import sys

CASE = re.compile(
    r"// (?P<number>4\.\d+\.\d+) (?P<title>[^\n]*)\n"
    r"WRAPPED_TYPED_TEST_P\(\w+,\s*(?P<name>\w+)\) \{\s*"
    r"const char\* const certs\[\] = \{(?P<certs>[^}]*)\};\s*"
    r"const char\* const crls\[\] = \{(?P<crls>[^}]*)\};.*?"
    r"info\.should_validate = (?P<valid>true|false);(?P<settings>.*?)this->RunTest",
    re.S,
)
REVOCATION_SECTIONS = ("4.4.", "4.14.", "4.15.")
REVOCATION_WORDS = re.compile(r"CRL|cRL|Revoked|revoked|SelfIssued(New|Old)With|distributionPoint|delta")


def cases(root):
    text = open(os.path.join(root, "pkits_testcases-inl.h")).read()
    for m in CASE.finditer(text):
        names = re.findall(r'"(\w+)"', m.group("certs"))
        crls = re.findall(r'"(\w+)"', m.group("crls"))
        yield {
            "number": m.group("number"),
            "title": m.group("title").strip(),
            "name": m.group("name"),
            "certs": names,
            "crls": crls,
            "valid": m.group("valid") == "true",
            # Initial policy sets and the like, which trustx has no options for.
            "settings": re.findall(r"info\.(Set\w+)", m.group("settings")),
        }


def is_revocation_case(case):
    if case["number"].startswith(REVOCATION_SECTIONS):
        return True
    return bool(REVOCATION_WORDS.search(case["name"]))


def run(trustx, root, case, require, with_crls):
    certs = [os.path.join(root, "certs", n + ".crt") for n in case["certs"]]
    args = [trustx, "check", "--policy", "basic", "--at", "2012-01-01T00:00:00Z", "--anchor", certs[0]]
    for path in [certs[-1]] + list(reversed(certs[1:-1])):
        args += ["--chain", path]
    if with_crls:
        for n in case["crls"]:
            args += ["--crl", os.path.join(root, "crls", n + ".crl")]
    if require:
        args.append("--require-revocation")
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pkits")
    ap.add_argument("--trustx", default=".build/debug/trustx")
    ap.add_argument("--require-revocation", action="store_true")
    ap.add_argument("--no-crls", action="store_true", help="give no CRLs, as Apple's own PKITS run does")
    ap.add_argument("--apple-expectations")
    ap.add_argument("--only", nargs="*", help="test numbers or prefixes, e.g. 4.14. 4.4.3")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    total = agree = rev_total = rev_agree = skipped = 0
    trusted_wrongly = []
    for case in cases(a.pkits):
        if a.only and not any(case["number"] == o or case["number"].startswith(o) for o in a.only):
            continue
        if case["settings"]:
            skipped += 1
            continue
        status, output = run(a.trustx, a.pkits, case, a.require_revocation, not a.no_crls)
        if status not in (0, 1):
            # 65: trustx refuses an input file that does not decode (4.4.4's CRL signature BIT
            # STRING declares unused bits), which leaves the certificate not trusted.
            print(f"     {case['number']} {case['name']}: exit {status}: {output.strip()[:300]}")
        ok = (status == 0) == case["valid"]
        total += 1
        agree += ok
        if is_revocation_case(case):
            rev_total += 1
            rev_agree += ok
        if status == 0 and not case["valid"]:
            trusted_wrongly.append(case)
        if not ok or a.verbose:
            verdict = "trusted" if status == 0 else "rejected"
            expected = "valid" if case["valid"] else "invalid"
            print(f"{'ok  ' if ok else 'MISS'} {case['number']:8} {case['name']}: {verdict}, PKITS says {expected}")
    mode = "--require-revocation" if a.require_revocation else "default (fail open)"
    crls = "no CRLs" if a.no_crls else "each case's CRLs"
    print(
        f"\n{mode}, {crls}: {agree}/{total} cases reach PKITS's verdict; revocation cases {rev_agree}/{rev_total};"
        f" {skipped} cases skipped (initial policy settings trustx has no option for)"
    )

    if a.apple_expectations:
        with open(a.apple_expectations, "rb") as f:
            expectations = plistlib.load(f)
        not_supported = {k[: -len(".crt")] for k, v in expectations.items() if "CRLs not supported" in v}
        apple_dir = os.path.dirname(os.path.abspath(a.apple_expectations))
        in_apple = {n[: -len(".crt")] for n in os.listdir(apple_dir) if n.endswith(".crt")} if os.path.isdir(apple_dir) else None
        wrong = {c["certs"][-1] for c in trusted_wrongly}
        if in_apple:
            wrong &= in_apple
        print(f"Trusted against PKITS's verdict{' (among Apple test certificates)' if in_apple else ''}: {len(wrong)}")
        print(f"Apple's 'CRLs not supported': {len(not_supported)}")
        for n in sorted(wrong - not_supported):
            print(f"  trusted, not in Apple's list: {n}")
        for n in sorted(not_supported - wrong):
            print(f"  in Apple's list, not trusted: {n}")
        if wrong == not_supported:
            print("trustx fails open exactly where Apple's expectations say 'CRLs not supported'.")


if __name__ == "__main__":
    main()
