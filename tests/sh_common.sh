# blockcrypt tests: what the shell tests (tests/test_*.sh) share, sourced after they set NAME.
# The repository root as the working directory, $BC the tool, $T a scratch directory removed on exit,
# pass/fail counters and the summary line tests/run.sh reads.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
BC=$BUILD/blockcrypt
pass=0
fail=0
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The last line, and the exit status: 0 only if nothing failed.
finish() {
	echo "$NAME: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
