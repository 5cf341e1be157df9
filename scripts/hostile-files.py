#!/usr/bin/env python3
"""Writes the full-size hostile input files of docs/reliability.md ("Revocation work, input files
and PKCS#12") into DIRECTORY, for scripts/hostile-files.sh to time:

  crl-flood/    8 candidate paths through one 8,192-bit RSA issuer key with exponent 2^32 - 1,
                and about 15.5 MiB of CRLs naming that issuer: one genuine CRL that revokes
                the leaf, the others with signatures that cost a full verification and fail.
  crl-157MiB/   ten CRL files of 15.7 MiB each (157 MiB together), from an unrelated issuer.
  ber-p12/      a PKCS#12 file whose authSafe is a BER constructed, indefinite-length OCTET
                STRING, with a correct MAC (2,048 rounds) and a shrouded key bag asking for
                2^31 - 1 rounds of PBKDF2. The password is "hostile".
  huge-tag.plist  a property list whose one tag name is 3,900,000 bytes long.

Needs Python's `cryptography` and an RSA key in DIRECTORY/big.key (the shell script makes it
with openssl: an 8,192-bit modulus and public exponent 4294967295).
Usage: scripts/hostile-files.py DIRECTORY
"""

import datetime
import hashlib
import hmac
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

PATHS = 8
CRL_BYTES = int(15.5 * 1024 * 1024)


def tlv(tag, content):
    n = len(content)
    if n < 0x80:
        length = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + length + content


def seq(*parts):
    return tlv(0x30, b"".join(parts))


def integer(v):
    b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
    return tlv(0x02, b)


def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytes([arcs[0] * 40 + arcs[1]])
    for a in arcs[2:]:
        enc = [a & 0x7F]
        a >>= 7
        while a:
            enc.append(0x80 | (a & 0x7F))
            a >>= 7
        out += bytes(reversed(enc))
    return tlv(0x06, out)


def utc(t):
    return tlv(0x17, t.strftime("%y%m%d%H%M%SZ").encode())


def name(cn):
    return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0C, cn.encode()))))


def pem(label, der):
    import base64

    b = base64.encodebytes(der).decode().replace("\n", "")
    lines = [b[i : i + 64] for i in range(0, len(b), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (label, "\n".join(lines), label)).encode()


NOW = datetime.datetime.now(datetime.timezone.utc)
BEFORE = NOW - datetime.timedelta(days=30)
AFTER = NOW + datetime.timedelta(days=30)


def certificate(subject, issuer, public_key, signing_key, ca, sans=None):
    b = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(BEFORE)
        .not_valid_after(AFTER)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        b = b.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(s) for s in sans]), critical=False)
        b = b.add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    return b.sign(signing_key, hashes.SHA256())


def crl_flood(directory):
    out = os.path.join(directory, "crl-flood")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(directory, "big.key"), "rb") as f:
        big = serialization.load_pem_private_key(f.read(), None, unsafe_skip_rsa_key_validation=True)
    roots, intermediates = [], []
    for k in range(PATHS):
        rk = ec.generate_private_key(ec.SECP256R1())
        roots.append(certificate("Root %d" % k, "Root %d" % k, rk.public_key(), rk, True))
        intermediates.append(certificate("Hostile CA", "Root %d" % k, big.public_key(), rk, True))
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate("host0.example", "Hostile CA", leaf_key.public_key(), big, False, ["host0.example"])
    with open(os.path.join(out, "leaf.key"), "wb") as f:
        f.write(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    with open(os.path.join(out, "leaf.pem"), "wb") as f:
        f.write(leaf.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "intermediates.pem"), "wb") as f:
        for c in intermediates:
            f.write(c.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "chain.pem"), "wb") as f:
        f.write(leaf.public_bytes(serialization.Encoding.PEM))
        for c in intermediates:
            f.write(c.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "anchors.pem"), "wb") as f:
        for c in roots:
            f.write(c.public_bytes(serialization.Encoding.PEM))
    genuine = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Hostile CA")]))
        .last_update(BEFORE)
        .next_update(AFTER)
        .add_extension(x509.CRLNumber(1), critical=False)
        .add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(leaf.serial_number).revocation_date(BEFORE).build()
        )
        .sign(big, hashes.SHA256())
    )
    blob = bytearray(pem("X509 CRL", genuine.public_bytes(serialization.Encoding.DER)))
    modulus_bytes = (big.key_size + 7) // 8
    alg = seq(oid("1.2.840.113549.1.1.11"), tlv(0x05, b""))
    crl_number = tlv(0xA0, seq(seq(oid("2.5.29.20"), tlv(0x04, integer(2)))))
    # CRL_COUNT CRLs share the bytes: each pads its list of revoked serials to its share.
    count = int(os.environ.get("CRL_COUNT", "1000"))
    share = (CRL_BYTES - len(blob)) * 3 // 4 // count - modulus_bytes - 64
    i = 0
    while i < count - 1:
        i += 1
        entries = []
        size = 0
        serial = i << 32
        while size < share:
            serial += 1
            e = seq(integer(serial), utc(BEFORE))
            entries.append(e)
            size += len(e)
        tbs = seq(integer(1), alg, name("Hostile CA"), utc(BEFORE), utc(AFTER), seq(*entries), crl_number)
        # Below the modulus (its top bit is set), so OpenSSL runs the whole public-key operation.
        signature = bytes([0x7F]) + os.urandom(modulus_bytes - 1)
        blob += pem("X509 CRL", seq(tbs, alg, tlv(0x03, b"\x00" + signature)))
    with open(os.path.join(out, "crls.pem"), "wb") as f:
        f.write(blob)
    print("crl-flood: %d CRLs, %d bytes" % (count, len(blob)))


def crl_157(directory):
    out = os.path.join(directory, "crl-157MiB")
    os.makedirs(out, exist_ok=True)
    alg = seq(oid("1.2.840.10045.4.3.2"))
    entries = []
    size = 0
    n = 0
    target = int(15.7 * 1024 * 1024 * 3 / 4) - 4096  # the DER, before PEM's base64
    while size < target:
        n += 1
        e = seq(integer(n), utc(BEFORE))
        entries.append(e)
        size += len(e)
    tbs = seq(integer(1), alg, name("Unrelated CA"), utc(BEFORE), utc(AFTER), seq(*entries),
              tlv(0xA0, seq(seq(oid("2.5.29.20"), tlv(0x04, integer(1))))))
    der = seq(tbs, alg, tlv(0x03, b"\x00" + seq(integer(1), integer(1))))
    body = pem("X509 CRL", der)
    for k in range(10):
        with open(os.path.join(out, "crl%d.pem" % k), "wb") as f:
            f.write(body)
    print("crl-157MiB: 10 files of %d bytes, %d entries each" % (len(body), n))


def pkcs12_kdf(password, salt, ident, iterations, n):
    """RFC 7292 Appendix B.2 with SHA-256 (u = 32, v = 64)."""
    u, v = 32, 64
    pw = (password.encode("utf-16-be") + b"\x00\x00") if password is not None else b""
    d = bytes([ident]) * v
    s = (salt * ((v + len(salt) - 1) // len(salt)))[: v * ((len(salt) + v - 1) // v)] if salt else b""
    p = (pw * ((v + len(pw) - 1) // len(pw)))[: v * ((len(pw) + v - 1) // v)] if pw else b""
    i = bytearray(s + p)
    out = b""
    while len(out) < n:
        a = hashlib.sha256(d + bytes(i)).digest()
        for _ in range(iterations - 1):
            a = hashlib.sha256(a).digest()
        out += a
        b = (a * ((v + u - 1) // u))[:v]
        bi = int.from_bytes(b, "big") + 1
        for j in range(0, len(i), v):
            block = (int.from_bytes(i[j : j + v], "big") + bi) % (1 << (8 * v))
            i[j : j + v] = block.to_bytes(v, "big")
    return out[:n]


def ber_p12(directory):
    out = os.path.join(directory, "ber-p12")
    os.makedirs(out, exist_ok=True)
    password = "hostile"
    # PBES2 { PBKDF2 { salt, 2^31 - 1 rounds, HMAC-SHA256 }, AES-256-CBC { iv } } (RFC 8018 A.2, A.4)
    pbes2 = seq(
        oid("1.2.840.113549.1.5.13"),
        seq(
            seq(oid("1.2.840.113549.1.5.12"),
                seq(tlv(0x04, os.urandom(8)), integer(2**31 - 1), seq(oid("1.2.840.113549.2.9"), tlv(0x05, b"")))),
            seq(oid("2.16.840.1.101.3.4.1.42"), tlv(0x04, os.urandom(16))),
        ),
    )
    shrouded = seq(pbes2, tlv(0x04, os.urandom(64)))
    bag = seq(oid("1.2.840.113549.1.12.10.1.2"), tlv(0xA0, shrouded))
    safe_contents = seq(bag)
    data_info = seq(oid("1.2.840.113549.1.7.1"), tlv(0xA0, tlv(0x04, safe_contents)))
    auth_safe = seq(data_info)
    # BER: [0] and the OCTET STRING with indefinite lengths, the octets in 16-byte segments.
    segments = b"".join(tlv(0x04, auth_safe[j : j + 16]) for j in range(0, len(auth_safe), 16))
    content = b"\xa0\x80" + b"\x24\x80" + segments + b"\x00\x00" + b"\x00\x00"
    auth_info = tlv(0x30, oid("1.2.840.113549.1.7.1") + content)
    salt = os.urandom(8)
    key = pkcs12_kdf(password, salt, 3, 2048, 32)
    mac = hmac.new(key, auth_safe, hashlib.sha256).digest()
    mac_data = seq(seq(seq(oid("2.16.840.1.101.3.4.2.1"), tlv(0x05, b"")), tlv(0x04, mac)), tlv(0x04, salt),
                   integer(2048))
    pfx = seq(integer(3), auth_info, mac_data)
    with open(os.path.join(out, "hostile.p12"), "wb") as f:
        f.write(pfx)
    print("ber-p12: %d bytes" % len(pfx))


def huge_tag(directory):
    with open(os.path.join(directory, "huge-tag.plist"), "wb") as f:
        f.write(b'<?xml version="1.0"?><plist version="1.0"><dict><' + b"k" * 3_900_000 + b"></dict></plist>")


if __name__ == "__main__":
    d = sys.argv[1]
    huge_tag(d)
    ber_p12(d)
    crl_157(d)
    crl_flood(d)
