#!/bin/sh
# Times `trustx check` on the full-size pathological shapes (docs/steps.md, `budget`): files,
# a PKCS#12 with a huge MAC count, many files against the input cap, and the shapes served over
# loopback TLS. Each must end in under a second (files) or under --timeout + 0.5 s (servers)
# with a not-trusted verdict or a clear error. Usage: scripts/slow-shapes.sh [DIRECTORY]
set -eu
cd "$(dirname "$0")/.."
dir=${1:-$(mktemp -d /tmp/trustx-shapes.XXXXXX)}
mkdir -p "$dir"
swift build -c release --product trustx >/dev/null 2>&1
trustx=$(swift build -c release --show-bin-path)/trustx
TRUSTX_SHAPES_DIR=$dir swift test --filter FullSizeShapesWriter >/dev/null 2>&1
at=2025-06-01T00:00:00Z

# Prints: NAME  SECONDS  EXIT  the verdict or error line.
run() {
    name=$1
    shift
    start=$(date +%s.%N)
    set +e
    out=$("$trustx" "$@" 2>&1)
    status=$?
    set -e
    end=$(date +%s.%N)
    line=$(printf '%s\n' "$out" | grep -m1 -E '^  Not trusted:|^  Trusted:|^Error:' || printf '%s\n' "$out" | head -n1)
    printf '%-22s %6.2f s  exit %-3s %s\n' "$name" "$(echo "$end - $start" | bc)" "$status" "$line"
}

echo "files (each must end in under 1 s):"
run nc-mesh check --chain "$dir/nc-mesh.pem" --host host0.example --at $at
run nc-mesh-webpki check --chain "$dir/nc-mesh.pem" --host host0.example --at $at --profile webpki
run nc-mesh-all check --chain "$dir/nc-mesh-all.pem" --host host0.example --at $at
run nc-32767 check --chain "$dir/nc-32767.pem" --anchor "$dir/nc-32767-anchor.pem" --host host0.example --at $at
run nc-999-within-budget check --chain "$dir/nc-999.pem" --anchor "$dir/nc-999-anchor.pem" --host host0.example --at $at
run signature-flood check --chain "$dir/signature-flood.pem" --host host0.example --at $at
run signature-flood-8192 check --chain "$dir/signature-flood-8192.pem" --host host0.example --at $at
run huge-mac-p12 check --chain "$dir/huge-mac.p12" --password wrong --at $at
for i in 1 2 3; do
    cp "$dir/nc-mesh.pem" "$dir/big$i.pem"
    head -c 9437184 /dev/zero | tr '\0' '#' >>"$dir/big$i.pem"
done
run three-9MiB-files check --chain "$dir/big1.pem" --anchor "$dir/big2.pem" --anchor "$dir/big3.pem" --at $at

echo "servers on loopback (each must end in under --timeout + 0.5 s = 5.5 s):"
for shape in nc-mesh signature-flood-tls; do
    log=$dir/$shape.server.log
    openssl s_server -www -accept 127.0.0.1:0 -cert "$dir/$shape-leaf.pem" -key "$dir/$shape.key" \
        -cert_chain "$dir/$shape-rest.pem" </dev/null >"$log" 2>&1 &
    server=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's/^ACCEPT .*:\([0-9][0-9]*\)$/\1/p' "$log")
        [ -n "$port" ] && break
        sleep 0.05
    done
    run "$shape" check "127.0.0.1:$port" --host host0.example --at $at --timeout 5 --no-aia
    kill "$server"
    wait "$server" 2>/dev/null || true
done
