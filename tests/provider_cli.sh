#!/bin/sh
# The blockcrypt provider from the command line: `openssl enc` and `openssl mac` with -provider blockcrypt
# against the default provider (random keys, IVs, lengths); SM4-XTS and SM4-GCM against `blockcrypt encrypt`.
NAME=provider_cli
. "$(dirname "$0")/sh_common.sh"
PROV="-provider-path $BUILD/provider -provider blockcrypt -provider default -propquery provider=blockcrypt"
STREAM=$BUILD/provider/provider_stream
ROUNDS=${ROUNDS:-4}

hex() { head -c "$1" /dev/urandom | od -An -v -tx1 | tr -d ' \n'; }
len() { echo $(($(od -An -N2 -tu2 /dev/urandom) % $1)); }

# Is blockcrypt really the one answering? With it alone, the cipher list says so.
openssl list -cipher-algorithms -provider-path "$BUILD/provider" -provider blockcrypt 2>/dev/null |
	grep -q 'AES-256-XTS } @ blockcrypt' && ok || bad "openssl list does not show blockcrypt's AES-256-XTS"

for c in aes-128-ecb aes-192-ecb aes-256-ecb aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ctr aes-192-ctr \
	aes-256-ctr sm4-ecb sm4-cbc sm4-ctr; do
	case $c in aes-128-* | sm4-*) kl=16 ;; aes-192-*) kl=24 ;; *) kl=32 ;; esac
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		k=$(hex $kl)
		iv=$(hex 16)
		head -c "$(len 70000)" /dev/urandom >"$T/p"
		openssl enc -e -$c -K "$k" -iv "$iv" -in "$T/p" -out "$T/c1" 2>/dev/null
		# shellcheck disable=SC2086
		if openssl enc -e -$c -K "$k" -iv "$iv" -in "$T/p" -out "$T/c2" $PROV 2>"$T/err" &&
			cmp -s "$T/c1" "$T/c2"; then ok; else bad "enc $c ($(wc -c <"$T/p") bytes): $(head -c 300 "$T/err")"; fi
		# shellcheck disable=SC2086
		if openssl enc -d -$c -K "$k" -iv "$iv" -in "$T/c1" -out "$T/d" $PROV 2>"$T/err" &&
			cmp -s "$T/p" "$T/d"; then ok; else bad "dec $c: $(head -c 300 "$T/err")"; fi
	done
done

# A wrong padding (the last block altered) is refused by both.
k=$(hex 16)
iv=$(hex 16)
head -c 100 /dev/urandom >"$T/p"
openssl enc -e -aes-128-cbc -K "$k" -iv "$iv" -in "$T/p" -out "$T/c1"
printf 'x' | dd of="$T/c1" bs=1 seek=111 conv=notrunc 2>/dev/null
openssl enc -d -aes-128-cbc -K "$k" -iv "$iv" -in "$T/c1" -out "$T/d" 2>/dev/null
want=$?
# shellcheck disable=SC2086
openssl enc -d -aes-128-cbc -K "$k" -iv "$iv" -in "$T/c1" -out "$T/d" $PROV 2>/dev/null
[ $? -eq $want ] && [ $want -ne 0 ] && ok || bad "bad padding: default exit $want, blockcrypt differs"

for c in AES-128-CBC AES-192-CBC AES-256-CBC SM4-CBC; do
	case $c in AES-128-* | SM4-*) kl=16 ;; AES-192-*) kl=24 ;; *) kl=32 ;; esac
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		k=$(hex $kl)
		head -c "$(len 5000)" /dev/urandom >"$T/p"
		m1=$(openssl mac -cipher $c -macopt hexkey:"$k" -in "$T/p" CMAC 2>/dev/null)
		# shellcheck disable=SC2086
		m2=$(openssl mac -cipher $c -macopt hexkey:"$k" -in "$T/p" $PROV CMAC 2>"$T/err")
		[ -n "$m1" ] && [ "$m1" = "$m2" ] && ok || bad "mac CMAC $c: '$m1' vs '$m2' $(head -c 300 "$T/err")"
	done
done

# What the default provider of OpenSSL 3.0 lacks, against the library's own tool.
for c in SM4-XTS:'xts(sm4)':32:16 SM4-GCM:'gcm(sm4)':16:12; do
	ossl=${c%%:*}
	rest=${c#*:}
	alg=${rest%%:*}
	rest=${rest#*:}
	kl=${rest%%:*}
	ivl=${rest#*:}
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		k=$(hex "$kl")
		iv=$(hex "$ivl")
		aad=$(hex "$(len 40)")
		head -c "$((16 + $(len 70000)))" /dev/urandom >"$T/p"
		if [ "$ossl" = SM4-GCM ]; then
			"$BC" encrypt "$alg" --key "$k" --iv "$iv" --aad "$aad" <"$T/p" >"$T/c1"
			"$STREAM" "$BUILD/provider" --encrypt "$ossl" "$k" "$iv" "$aad" <"$T/p" >"$T/c2" 2>"$T/err"
		else
			"$BC" encrypt "$alg" --key "$k" --iv "$iv" <"$T/p" >"$T/c1"
			"$STREAM" "$BUILD/provider" --encrypt "$ossl" "$k" "$iv" <"$T/p" >"$T/c2" 2>"$T/err"
		fi
		[ -s "$T/c1" ] && cmp -s "$T/c1" "$T/c2" && ok || bad "$ossl vs blockcrypt encrypt $alg: $(head -c 300 "$T/err")"
	done
done
finish
