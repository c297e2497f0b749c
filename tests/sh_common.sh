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

# hexof FILE...: the bytes as lower-case hex; rhex N: N random bytes as hex;
# unhex HEX: the bytes, through printf's octal escapes (POSIX; no xxd needed).
hexof() { od -An -v -tx1 "$@" | tr -d ' \n'; }
rhex() { head -c "$1" /dev/urandom | hexof; }
unhex() {
	printf "$(printf '%s' "$1" | awk '{ h = "0123456789abcdef"; s = tolower($0)
		for (i = 1; i < length(s); i += 2)
			printf "\\%03o", (index(h, substr(s, i, 1)) - 1) * 16 + index(h, substr(s, i + 1, 1)) - 1 }')"
}

# check <description> <command...>: passes when the command succeeds
check() {
	d=$1
	shift
	if "$@" >"$T/out" 2>&1; then ok; else bad "$d"; sed 's/^/    /' "$T/out" | head -n 5; fi
}
# rc <expected> <description> <command...>: the command's exit status must be exactly the expected one
rc() {
	want=$1
	d=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else bad "$d: exit $got, expected $want"; head -n 3 "$T/err" | sed 's/^/    /'; fi
}

# The last line, and the exit status: 0 only if nothing failed.
finish() {
	echo "$NAME: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
