#!/bin/sh
# blockcrypt test runner (`make check`): the native suite, every x86 driver level, emulated CPUs,
# sanitizers, 32-bit, arm64 and big-endian s390x under qemu, and the valgrind constant-time check.
#
# Every test program ends with "<name>: N passed, M failed"; this script sums those lines and ends
# with the single line "N passed, M failed". A program that crashes or prints no such line counts
# as one failure. Tools a group needs that are missing make it print "SKIPPED: <group>: <reason>".
# BC_GROUPS (e.g. "native asan") restricts the run to some groups.

BUILD=${BUILD:-build}
VECTORS=${VECTORS:-tests/vectors}
export BUILD VECTORS
# nested makes must not inherit the parent make's jobserver or command-line variables
unset MAKEFLAGS MFLAGS MAKELEVEL
LOGDIR=$BUILD/test-logs
mkdir -p "$LOGDIR" || exit 1
TOTAL_P=0
TOTAL_F=0
T_START=$(date +%s)

want() {
	[ -z "$BC_GROUPS" ] && return 0
	case " $BC_GROUPS " in *" $1 "*) return 0 ;; esac
	return 1
}

have() { command -v "$1" >/dev/null 2>&1; }

# The summary line of a log: the last "...: N passed, M failed" line.
summary_of() {
	grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1
}

# run_test <group> <log-name> <command...>: runs one test program or script.
run_test() {
	group=$1
	name=$2
	shift 2
	log=$LOGDIR/$(echo "$group-$name" | tr ' ,=' '___').log
	t_s=$(date +%s)
	if have timeout; then
		timeout 1500 "$@" >"$log" 2>&1
	else
		"$@" >"$log" 2>&1
	fi
	status=$?
	line=$(summary_of "$log")
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
		f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
	else
		p=0
		f=0
	fi
	if { [ "$status" -ne 0 ] || [ -z "$line" ]; } && [ "$f" -eq 0 ]; then
		f=1
		line="$name: exit status $status (crashed or no summary line)${line:+; last summary: $line}"
	fi
	TOTAL_P=$((TOTAL_P + p))
	TOTAL_F=$((TOTAL_F + f))
	echo "[$group] $line ($(($(date +%s) - t_s)) s)"
	# what a test could not run on this machine, and why (a missing tool)
	grep '^SKIPPED:' "$log"
	if [ "$f" -ne 0 ]; then
		grep -E '^FAIL|rror|SUMMARY|^==[0-9]+==' "$log" | head -n 25 | sed 's/^/    /'
		echo "    (full log: $log)"
	fi
}

# run_suite <group> <build dir> <runner prefix...>: every test binary of a build.
run_suite() {
	group=$1
	dir=$2
	shift 2
	found=0
	for t in "$dir"/tests/test_*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		case "$t" in *.d | *.o) continue ;; esac
		found=1
		run_test "$group" "$(basename "$t")" "$@" "$t"
	done
	if [ $found -eq 0 ]; then
		echo "[$group] no test binaries in $dir/tests"
		TOTAL_F=$((TOTAL_F + 1))
	fi
}

# build <group> <make arguments...>: a build for a group; a failed build counts as a failure.
build() {
	group=$1
	shift
	log=$LOGDIR/build-$group.log
	if env -u BUILD make -j2 "$@" tests >"$log" 2>&1; then
		return 0
	fi
	echo "[$group] build failed: make $*"
	tail -n 25 "$log" | sed 's/^/    /'
	TOTAL_F=$((TOTAL_F + 1))
	return 1
}

group_time() {
	echo "  ($1: $(($(date +%s) - $2)) s)"
}

# can_run <runner...> <binary>: whether a binary starts at all under a runner.
can_run() {
	"$@" >/dev/null 2>&1
}

ARCH=$(uname -m)

# ---- (1) native -----------------------------------------------------------------------------------
if want native; then
	t0=$(date +%s)
	run_suite native "$BUILD"
	for s in tests/test_*.sh; do
		[ -f "$s" ] || continue
		run_test native "$(basename "$s" .sh)" sh "$s"
	done
	group_time native "$t0"
fi

# ---- (2) every x86 driver level, by masking CPU features ------------------------------------------
if want levels; then
	t0=$(date +%s)
	if [ "$ARCH" = x86_64 ]; then
		for mask in all gfni,avx512 vaes,vpclmul,gfni,shani avx2,vaes,vpclmul aesni,pclmul; do
			run_suite "disable=$mask" "$BUILD" env BLOCKCRYPT_DISABLE=$mask
		done
	else
		echo "SKIPPED: levels: not an x86-64 host ($ARCH)"
	fi
	group_time levels "$t0"
fi

# ---- (3) emulated x86 CPUs (a representative subset) ------------------------------------------------
if want qemu-x86; then
	t0=$(date +%s)
	if [ "$ARCH" != x86_64 ]; then
		echo "SKIPPED: qemu-x86: not an x86-64 host ($ARCH)"
	elif ! have qemu-x86_64; then
		echo "SKIPPED: qemu-x86: qemu-x86_64 not installed"
	else
		for cpu in max,-vaes,-avx2 Haswell-noTSX-IBRS qemu64; do
			run_suite "qemu-x86 $cpu" "$BUILD" env BC_TEST_QUICK=1 qemu-x86_64 -cpu "$cpu"
		done
	fi
	group_time qemu-x86 "$t0"
fi

# ---- (4) AddressSanitizer + UndefinedBehaviorSanitizer -----------------------------------------------
if want asan; then
	t0=$(date +%s)
	if ! echo 'int main(void){return 0;}' | cc -fsanitize=address,undefined -x c - -o "$LOGDIR/asan-probe" >/dev/null 2>&1; then
		echo "SKIPPED: asan: the compiler cannot link -fsanitize=address,undefined"
	elif build asan BUILD=build-asan SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all"; then
		run_suite asan build-asan env ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
	fi
	group_time asan "$t0"
fi

# ---- (5) 32-bit x86 -----------------------------------------------------------------------------------
if want m32; then
	t0=$(date +%s)
	if ! echo 'int main(void){return 0;}' | cc -m32 -x c - -o "$LOGDIR/m32-probe" >/dev/null 2>&1; then
		echo "SKIPPED: m32: gcc -m32 cannot link (install gcc-12-multilib)"
	elif build m32 M32=1; then
		if can_run "$LOGDIR/m32-probe"; then
			run_suite m32 build-i386
		elif have qemu-i386; then
			# the kernel cannot run 32-bit binaries here: emulate them
			run_suite "m32 qemu-i386" build-i386 env BC_TEST_QUICK=1 qemu-i386 -cpu max
		else
			echo "SKIPPED: m32: this kernel cannot run 32-bit binaries and qemu-i386 is not installed"
		fi
	fi
	group_time m32 "$t0"
fi

# ---- (6) arm64 under qemu --------------------------------------------------------------------------------
if want arm64; then
	t0=$(date +%s)
	if ! have aarch64-linux-gnu-gcc; then
		echo "SKIPPED: arm64: aarch64-linux-gnu-gcc not installed"
	elif ! have qemu-aarch64; then
		echo "SKIPPED: arm64: qemu-aarch64 not installed"
	elif build arm64 CROSS=aarch64-linux-gnu-; then
		Q="qemu-aarch64 -L /usr/aarch64-linux-gnu"
		run_suite "arm64 max" build-aarch64 env BC_TEST_QUICK=1 $Q -cpu max
		run_suite "arm64 cortex-a72" build-aarch64 env BC_TEST_QUICK=1 $Q -cpu cortex-a72
		run_suite "arm64 disable=all" build-aarch64 env BC_TEST_QUICK=1 BLOCKCRYPT_DISABLE=all $Q -cpu max
	fi
	group_time arm64 "$t0"
fi

# ---- (7) big-endian s390x under qemu -----------------------------------------------------------------------
if want s390x; then
	t0=$(date +%s)
	if ! have s390x-linux-gnu-gcc; then
		echo "SKIPPED: s390x: s390x-linux-gnu-gcc not installed"
	elif ! have qemu-s390x; then
		echo "SKIPPED: s390x: qemu-s390x not installed"
	elif build s390x CROSS=s390x-linux-gnu-; then
		run_suite s390x build-s390x env BC_TEST_QUICK=1 qemu-s390x -L /usr/s390x-linux-gnu
	fi
	group_time s390x "$t0"
fi

# ---- (8) constant time: secrets marked undefined, valgrind memcheck must see no branch or address on them ---
if want ctgrind; then
	t0=$(date +%s)
	if ! have valgrind; then
		echo "SKIPPED: ctgrind: valgrind not installed"
	elif ! echo '#include <valgrind/memcheck.h>' | cc -E -x c - >/dev/null 2>&1; then
		echo "SKIPPED: ctgrind: valgrind/memcheck.h missing"
	elif [ ! -x "$BUILD/tests/test_ctgrind" ]; then
		echo "[ctgrind] $BUILD/tests/test_ctgrind was not built"
		TOTAL_F=$((TOTAL_F + 1))
	else
		run_test ctgrind test_ctgrind valgrind --error-exitcode=1 --track-origins=yes "$BUILD/tests/test_ctgrind"
	fi
	group_time ctgrind "$t0"
fi

# ---- AF_ALG without the kernel: libblockcrypt-afalg.so under raw socket calls, kcapi-tools, libkcapi and Python ---
if want afalg; then
	t0=$(date +%s)
	if [ ! -f "$BUILD/libblockcrypt-afalg.so" ]; then
		echo "SKIPPED: afalg: libblockcrypt-afalg.so not built (native Linux builds only)"
	else
		AFALG_SO=$(cd "$BUILD" && pwd)/libblockcrypt-afalg.so
		run_test afalg afalg_raw env LD_PRELOAD="$AFALG_SO" BLOCKCRYPT_AFALG=always "$BUILD/afalg/afalg_raw"
		run_test afalg afalg_tools sh tests/afalg_tools.sh
		run_test afalg afalg_cryptsetup sh tests/afalg_cryptsetup.sh
	fi
	group_time afalg "$t0"
fi

# ---- (9) the OpenSSL provider: OpenSSL's evp_test data, EVP streams and the openssl tool against the default provider ---
if want provider; then
	t0=$(date +%s)
	if ! have openssl; then
		echo "SKIPPED: provider: the openssl tool is not installed"
	elif [ ! -f "$BUILD/provider/blockcrypt.so" ]; then
		echo "SKIPPED: provider: not built (no OpenSSL 3 headers: install libssl-dev)"
	else
		run_test provider provider_evp "$BUILD/provider/provider_evp" "$BUILD/provider"
		run_test provider provider_stream "$BUILD/provider/provider_stream" "$BUILD/provider" $((8 << 20))
		run_test provider provider_cli sh tests/provider_cli.sh
		# the same in a Debian 13 chroot, against OpenSSL 3.5 (BC_DEBIAN13_INSIDE: this is that run)
		[ -n "$BC_DEBIAN13_INSIDE" ] || run_test provider provider_debian13 sh tests/provider_debian13.sh
	fi
	group_time provider "$t0"
fi

# ---- (10) disk images: blockcrypt luks/plain against cryptsetup, and the hostile-header corpus ----------------
if want luks; then
	t0=$(date +%s)
	# a build without libargon2/json-c/libcrypto says so when asked for the luks subcommands
	missing=$("$BUILD/blockcrypt" luks --help 2>&1 >/dev/null)
	if [ -n "$missing" ]; then
		echo "SKIPPED: luks: ${missing#blockcrypt: }"
	elif ! have cryptsetup; then
		echo "SKIPPED: luks: cryptsetup not installed (cryptsetup-bin)"
	elif ! have python3; then
		echo "SKIPPED: luks: python3 not installed (the hostile-header corpus is generated with it)"
	else
		run_test luks luks_api "$BUILD/tests/luks_api"
		run_test luks luks_interop sh tests/luks_interop.sh
		run_test luks luks_plain_key python3 tests/luks_plain_key.py "$BUILD"
		run_test luks luks_ivgen python3 tests/luks_ivgen.py "$BUILD"
		run_test luks luks_hostile sh tests/luks_hostile.sh
		run_test luks luks_header sh tests/luks_header.sh
		run_test luks luks_reenc sh tests/luks_reenc.sh
		run_test luks luks_reencrypt sh tests/luks_reencrypt.sh
	fi
	group_time luks "$t0"
fi

# ---- (10b) the NBD server: LUKS and plain images' plaintext to qemu-img, qemu-io, nbdinfo, nbdcopy, nbdsh, nbdfuse --
if want nbd; then
	t0=$(date +%s)
	missing=$("$BUILD/blockcrypt" luks --help 2>&1 >/dev/null)
	if [ -n "$missing" ]; then
		echo "SKIPPED: nbd: ${missing#blockcrypt: }"
	elif ! have qemu-img || ! have qemu-io; then
		echo "SKIPPED: nbd: qemu-img and qemu-io not installed (qemu-utils)"
	elif ! have nbdinfo || ! have nbdcopy; then
		echo "SKIPPED: nbd: nbdinfo and nbdcopy not installed (libnbd-bin)"
	elif ! have python3; then
		echo "SKIPPED: nbd: python3 not installed (the raw protocol test)"
	else
		run_test nbd nbd sh tests/nbd.sh
	fi
	group_time nbd "$t0"
fi

# ---- (11) fuzzing: each libFuzzer harness replays its corpus, then runs FUZZ_CHECK_SECONDS (20) -------------
if want fuzz; then
	t0=$(date +%s)
	if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' |
		${FUZZ_CC:-clang} -fsanitize=fuzzer,address -x c - -o "$LOGDIR/fuzz-probe" >/dev/null 2>&1; then
		echo "SKIPPED: fuzz: clang cannot link -fsanitize=fuzzer (install clang and libclang-rt-14-dev)"
	elif ! env -u BUILD make -j2 fuzz-build >"$LOGDIR/build-fuzz.log" 2>&1; then
		echo "[fuzz] build failed: make fuzz-build"
		tail -n 25 "$LOGDIR/build-fuzz.log" | sed 's/^/    /'
		TOTAL_F=$((TOTAL_F + 1))
	else
		[ -x build-fuzz/fuzz_peers ] ||
			echo "SKIPPED: fuzz: fuzz_peers needs libssl-dev and libgcrypt20-dev (pkg-config libcrypto libgcrypt)"
		[ -x build-fuzz/fuzz_luks_header ] ||
			echo "SKIPPED: fuzz: fuzz_luks_header needs libargon2-dev, libjson-c-dev and libssl-dev (pkg-config libargon2 json-c libcrypto)"
		for f in build-fuzz/fuzz_drivers build-fuzz/fuzz_peers build-fuzz/fuzz_cli build-fuzz/fuzz_luks_header \
			build-fuzz/fuzz_nbd; do
			[ -x "$f" ] && run_test fuzz "$(basename "$f")" sh tests/fuzz/check.sh "$f" "${FUZZ_CHECK_SECONDS:-20}"
		done
	fi
	group_time fuzz "$t0"
fi

# ---- (12) constant time by timing (dudect): every x86 driver, the short form (make check-ct: the long one) --
if want ct; then
	t0=$(date +%s)
	if [ "$ARCH" != x86_64 ]; then
		echo "SKIPPED: ct: the timing test measures x86 drivers with rdtscp; not an x86-64 host ($ARCH)"
	elif [ ! -x "$BUILD/tests/ct_timing" ]; then
		echo "[ct] $BUILD/tests/ct_timing was not built"
		TOTAL_F=$((TOTAL_F + 1))
	else
		run_test ct ct_timing "$BUILD/tests/ct_timing" "${CT_SAMPLES:-15000}"
	fi
	group_time ct "$t0"
fi

# ---- (13) ThreadSanitizer: shared tfms on every driver, allocation racing the first-use self-tests --------
if want tsan; then
	t0=$(date +%s)
	if ! echo 'int main(void){return 0;}' | cc -fsanitize=thread -x c - -o "$LOGDIR/tsan-probe" >/dev/null 2>&1; then
		echo "SKIPPED: tsan: the compiler cannot link -fsanitize=thread (libtsan2)"
	elif build tsan BUILD=build-tsan SANITIZE=-fsanitize=thread; then
		run_test tsan test_threads env TSAN_OPTIONS=halt_on_error=1:exitcode=66 build-tsan/tests/test_threads
	fi
	group_time tsan "$t0"
fi

# ---- (14) allocation failure and key wiping: every allocation fails in turn; freed contexts must be zero ----
if want oom; then
	t0=$(date +%s)
	if ! env -u BUILD make BUILD="$BUILD" "$BUILD/tests/oom" >"$LOGDIR/build-oom.log" 2>&1; then
		echo "[oom] build failed: make $BUILD/tests/oom"
		tail -n 25 "$LOGDIR/build-oom.log" | sed 's/^/    /'
		TOTAL_F=$((TOTAL_F + 1))
	else
		echo 'int main(void){return 0;}' | cc -fsanitize=leak -x c - -o "$LOGDIR/lsan-probe" >/dev/null 2>&1 ||
			echo "SKIPPED: oom: leak checking (cc cannot link -fsanitize=leak: liblsan0); failures still tested"
		run_test oom oom "$BUILD/tests/oom"
	fi
	group_time oom "$t0"
fi

echo "  (total: $(($(date +%s) - T_START)) s)"
echo "$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_F" -eq 0 ]
