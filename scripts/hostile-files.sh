#!/bin/sh
# Times `trustx check` on the full-size hostile files of docs/reliability.md ("Revocation work,
# input files and PKCS#12"), with wall time and peak resident memory from /usr/bin/time -v. Each
# must end within 2 s (files only) and stay under 200 MB. The files are written once by
# scripts/hostile-files.py (the 8,192-bit key takes minutes to generate) and kept in DIRECTORY.
# Usage: scripts/hostile-files.sh [DIRECTORY [TRUSTX]]
set -eu
cd "$(dirname "$0")/.."
dir=${1:-/tmp/trustx-hostile-files}
mkdir -p "$dir"
if [ -n "${2:-}" ]; then
    trustx=$2
else
    swift build -c release --product trustx >/dev/null 2>&1
    trustx=$(swift build -c release --show-bin-path)/trustx
fi
if [ ! -s "$dir/big.key" ]; then
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:8192 -pkeyopt rsa_keygen_pubexp:4294967295 \
        -out "$dir/big.key" 2>/dev/null
fi
[ -s "$dir/huge-tag.plist" ] || python3 scripts/hostile-files.py "$dir"

# Prints: NAME  SECONDS  MAX-RSS  EXIT  OUTPUT-BYTES  the verdict or error line. A run is stopped after
# HOSTILE_TIMEOUT seconds (300 by default; exit 124 then).
run() {
    name=$1
    shift
    set +e
    /usr/bin/time -v -o "$dir/time.txt" timeout "${HOSTILE_TIMEOUT:-300}" "$trustx" "$@" >"$dir/out.txt" 2>&1
    status=$?
    set -e
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    line=$(grep -m1 -E '^  Not trusted:|^  Trusted:|^Error:' "$dir/out.txt" | cut -c1-110 || true)
    bytes=$(wc -c <"$dir/out.txt")
    printf '%-16s %9s  %6d MB  exit %-3s %8d B  %s\n' "$name" "$wall" $((rss / 1024)) "$status" "$bytes" "$line"
}

p=$dir/crl-flood
run crl-flood check --chain "$p/chain.pem" --anchor "$p/anchors.pem" --crl "$p/crls.pem" --host host0.example
# The same CRLs with the chain served over loopback TLS: within --timeout 5 (+ 0.5 s).
log=$dir/server.log
openssl s_server -www -accept 127.0.0.1:0 -cert "$p/leaf.pem" -key "$p/leaf.key" -cert_chain "$p/intermediates.pem" \
    </dev/null >"$log" 2>&1 &
server=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/^ACCEPT .*:\([0-9][0-9]*\)$/\1/p' "$log")
    [ -n "$port" ] && break
    sleep 0.05
done
run crl-flood-tls check "127.0.0.1:$port" --host host0.example --anchor "$p/anchors.pem" --crl "$p/crls.pem" \
    --timeout 5 --no-aia
kill "$server"
wait "$server" 2>/dev/null || true
set --
for k in 0 1 2 3 4 5 6 7 8 9; do set -- "$@" --crl "$dir/crl-157MiB/crl$k.pem"; done
run crl-157MiB check --chain "$p/chain.pem" --anchor "$p/anchors.pem" "$@" --host host0.example
run ber-p12 check --chain "$dir/ber-p12/hostile.p12" --password hostile
run huge-tag-plist lint "$dir/huge-tag.plist"
