#!/bin/sh
# blockcrypt-luks bulk benchmark: a 1 GiB plaintext file encrypted into a LUKS2 image and decrypted again,
# beside `cp` of the same file and `cryptsetup reencrypt --encrypt` (offline) of a copy, interleaved in rounds.
# Prints the median wall and CPU time of each and the ratios to cp; each run ends with fsync/sync, as cryptsetup's.
BC=${BC:-build/blockcrypt}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}}/bc-luks-bench.$$
ROUNDS=${BENCH_ROUNDS:-5}
SIZE_MB=${BENCH_MB:-1024}
mkdir -p "$DIR" || exit 1
trap 'rm -rf "$DIR"' EXIT
printf bench >"$DIR/pw"
head -c $((SIZE_MB << 20)) /dev/urandom >"$DIR/plain"
sync

# timed <name> <command...>: appends the wall time to $DIR/<name> and the CPU time (user + system, all
# threads and children) to $DIR/<name>.cpu: on a shared machine the wall time carries other people's load
timed() {
	n=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$DIR/t" "$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2
	awk '{print $1}' "$DIR/t" >>"$DIR/$n"
	awk '{print $2 + $3}' "$DIR/t" >>"$DIR/$n.cpu"
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
cpc=$(median cp.cpu)
echo "$SIZE_MB MiB in $DIR, medians of $ROUNDS interleaved rounds"
for n in cp encrypt decrypt cryptsetup; do
	[ -f "$DIR/$n" ] || continue
	m=$(median $n)
	c=$(median $n.cpu)
	printf '%-24s wall %6.2f s %5.0f MB/s %5.2fx cp   CPU %5.2f s %5.2fx cp\n' \
		"$(case $n in cp) echo "cp + sync" ;; encrypt) echo "blockcrypt luks encrypt" ;;
		decrypt) echo "blockcrypt luks decrypt" ;; *) echo "cryptsetup reencrypt" ;; esac)" \
		"$m" "$(echo "$SIZE_MB * 1.048576 / $m" | bc -l)" "$(echo "$m / $cp" | bc -l)" \
		"$c" "$(echo "$c / $cpc" | bc -l)"
done
