#!/usr/bin/env python3
"""report.py on a synthetic security_certificates history: two tags whose every kind of data
differs in a known way, and the lines the report must print for each (run by AppleTrustDataTests,
or alone: python3 scripts/apple-trust-data/test_report.py)."""
import hashlib
import importlib.util
import json
import pathlib
import plistlib
import subprocess
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("report", HERE / "report.py")
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)


def run(cwd, *args, stdin=None) -> bytes:
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, check=True).stdout


def root(cwd: pathlib.Path, name: str) -> bytes:
    """A self-signed certificate named `name`, DER."""
    run(cwd, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "30", "-subj", f"/CN={name}")
    return run(cwd, "openssl", "x509", "-in", f"{name}.pem", "-outform", "DER")


def log(description: str, key: bytes, state: str) -> dict:
    return {
        "description": description, "key": key.hex(), "log_id": hashlib.sha256(key).hexdigest(),
        "state": {state: {"timestamp": "2025-01-01T00:00:00Z"}},
    }


class ReportTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = pathlib.Path(self.tmp.name) / "repo"
        keys = pathlib.Path(self.tmp.name)
        (self.repo / "certificates" / "roots").mkdir(parents=True)
        for d in ("certificates/removed", "certificate_transparency", "Pinning", "valid_db_snapshot"):
            (self.repo / d).mkdir(parents=True, exist_ok=True)
        run(self.repo, "git", "init", "-q")
        run(self.repo, "git", "config", "user.email", "t@example.com")
        run(self.repo, "git", "config", "user.name", "t")
        self.kept, self.gone, self.new = root(keys, "Kept Root"), root(keys, "Gone Root"), root(keys, "New Root")
        h = {n: hashlib.sha256(d).hexdigest().upper() for n, d in
             (("kept", self.kept), ("gone", self.gone), ("new", self.new))}
        self.h = h
        # Tag A.
        self.write("certificates/roots/kept.cer", self.kept)
        self.write("certificates/roots/gone.cer", self.gone)
        self.write("certificates/constraints.json", json.dumps({"system": {h["kept"]: ["1.2.3"]}}).encode())
        self.write("certificates/EVRoots.json", json.dumps({"EV_config": {h["kept"]: ["2.23.140.1.1"]}}).encode())
        self.write("certificate_transparency/log_list.json", json.dumps({"operators": [
            {"name": "Op A", "logs": [log("Log One", b"k1", "usable"), log("Log Two", b"k2", "usable")]}]}).encode())
        self.write("Pinning/CertificatePinning.plist", plistlib.dumps(
            [1, {"policyName": "Stays", "domains": []}, {"policyName": "Edited", "domains": []},
             {"policyName": "Dropped", "domains": []}]))
        self.tag("sc-1")
        # Tag B: one root gone to removed/, one added; a constraint changed and one added; an EV
        # policy added to a root; a log retired, one removed, a tiled one added; the pins' version,
        # one policy edited, one dropped, one added; the Valid snapshot added.
        (self.repo / "certificates/roots/gone.cer").unlink()
        self.write("certificates/removed/gone.cer", self.gone)
        self.write("certificates/roots/new.cer", self.new)
        self.write("certificates/constraints.json", json.dumps(
            {"system": {h["kept"]: ["1.2.4"], h["new"]: ["1.2.3"]}}).encode())
        self.write("certificates/EVRoots.json", json.dumps(
            {"EV_config": {h["kept"]: ["2.23.140.1.1", "1.9"]}}).encode())
        self.write("certificate_transparency/log_list.json", json.dumps({"operators": [
            {"name": "Op A", "logs": [log("Log One", b"k1", "retired")],
             "tiled_logs": [log("Tiles", b"k3", "qualified")]}]}).encode())
        self.write("Pinning/CertificatePinning.plist", plistlib.dumps(
            [2, {"policyName": "Stays", "domains": []}, {"policyName": "Edited", "domains": [{"suffix": "x"}]},
             {"policyName": "Added", "domains": []}]))
        self.write("valid_db_snapshot/valid.sqlite3", b"rows")
        self.tag("sc-2")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path: str, data: bytes):
        (self.repo / path).write_bytes(data)

    def tag(self, name: str):
        run(self.repo, "git", "add", "-A")
        run(self.repo, "git", "commit", "-q", "-m", name)
        run(self.repo, "git", "tag", name)

    def test_every_kind_of_change_is_reported(self):
        text = report.report(self.repo, "sc-1", "sc-2")
        h = self.h
        for line in [
            "Apple trust data: sc-1 -> sc-2",
            "Roots: 3 changes",
            f"  added {h['new']} CN=New Root",
            f"  removed {h['gone']} CN=Gone Root",
            "  now in certificates/removed: gone.cer",
            "Anchor constraints: 2 changes",
            f"  [system] changed {h['kept']}: 1.2.3 -> 1.2.4",
            f"  [system] added {h['new']}: 1.2.3",
            "EV policies: 1 change",
            f"  EV changed {h['kept']}: 2.23.140.1.1 -> 2.23.140.1.1, 1.9",
            "Certificate Transparency logs: 3 changes",
            "  added Tiles (Op A, tiled): qualified",
            "  removed Log Two (Op A)",
            "  Log One (Op A): state usable -> retired",
            "System pins: 4 changes",
            "  plist version 1 -> 2",
            "  policy added Added",
            "  policy removed Dropped",
            "  policy changed Edited",
            "Date constraints: 1 change",
        ]:
            self.assertIn(line + "\n", text)
        self.assertIn("valid_db_snapshot/valid.sqlite3: changed (none -> ", text)
        self.assertNotIn("Stays", text)

    def test_the_same_tag_twice_is_no_change(self):
        text = report.report(self.repo, "sc-2", "sc-2")
        for title in (
            "Roots", "Anchor constraints", "EV policies", "Certificate Transparency logs", "System pins",
            "Date constraints",
        ):
            self.assertIn(f"{title}: no change\n", text)


if __name__ == "__main__":
    unittest.main()
