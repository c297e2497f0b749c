#!/bin/sh
# blockcrypt: `blockcrypt hash` of a large file beside `openssl dgst` and coreutils' sha256sum.
# FIPS 180-4 SHA-256 and GB/T 32905 SM3 digests; the tools run in turn, the least CPU time (user + system) of N rounds.
#
# usage: sh bench/hash-file.sh [FILE [ROUNDS]]   (default: a 512 MiB random file in $TMPDIR, 5 rounds)
# CPU time, not wall time: on a shared machine a tool waiting for a core
# is not slower. The tools alternate in every round, and the file is read
# once first so that each of them reads it from the page cache.
set -e
BC=${BC:-${BUILD:-build}/blockcrypt}
FILE=$1
ROUNDS=${2:-5}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/hash-file.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
if [ -z "$FILE" ]; then
	FILE=${TMPDIR:-/tmp}/blockcrypt-hash-bench.bin
	[ -f "$FILE" ] || head -c 536870912 /dev/urandom >"$FILE"
fi
SIZE=$(wc -c <"$FILE")
cat "$FILE" >/dev/null
export FILE BC

# cpu <command>: user + system seconds of one run of a shell command
cpu() {
	$TIME -f "%U %S" -o /tmp/bc-hash-bench.$$ sh -c "$1" >/dev/null
	awk '{ print $1 + $2 }' /tmp/bc-hash-bench.$$
}
min() { if [ -z "$1" ]; then echo "$2"; else echo "$1 $2" | awk '{ print $2 < $1 ? $2 : $1 }'; fi; }
line() { awk -v n="$1" -v t="$2" -v s="$SIZE" 'BEGIN { printf "%-26s %7.3f s %7.0f MB/s\n", n, t, s / t / 1e6 }'; }

echo "# $(basename "$FILE"): $SIZE bytes; least CPU time of $ROUNDS alternated runs"
for alg in sha256 sm3; do
	b= o= c=
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		b=$(min "$b" "$(cpu "\"\$BC\" hash $alg --hex <\"\$FILE\"")")
		o=$(min "$o" "$(cpu "openssl dgst -$alg \"\$FILE\"")")
		[ $alg = sha256 ] && c=$(min "$c" "$(cpu "sha256sum \"\$FILE\"")")
		i=$((i + 1))
	done
	line "blockcrypt hash $alg" "$b"
	line "openssl dgst -$alg" "$o"
	[ -n "$c" ] && line "sha256sum" "$c"
	awk -v b="$b" -v o="$o" -v c="$c" -v a="$alg" 'BEGIN {
		printf "ratio %s: %.2fx openssl", a, o / b; if (c != "") printf ", %.2fx sha256sum", c / b; print "" }'
done
rm -f /tmp/bc-hash-bench.$$
