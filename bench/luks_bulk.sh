#!/bin/sh
# blockcrypt-luks bulk benchmark: a 1 GiB plaintext file encrypted into a LUKS2 image and decrypted again, beside
# `cp` of the file each one reads and `cryptsetup reencrypt --encrypt` (offline), then reencrypted in place by
# `blockcrypt luks reencrypt` beside `cryptsetup reencrypt` (offline, both checksum resilience), alternated in rounds, per file system.
#
# Fair baselines: every command ends with its data on stable storage (cp is followed by sync of the copy; blockcrypt
# and cryptsetup fsync), and every command finds its input in the same state as its baseline: encrypt and
# cryptsetup are compared with cp of the plaintext, decrypt with cp of the image, each input first read into the page
# cache ("cached") or dropped from it ("not cached", posix_fadvise DONTNEED through dd iflag=nocache; not on tmpfs,
# which has no other copy). Free memory is put in the same state too: on this virtual machine a page the guest has
# not touched lately costs a host fault on first use (cp of 1 GiB on tmpfs: 0.4 s or 1.3-2.4 s, by which command
# freed memory last), so just before each command a file of the benchmark's size is written to tmpfs and deleted,
# and every command allocates from memory touched a moment ago. Prints per file system and state the best and the median of the rounds in wall time,
# the CPU time (user + system, every thread) of the best run, and the ratios to the baseline (best to best, median
# to median). Settings: BENCH_DIRS, BENCH_ROUNDS, BENCH_MB, BC (the blockcrypt binary).
BC=${BC:-build/blockcrypt}
DIRS=${BENCH_DIRS:-/dev/shm ${TMPDIR:-/var/tmp}}
ROUNDS=${BENCH_ROUNDS:-5}
SIZE_MB=${BENCH_MB:-1024}
PB="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
SHM=${BENCH_SHM:-/dev/shm}

# state <file>: puts the file in the page cache state of this pass
state() {
	if [ "$S" = cached ]; then
		cat "$1" >/dev/null
	else
		dd if="$1" iflag=nocache count=0 status=none
	fi
}

# fresh: leaves SIZE_MB + 64 MiB of recently touched free memory (see above)
fresh() {
	[ -d "$SHM" ] || return 0
	head -c $(((SIZE_MB + 64) << 20)) /dev/zero >"$SHM/bc-luks-bench-mem.$$"
	rm -f "$SHM/bc-luks-bench-mem.$$"
}

# timed <name> <command...>: appends wall and CPU seconds to $R/<name>.$S (the command's children included)
timed() {
	n=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$R/t" "$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2
	awk '{print $1, $2 + $3}' "$R/t" >>"$R/$n.$S"
}

# stats <name>: best wall, its CPU, median wall
stats() {
	sort -n "$R/$1.$S" | awk '{w[NR] = $1; c[NR] = $2} END {
		m = NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], c[1], m }'
}

row() {   # row <label> <name> <baseline name or ->
	set -- "$1" "$2" "$3" $(stats "$2")
	if [ "$3" = - ]; then
		printf '%-30s %7.2f s %7.2f s %5.0f MB/s %6.2f s\n' "$1" "$4" "$6" "$(echo "$SIZE_MB * 1.048576 / $4" | bc -l)" "$5"
	else
		l=$1 b=$4 c=$5 m=$6
		set -- $(stats "$3")
		printf '%-30s %7.2f s %7.2f s %5.0f MB/s %6.2f s %6.2fx %6.2fx\n' "$l" "$b" "$m" \
			"$(echo "$SIZE_MB * 1.048576 / $b" | bc -l)" "$c" "$(echo "$b / $1" | bc -l)" "$(echo "$m / $3" | bc -l)"
	fi
}

for d in $DIRS; do
	R=$d/bc-luks-bench.$$
	mkdir -p "$R" || continue
	trap 'rm -rf "$R"' EXIT
	fs=$(df -T "$d" | awk 'NR == 2 {print $2}')
	states="cached"
	[ "$fs" = tmpfs ] || states="cached uncached"
	printf bench >"$R/pw"
	head -c $((SIZE_MB << 20)) /dev/urandom >"$R/plain"
	sync "$R/plain"
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	for r in $(seq "$ROUNDS"); do
		for S in $states; do
			rm -f "$R/copy" "$R/img" "$R/out" "$R/cs"
			state "$R/plain"
			fresh
			timed cp sh -c "cp '$R/plain' '$R/copy' && sync '$R/copy'"
			rm -f "$R/copy"
			"$BC" luks format "$R/img" $PB --key-file "$R/pw" >/dev/null
			state "$R/plain"
			fresh
			timed encrypt "$BC" luks encrypt "$R/img" "$R/plain" --key-file "$R/pw"
			state "$R/img"
			fresh
			timed cpimg sh -c "cp '$R/img' '$R/copy' && sync '$R/copy'"
			rm -f "$R/copy"
			state "$R/img"
			fresh
			timed decrypt "$BC" luks decrypt "$R/img" "$R/out" --key-file "$R/pw"
			cmp -s "$R/out" "$R/plain" || echo "FAILED: decrypted image differs" >&2
			rm -f "$R/out"
			if command -v cryptsetup >/dev/null; then
				cp "$R/img" "$R/cs" && sync "$R/cs"
				state "$R/cs"
				fresh
				timed csreenc cryptsetup reencrypt --force-offline-reencrypt $PB --batch-mode --key-file "$R/pw" "$R/cs"
				rm -f "$R/cs"
			fi
			state "$R/img"
			fresh
			timed reenc "$BC" luks reencrypt "$R/img" $PB --key-file "$R/pw"
			rm -f "$R/img"
			if command -v cryptsetup >/dev/null; then
				cp "$R/plain" "$R/cs" && sync "$R/cs"
				state "$R/cs"
				fresh
				timed cryptsetup cryptsetup reencrypt --encrypt --type luks2 --reduce-device-size 32M $PB \
					--batch-mode --key-file "$R/pw" "$R/cs"
				rm -f "$R/cs"
			fi
		done
	done
	for S in $states; do
		echo "$SIZE_MB MiB on $d ($fs), input $([ $S = cached ] && echo "in the page cache" || echo "not cached"),"\
			"$ROUNDS alternated rounds, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
		printf '%-30s %9s %9s %10s %8s %7s %7s\n' "" "best" "median" "best" "CPU" "best" "median"
		row "cp + sync, plaintext" cp -
		row "blockcrypt luks encrypt" encrypt cp
		[ -f "$R/cryptsetup.$S" ] && row "cryptsetup reencrypt --encrypt" cryptsetup cp
		row "cp + sync, image" cpimg -
		row "blockcrypt luks decrypt" decrypt cpimg
		if [ -f "$R/csreenc.$S" ]; then
			row "cryptsetup reencrypt (offline)" csreenc cpimg
			row "blockcrypt luks reencrypt" reenc csreenc
		fi
		echo "(ratios: to cp of the plaintext for encrypt and cryptsetup, to cp of the image for decrypt and cryptsetup"
		echo " reencrypt, to cryptsetup reencrypt for blockcrypt luks reencrypt)"
	done
	rm -rf "$R"
done
