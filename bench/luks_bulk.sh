#!/bin/sh
# blockcrypt-luks bulk benchmark: a 1 GiB plaintext file encrypted into a LUKS2 image and decrypted again,
# beside `cp` of the same file and `cryptsetup reencrypt --encrypt` (offline) of a copy, interleaved in rounds.
# Prints the median wall time of each and its ratio to cp; each run ends with its fsync/sync, as cryptsetup does.
BC=${BC:-build/blockcrypt}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}}/bc-luks-bench.$$
ROUNDS=${BENCH_ROUNDS:-5}
SIZE_MB=${BENCH_MB:-1024}
mkdir -p "$DIR" || exit 1
trap 'rm -rf "$DIR"' EXIT
printf bench >"$DIR/pw"
head -c $((SIZE_MB << 20)) /dev/urandom >"$DIR/plain"
sync

now() { date +%s.%N; }
# timed <name> <command...>: appends the wall time to $DIR/<name>
timed() {
	n=$1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2
	echo "$(now) - $t0" | bc >>"$DIR/$n"
}
median() { sort -n "$DIR/$1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

PB="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
for r in $(seq "$ROUNDS"); do
	rm -f "$DIR/copy" "$DIR/img" "$DIR/out" "$DIR/cs"
	timed cp sh -c "cp '$DIR/plain' '$DIR/copy' && sync '$DIR/copy'"
	rm -f "$DIR/copy"
	"$BC" luks format "$DIR/img" $PB --key-file "$DIR/pw" >/dev/null
	timed encrypt "$BC" luks encrypt "$DIR/img" "$DIR/plain" --key-file "$DIR/pw"
	timed decrypt "$BC" luks decrypt "$DIR/img" "$DIR/out" --key-file "$DIR/pw"
	cmp -s "$DIR/out" "$DIR/plain" || echo "FAILED: decrypted image differs" >&2
	rm -f "$DIR/img" "$DIR/out"
	if command -v cryptsetup >/dev/null; then
		cp "$DIR/plain" "$DIR/cs" && sync "$DIR/cs"
		timed cryptsetup cryptsetup reencrypt --encrypt --type luks2 --reduce-device-size 32M $PB --batch-mode \
			--key-file "$DIR/pw" "$DIR/cs"
		rm -f "$DIR/cs"
	fi
done
cp=$(median cp)
for n in cp encrypt decrypt cryptsetup; do
	[ -f "$DIR/$n" ] || continue
	m=$(median $n)
	printf '%-28s median %6.2f s over %s rounds  %5.0f MB/s  %.2fx cp\n' \
		"$(case $n in cp) echo "cp + sync" ;; encrypt) echo "blockcrypt luks encrypt" ;;
		decrypt) echo "blockcrypt luks decrypt" ;; *) echo "cryptsetup reencrypt" ;; esac)" \
		"$m" "$ROUNDS" "$(echo "$SIZE_MB * 1.048576 / $m" | bc -l)" "$(echo "$m / $cp" | bc -l)"
done
