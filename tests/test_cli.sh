#!/bin/sh
# Tests the blockcrypt command line: every command, every exit-status rule, and byte-for-byte
# agreement with OpenSSL (openssl enc/dgst/mac) and the public vectors in $VECTORS.
NAME=test_cli.sh
. "$(dirname "$0")/sh_common.sh"
VECTORS=${VECTORS:-tests/vectors}

# expect STATUS DESCRIPTION COMMAND...: runs COMMAND with $T/in on stdin; a failing run
# must write nothing to stdout, a usage error (2) must say why on stderr, and a failed
# authentication (1) says exactly "authentication failed" on stderr.
expect() {
	want=$1 desc=$2
	shift 2
	"$@" < "$T/in" > "$T/out" 2> "$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$desc: exit $got, want $want ($(head -c 200 "$T/err"))"
	elif [ "$want" -ne 0 ] && [ -s "$T/out" ]; then
		bad "$desc: wrote output although it failed"
	elif [ "$want" -eq 2 ] && [ ! -s "$T/err" ]; then
		bad "$desc: no message on stderr"
	elif [ "$want" -eq 1 ] && [ "$(cat "$T/err")" != "blockcrypt: authentication failed" ]; then
		bad "$desc: a failed authentication must say so on stderr, and only that"
	else
		ok
	fi
}

# same DESCRIPTION FILE1 FILE2
same() {
	if cmp -s "$2" "$3"; then ok; else bad "$1: $(hexof "$2" | head -c 80) != $(hexof "$3" | head -c 80)"; fi
}

if [ ! -x "$BC" ]; then
	echo "$NAME: $BC is missing (run make first)"
	echo "$NAME: 0 passed, 1 failed"
	exit 1
fi

# ---- help, list, selftest ---------------------------------------------------------------
: > "$T/in"
expect 0 "--help" "$BC" --help
grep -q 'usage: blockcrypt' "$T/out" && ok || bad "--help prints no usage"
expect 2 "no command" "$BC"
expect 2 "unknown command" "$BC" frobnicate
expect 2 "list with an argument" "$BC" list extra

expect 0 "list" "$BC" list
cp "$T/out" "$T/list"
nblocks=$(grep -c '^name         : ' "$T/list")
[ "$nblocks" -gt 0 ] && ok || bad "list shows no drivers"
for field in 'driver       : ' 'priority     : ' 'selftest     : passed' 'type         : ' 'blocksize    : '; do
	n=$(grep -c "^$field" "$T/list")
	[ "$n" -eq "$nblocks" ] && ok || bad "list: $n '$field' lines for $nblocks drivers"
done
n=$(grep -c '^$' "$T/list")
[ "$n" -eq $((nblocks - 1)) ] && ok || bad "list: $n blank lines between $nblocks blocks"
for t in skcipher aead shash; do
	grep -q "^type         : $t\$" "$T/list" && ok || bad "list shows no $t"
done
for alg in 'ecb(aes)' 'cbc(aes)' 'ctr(aes)' 'cts(cbc(aes))' 'xts(aes)' 'essiv(cbc(aes),sha256)' 'gcm(aes)' \
	'cmac(aes)' 'xcbc(aes)' 'cbcmac(aes)' 'ecb(sm4)' 'cbc(sm4)' 'ctr(sm4)' 'cts(cbc(sm4))' 'xts(sm4)' \
	'essiv(cbc(sm4),sm3)' 'gcm(sm4)' 'cmac(sm4)' 'xcbc(sm4)' 'cbcmac(sm4)' sha256 sm3 ghash; do
	grep -qxF "name         : $alg" "$T/list" && ok || bad "list lacks $alg"
done
# One "name driver type" line per block, for the per-driver comparisons below.
awk -F' : ' '/^name /{n=$2} /^driver /{d=$2} /^type /{print n, d, $2}' "$T/list" > "$T/drivers"
awk '$3=="skcipher" && /xts\(aes\)/ {f=1} END{exit !f}' "$T/drivers" && ok || bad "list: no xts(aes) skcipher"

expect 0 "selftest" "$BC" selftest
n=$(grep -c '^passed  ' "$T/out")
[ "$n" -eq "$nblocks" ] && ok || bad "selftest: $n passed lines for $nblocks drivers"
grep -q FAILED "$T/out" && bad "selftest reports failures" || ok

# ---- OpenSSL as the reference ---------------------------------------------------------
# check_crypt DESC NAME KEYHEX IVHEX PLAINFILE REFFILE: encrypt gives REF, decrypt gives the plaintext.
check_crypt() {
	desc=$1 name=$2 key=$3 iv=$4
	if [ -n "$iv" ]; then set -- --key "$key" --iv "$iv"; else set -- --key "$key"; fi
	cp "$T/p" "$T/in"
	expect 0 "$desc encrypt" "$BC" encrypt "$name" "$@"
	same "$desc encrypt" "$T/out" "$T/ref"
	cp "$T/ref" "$T/in"
	expect 0 "$desc decrypt" "$BC" decrypt "$name" "$@"
	same "$desc decrypt" "$T/out" "$T/p"
}

# openssl's CBC-CTS is CS1; the kernel's cts() is CS3, which moves the last full block
# in front of the partial one (and swaps the last two blocks when the length is a multiple of 16).
cs1_to_cs3() {
	len=$(wc -c < "$1")
	[ "$len" -le 16 ] && return
	d=$((len % 16))
	[ "$d" -eq 0 ] && d=16
	{ head -c $((len - 16 - d)) "$1"; tail -c 16 "$1"; tail -c $((16 + d)) "$1" | head -c "$d"; } > "$1.x"
	mv "$1.x" "$1"
}

# hexop xor A B: bytewise XOR of two hex strings of one length (mawk has no xor());
# hexop tweaks T N: N XTS tweaks from T, each the previous one times x in GF(2^128) (IEEE 1619).
hexop() {
	awk -v op="$1" -v a="$2" -v b="$3" '
		function bx(x, y,   r, i) { r = 0; for (i = 1; i < 256; i *= 2) if ((int(x / i) + int(y / i)) % 2) r += i; return r }
		function byte(h, i) { return (index(H, substr(h, i, 1)) - 1) * 16 + index(H, substr(h, i + 1, 1)) - 1 }
		BEGIN {
			H = "0123456789abcdef"
			if (op == "xor") {
				for (i = 1; i < length(a); i += 2) printf "%02x", bx(byte(a, i), byte(b, i))
			} else {
				for (i = 0; i < 16; i++) t[i] = byte(a, 2 * i + 1)
				for (n = 0; n < b; n++) {
					for (i = 0; i < 16; i++) printf "%02x", t[i]
					c = 0
					for (i = 0; i < 16; i++) { v = t[i] * 2 + c; c = int(v / 256); t[i] = v % 256 }
					if (c) t[0] = bx(t[0], 135)
				}
			}
			print ""
		}'
}
hexcut() { printf '%s' "$1" | cut -c"$(($2 * 2 + 1))-$((($2 + $3) * 2))"; }

# xts_block ECB KEY PHEX THEX: whole blocks through XTS, E(P ^ T) ^ T, given their tweaks.
xts_blocks() {
	x=$(hexop xor "$3" "$4")
	y=$(unhex "$x" | openssl enc "-$1" -K "$2" -nopad | hexof)
	hexop xor "$y" "$4"
}

# xts_ref ECB KEYHEX IVHEX: XTS (IEEE 1619, ciphertext stealing) of $T/p into $T/ref, built
# from openssl's ECB (openssl enc refuses XTS itself).
xts_ref() {
	kl=$((${#2} / 4))
	k1=$(hexcut "$2" 0 "$kl") k2=$(hexcut "$2" "$kl" "$kl")
	len=$(wc -c < "$T/p")
	m=$((len / 16)) b=$((len % 16))
	full=$m
	[ "$b" -gt 0 ] && full=$((m - 1))
	tw=$(hexop tweaks "$(unhex "$3" | openssl enc "-$1" -K "$k2" -nopad | hexof)" $((m + 1)))
	p=$(hexof "$T/p")
	out=
	[ "$full" -gt 0 ] && out=$(xts_blocks "$1" "$k1" "$(hexcut "$p" 0 $((full * 16)))" "$(hexcut "$tw" 0 $((full * 16)))")
	if [ "$b" -gt 0 ]; then
		cc=$(xts_blocks "$1" "$k1" "$(hexcut "$p" $((full * 16)) 16)" "$(hexcut "$tw" $((full * 16)) 16)")
		pp=$(hexcut "$p" $((full * 16 + 16)) "$b")$(hexcut "$cc" "$b" $((16 - b)))
		out=$out$(xts_blocks "$1" "$k1" "$pp" "$(hexcut "$tw" $((full * 16 + 16)) 16)")$(hexcut "$cc" 0 "$b")
	fi
	unhex "$out" > "$T/ref"
}

# ref_enc ALG CIPHER KEYHEX IVHEX: openssl's encryption of $T/p into $T/ref.
ref_enc() {
	alg=$1 c=$2 key=$3 iv=$4
	case $alg in
	ecb*) openssl enc "-$c" -K "$key" -nopad -in "$T/p" -out "$T/ref" ;;
	xts*) xts_ref "$c" "$key" "$iv" ;;
	cts*) openssl enc "-$c" -K "$key" -iv "$iv" -nopad -in "$T/p" -out "$T/ref" && cs1_to_cs3 "$T/ref" ;;
	essiv*)
		# salt = H(key) (sm3 cut to 16 bytes), IV' = E_salt(IV), then plain CBC.
		case $alg in
		*aes*) salt=$(unhex "$key" | openssl dgst -sha256 -binary | hexof); e=aes-256-ecb ;;
		*) salt=$(unhex "$key" | openssl dgst -sm3 -binary | head -c 16 | hexof); e=sm4-ecb ;;
		esac
		iv2=$(unhex "$iv" | openssl enc "-$e" -K "$salt" -nopad | hexof)
		openssl enc "-$c" -K "$key" -iv "$iv2" -nopad -in "$T/p" -out "$T/ref" ;;
	*) openssl enc "-$c" -K "$key" -iv "$iv" -nopad -in "$T/p" -out "$T/ref" ;;
	esac
}

# The OpenSSL cipher, key bytes and plaintext lengths for each algorithm OpenSSL covers, one set a line
# (for xts: the ECB it is built from).
cases_for() {
	case $1 in
	'ecb(aes)') printf '%s\n' "aes-128-ecb 16 0 64 4096" "aes-192-ecb 24 48" "aes-256-ecb 32 4112" ;;
	'cbc(aes)') printf '%s\n' "aes-128-cbc 16 0 64 4096" "aes-192-cbc 24 48" "aes-256-cbc 32 4112" ;;
	'ctr(aes)') printf '%s\n' "aes-128-ctr 16 0 17 4099" "aes-192-ctr 24 117" "aes-256-ctr 32 1420" ;;
	'xts(aes)') printf '%s\n' "aes-128-ecb 32 17 1420" "aes-192-ecb 48 117" "aes-256-ecb 64 16 4111" ;;
	'xts(sm4)') printf '%s\n' "sm4-ecb 32 31 117 4096" ;;
	'cts(cbc(aes))') printf '%s\n' "aes-128-cbc-cts 16 16 17 32 1420" "aes-256-cbc-cts 32 47 4095" ;;
	'essiv(cbc(aes),sha256)') printf '%s\n' "aes-128-cbc 16 0 4096" "aes-256-cbc 32 512" ;;
	'ecb(sm4)') printf '%s\n' "sm4-ecb 16 0 64 4096" ;;
	'cbc(sm4)') printf '%s\n' "sm4-cbc 16 0 64 4096" ;;
	'ctr(sm4)') printf '%s\n' "sm4-ctr 16 0 17 117 4099" ;;
	'cts(cbc(sm4))') printf '%s\n' "sm4-cbc 16 4096" ;;
	'essiv(cbc(sm4),sm3)') printf '%s\n' "sm4-cbc 16 16 4096" ;;
	esac
}

# Every skcipher driver `list` shows, by its driver name, against OpenSSL on random inputs.
openssl_checks() {
ncmp=0
while read -r alg drv type <&3; do
	[ "$type" = skcipher ] || continue
	cases_for "$alg" > "$T/cases"
	while read -r cipher kb lens <&4; do
		for len in $lens; do
			ncmp=$((ncmp + 1))
			key=$(rhex "$kb")
			case $alg in ecb*) iv= ;; *) iv=$(rhex 16) ;; esac
			head -c "$len" /dev/urandom > "$T/p"
			if ref_enc "$alg" "$cipher" "$key" "$iv" 2> "$T/oerr"; then
				check_crypt "$drv $cipher len $len" "$drv" "$key" "$iv"
			else
				bad "openssl $cipher: $(cat "$T/oerr")"
			fi
		done
	done 4< "$T/cases"
done 3< "$T/drivers"
[ "$ncmp" -ge 40 ] && ok || bad "only $ncmp comparisons with openssl enc"

# ctr counts across all 128 bits: a counter that wraps carries into every byte.
head -c 100 /dev/urandom > "$T/p"
key=$(rhex 16)
openssl enc -aes-128-ctr -K "$key" -iv fffffffffffffffffffffffffffffffe -in "$T/p" -out "$T/ref"
check_crypt "ctr(aes) counter wrap" 'ctr(aes)' "$key" fffffffffffffffffffffffffffffffe
openssl enc -sm4-ctr -K "$key" -iv 00ffffffffffffffffffffffffffffff -in "$T/p" -out "$T/ref"
check_crypt "ctr(sm4) counter carry" 'ctr(sm4)' "$key" 00ffffffffffffffffffffffffffffff

# Hashes and CMAC against openssl dgst / openssl mac; cbcmac as the last block of a CBC
# encryption of the zero-padded message.
for len in 0 1 55 64 65 1000 70000; do
	head -c "$len" /dev/urandom > "$T/in"
	for h in sha256 sm3; do
		openssl dgst "-$h" -binary < "$T/in" > "$T/ref"
		expect 0 "hash $h $len" "$BC" hash "$h"
		same "hash $h $len" "$T/out" "$T/ref"
		expect 0 "hash $h --hex $len" "$BC" hash "$h" --hex
		[ "$(cat "$T/out")" = "$(hexof "$T/ref")" ] && ok || bad "hash $h --hex $len"
	done
	for spec in aes:AES-128-CBC:16 aes:AES-256-CBC:32 aes:AES-192-CBC:24 sm4:SM4-CBC:16; do
		c=${spec%%:*} oc=${spec#*:}
		oc=${oc%:*} kb=${spec##*:}
		key=$(rhex "$kb")
		openssl mac -cipher "$oc" -macopt "hexkey:$key" -binary -in "$T/in" CMAC > "$T/ref"
		expect 0 "mac cmac($c) $kb $len" "$BC" mac "cmac($c)" --key "$key"
		same "mac cmac($c) $kb $len" "$T/out" "$T/ref"
		pad=$(( (16 - len % 16) % 16 ))
		{ cat "$T/in"; head -c "$pad" /dev/zero; } > "$T/p"
		[ "$len" -eq 0 ] && head -c 16 /dev/zero > "$T/p"
		ocbc=$(echo "$oc" | tr 'A-Z' 'a-z')
		openssl enc "-$ocbc" -K "$key" -iv 00000000000000000000000000000000 -nopad -in "$T/p" | tail -c 16 > "$T/ref"
		[ "$len" -eq 0 ] && head -c 16 /dev/zero > "$T/ref"
		expect 0 "mac cbcmac($c) $kb $len" "$BC" mac "cbcmac($c)" --key "$key"
		same "mac cbcmac($c) $kb $len" "$T/out" "$T/ref"
	done
done
}
if command -v openssl > /dev/null 2>&1; then
	openssl_checks
else
	echo "SKIPPED: $NAME: comparisons with OpenSSL: the openssl command is not installed"
fi
expect 0 "mac --hex" "$BC" mac 'cmac(aes)' --key 000102030405060708090a0b0c0d0e0f --hex
grep -qx '[0-9a-f]\{32\}' "$T/out" && ok || bad "mac --hex is not 32 lowercase hex digits"

# ---- GCM: NIST CAVP (first record of every twelfth parameter set) ----------------------
# cavp_gcm FILE: prints "key iv pt aad ct tag taglen result" for the first record of those sets.
cavp_gcm() {
	tr -d '\r' < "$1" | awk -F' = ' '
		/^\[Taglen/ { split($0, a, "= "); tl = a[2] + 0; want = (++sets % 12 == 1); k = "" }
		/^Key/ { k = $2 } /^IV/ { iv = $2 } /^PT/ { pt = $2 } /^AAD/ { aad = $2 }
		/^CT/ { ct = $2 } /^Tag/ { tag = $2 } /^FAIL/ { res = "fail" }
		/^Count/ { k = iv = pt = aad = ct = tag = ""; res = "ok" }
		/^$/ && want && k != "" && tag != "" {
			print k, (iv == "" ? "-" : iv), (pt == "" ? "-" : pt), (aad == "" ? "-" : aad),
				(ct == "" ? "-" : ct), tag, tl / 8, res
			want = 0; k = "" }'
}
nogcm=0
for f in "$VECTORS"/nist-cavp/gcm/gcmEncryptExtIV128.rsp "$VECTORS"/nist-cavp/gcm/gcmEncryptExtIV256.rsp \
	"$VECTORS"/nist-cavp/gcm/gcmDecrypt192.rsp; do
	[ -f "$f" ] || { nogcm=1; continue; }
	cavp_gcm "$f" > "$T/gcm"
	while read -r key iv pt aad ct tag tl res <&3; do
		[ "$pt" = - ] && pt=
		[ "$ct" = - ] && ct=
		[ "$aad" = - ] && aad=
		unhex "$ct$tag" > "$T/in"
		if [ "$res" = fail ]; then
			expect 1 "gcm(aes) CAVP forged $key" "$BC" decrypt 'gcm(aes)' --key "$key" --iv "$iv" --aad "$aad" --tag-len "$tl"
			continue
		fi
		expect 0 "gcm(aes) CAVP decrypt $key" "$BC" decrypt 'gcm(aes)' --key "$key" --iv "$iv" --aad "$aad" --tag-len "$tl"
		[ "$(hexof "$T/out")" = "$pt" ] && ok || bad "gcm(aes) CAVP decrypt $key"
		unhex "$pt" > "$T/in"
		expect 0 "gcm(aes) CAVP encrypt $key" "$BC" encrypt 'gcm(aes)' --key "$key" --iv "$iv" --aad "$aad" --tag-len "$tl"
		[ "$(hexof "$T/out")" = "$ct$tag" ] && ok || bad "gcm(aes) CAVP encrypt $key iv $iv tl $tl"
	done 3< "$T/gcm"
done
[ "$nogcm" -eq 0 ] || echo "SKIPPED: $NAME: NIST CAVP GCM files: $VECTORS/nist-cavp/gcm not found"

# ---- the uniform-format vectors (kernel testmgr, RFCs, GB/T): every one through the CLI --
# uniform FILE: prints "alg key iv ptext ctext assoc tag msg mac result" ("-" for absent fields;
# an unkeyed hash's digest comes as mac).
uniform() {
	awk -F'[ \t]*=[ \t]*' '
		function out() {
			if (f["alg"] != "" && f["iterations"] == "")
				print f["alg"], v("key"), v("iv"), v("ptext"), v("ctext"), v("assoc"), v("tag"),
					v("msg"), ("mac" in f ? v("mac") : v("digest")), (f["result"] == "" ? "valid" : f["result"])
			delete f
		}
		function v(n) { return (n in f) && f[n] != "" ? f[n] : "-" }
		/^#/ { next }
		/^[ \t]*$/ { out(); next }
		{ sub(/[ \t]+$/, "", $2); f[$1] = $2 }
		END { out() }' "$1"
}
nuni=0
for f in "$VECTORS"/linux-testmgr-derived/*.txt "$VECTORS"/rfc/*.txt "$VECTORS"/sm4/*.txt; do
	[ -f "$f" ] || continue
	uniform "$f"
done > "$T/uni"
nparts=0
while read -r alg key iv pt ct ad tag msg mac res <&3; do
	nuni=$((nuni + 1))
	for x in key iv pt ct ad tag msg mac; do eval "[ \"\$$x\" = - ] && $x="; done
	# Templates over a hash or cipher this build lacks (hmac(sha1), cbc(des3_ede)) are not listed.
	# HKDF vectors are the library's (tests/test_fscrypt.c): the tool has no KDF command.
	case $alg in
	hkdf*) continue ;;
	hmac* | rfc* | authenc*)
		if ! grep -qxF "name         : $alg" "$T/list"; then
			nparts=$((nparts + 1))
			continue
		fi ;;
	esac
	if [ -z "$key" ] && [ -n "$pt" ]; then
		# an empty key (serpent's, padded by the cipher) is the library's alone: the tool takes 1 to 1024 bytes
		unhex "$pt" > "$T/in"
		expect 2 "$alg vector (empty key refused by the tool)" "$BC" encrypt "$alg" --key ""
		continue
	fi
	set -- --key "$key"
	[ -n "$iv" ] && set -- "$@" --iv "$iv"
	case $alg in
	gcm* | ccm* | rfc4106* | rfc4543* | rfc4309* | authenc* | rfc7539*)
		set -- "$@" --aad "$ad" --tag-len $((${#tag} / 2))
		unhex "$ct$tag" > "$T/in"
		if [ "$res" = invalid ]; then
			expect 1 "$alg vector (forged)" "$BC" decrypt "$alg" "$@"
			continue
		fi
		expect 0 "$alg vector decrypt" "$BC" decrypt "$alg" "$@"
		[ "$(hexof "$T/out")" = "$pt" ] && ok || bad "$alg vector decrypt"
		unhex "$pt" > "$T/in"
		expect 0 "$alg vector encrypt" "$BC" encrypt "$alg" "$@"
		[ "$(hexof "$T/out")" = "$ct$tag" ] && ok || bad "$alg vector encrypt (key $key)" ;;
	sha256 | sm3 | sha1 | sha224 | sha384 | sha512 | md5)
		unhex "$msg" > "$T/in"
		expect 0 "$alg vector" "$BC" hash "$alg" --hex
		[ "$(cat "$T/out")" = "$mac" ] && ok || bad "$alg vector (msg $msg)" ;;
	cmac* | xcbc* | cbcmac* | ghash | polyval | nhpoly1305 | hmac*)
		unhex "$msg" > "$T/in"
		if [ "$res" = invalid ]; then
			expect 2 "$alg vector (invalid key)" "$BC" mac "$alg" "$@"
			continue
		fi
		expect 0 "$alg vector" "$BC" mac "$alg" "$@" --hex
		case $(cat "$T/out") in "$mac"*) ok ;; *) bad "$alg vector (key $key msg $msg)" ;; esac ;;
	*)
		unhex "$pt" > "$T/in"
		if [ "$res" = invalid ]; then
			# too short for the mode, or a des weak key (refused unless --allow-weak-keys)
			expect 2 "$alg vector (invalid)" "$BC" encrypt "$alg" "$@"
			continue
		fi
		expect 0 "$alg vector encrypt" "$BC" encrypt "$alg" "$@" --allow-weak-keys
		[ "$(hexof "$T/out")" = "$ct" ] && ok || bad "$alg vector encrypt (key $key iv $iv)"
		unhex "$ct" > "$T/in"
		expect 0 "$alg vector decrypt" "$BC" decrypt "$alg" "$@" --allow-weak-keys
		[ "$(hexof "$T/out")" = "$pt" ] && ok || bad "$alg vector decrypt (key $key iv $iv)" ;;
	esac
done 3< "$T/uni"
[ "$nuni" -gt 0 ] || echo "SKIPPED: $NAME: uniform vectors: none found under $VECTORS"
[ "$nparts" -eq 0 ] || echo "SKIPPED: $NAME: $nparts uniform vectors of templates over parts this build lacks"

# ---- AEAD round trips on every gcm and ccm driver, tag lengths, forgeries --------------
for drv in $(awk '$3=="aead" && $1 ~ /^(gcm|ccm)\(/ {print $2}' "$T/drivers"); do
	case $drv in *sm4*) kbs=16 ;; *) kbs="16 32" ;; esac
	for kb in $kbs; do
		key=$(rhex "$kb")
		for spec in 0:12 4096:1 17:60 1420:12; do
			len=${spec%:*} ivl=${spec#*:}
			case $drv in
			ccm*) iv=03$(rhex 15) badiv=03$(rhex 15) ;;   # the kernel's counter block, L = 4
			*) iv=$(rhex "$ivl") badiv=${iv}00 ;;
			esac
			ad=$(rhex $((len % 37)))
			head -c "$len" /dev/urandom > "$T/p"
			cp "$T/p" "$T/in"
			expect 0 "$drv encrypt $len iv $ivl" "$BC" encrypt "$drv" --key "$key" --iv "$iv" --aad "$ad"
			[ "$(wc -c < "$T/out")" -eq $((len + 16)) ] && ok || bad "$drv: output is not ciphertext || tag"
			cp "$T/out" "$T/c"
			cp "$T/c" "$T/in"
			expect 0 "$drv decrypt $len iv $ivl" "$BC" decrypt "$drv" --key "$key" --iv "$iv" --aad "$ad"
			same "$drv round trip $len" "$T/out" "$T/p"
			[ "$len" -eq 17 ] || [ "$len" -eq 1420 ] || continue
			# A flipped bit anywhere (ciphertext, tag) or other AAD: exit 1, nothing written.
			n=$(wc -c < "$T/c")
			for pos in 0 $((n / 2)) $((n - 1)); do
				b=$(head -c $((pos + 1)) "$T/c" | tail -c 1 | od -An -tu1 | tr -d ' ')
				{ head -c "$pos" "$T/c"; unhex "$(printf '%02x' $((b ^ 1)))"; tail -c $((n - pos - 1)) "$T/c"; } > "$T/in"
				expect 1 "$drv forged byte $pos of $n" "$BC" decrypt "$drv" --key "$key" --iv "$iv" --aad "$ad"
			done
			cp "$T/c" "$T/in"
			expect 1 "$drv wrong aad" "$BC" decrypt "$drv" --key "$key" --iv "$iv" --aad "${ad}00"
			expect 1 "$drv wrong iv" "$BC" decrypt "$drv" --key "$key" --iv "$badiv" --aad "$ad"
		done
	done
done
# Tag lengths: the kernel's list, a short tag is the prefix of the long one; --aad "" is no AAD.
key=$(rhex 16) iv=$(rhex 12)
head -c 100 /dev/urandom > "$T/in"
expect 0 "gcm full tag" "$BC" encrypt 'gcm(aes)' --key "$key" --iv "$iv"
cp "$T/out" "$T/full"
expect 0 "gcm --aad ''" "$BC" encrypt 'gcm(aes)' --key "$key" --iv "$iv" --aad ""
same "gcm --aad '' is no AAD" "$T/out" "$T/full"
for tl in 4 8 12 13 14 15 16; do
	cp "$T/in" "$T/p"
	expect 0 "gcm --tag-len $tl" "$BC" encrypt 'gcm(aes)' --key "$key" --iv "$iv" --tag-len "$tl"
	head -c $((100 + tl)) "$T/full" > "$T/ref"
	same "gcm --tag-len $tl is a prefix" "$T/out" "$T/ref"
	cp "$T/out" "$T/in"
	expect 0 "gcm decrypt --tag-len $tl" "$BC" decrypt 'gcm(aes)' --key "$key" --iv "$iv" --tag-len "$tl"
	same "gcm decrypt --tag-len $tl" "$T/out" "$T/p"
	cp "$T/p" "$T/in"
done
for tl in 0 1 3 5 11 17 32 abc -4 ""; do
	expect 2 "gcm --tag-len '$tl'" "$BC" encrypt 'gcm(aes)' --key "$key" --iv "$iv" --tag-len "$tl"
done
head -c 15 /dev/urandom > "$T/in"
expect 2 "gcm decrypt input shorter than the tag" "$BC" decrypt 'gcm(aes)' --key "$key" --iv "$iv"
head -c 3 /dev/urandom > "$T/in"
expect 2 "gcm decrypt input shorter than a 4-byte tag" "$BC" decrypt 'gcm(aes)' --key "$key" --iv "$iv" --tag-len 4
: > "$T/in"
expect 2 "gcm decrypt empty input" "$BC" decrypt 'gcm(sm4)' --key "$key" --iv "$iv"
expect 2 "gcm without --iv" "$BC" encrypt 'gcm(aes)' --key "$key"
expect 2 "gcm with an empty --iv" "$BC" encrypt 'gcm(aes)' --key "$key" --iv ""

# ---- weak xts keys --------------------------------------------------------------------
half=$(rhex 16)
head -c 64 /dev/urandom > "$T/p"
cp "$T/p" "$T/in"
expect 2 "xts(aes) with equal key halves" "$BC" encrypt 'xts(aes)' --key "$half$half" --iv "$(rhex 16)"
expect 2 "xts(sm4) with equal key halves" "$BC" encrypt 'xts(sm4)' --key "$half$half" --iv "$(rhex 16)"
iv=$(rhex 16)
expect 0 "xts(aes) equal halves --allow-weak-keys" "$BC" encrypt 'xts(aes)' --key "$half$half" --iv "$iv" --allow-weak-keys
cp "$T/out" "$T/in"
expect 0 "xts(aes) equal halves decrypt" "$BC" decrypt 'xts(aes)' --key "$half$half" --iv "$iv" --allow-weak-keys
same "xts(aes) weak-key round trip" "$T/out" "$T/p"
cp "$T/p" "$T/in"
expect 0 "xts(sm4) equal halves --allow-weak-keys" "$BC" encrypt 'xts(sm4)' --key "$half$half" --iv "$iv" --allow-weak-keys

# ---- every usage and input error: exit 2, a message, no output ---------------------------
k16=$(rhex 16) iv=$(rhex 16)
head -c 32 /dev/urandom > "$T/in"
expect 0 "cbc(aes) good" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv"
expect 2 "bad hex key" "$BC" encrypt 'cbc(aes)' --key "zz$(rhex 15)" --iv "$iv"
expect 2 "odd-length key" "$BC" encrypt 'cbc(aes)' --key "${k16}0" --iv "$iv"
expect 2 "empty key" "$BC" encrypt 'cbc(aes)' --key "" --iv "$iv"
expect 2 "missing key" "$BC" encrypt 'cbc(aes)' --iv "$iv"
expect 2 "15-byte aes key" "$BC" encrypt 'cbc(aes)' --key "$(rhex 15)" --iv "$iv"
expect 2 "24-byte sm4 key" "$BC" encrypt 'cbc(sm4)' --key "$(rhex 24)" --iv "$iv"
expect 2 "40-byte xts key" "$BC" encrypt 'xts(aes)' --key "$(rhex 40)" --iv "$iv"
expect 2 "16-byte xts key" "$BC" encrypt 'xts(aes)' --key "$k16" --iv "$iv"
expect 2 "bad hex iv" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "g$(rhex 15)0"
expect 2 "odd-length iv" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "${iv}1"
expect 2 "missing iv (cbc)" "$BC" encrypt 'cbc(aes)' --key "$k16"
expect 2 "missing iv (ctr)" "$BC" decrypt 'ctr(sm4)' --key "$k16"
expect 2 "missing iv (xts)" "$BC" encrypt 'xts(aes)' --key "$(rhex 32)"
expect 2 "iv on ecb" "$BC" encrypt 'ecb(aes)' --key "$k16" --iv "$iv"
expect 2 "empty iv on ecb" "$BC" encrypt 'ecb(aes)' --key "$k16" --iv ""
expect 2 "15-byte iv" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$(rhex 15)"
expect 2 "17-byte iv" "$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$(rhex 17)"
expect 2 "12-byte iv on xts" "$BC" encrypt 'xts(aes)' --key "$(rhex 32)" --iv "$(rhex 12)"
expect 2 "16-byte tweak on hctr2" "$BC" encrypt 'hctr2(aes)' --key "$k16" --iv "$iv"
expect 2 "33-byte tweak on hctr2" "$BC" encrypt 'hctr2(aes)' --key "$k16" --iv "$(rhex 33)"
expect 2 "20-byte hctr2 key" "$BC" encrypt 'hctr2(aes)' --key "$(rhex 20)" --iv "$(rhex 32)"
expect 2 "15-byte polyval key" "$BC" mac polyval --key "$(rhex 15)"
expect 2 "aad on a skcipher" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --aad 00
expect 2 "tag-len on a skcipher" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --tag-len 16
expect 2 "bad hex aad" "$BC" encrypt 'gcm(aes)' --key "$k16" --iv "$iv" --aad "0x"
expect 2 "unknown name" "$BC" encrypt 'cbc(nosuchcipher)' --key "$k16" --iv "$iv"
expect 2 "unknown driver name" "$BC" encrypt 'cbc(aes-nosuchdriver)' --key "$k16" --iv "$iv"
expect 2 "a MAC is no skcipher" "$BC" encrypt 'cmac(aes)' --key "$k16" --iv "$iv"
expect 2 "no name" "$BC" encrypt --key "$k16" --iv "$iv"
expect 2 "two names" "$BC" encrypt 'cbc(aes)' 'ecb(aes)' --key "$k16" --iv "$iv"
expect 2 "unknown option" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --frob
expect 2 "option without its value" "$BC" encrypt 'cbc(aes)' --iv "$iv" --key
for spec in 'ecb(aes):15' 'ecb(aes):17' 'cbc(aes):1' 'cbc(sm4):31' 'essiv(cbc(aes),sha256):20' \
	'xts(aes):15' 'xts(sm4):0' 'cts(cbc(aes)):15' 'cts(cbc(sm4)):0' 'hctr2(aes):15' 'hctr2(aes):0'; do
	alg=${spec%:*} len=${spec##*:}
	case $alg in
	xts*) key=$(rhex 32) ;;
	*) key=$k16 ;;
	esac
	case $alg in ecb*) set -- ;; hctr2*) set -- --iv "$(rhex 32)" ;; *) set -- --iv "$iv" ;; esac
	head -c "$len" /dev/urandom > "$T/in"
	expect 2 "$alg with $len bytes" "$BC" encrypt "$alg" --key "$key" "$@"
	expect 2 "$alg decrypt with $len bytes" "$BC" decrypt "$alg" --key "$key" "$@"
done
: > "$T/in"
expect 2 "mac without --key" "$BC" mac 'cmac(aes)'
expect 2 "mac with a bad key" "$BC" mac 'cmac(aes)' --key "$(rhex 15)"
expect 2 "mac with an odd key" "$BC" mac 'cmac(aes)' --key abc
expect 2 "mac unknown" "$BC" mac 'cmac(nosuch)' --key "$k16"
expect 2 "ghash with a 32-byte key" "$BC" mac ghash --key "$(rhex 32)"
expect 0 "ghash" "$BC" mac ghash --key "$k16"
[ "$(wc -c < "$T/out")" -eq 16 ] && ok || bad "ghash: not 16 bytes"
expect 2 "hash with --key" "$BC" hash sha256 --key "$k16"
expect 2 "hash of a keyed MAC" "$BC" hash 'cmac(aes)'
expect 2 "hash unknown" "$BC" hash md4
expect 2 "hash without a name" "$BC" hash
expect 2 "an skcipher is no hash" "$BC" hash 'cbc(aes)'

# ---- fscrypt: every contents and name record of the fscrypt-crypt-util vectors, both ways ----------
awk -F' = ' '/^alg = fscrypt\((contents|name)\)/ { a = ($2 ~ /contents/) ? "contents" : "name" }
	/^[a-z_]+ = / { f[$1] = $2 }
	/^$/ && a { print a, f["master"], f["mode"], f["version"], f["flags"], f["nonce"], f["fs_uuid"], f["ino"],
	            (a == "contents" ? f["index"] : 0), f["ptext"], f["ctext"]; a = ""; delete f }
	END { if (a) print a, f["master"], f["mode"], f["version"], f["flags"], f["nonce"], f["fs_uuid"], f["ino"],
	            (a == "contents" ? f["index"] : 0), f["ptext"], f["ctext"] }' \
	"$VECTORS/xfstests/fscrypt_crypt_util.txt" > "$T/fscrypt.list"
nrec=0
: > "$T/in"
while read -r act mk mode ver flags nonce uuid ino index pt ct; do
	nrec=$((nrec + 1))
	set -- --key "$mk" --mode "$mode" --policy "$ver" --flags "$flags" --nonce "$nonce" --fs-uuid "$uuid" --ino "$ino"
	[ "$act" = contents ] && set -- "$@" --index "$index" --data-unit-size 512
	[ "$("$BC" fscrypt "$act" "$@" --data "$ct")" = "$pt" ] && ok || bad "fscrypt $act decryption, record $nrec"
	[ "$("$BC" fscrypt "$act" "$@" --data "$pt" --encrypt)" = "$ct" ] && ok || bad "fscrypt $act encryption, record $nrec"
done < "$T/fscrypt.list"
[ "$nrec" -eq 79 ] && ok || bad "fscrypt: $nrec contents and name records, 79 expected"
expect 0 "fscrypt identifier" "$BC" fscrypt identifier --key b6ad845fdcc24b6e22911a080d7992e1
[ "$(cat "$T/out")" = 4b622be6cf21e4ab1eab938cbf689ee0 ] && ok || bad "fscrypt identifier: $(cat "$T/out")"
n16=000102030405060708090a0b0c0d0e0f
expect 2 "fscrypt with a 15-byte key" "$BC" fscrypt identifier --key "$(rhex 15)"
expect 2 "fscrypt without a key" "$BC" fscrypt identifier
expect 2 "fscrypt unknown action" "$BC" fscrypt decrypt --key "$n16"
expect 2 "fscrypt unknown mode" "$BC" fscrypt name --key "$n16$n16" --mode 3 --nonce "$n16" --data "$n16"
expect 2 "fscrypt short nonce" "$BC" fscrypt name --key "$n16$n16" --mode 4 --nonce 0011 --data "$n16"
expect 2 "fscrypt v2 AES-256 from a 16-byte key" "$BC" fscrypt name --key "$n16" --mode 4 --nonce "$n16" --data "$n16"
expect 2 "fscrypt 15-byte encrypted name" "$BC" fscrypt name --key "$n16$n16" --mode 4 --nonce "$n16" --data "$(rhex 15)"
expect 2 "fscrypt 256-byte name" "$BC" fscrypt name --key "$n16$n16" --mode 4 --nonce "$n16" --data "$(rhex 256)" --encrypt
expect 2 "fscrypt partial data unit" "$BC" fscrypt contents --key "$n16$n16$n16$n16" --mode AES-256-XTS --nonce "$n16" \
	--data-unit-size 512 --data "$(rhex 500)"
expect 2 "fscrypt DIRECT_KEY on AES-256-XTS" "$BC" fscrypt contents --key "$n16$n16$n16$n16" --mode 1 --flags 4 \
	--nonce "$n16" --data-unit-size 512 --data "$(rhex 512)"
expect 2 "fscrypt IV_INO_LBLK_64 inode over 32 bits" "$BC" fscrypt contents --key "$n16$n16$n16$n16" --mode 1 --flags 8 \
	--nonce "$n16" --fs-uuid "$n16" --ino 4294967296 --data-unit-size 512 --data "$(rhex 512)"

finish
