#!/bin/sh
# AF_ALG without the kernel: Debian's kcapi-enc and kcapi-dgst, a libkcapi program and Python's socket.AF_ALG
# run under `blockcrypt run --always`, checked byte for byte against openssl enc/dgst and Python's hashlib.
NAME=afalg_tools
. "$(dirname "$0")/sh_common.sh"
RUN="$BC run --always --"
have() { command -v "$1" >/dev/null 2>&1; }

K16=000102030405060708090a0b0c0d0e0f
K32=$K16$(echo $K16 | tr 0-9a-f 'fedcba9876543210')
IV=f0e0d0c0b0a090807060504030201000
unhex $K16 > "$T/k16"
unhex $K32 > "$T/k32"
for n in 1 1000 4096 70000 300001; do head -c $n /dev/urandom > "$T/pt$n"; done

if ! have kcapi-enc || ! have kcapi-dgst; then
	echo "SKIPPED: afalg: kcapi-tools not installed (kcapi-enc, kcapi-dgst)"
elif ! have openssl; then
	echo "SKIPPED: afalg: the openssl tool is not installed"
else
	# skciphers: encrypted beside openssl enc (cbc: PKCS#7 padding in both), then decrypted back
	for n in 1 1000 4096 70000 300001; do
		for c in "cbc(aes) aes-128-cbc k16 $K16" "ctr(aes) aes-128-ctr k16 $K16" "cbc(aes) aes-256-cbc k32 $K32"; do
			set -- $c
			rm -f "$T/ct" "$T/back"
			$RUN kcapi-enc -q -c "$1" --iv $IV --keyfd 3 -i "$T/pt$n" -o "$T/ct" 3<"$T/$3"
			# kcapi-enc pads only a text that does not fill its last block; openssl enc always pads
			if [ $((n % 16)) -eq 0 ]; then pad=-nopad; else pad=; fi
			openssl enc -$2 $pad -K $4 -iv $IV -in "$T/pt$n" -out "$T/ct.ossl"
			if cmp -s "$T/ct" "$T/ct.ossl"; then ok; else bad "kcapi-enc $1 $n bytes differs from openssl enc -$2"; fi
			$RUN kcapi-enc -q -d -c "$1" --iv $IV --keyfd 3 -i "$T/ct" -o "$T/back" 3<"$T/$3"
			if cmp -s "$T/back" "$T/pt$n"; then ok; else bad "kcapi-enc -d $1 $n bytes"; fi
		done
	done
	# xts (openssl enc has no xts): beside the tool's direct path
	head -c 4096 "$T/pt70000" > "$T/x4096"
	$RUN kcapi-enc -q -c "xts(aes)" --iv $IV --keyfd 3 -i "$T/x4096" -o "$T/ct" 3<"$T/k32"
	$BC encrypt 'xts(aes)' --key $K32 --iv $IV --in "$T/x4096" --out "$T/ct.bc"
	if cmp -s "$T/ct" "$T/ct.bc"; then ok; else bad "kcapi-enc xts(aes) differs from blockcrypt encrypt"; fi
	# gcm (openssl enc has no AEAD): kcapi-enc writes what the socket returns, AAD || ciphertext || tag, beside the
	# tool's direct path; decryption takes the ciphertext with --aad and --tag and returns AAD || plaintext
	AAD=feedfacedeadbeeffeedfacedeadbeefabaddad2
	$RUN kcapi-enc -q -c "gcm(aes)" --iv cafebabefacedbaddecaf888 --aad $AAD --taglen 16 --keyfd 3 \
		-i "$T/pt1000" -o "$T/ct" 3<"$T/k16"
	$BC encrypt 'gcm(aes)' --key $K16 --iv cafebabefacedbaddecaf888 --aad $AAD --in "$T/pt1000" --out "$T/ct.bc"
	if [ "$(head -c 20 "$T/ct" | hexof)" = $AAD ] && tail -c +21 "$T/ct" | cmp -s - "$T/ct.bc"; then ok
	else bad "kcapi-enc gcm(aes) differs from blockcrypt encrypt"; fi
	TAG=$(tail -c 16 "$T/ct" | hexof)
	tail -c +21 "$T/ct" | head -c 1000 > "$T/ctonly"
	$RUN kcapi-enc -q -d -c "gcm(aes)" --iv cafebabefacedbaddecaf888 --aad $AAD --tag $TAG --keyfd 3 \
		-i "$T/ctonly" -o "$T/back" 3<"$T/k16"
	if tail -c +21 "$T/back" | cmp -s - "$T/pt1000"; then ok; else bad "kcapi-enc -d gcm(aes)"; fi
	BADTAG=$(echo $TAG | sed 's/^./0/;t'; true)
	[ "$BADTAG" = "$TAG" ] && BADTAG=1${TAG#?}
	if $RUN kcapi-enc -q -d -c "gcm(aes)" --iv cafebabefacedbaddecaf888 --aad $AAD --tag $BADTAG --keyfd 3 \
		-i "$T/ctonly" -o "$T/bad" 3<"$T/k16" 2>/dev/null; then bad "kcapi-enc took a bad gcm tag"; else ok; fi
	# digests beside openssl dgst
	for n in 1 1000 70000 300001; do
		for h in sha256 sha512 sha1; do
			a=$($RUN kcapi-dgst -c $h --hex -i "$T/pt$n")
			b=$(openssl dgst -$h -r "$T/pt$n" | cut -d' ' -f1)
			if [ "$a" = "$b" ]; then ok; else bad "kcapi-dgst $h $n bytes: $a, openssl $b"; fi
		done
		a=$($RUN kcapi-dgst -c "hmac(sha256)" --hex --keyfd 3 -i "$T/pt$n" 3<"$T/k32")
		b=$(openssl dgst -sha256 -mac HMAC -macopt hexkey:$K32 -r "$T/pt$n" | cut -d' ' -f1)
		if [ "$a" = "$b" ]; then ok; else bad "kcapi-dgst hmac(sha256) $n bytes: $a, openssl $b"; fi
	done
	# an algorithm blockcrypt lacks fails as on a kernel without it
	if $RUN kcapi-dgst -c "nosuch" --hex -i "$T/pt1" >/dev/null 2>&1; then bad "kcapi-dgst nosuch succeeded"; else ok; fi
	# kcapi-rng: the byte counts asked for, around the socket's 128-byte reads; two runs differ; a DRBG by name is absent
	for n in 1 128 129 5000; do
		c=$($RUN kcapi-rng -b $n | wc -c)
		if [ "$c" -eq $n ]; then ok; else bad "kcapi-rng -b $n wrote $c bytes"; fi
	done
	a=$($RUN kcapi-rng -b 64 | hexof)
	b=$($RUN kcapi-rng -n jitterentropy_rng -b 64 | hexof)
	if [ ${#a} -eq 128 ] && [ "$a" != "$b" ]; then ok; else bad "kcapi-rng: '$a' and '$b'"; fi
	if $RUN kcapi-rng -n drbg_nopr_hmac_sha256 -b 8 >/dev/null 2>&1; then bad "kcapi-rng took a DRBG by name"; else ok; fi
fi

# sub NAME COMMAND...: a test program's output, its summary line's counts added to this script's
sub() {
	n=$1
	shift
	out=$("$@" 2>&1)
	echo "$out"
	line=$(echo "$out" | grep -E "^$n: [0-9]+ passed, [0-9]+ failed\$")
	if [ -n "$line" ]; then
		pass=$((pass + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
		fail=$((fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')))
	else
		bad "$n: no summary line"
	fi
}

if [ -x "$BUILD/afalg/afalg_kcapi" ]; then
	sub afalg_kcapi $RUN "$BUILD/afalg/afalg_kcapi"
else
	echo "SKIPPED: afalg: afalg_kcapi not built (libkcapi-dev not installed)"
fi
if have python3; then
	sub afalg_python $RUN python3 tests/afalg_python.py
else
	echo "SKIPPED: afalg: python3 not installed"
fi
finish
