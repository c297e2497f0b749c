#!/bin/sh
# blockcrypt luks reencrypt against cryptsetup reencrypt (offline): every resilience mode, cipher and sector size
# changes, --init-only by one tool resumed by the other, runs killed at the Nth write or fsync and resumed, refusals.
NAME=luks_reencrypt
. "$(dirname "$0")/sh_common.sh"

CS=cryptsetup
PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
SHIM=$BUILD/tests/luks_killat.so
# kill points per resilience mode: a sample spread over the run (BC_KILL_POINTS=all tries every one)
POINTS=${BC_KILL_POINTS:-30}
printf 'correct horse' >"$T/pw"
head -c 4194304 /dev/urandom >"$T/plain"

mkimg() { # mkimg <file> <luksFormat options...>
	f=$1
	shift
	rm -f "$f"
	truncate -s 20M "$f"
	$CS luksFormat --type luks2 "$@" $PB2 --batch-mode --key-file "$T/pw" "$f" >/dev/null 2>&1 || bad "luksFormat $*"
	$BC luks encrypt "$f" "$T/plain" --key-file "$T/pw" >/dev/null 2>&1 || bad "encrypt into $*"
}
ours() { $BC luks reencrypt "$@" --key-file "$T/pw" $PB2 --no-progress; }
theirs() { $CS reencrypt --batch-mode --force-offline-reencrypt --key-file "$T/pw" $PB2 "$@"; }
# final <description> <image>: an ordinary LUKS2 image cryptsetup opens, with the original plaintext
final() {
	rm -f "$T/dec"
	check "no reencryption left ($1)" sh -c "! $CS luksDump '$2' | grep -q reencrypt"
	check "cryptsetup open --test-passphrase ($1)" $CS open --test-passphrase --key-file "$T/pw" "$2"
	rc 0 "decrypt ($1)" $BC luks decrypt "$2" "$T/dec" --key-file "$T/pw"
	check "the plaintext ($1)" cmp "$T/dec" "$T/plain"
}
mkimg "$T/base"
mkimg "$T/base512" --sector-size 512
NEW="--cipher aes-cbc-essiv:sha256 --key-size 256 --sector-size 512"

# ---- whole runs, and --init-only finished by the other tool, both ways ------------------------------------------
for r in checksum journal none; do
	for extra in "" "$NEW" "--sector-size 4096 --key-size 256"; do
		what="$r${extra:+, $extra}"
		src=$T/base
		case "$extra" in *4096*) src=$T/base512 ;; esac
		cp "$src" "$T/i"
		rc 0 "reencrypt ($what)" ours "$T/i" --resilience $r $extra
		final "ours, $what" "$T/i"
		case "$extra" in *essiv*) check "the new cipher ($what)" sh -c "$CS luksDump '$T/i' | grep -q 'cbc-essiv'" ;; esac
		cp "$src" "$T/i"
		rc 0 "reencrypt --init-only ($what)" ours "$T/i" --init-only --resilience $r $extra
		check "cryptsetup luksDump reads our --init-only ($what)" sh -c "$CS luksDump '$T/i' | grep -q 'reencrypt'"
		check "cryptsetup --resume-only finishes ours ($what)" theirs --resume-only "$T/i"
		final "ours then cryptsetup, $what" "$T/i"
		cp "$src" "$T/i"
		check "cryptsetup reencrypt --init-only ($what)" theirs --init-only --resilience $r $extra "$T/i"
		rc 0 "ours --resume-only finishes cryptsetup's ($what)" ours "$T/i" --resume-only
		final "cryptsetup then ours, $what" "$T/i"
	done
done
cp "$T/base" "$T/i"
rc 0 "--resilience-hash sha512 --hotzone-size 64K" ours "$T/i" --resilience-hash sha512 --hotzone-size 64K
final "sha512 checksums" "$T/i"

# ---- killed at the Nth write or fsync, resumed by us (every fifth by cryptsetup) ---------------------------------
for r in checksum journal; do
	cp "$T/base" "$T/i"
	BC_KILL_COUNT=$T/count LD_PRELOAD=$SHIM ours "$T/i" --resilience $r --hotzone-size 256K >/dev/null 2>&1
	n=$(cat "$T/count")
	check "a run counted ($r: $n writes and syncs)" test "$n" -gt 100
	[ "$POINTS" = all ] && step=1 || step=$((n / POINTS + 1))
	tried=0
	survived=0
	k=1
	while [ $k -le "$n" ]; do
		cp "$T/base" "$T/i"
		BC_KILL_AT=$k LD_PRELOAD=$SHIM ours "$T/i" --resilience $r --hotzone-size 256K >/dev/null 2>&1
		tried=$((tried + 1))
		if [ $((tried % 5)) -eq 0 ] && $CS luksDump "$T/i" 2>/dev/null | grep -q 'online-reencrypt'; then
			$CS repair --batch-mode --key-file "$T/pw" "$T/i" >/dev/null 2>&1
			theirs --resume-only "$T/i" >/dev/null 2>&1
			by=cryptsetup
		else
			$CS luksDump "$T/i" 2>/dev/null | grep -q 'online-reencrypt' && ours "$T/i" --resume-only >/dev/null 2>&1
			by=ours
		fi
		rm -f "$T/dec"
		if $CS open --test-passphrase --key-file "$T/pw" "$T/i" 2>/dev/null && ! $CS luksDump "$T/i" | grep -q reencrypt &&
			$BC luks decrypt "$T/i" "$T/dec" --key-file "$T/pw" 2>/dev/null && cmp -s "$T/dec" "$T/plain"; then
			survived=$((survived + 1))
			ok
		else
			bad "killed at write or fsync $k of $n ($r), resumed by $by: not the original plaintext"
		fi
		k=$((k + step))
	done
	echo "killed runs, $r: $survived of $tried kill points survived"
done

# ---- refusals: exit 2, one line, nothing written -----------------------------------------------------------------
refuse() { # refuse <description> <image> <args...>
	what=$1
	f=$2
	shift 2
	before=$(sha256sum <"$f")
	rc 2 "$what" ours "$f" "$@"
	check "$what: one line" test "$(wc -l <"$T/err")" -eq 1
	check "$what: nothing written" test "$(sha256sum <"$f")" = "$before"
}
cp "$T/base" "$T/i"
refuse "--resume-only with no reencryption" "$T/i" --resume-only
refuse "an unknown resilience" "$T/i" --resilience mirror
refuse "an unknown resilience hash" "$T/i" --resilience-hash nohash
refuse "a hot zone not whole sectors" "$T/i" --hotzone-size 1000
refuse "a sector size of 1000" "$T/i" --sector-size 1000
refuse "an unknown cipher" "$T/i" --cipher nope-xts-plain64
printf 'other' >"$T/pw2"
$BC luks add-key "$T/i" "$T/pw2" --key-file "$T/pw" $PB2 >/dev/null 2>&1
refuse "two keyslots" "$T/i"
cp "$T/base" "$T/i"
ours "$T/i" --init-only >/dev/null 2>&1
refuse "--init-only during a reencryption" "$T/i" --init-only
rm -f "$T/l1"
truncate -s 20M "$T/l1"
$CS luksFormat --type luks1 $PB2 --batch-mode --key-file "$T/pw" "$T/l1" >/dev/null 2>&1
refuse "a LUKS1 image" "$T/l1"
printf 'wrong' >"$T/bad"
cp "$T/base" "$T/i"
before=$(sha256sum <"$T/i")
rc 1 "a wrong passphrase" $BC luks reencrypt "$T/i" --key-file "$T/bad" $PB2
check "a wrong passphrase: nothing written" test "$(sha256sum <"$T/i")" = "$before"
finish
