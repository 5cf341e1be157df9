#!/usr/bin/env python3
"""What changed in Apple's trust data between two security_certificates tags.

Usage: report.py CHECKOUT [--from TAG] [--to TAG]

Reads both versions from the checkout's git history (`git show TAG:PATH`), so one checkout of the
newer snapshot is enough: by default --from is the tag compiled into trustx
(Sources/AppleTrustData/AppleTrustDataSource.swift) and --to is the checkout's HEAD. Reports, in
this order: roots added and removed (certificates/roots, by the SHA-256 of each file's DER),
roots moved to certificates/removed, anchor constraints (certificates/constraints.json), EV
policies (certificates/EVRoots.json), Certificate Transparency logs (certificate_transparency/
log_list.json: added, removed, state, operator, tiled), system pins (Pinning/
CertificatePinning.plist: policies added, removed or changed) and date constraints (the Valid
database snapshot valid_db_snapshot/valid.sqlite3, compared by git blob, since it may be absent
from a partial copy; and the roots date-constraints.json names that stopped being roots). A file
one of the tags lacks (EVRoots.json before it replaced evroot.config) is named, not compared.

update.py runs it before regenerating. Only the Python standard library, git and the openssl
command (for subject names) are used. Exit status 0, also when something changed; 2 when a tag
cannot be read.
"""
import functools
import hashlib
import json
import pathlib
import plistlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SOURCE_FILE = ROOT / "Sources" / "AppleTrustData" / "AppleTrustDataSource.swift"
DATE_CONSTRAINTS = HERE / "date-constraints.json"
# At most this many lines per section; a longer list ends with a count.
MAX_LINES = 200


def fail(message: str) -> None:
    print(f"report.py: {message}", file=sys.stderr)
    sys.exit(2)


def git(checkout: pathlib.Path, *args: str) -> bytes:
    r = subprocess.run(["git", "-C", str(checkout), *args], capture_output=True)
    if r.returncode != 0:
        raise LookupError(r.stderr.decode(errors="replace").strip())
    return r.stdout


def show(checkout: pathlib.Path, rev: str, path: str):
    """The file's bytes at `rev`, or None when it is not there (or its blob is absent)."""
    try:
        return git(checkout, "show", f"{rev}:{path}")
    except LookupError:
        return None


def blobs(checkout: pathlib.Path, rev: str, folder: str) -> dict:
    """path -> blob id of every file under `folder` at `rev` (ids are listed even for absent blobs)."""
    try:
        out = git(checkout, "ls-tree", "-r", rev, "--", folder).decode()
    except LookupError:
        return {}
    entries = {}
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        entries[path] = meta.split()[2]
    return entries


def compiled_tag() -> str:
    text = SOURCE_FILE.read_text()
    marker = 'public static let tag = "'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


def der_of(data: bytes) -> bytes:
    if data.lstrip().startswith(b"-----"):
        r = subprocess.run(["openssl", "x509", "-outform", "DER"], input=data, capture_output=True)
        return r.stdout if r.returncode == 0 else data
    return data


def subject(der: bytes) -> str:
    r = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-subject", "-nameopt", "RFC2253"],
                       input=der, capture_output=True)
    text = r.stdout.decode(errors="replace").strip()
    return text[len("subject="):] if text.startswith("subject=") else "(unreadable)"


@functools.lru_cache(maxsize=8)
def certificates(checkout: pathlib.Path, rev: str, folder: str) -> dict:
    """SHA-256 (uppercase hex) -> (path, DER) of every file under `folder` at `rev`."""
    out = {}
    for path in sorted(blobs(checkout, rev, folder)):
        data = show(checkout, rev, path)
        if data is None:
            continue
        der = der_of(data)
        out[hashlib.sha256(der).hexdigest().upper()] = (path, der)
    return out


def json_at(checkout: pathlib.Path, rev: str, path: str):
    data = show(checkout, rev, path)
    return None if data is None else json.loads(data)


class Missing(Exception):
    """A file one of the tags lacks: its section says so instead of listing everything as new."""


def both(checkout, old, new, path: str, read=json_at):
    a, b = read(checkout, old, path), read(checkout, new, path)
    for rev, value in ((old, a), (new, b)):
        if value is None:
            raise Missing(f"{path} is not in {rev}: not compared")
    return a, b


def lines_of(items: list) -> list:
    if len(items) <= MAX_LINES:
        return items
    return items[:MAX_LINES] + [f"... and {len(items) - MAX_LINES} more"]


def roots(checkout, old, new) -> list:
    a = certificates(checkout, old, "certificates/roots")
    b = certificates(checkout, new, "certificates/roots")
    out = [f"added {h} {subject(b[h][1])}" for h in sorted(set(b) - set(a))]
    out += [f"removed {h} {subject(a[h][1])}" for h in sorted(set(a) - set(b))]
    removed_a = set(blobs(checkout, old, "certificates/removed"))
    removed_b = blobs(checkout, new, "certificates/removed")
    out += [f"now in certificates/removed: {p[len('certificates/removed/'):]}"
            for p in sorted(set(removed_b) - removed_a) if not p.startswith("certificates/removed/intermediates/")]
    return out


def oid_tables(old_table: dict, new_table: dict, label: str) -> list:
    out = []
    for h in sorted(set(old_table) | set(new_table)):
        before, after = old_table.get(h), new_table.get(h)
        if before == after:
            continue
        if before is None:
            out.append(f"{label} added {h}: {', '.join(after)}")
        elif after is None:
            out.append(f"{label} removed {h} (was {', '.join(before)})")
        else:
            out.append(f"{label} changed {h}: {', '.join(before)} -> {', '.join(after)}")
    return out


def by_type(table: dict) -> dict:
    """Anchor type -> SHA-256 -> OIDs; an older file without types (SHA-256 -> OIDs) as "untyped"."""
    if table and all(isinstance(v, list) for v in table.values()):
        return {"untyped": table}
    return table


def constraints(checkout, old, new) -> list:
    raw_a, raw_b = both(checkout, old, new, "certificates/constraints.json")
    a, b = by_type(raw_a), by_type(raw_b)
    out = []
    if ("untyped" in a) != ("untyped" in b):
        out.append("format changed: one table of SHA-256 -> OIDs in one tag, a table per anchor type in the other")
    for kind in sorted(set(a) | set(b)):
        out += oid_tables(a.get(kind, {}), b.get(kind, {}), f"[{kind}]")
    return out


def ev(checkout, old, new) -> list:
    # Tags before EVRoots.json kept EV in certificates/evroot.config, another format.
    a, b = both(checkout, old, new, "certificates/EVRoots.json")
    return oid_tables(a.get("EV_config", {}), b.get("EV_config", {}), "EV")


def ct_logs(log_list) -> dict:
    """log_id -> description, operator, state, tiled; any schema version with `operators`."""
    out = {}
    for operator in (log_list or {}).get("operators", []):
        for key, tiled in (("logs", False), ("tiled_logs", True)):
            for log in operator.get(key, []):
                state = next(iter(log.get("state", {}) or {"none": None}))
                out[log.get("log_id", log.get("key", "?"))] = {
                    "description": log.get("description", "?"), "operator": operator.get("name", "?"),
                    "state": state, "tiled": tiled,
                }
    return out


def logs(checkout, old, new) -> list:
    a, b = map(ct_logs, both(checkout, old, new, "certificate_transparency/log_list.json"))

    def name(entry):
        return f"{entry['description']} ({entry['operator']}{', tiled' if entry['tiled'] else ''})"

    out = [f"added {name(b[i])}: {b[i]['state']}" for i in sorted(set(b) - set(a), key=lambda i: name(b[i]))]
    out += [f"removed {name(a[i])}" for i in sorted(set(a) - set(b), key=lambda i: name(a[i]))]
    for i in sorted(set(a) & set(b), key=lambda i: name(b[i])):
        for field in ("state", "operator", "tiled"):
            if a[i][field] != b[i][field]:
                out.append(f"{name(b[i])}: {field} {a[i][field]} -> {b[i][field]}")
    return out


def pins(checkout, old, new) -> list:
    def policies(data):
        raw = plistlib.loads(data)
        return raw[0], {entry["policyName"]: entry for entry in raw[1:]}

    (va, a), (vb, b) = map(policies, both(checkout, old, new, "Pinning/CertificatePinning.plist", show))
    out = [f"plist version {va} -> {vb}"] if va != vb else []
    out += [f"policy added {n}" for n in sorted(set(b) - set(a))]
    out += [f"policy removed {n}" for n in sorted(set(a) - set(b))]
    out += [f"policy changed {n}" for n in sorted(set(a) & set(b)) if a[n] != b[n]]
    return out


def dates(checkout, old, new) -> list:
    path = "valid_db_snapshot/valid.sqlite3"
    a = blobs(checkout, old, path).get(path)
    b = blobs(checkout, new, path).get(path)
    out = []
    if a != b:
        out = [f"{path}: changed ({a or 'none'} -> {b or 'none'}); its date rows need reading again "
               "(scripts/apple-trust-data/date-constraints.json, validSnapshotRows)"]
    roots_then = certificates(checkout, old, "certificates/roots")
    roots_now = certificates(checkout, new, "certificates/roots")
    announced = json.loads(DATE_CONSTRAINTS.read_text())["constraints"] if DATE_CONSTRAINTS.exists() else []
    for c in announced:
        if c["sha256"] in roots_then and c["sha256"] not in roots_now:
            out.append(f"constrained root no longer a root: {c['name']} ({c['sha256']})")
    return out


SECTIONS = [
    ("Roots", roots), ("Anchor constraints", constraints), ("EV policies", ev),
    ("Certificate Transparency logs", logs), ("System pins", pins), ("Date constraints", dates),
]


def report(checkout: pathlib.Path, old: str, new: str) -> str:
    for rev in (old, new):
        try:
            git(checkout, "rev-parse", "--verify", f"{rev}^{{commit}}")
        except LookupError:
            fail(f"{rev} is not in {checkout}; fetch its tags (git fetch --tags) first")
    text = [f"Apple trust data: {old} -> {new}"]
    for title, section in SECTIONS:
        try:
            found = section(checkout, old, new)
        except Missing as why:
            text.append(f"{title}: {why}")
            continue
        text.append(f"{title}: {'no change' if not found else f'{len(found)} change' + ('s' if len(found) != 1 else '')}")
        text += [f"  {line}" for line in lines_of(found)]
    return "\n".join(text) + "\n"


def describe(checkout: pathlib.Path) -> str:
    try:
        return git(checkout, "describe", "--tags", "--exact-match").decode().strip()
    except LookupError:
        return "HEAD"


def main(argv: list) -> None:
    args = argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    checkout = pathlib.Path(args[0]).resolve()
    options = dict(zip(args[1::2], args[2::2]))
    if len(args) % 2 == 0 or set(options) - {"--from", "--to"}:
        sys.exit(__doc__)
    old = options.get("--from", compiled_tag())
    new = options.get("--to", describe(checkout))
    sys.stdout.write(report(checkout, old, new))


if __name__ == "__main__":
    main(sys.argv)
