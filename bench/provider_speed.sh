#!/bin/sh
# `openssl speed -evp` through the blockcrypt provider against OpenSSL's default provider, in the same run.
# Usage: sh bench/provider_speed.sh [-s seconds] [-r rounds] [-b sizes] [ALG...]
#   (after `make`; prints a Markdown table of MB/s, cycles/byte and ratios; no ALG: every cipher the
#   provider offers, as `openssl list` names them, then CMAC over AES-128 and AES-256)
#
# Each figure is the best of ROUNDS runs, the two providers alternated run by run, so a change of load
# on a shared machine falls on both sides rather than on one. Cycles/byte take the core clock that
# `blockcrypt speed` measures at the start (its add chain), when the CLI is built.
#
# OpenSSL 3.0's speed resolves -evp names without the -propquery option, so the blockcrypt runs select
# the provider the way an application's openssl.cnf would: default_properties = ?provider=blockcrypt.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SECS=1 ROUNDS=3 SIZES="16 1420 8192 16384"
while getopts s:r:b: o; do
	case $o in
	s) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	b) SIZES=$(echo "$OPTARG" | tr , ' ') ;;
	*) sed -n '3,5p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
for n in "$SECS" "$ROUNDS"; do
	case $n in '' | *[!0-9]* | 0*) echo "-s and -r take whole numbers from 1 (openssl speed -seconds counts whole seconds)"; exit 2 ;; esac
done
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

# The ciphers the provider offers: `openssl list` gives "{ OID, name, alias } @ blockcrypt" or "name @ blockcrypt".
if [ $# -eq 0 ]; then
	set -- $(openssl list -cipher-algorithms -provider-path "$(dirname "$SO")" -provider blockcrypt 2>/dev/null |
		sed -n 's/ @ blockcrypt$//p' | tr -d '{}' | awk -F', *' '{
			for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i); if ($i !~ /^[0-9.]+$/ && $i !~ /^id-/) { print tolower($i); break } } }' |
		sort) "cmac aes-128-cbc" "cmac aes-256-cbc"
	[ $# -gt 2 ] || { echo "the provider offers no cipher (openssl list)"; exit 1; }
fi
GHZ=$("$BUILD/blockcrypt" speed 'ecb(aes)' --sizes 16 --time 0.2 2>/dev/null | sed -n 's/.*; \([0-9.]*\) GHz now$/\1/p')

# kB/s (OpenSSL's "1000s of bytes per second") of one algorithm at one size, or "-" if unavailable.
speed() {
	out=$(env "$@" 2>/dev/null | grep '^+F:' | tail -n 1)
	[ -n "$out" ] && echo "$out" | awk -F: '{ printf "%.0f", $NF / 1e6 }' || echo "-"
}

# The larger of two figures, where "-" (unavailable) loses to any number.
best() {
	[ "$2" = "-" ] && { [ "$1" = 0 ] && echo "-" || echo "$1"; return; }
	[ "$1" = "-" ] && { echo "$2"; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { print (b + 0 > a + 0) ? b : a }'
}

# "MB/s (c/B)" of a figure
cell() {
	awk -v v="$1" -v g="${GHZ:-0}" 'BEGIN { if (v == "-") print "-"; else if (g > 0) printf "%s (%.3f)", v, g * 1000 / v; else print v }'
}

openssl version
echo "| algorithm | bytes | default MB/s (c/B) | blockcrypt MB/s (c/B) | ratio |"
echo "|---|---|---|---|---|"
for a in "$@"; do
	case $a in cmac\ *) args="-cmac ${a#cmac }" ;; *) args="-evp $a" ;; esac
	for b in $SIZES; do
		d=0 p=0 i=0
		while [ "$i" -lt "$ROUNDS" ]; do
			# shellcheck disable=SC2086
			d=$(best "$d" "$(speed OPENSSL_CONF=/dev/null openssl speed -mr -seconds "$SECS" -bytes "$b" $args)")
			# shellcheck disable=SC2086
			p=$(best "$p" "$(speed OPENSSL_CONF="$CNF" openssl speed -mr -seconds "$SECS" -bytes "$b" $args)")
			i=$((i + 1))
		done
		r=$(awk -v d="$d" -v p="$p" 'BEGIN { if (d + 0 > 0 && p + 0 > 0) printf "%.2fx", p / d; else print "-" }')
		echo "| $a | $b | $(cell "$d") | $(cell "$p") | $r |"
	done
done
