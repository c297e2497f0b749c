#!/bin/sh
# blockcrypt: `blockcrypt hash` of a large file beside `openssl dgst` and coreutils' sha1sum/sha256sum/sha512sum.
# FIPS 180-4 SHA-1/256/512 and GB/T 32905 SM3 digests; the tools run in turn, the least CPU time (user + system)
# of N rounds, and cycles/byte at the core clock `blockcrypt speed` measures (bytes/s times its cycles/byte).
#
# usage: sh bench/hash-file.sh [FILE [ROUNDS [ALGS]]]   (default: a 512 MiB random file on /dev/shm (tmpfs)
#        or in $TMPDIR, 5 rounds, "sha256 sm3 sha1 sha512")
# CPU time, not wall time: on a shared machine a tool waiting for a core
# is not slower. The tools alternate in every round, and the file is read
# once first so that each of them reads it from the page cache.
set -e
BC=${BC:-${BUILD:-build}/blockcrypt}
FILE=$1
ROUNDS=${2:-5}
ALGS=${3:-sha256 sm3 sha1 sha512}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/hash-file.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
if [ -z "$FILE" ]; then
	DIR=${TMPDIR:-/tmp}
	[ -d /dev/shm ] && [ -w /dev/shm ] && DIR=/dev/shm
	FILE=$DIR/blockcrypt-hash-bench.bin
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
MHZ=$("$BC" speed sha256 --sizes 8192 --time 0.2 --csv 2>/dev/null | awk -F, 'NR == 2 { print $7 * $8 / 1e6 }')
line() {
	awk -v n="$1" -v t="$2" -v s="$SIZE" -v mhz="${MHZ:-0}" 'BEGIN {
		printf "%-26s %7.3f s %7.0f MB/s", n, t, s / t / 1e6
		if (mhz > 0) printf "  %5.2f cycles/byte", t * mhz * 1e6 / s
		print "" }'
}

echo "# $(basename "$FILE"): $SIZE bytes; least CPU time of $ROUNDS alternated runs; core clock ${MHZ:-?} MHz"
for alg in $ALGS; do
	sum=
	case $alg in sha*) command -v ${alg}sum >/dev/null && sum=${alg}sum ;; esac
	b= o= c=
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		b=$(min "$b" "$(cpu "\"\$BC\" hash $alg --hex <\"\$FILE\"")")
		o=$(min "$o" "$(cpu "openssl dgst -$alg \"\$FILE\"")")
		[ -n "$sum" ] && c=$(min "$c" "$(cpu "$sum \"\$FILE\"")")
		i=$((i + 1))
	done
	line "blockcrypt hash $alg" "$b"
	line "openssl dgst -$alg" "$o"
	[ -n "$c" ] && line "$sum" "$c"
	awk -v b="$b" -v o="$o" -v c="$c" -v a="$alg" -v sum="$sum" 'BEGIN {
		printf "ratio %s: %.2fx openssl", a, o / b; if (c != "") printf ", %.2fx %s", c / b, sum; print "" }'
done
rm -f /tmp/bc-hash-bench.$$
