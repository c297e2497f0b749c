#!/bin/sh
# `openssl speed -evp` through the blockcrypt provider against OpenSSL's default provider, in the same run.
# Usage: sh bench/provider_speed.sh [seconds]   (after `make`; prints a Markdown table of MB/s and ratios)
#
# OpenSSL 3.0's speed resolves -evp names without the -propquery option, so the blockcrypt runs select
# the provider the way an application's openssl.cnf would: default_properties = ?provider=blockcrypt.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SECS=${1:-2}
SO=$(pwd)/$BUILD/provider/blockcrypt.so
[ -f "$SO" ] || { echo "build the provider first (make; needs libssl-dev)"; exit 1; }
CNF=$(mktemp) || exit 1
trap 'rm -f "$CNF"' EXIT
cat >"$CNF" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
blockcrypt = blockcrypt_sect
[default_sect]
activate = 1
[blockcrypt_sect]
module = $SO
activate = 1
[algorithm_sect]
default_properties = ?provider=blockcrypt
CNF

# kB/s (OpenSSL's "1000s of bytes per second") of one algorithm at one size, or "-" if unavailable.
speed() {
	out=$(env "$@" 2>/dev/null | grep '^+F:' | tail -n 1)
	[ -n "$out" ] && echo "$out" | awk -F: '{ printf "%.0f", $NF / 1e6 }' || echo "-"
}

echo "| algorithm | bytes | default MB/s | blockcrypt MB/s | ratio |"
echo "|---|---|---|---|---|"
for a in aes-256-xts aes-128-gcm aes-128-ctr sm4-ctr "sm4-cbc -decrypt" sm4-xts sm4-gcm; do
	for b in 8192 16; do
		# shellcheck disable=SC2086
		d=$(speed OPENSSL_CONF=/dev/null nice -n 10 openssl speed -mr -seconds "$SECS" -bytes $b -evp $a)
		# shellcheck disable=SC2086
		p=$(speed OPENSSL_CONF="$CNF" nice -n 10 openssl speed -mr -seconds "$SECS" -bytes $b -evp $a)
		r=$(awk -v d="$d" -v p="$p" 'BEGIN { if (d + 0 > 0 && p + 0 > 0) printf "%.1fx", p / d; else print "-" }')
		echo "| $a | $b | $d | $p | $r |"
	done
done
