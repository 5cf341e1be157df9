#!/usr/bin/env python3
"""Regenerate trustx's compiled-in Apple trust data from a checkout of Apple's security_certificates.

Usage: scripts/apple-trust-data/update.py PATH-TO-security_certificates-CHECKOUT
       scripts/apple-trust-data/update.py --report PATH-TO-security_certificates-CHECKOUT

First prints what changed between the tag compiled in and the checkout's (report.py: roots added
and removed, anchor constraints, EV policies, CT logs, system pins, date constraints), then
regenerates; with --report it only prints. Either way, read docs/apple-trust-data.md's table of
the trustd rules read against each tag before shipping new data.

Each generator beside this script (gen_*.py) exposes generate(checkout, out_dir, tag) and writes its
own Swift files into Sources/AppleTrustData; every generated file records the tag and a SHA-256 of
its data so that a test can tell when the data and the recorded source disagree. Only the Python
standard library, git and the openssl command (for subject hashes) are used. See docs/apple-trust-data.md.
"""
import importlib.util
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "Sources" / "AppleTrustData"


def describe(checkout: pathlib.Path) -> tuple[str, str]:
    tag = subprocess.run(["git", "-C", str(checkout), "describe", "--tags", "--exact-match"],
                         capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short=9", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    if not tag:
        sys.exit("update.py: the checkout is not at a tag; check out a security_certificates-* tag first")
    return tag, commit


def main() -> None:
    args = sys.argv[1:]
    only_report = args[:1] == ["--report"]
    if only_report:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    checkout = pathlib.Path(args[0]).resolve()
    if not (checkout / "certificates" / "roots").is_dir():
        sys.exit(f"update.py: {checkout} has no certificates/roots; is it a security_certificates checkout?")
    tag, commit = describe(checkout)
    report = _module(HERE / "report.py")
    sys.stdout.write(report.report(checkout, _current("tag"), tag))
    if only_report:
        return
    (OUT / "AppleTrustDataSource.swift").write_text(
        (OUT / "AppleTrustDataSource.swift").read_text()
        .replace(_current("tag"), tag).replace(_current("commit"), commit))
    for gen in sorted(HERE.glob("gen_*.py")):
        _module(gen).generate(checkout, OUT, tag)
        print(f"update.py: {gen.stem} done")


def _module(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _current(name: str) -> str:
    text = (OUT / "AppleTrustDataSource.swift").read_text()
    marker = f'public static let {name} = "'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


if __name__ == "__main__":
    main()
