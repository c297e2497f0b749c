#!/bin/sh
# The `fuzz` group of make check for one libFuzzer harness: replays its corpus (fuzz_drivers and fuzz_peers once per
# BLOCKCRYPT_DISABLE level, so each x86 driver level is the best one once), then fuzzes SECONDS on a scratch copy.
# Usage: check.sh HARNESS SECONDS. Prints "<harness>: N passed, M failed" (N: corpus replays and fuzzing runs).
f=$1
secs=${2:-20}
name=$(basename "$f")
corpus=tests/fuzz/corpus/$name
scratch=$(dirname "$f")/check-corpus/$name
pass=0
fail=0
quiet=
[ "$name" = fuzz_cli ] && quiet=-close_fd_mask=2   # the tool's messages on stderr
levels=none
case $name in fuzz_drivers | fuzz_peers)
	[ "$(uname -m)" = x86_64 ] && levels="none gfni,avx512 vaes,vpclmul,gfni aesni,pclmul all" ;;
esac
mkdir -p "$(dirname "$scratch")"
for mask in $levels; do
	if BLOCKCRYPT_DISABLE=$mask "$f" $quiet -runs=0 "$corpus" >"$scratch.log" 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: replay of $corpus with BLOCKCRYPT_DISABLE=$mask"
		tail -n 30 "$scratch.log"
		fail=$((fail + 1))
	fi
done
rm -rf "$scratch"
mkdir -p "$scratch"
cp "$corpus"/* "$scratch"/
if "$f" $quiet -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$scratch-" "$scratch" >"$scratch.log" 2>&1; then
	pass=$((pass + 1))
	grep -E '^stat::number_of_executed_units|cov:' "$scratch.log" | tail -n 2
else
	echo "FAIL $name: fuzzing for $secs s found a failure (input saved as $scratch-*)"
	grep -E 'FUZZ FAIL|ERROR|SUMMARY|Test unit written' "$scratch.log" | head -n 10
	fail=$((fail + 1))
fi
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
