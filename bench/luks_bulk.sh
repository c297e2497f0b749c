#!/bin/sh
# blockcrypt-luks bulk benchmark: a 1 GiB plaintext file encrypted into a LUKS2 image and decrypted again, beside
# `cp` of the same file and `cryptsetup reencrypt --encrypt` (offline) of a copy, alternated in rounds, on tmpfs and
# on the disk's file system. Every run ends with its data on stable storage (cp is followed by sync of the copy;
# blockcrypt and cryptsetup fsync). Prints, per file system, the best of the rounds (the run least disturbed by
# other programs on a shared machine) in wall and CPU time (user + system, every thread), and the ratios to cp.
BC=${BC:-build/blockcrypt}
DIRS=${BENCH_DIRS:-/dev/shm ${TMPDIR:-/var/tmp}}
ROUNDS=${BENCH_ROUNDS:-3}
SIZE_MB=${BENCH_MB:-1024}
PB="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"

# timed <name> <command...>: appends wall and CPU seconds to $R/<name> (the command's children included)
timed() {
	n=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$R/t" "$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2
	awk '{print $1, $2 + $3}' "$R/t" >>"$R/$n"
}
best() { sort -n "$R/$1" | head -n 1; }   # the least wall time, with its CPU time

for d in $DIRS; do
	R=$d/bc-luks-bench.$$
	mkdir -p "$R" || continue
	trap 'rm -rf "$R"' EXIT
	printf bench >"$R/pw"
	head -c $((SIZE_MB << 20)) /dev/urandom >"$R/plain"
	sync "$R/plain"
	for r in $(seq "$ROUNDS"); do
		rm -f "$R/copy" "$R/img" "$R/out" "$R/cs"
		timed cp sh -c "cp '$R/plain' '$R/copy' && sync '$R/copy'"
		rm -f "$R/copy"
		"$BC" luks format "$R/img" $PB --key-file "$R/pw" >/dev/null
		timed encrypt "$BC" luks encrypt "$R/img" "$R/plain" --key-file "$R/pw"
		timed decrypt "$BC" luks decrypt "$R/img" "$R/out" --key-file "$R/pw"
		cmp -s "$R/out" "$R/plain" || echo "FAILED: decrypted image differs" >&2
		rm -f "$R/img" "$R/out"
		if command -v cryptsetup >/dev/null; then
			cp "$R/plain" "$R/cs" && sync "$R/cs"
			timed cryptsetup cryptsetup reencrypt --encrypt --type luks2 --reduce-device-size 32M $PB --batch-mode \
				--key-file "$R/pw" "$R/cs"
			rm -f "$R/cs"
		fi
	done
	set -- $(best cp)
	cpw=$1
	cpc=$2
	echo "$SIZE_MB MiB on $d ($(df -T "$d" | awk 'NR == 2 {print $2}')), best of $ROUNDS alternated rounds"
	for n in cp encrypt decrypt cryptsetup; do
		[ -f "$R/$n" ] || continue
		set -- $(best $n)
		printf '%-24s wall %6.2f s %5.0f MB/s %5.2fx cp   CPU %5.2f s %5.2fx cp\n' \
			"$(case $n in cp) echo "cp + sync" ;; encrypt) echo "blockcrypt luks encrypt" ;;
			decrypt) echo "blockcrypt luks decrypt" ;; *) echo "cryptsetup reencrypt" ;; esac)" \
			"$1" "$(echo "$SIZE_MB * 1.048576 / $1" | bc -l)" "$(echo "$1 / $cpw" | bc -l)" \
			"$2" "$(echo "$2 / $cpc" | bc -l)"
	done
	rm -rf "$R"
done
