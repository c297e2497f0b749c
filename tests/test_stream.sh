#!/bin/sh
# Tests the blockcrypt tool as its manual has it: streaming across chunk boundaries (against the one-shot path and
# openssl enc), xts/essiv data units (against one tool run per unit), keys from files and descriptors, --in/--out, help, messages.
NAME=test_stream.sh
. "$(dirname "$0")/sh_common.sh"

if [ ! -x "$BC" ]; then
	echo "$NAME: $BC is missing (run make first)"
	echo "$NAME: 0 passed, 1 failed"
	exit 1
fi

# run STATUS DESCRIPTION COMMAND...: runs COMMAND (stdin as given), stdout to $T/out, stderr to $T/err;
# a failure must write nothing to stdout and say why on stderr.
run() {
	want=$1 desc=$2
	shift 2
	"$@" > "$T/out" 2> "$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$desc: exit $got, want $want ($(head -c 300 "$T/err"))"
	elif [ "$want" -ne 0 ] && [ ! -s "$T/err" ]; then
		bad "$desc: no message on stderr"
	else
		ok
		return 0
	fi
	return 1
}
# says DESCRIPTION TEXT: the last run's stderr contains TEXT.
says() {
	if grep -qF -- "$2" "$T/err"; then ok; else bad "$1: stderr lacks '$2': $(head -c 300 "$T/err")"; fi
}
same() {
	if cmp -s "$2" "$3"; then ok; else bad "$1: the outputs differ ($(wc -c < "$2") and $(wc -c < "$3") bytes)"; fi
}
# le_add IVHEX N: IVHEX plus N, both as 128-bit little-endian numbers (dm-crypt plain64 counts sectors so).
le_add() {
	awk -v iv="$1" -v n="$2" 'BEGIN {
		H = "0123456789abcdef"; c = n
		for (i = 0; i < 16; i++) {
			b = (index(H, substr(iv, 2 * i + 1, 1)) - 1) * 16 + index(H, substr(iv, 2 * i + 2, 1)) - 1 + c % 256
			c = int(c / 256) + int(b / 256)
			printf "%02x", b % 256
		} }'
}

CH=4096
# ---- ecb, cbc, ctr: streamed in chunks (tiny ones through the BLOCKCRYPT_CHUNK_SIZE test knob) equals one call ----
k16=$(rhex 16) k32=$(rhex 32) iv=$(rhex 16)
for alg in 'ecb(aes)' 'cbc(aes)' 'ctr(aes)' 'ecb(sm4)' 'cbc(sm4)' 'ctr(sm4)'; do
	case $alg in *sm4*) key=$k16 ;; *) key=$k32 ;; esac
	case $alg in ecb*) set -- --key "$key" ;; *) set -- --key "$key" --iv "$iv" ;; esac
	case $alg in
	ctr*) sizes="0 1 15 16 17 4095 4096 4097 8191 8192 8193 12289 20000" ;;
	*) sizes="0 16 4080 4096 4112 8176 8192 8208 12288 20480" ;;
	esac
	for len in $sizes; do
		head -c "$len" /dev/urandom > "$T/p"
		# one call: a chunk larger than the input
		BLOCKCRYPT_CHUNK_SIZE=1M "$BC" encrypt "$alg" "$@" < "$T/p" > "$T/one" 2> "$T/err" || bad "$alg $len one call: $(cat "$T/err")"
		cat "$T/p" | run 0 "$alg $len streamed from a pipe" env BLOCKCRYPT_CHUNK_SIZE=$CH "$BC" encrypt "$alg" "$@"
		same "$alg $len streamed = one call" "$T/out" "$T/one"
		run 0 "$alg $len decrypt streamed" env BLOCKCRYPT_CHUNK_SIZE=$CH "$BC" decrypt "$alg" "$@" --in "$T/one"
		same "$alg $len decrypt streamed" "$T/out" "$T/p"
	done
done
# Odd chunk sizes: the IV is carried whatever the multiple of 16.
head -c 10000 /dev/urandom > "$T/p"
head -c 9984 "$T/p" > "$T/p2"
"$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" < "$T/p2" > "$T/cbc"
for ch in 16 48 208 1024 9968; do
	run 0 "cbc chunk $ch" env BLOCKCRYPT_CHUNK_SIZE=$ch "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p2"
	same "cbc chunk $ch" "$T/out" "$T/cbc"
	run 0 "ctr chunk $ch" env BLOCKCRYPT_CHUNK_SIZE=$ch "$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$iv" --in "$T/p"
	cp "$T/out" "$T/c"
	BLOCKCRYPT_CHUNK_SIZE=1M "$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$iv" --in "$T/p" > "$T/one"
	same "ctr chunk $ch" "$T/c" "$T/one"
done
for bad_ch in 0 15 100 2G x; do
	run 2 "BLOCKCRYPT_CHUNK_SIZE=$bad_ch" env BLOCKCRYPT_CHUNK_SIZE=$bad_ch "$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$iv" --in "$T/p"
done

# The real chunk (1 MiB) against openssl enc, which has these modes, around its boundaries.
if command -v openssl > /dev/null 2>&1; then
	M=1048576
	for len in $((M - 16)) $M $((M + 16)) $((3 * M + 48)); do
		head -c "$len" /dev/urandom > "$T/p"
		for spec in ecb:aes-256-ecb:$k32 cbc:aes-256-cbc:$k32 ctr:aes-256-ctr:$k32 ctr:sm4-ctr:$k16 cbc:sm4-cbc:$k16; do
			m=${spec%%:*} oc=${spec#*:}
			key=${oc#*:} oc=${oc%%:*}
			case $oc in sm4*) alg="$m(sm4)" ;; *) alg="$m(aes)" ;; esac
			case $m in ecb) set -- --key "$key"; o= ;; *) set -- --key "$key" --iv "$iv"; o="-iv $iv" ;; esac
			# shellcheck disable=SC2086
			openssl enc "-$oc" -K "$key" $o -nopad -in "$T/p" -out "$T/ref"
			cat "$T/p" | run 0 "$alg $len vs openssl" "$BC" encrypt "$alg" "$@"
			same "$alg $len = openssl enc -$oc" "$T/out" "$T/ref"
			cat "$T/ref" | run 0 "$alg $len decrypt vs openssl" "$BC" decrypt "$alg" "$@"
			same "$alg $len decrypt = plaintext" "$T/out" "$T/p"
		done
	done
	len=$((M + 5))
	head -c "$len" /dev/urandom > "$T/p"
	openssl enc -aes-128-ctr -K "$k16" -iv ffffffffffffffffffffffffffff0000 -in "$T/p" -out "$T/ref"
	cat "$T/p" | run 0 "ctr counter carry across chunks" "$BC" encrypt 'ctr(aes)' --key "$k16" --iv ffffffffffffffffffffffffffff0000
	same "ctr counter carry across chunks = openssl" "$T/out" "$T/ref"
else
	echo "SKIPPED: $NAME: comparisons with openssl enc: the openssl command is not installed"
fi

# ---- xts and essiv data units: each unit its own message, IV + index (128-bit little-endian) -----------------
# units_ref ALG KEY IV UNIT FILE: the tool once per unit, the IV computed here, into $T/ref.
units_ref() {
	len=$(wc -c < "$5")
	i=0
	: > "$T/ref"
	while [ $((i * $4)) -lt "$len" ]; do
		tail -c +$((i * $4 + 1)) "$5" | head -c "$4" > "$T/unit"
		"$BC" encrypt "$1" --key "$2" --iv "$(le_add "$3" "$i")" --allow-weak-keys < "$T/unit" >> "$T/ref" || return 1
		i=$((i + 1))
	done
}
for spec in 'xts(aes):64' 'xts(aes):32' 'xts(sm4):32' 'essiv(cbc(aes),sha256):32' 'essiv(cbc(sm4),sm3):16'; do
	alg=${spec%:*} kb=${spec##*:}
	key=$(rhex "$kb")
	for ivs in 0 fffffffffffffffffe; do
		case $ivs in 0) tiv=$(rhex 16) ;; *) tiv=fdffffffffffffffff00000000000000 ;; esac
		for u in 512 4096; do
			case $alg in
			xts*) lens="$((u * 3)) $((u * 2 + 17)) $((u * 5 + 16)) 16 $((u + 100))" ;;
			*) lens="$((u * 3)) $((u * 2 + 16)) $((u * 5 + 496))" ;;
			esac
			for len in $lens; do
				head -c "$len" /dev/urandom > "$T/p"
				units_ref "$alg" "$key" "$tiv" "$u" "$T/p" || bad "$alg unit reference $u $len"
				for ch in 4096 8192 1M; do
					cat "$T/p" | run 0 "$alg unit $u len $len chunk $ch" env BLOCKCRYPT_CHUNK_SIZE=$ch \
						"$BC" encrypt "$alg" --key "$key" --iv "$tiv" --data-unit-size "$u"
					same "$alg unit $u len $len chunk $ch = one run per unit" "$T/out" "$T/ref"
				done
				cat "$T/ref" | run 0 "$alg unit $u len $len decrypt" env BLOCKCRYPT_CHUNK_SIZE=8192 \
					"$BC" decrypt "$alg" --key "$key" --iv "$tiv" --data-unit-size "$u"
				same "$alg unit $u len $len decrypt" "$T/out" "$T/p"
			done
		done
	done
done
# An independent reference: OpenSSL's EVP xts, one call per unit (bench/xts_units.c), where libcrypto is installed.
if cc -O2 -o "$T/xts-units" bench/xts_units.c -lcrypto > "$T/cc" 2>&1; then
	key=$(rhex 64)
	for tiv in "$(rhex 16)" fdffffffffffffffff00000000000000; do
		for spec in 512:$((512 * 9 + 100)) 4096:$((3 * 1048576 + 4096 * 3 + 17)) 4096:16 1048576:$((1048576 * 2 + 16)); do
			u=${spec%:*} len=${spec#*:}
			head -c "$len" /dev/urandom > "$T/p"
			"$T/xts-units" "$key" "$tiv" "$u" < "$T/p" > "$T/ref"
			cat "$T/p" | run 0 "xts(aes) unit $u len $len vs OpenSSL" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$tiv" --data-unit-size "$u"
			same "xts(aes) unit $u len $len = OpenSSL EVP per unit" "$T/out" "$T/ref"
		done
	done
else
	echo "SKIPPED: $NAME: xts data units against OpenSSL: bench/xts_units.c does not build (libssl-dev missing?)"
fi
# A unit as large as the input is the single-unit (no --data-unit-size) result.
key=$(rhex 64)
head -c 5000 /dev/urandom > "$T/p"
"$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" < "$T/p" > "$T/one"
run 0 "xts one unit of 8K" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --data-unit-size 8K --in "$T/p"
same "xts --data-unit-size >= input is one unit" "$T/out" "$T/one"
# The last unit must be a whole xts message; essiv units whole blocks.
head -c $((512 * 2 + 15)) /dev/urandom > "$T/p"
cat "$T/p" | run 2 "xts last unit of 15 bytes (pipe)" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --data-unit-size 512
says "xts last unit of 15 bytes" "the last data unit is 15 bytes; it must be at least 16 bytes"
run 2 "xts last unit of 15 bytes (file)" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --data-unit-size 512 --in "$T/p"
[ -s "$T/out" ] && bad "xts last unit of 15 bytes (file): wrote output" || ok
run 2 "essiv unit of 500" "$BC" encrypt 'essiv(cbc(aes),sha256)' --key "$k16" --iv "$iv" --data-unit-size 500 --in "$T/p"
says "essiv unit of 500" "must be a multiple of 16"
for u in 0 8 15 x 1Q; do
	run 2 "xts --data-unit-size $u" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --data-unit-size "$u" --in "$T/p"
done
for alg in 'cbc(aes)' 'ctr(aes)' 'cts(cbc(aes))' 'gcm(aes)'; do
	run 2 "$alg --data-unit-size" "$BC" encrypt "$alg" --key "$k16" --iv "$iv" --data-unit-size 512 --in "$T/p"
	says "$alg --data-unit-size" "--data-unit-size applies to xts and essiv"
done
# IEEE 1619: at most 2^20 blocks in a unit, unless --allow-large-units asks for the kernel's behaviour.
head -c $((16 * 1048576 + 16)) /dev/zero > "$T/big"
run 2 "xts one unit over 2^20 blocks" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/big"
says "xts one unit over 2^20 blocks" "over 2^20 blocks"
cat "$T/big" | run 2 "xts one unit over 2^20 blocks (pipe)" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv"
run 0 "xts one unit over 2^20 blocks, --allow-large-units" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/big" --allow-large-units
cp "$T/out" "$T/c"
run 0 "xts large unit decrypt" "$BC" decrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/c" --allow-large-units
same "xts large unit round trip" "$T/out" "$T/big"
run 0 "xts one unit of exactly 2^20 blocks" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/big" --data-unit-size 16M
run 2 "xts --data-unit-size over 2^20 blocks" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/big" --data-unit-size $((16 * 1048576 + 16))
says "xts --data-unit-size over 2^20 blocks" "--allow-large-units"
run 0 "xts --data-unit-size over 2^20 blocks, allowed" "$BC" encrypt 'xts(aes)' --key "$key" --iv "$iv" --in "$T/big" \
	--data-unit-size $((16 * 1048576 + 16)) --allow-large-units
same "xts large --data-unit-size = one large unit" "$T/out" "$T/c"
rm -f "$T/big" "$T/c"

# ---- what cannot stream is refused above the buffer limit -------------------------------------------------
head -c 4992 /dev/urandom > "$T/p"
for alg in 'cts(cbc(aes))' 'essiv(cbc(aes),sha256)'; do
	run 0 "$alg under --buffer-limit 8K" "$BC" encrypt "$alg" --key "$k16" --iv "$iv" --buffer-limit 8K --in "$T/p"
	cat "$T/p" | run 2 "$alg over --buffer-limit 4K" "$BC" encrypt "$alg" --key "$k16" --iv "$iv" --buffer-limit 4K
	says "$alg over the buffer limit" "cannot stream"
	run 2 "$alg over --buffer-limit 4096 (file)" "$BC" encrypt "$alg" --key "$k16" --iv "$iv" --buffer-limit 4096 --in "$T/p"
done
# gcm encryption streams (the incremental calls); its decryption is one message, the tag checked before any output.
kg=$(rhex 16) ivg=$(rhex 12)
for len in 0 1 4095 4096 4097 12289; do
	head -c "$len" /dev/urandom > "$T/p"
	BLOCKCRYPT_CHUNK_SIZE=1M "$BC" encrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --aad 0102 < "$T/p" > "$T/one"
	cat "$T/p" | run 0 "gcm encrypt $len streamed" env BLOCKCRYPT_CHUNK_SIZE=4096 "$BC" encrypt 'gcm(aes)' --key "$kg" \
		--iv "$ivg" --aad 0102 --buffer-limit 4K
	same "gcm encrypt $len: 4 KiB chunks = 1 MiB chunks" "$T/out" "$T/one"
	[ "$(wc -c < "$T/out")" -eq $((len + 16)) ] && ok || bad "gcm encrypt $len streamed: not ciphertext || tag"
	run 0 "gcm decrypt $len (one call)" "$BC" decrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --aad 0102 --in "$T/one"
	same "gcm $len streamed encryption decrypts" "$T/out" "$T/p"
done
run 2 "gcm decrypt over --buffer-limit 4K" "$BC" decrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --aad 0102 --buffer-limit 4K --in "$T/one"
says "gcm decrypt over the buffer limit" "cannot stream decryption"
for b in 0 x 4T -1; do
	run 2 "--buffer-limit $b" "$BC" encrypt 'gcm(aes)' --key "$k16" --iv "$iv" --buffer-limit "$b" --in "$T/p"
done

# ---- keys from files and descriptors --------------------------------------------------------------------------
head -c 32 /dev/urandom > "$T/key"
khex=$(hexof "$T/key")
head -c 1000 /dev/urandom > "$T/p"
"$BC" encrypt 'ctr(aes)' --key "$khex" --iv "$iv" < "$T/p" > "$T/ref"
run 0 "--key-file" "$BC" encrypt 'ctr(aes)' --key-file "$T/key" --iv "$iv" --in "$T/p"
same "--key-file = --key" "$T/out" "$T/ref"
run 0 "--key-fd 3" "$BC" encrypt 'ctr(aes)' --key-fd 3 --iv "$iv" --in "$T/p" 3< "$T/key"
same "--key-fd = --key" "$T/out" "$T/ref"
run 0 "--key-file - with --in" "$BC" encrypt 'ctr(aes)' --key-file - --iv "$iv" --in "$T/p" < "$T/key"
same "--key-file - = --key" "$T/out" "$T/ref"
run 0 "--key-fd 0 with --in" "$BC" encrypt 'ctr(aes)' --key-fd 0 --iv "$iv" --in "$T/p" < "$T/key"
same "--key-fd 0 = --key" "$T/out" "$T/ref"
run 2 "--key-file - with data on stdin" "$BC" encrypt 'ctr(aes)' --key-file - --iv "$iv" < "$T/p"
says "--key-file - with data on stdin" "cannot come from standard input"
run 2 "--key-fd 0 with data on stdin" "$BC" encrypt 'ctr(aes)' --key-fd 0 --iv "$iv" --in - < "$T/p"
run 2 "repeated --key" "$BC" encrypt 'ctr(aes)' --key "$khex" --key "$khex" --iv "$iv" --in "$T/p"
says "repeated --key" "give the key once"
run 2 "--key and --key-file" "$BC" encrypt 'ctr(aes)' --key "$khex" --key-file "$T/key" --iv "$iv" --in "$T/p"
run 2 "--key-file and --key-fd" "$BC" encrypt 'ctr(aes)' --key-file "$T/key" --key-fd 3 --iv "$iv" --in "$T/p" 3< "$T/key"
run 2 "repeated --iv" "$BC" encrypt 'ctr(aes)' --key "$khex" --iv "$iv" --iv "$iv" --in "$T/p"
run 2 "missing key file" "$BC" encrypt 'ctr(aes)' --key-file "$T/nokey" --iv "$iv" --in "$T/p"
says "missing key file" "No such file or directory"
: > "$T/empty"
run 2 "empty key file" "$BC" encrypt 'ctr(aes)' --key-file "$T/empty" --iv "$iv" --in "$T/p"
says "empty key file" "empty"
head -c 2000 /dev/zero > "$T/longkey"
run 2 "key file too long" "$BC" encrypt 'ctr(aes)' --key-file "$T/longkey" --iv "$iv" --in "$T/p"
run 2 "--key-fd not open" "$BC" encrypt 'ctr(aes)' --key-fd 9 --iv "$iv" --in "$T/p"
says "--key-fd not open" "Bad file descriptor"
run 2 "--key-fd x" "$BC" encrypt 'ctr(aes)' --key-fd x --iv "$iv" --in "$T/p"
run 2 "no key" "$BC" encrypt 'ctr(aes)' --iv "$iv" --in "$T/p"
says "no key" "--key-file"
head -c 16 /dev/urandom > "$T/mkey"
"$BC" mac 'cmac(aes)' --key "$(hexof "$T/mkey")" < "$T/p" > "$T/ref"
run 0 "mac --key-file" "$BC" mac 'cmac(aes)' --key-file "$T/mkey" "$T/p"
same "mac --key-file = --key" "$T/out" "$T/ref"
run 0 "mac --key-fd" "$BC" mac 'cmac(aes)' --key-fd 4 --in "$T/p" 4< "$T/mkey"
same "mac --key-fd = --key" "$T/out" "$T/ref"
run 2 "mac --key-file - with data on stdin" "$BC" mac 'cmac(aes)' --key-file - < "$T/p"
run 2 "mac repeated --key" "$BC" mac 'cmac(aes)' --key 00112233445566778899aabbccddeeff --key 00112233445566778899aabbccddeeff < "$T/p"

# ---- --in, --out, positional FILE: a failed run leaves no partial file ----------------------------------------
mkdir "$T/d"
"$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" < "$T/p" > "$T/ref" 2> /dev/null
head -c 4096 /dev/urandom > "$T/p"
"$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" < "$T/p" > "$T/ref"
run 0 "--in --out" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p" --out "$T/d/c"
same "--out FILE = stdout" "$T/d/c" "$T/ref"
[ ! -s "$T/out" ] && ok || bad "--out wrote to stdout too"
mode=$(umask 027; "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p" --out "$T/d/m" && stat -c %a "$T/d/m")
[ "$mode" = 640 ] && ok || bad "--out with umask 027: mode $mode, want 640"
rm -f "$T/d/m"
run 0 "--in - --out -" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in - --out - < "$T/p"
same "--in - --out -" "$T/out" "$T/ref"
cp "$T/p" "$T/d/same"
run 0 "--in and --out the same file" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/d/same" --out "$T/d/same"
same "--in = --out" "$T/d/same" "$T/ref"
rm "$T/d/same"
# A bad tag: exit 1, the message, no file (an old one stays as it was), no temporary file left.
kg=$(rhex 16) ivg=$(rhex 12)
"$BC" encrypt 'gcm(aes)' --key "$kg" --iv "$ivg" < "$T/p" > "$T/g"
printf 'old' > "$T/d/keep"
run 1 "bad tag with --out" "$BC" decrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --aad 00 --in "$T/g" --out "$T/d/keep"
[ "$(cat "$T/err")" = "blockcrypt: authentication failed" ] && ok || bad "bad tag: stderr is '$(cat "$T/err")'"
[ "$(cat "$T/d/keep")" = old ] && ok || bad "bad tag replaced the existing --out file"
run 1 "bad tag, new --out" "$BC" decrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --aad 00 --in "$T/g" --out "$T/d/new"
[ ! -e "$T/d/new" ] && ok || bad "bad tag left an --out file"
run 0 "good tag with --out" "$BC" decrypt 'gcm(aes)' --key "$kg" --iv "$ivg" --in "$T/g" --out "$T/d/keep"
same "good tag --out" "$T/d/keep" "$T/p"
# A stream that fails at its end (a pipe whose length is not whole blocks) after writing chunks.
head -c $((3 * 1048576 + 1)) /dev/urandom > "$T/p3"
cat "$T/p3" | run 2 "cbc stream, bad length at the end, --out" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --out "$T/d/partial"
says "cbc bad length" "length must be a multiple of 16"
[ ! -e "$T/d/partial" ] && ok || bad "a failed stream left its --out file"
rm -f "$T/p3"
n=$(ls -A "$T/d" | grep -cvx 'keep\|c')
[ "$n" -eq 0 ] && ok || bad "temporary files left behind: $(ls -A "$T/d")"
# Interrupted: the temporary file goes with the process.
mkfifo "$T/fifo"
"$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$iv" --in "$T/fifo" --out "$T/d/int" 2> /dev/null &
pid=$!
exec 7<> "$T/fifo"
head -c 100000 /dev/zero >&7
sleep 1
n=$(ls -A "$T/d" | grep -c '^\.int\.')
[ "$n" -eq 1 ] && ok || bad "no temporary file while writing --out (found $(ls -A "$T/d"))"
kill -TERM "$pid"
wait "$pid" 2> /dev/null
exec 7>&-
n=$(ls -A "$T/d" | grep -cvx 'keep\|c')
[ "$n" -eq 0 ] && ok || bad "SIGTERM left $(ls -A "$T/d")"
run 2 "--out in a missing directory" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p" --out "$T/nodir/c"
says "--out in a missing directory" "No such file or directory"
run 2 "--in missing" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/nofile"
says "--in missing" "No such file or directory"
run 2 "--in a directory" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/d"
says "--in a directory" "Is a directory"
run 2 "hash of a directory" "$BC" hash sha256 "$T/d"
says "hash of a directory" "Is a directory"
if [ -c /dev/full ]; then
	run 2 "write to /dev/full" "$BC" encrypt 'ctr(aes)' --key "$k16" --iv "$iv" --in "$T/p" --out /dev/full
	says "write to /dev/full" "No space left on device"
	"$BC" hash sha256 --in "$T/p" > /dev/full 2> "$T/err"
	[ $? -eq 2 ] && ok || bad "hash to /dev/full: not exit 2"
	says "hash to /dev/full" "No space left on device"
else
	echo "SKIPPED: $NAME: write errors: /dev/full is missing"
fi
run 2 "repeated --in" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p" --in "$T/p"
run 2 "repeated --out" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --out "$T/d/x" --out "$T/d/y" --in "$T/p"
# hash and mac: FILE, --in FILE and standard input agree; --out writes the digest.
"$BC" hash sha256 --hex < "$T/p" > "$T/ref"
run 0 "hash FILE" "$BC" hash sha256 --hex "$T/p"
same "hash FILE = stdin" "$T/out" "$T/ref"
run 0 "hash --in FILE" "$BC" hash sha256 --hex --in "$T/p"
same "hash --in FILE = stdin" "$T/out" "$T/ref"
run 0 "hash --out" "$BC" hash sha256 --hex "$T/p" --out "$T/d/h"
same "hash --out" "$T/d/h" "$T/ref"
run 2 "hash FILE and --in" "$BC" hash sha256 "$T/p" --in "$T/p"
run 2 "hash two files" "$BC" hash sha256 "$T/p" "$T/p"
run 2 "hash missing FILE" "$BC" hash sm3 "$T/nofile"
says "hash missing FILE" "No such file or directory"

# ---- help, --version, unknown commands, list NAME ---------------------------------------------------------
for c in list selftest encrypt decrypt mac hash speed benchmark help; do
	run 0 "help $c" "$BC" help "$c" < /dev/null
	head -n 1 "$T/out" | grep -q "^usage: blockcrypt $c" && ok || bad "help $c: no usage line"
	cp "$T/out" "$T/h1"
	run 0 "$c --help" "$BC" "$c" --help < /dev/null
	same "$c --help = help $c" "$T/out" "$T/h1"
done
run 0 "encrypt NAME --key K -h" "$BC" encrypt 'cbc(aes)' --key 00 -h < /dev/null
grep -q 'cannot stream' "$T/out" && ok || bad "encrypt --help does not say what cannot stream"
run 0 "help" "$BC" help
run 2 "help nosuch" "$BC" help nosuch
says "help nosuch" "unknown command"
run 2 "unknown command" "$BC" frobnicate
says "unknown command" "unknown command 'frobnicate'"
ver=$(awk '/define BLOCKCRYPT_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' include/blockcrypt.h)
run 0 "--version" "$BC" --version
[ "$(cat "$T/out")" = "blockcrypt $ver" ] && ok || bad "--version says '$(cat "$T/out")', the header $ver"
"$BC" list > "$T/all"
run 0 "list 'xts(aes)'" "$BC" list 'xts(aes)'
n=$(grep -c '^name         : ' "$T/out")
m=$(grep -c '^name         : xts(aes)$' "$T/all")
[ "$n" -eq "$m" ] && [ "$(grep -c '^name         : xts(aes)$' "$T/out")" -eq "$n" ] && ok || bad "list 'xts(aes)': $n blocks, want $m"
drv=$(awk -F' : ' '/^driver / { d = $2 } END { print d }' "$T/all")
run 0 "list DRIVER" "$BC" list "$drv"
[ "$(grep -c '^driver       : ' "$T/out")" -eq 1 ] && grep -qxF "driver       : $drv" "$T/out" && ok || bad "list $drv"
run 2 "list nosuch" "$BC" list nosuch
run 2 "list two names" "$BC" list sha256 sm3

# ---- messages that say what would be right ------------------------------------------------------------------
: > "$T/e"
run 2 "15-byte aes key" "$BC" encrypt 'cbc(aes)' --key "$(rhex 15)" --iv "$iv" --in "$T/e"
says "15-byte aes key" "takes 16, 24 or 32 bytes"
run 2 "40-byte xts key" "$BC" encrypt 'xts(aes)' --key "$(rhex 40)" --iv "$iv" --in "$T/e"
says "40-byte xts key" "takes 32, 48 or 64 bytes"
run 2 "24-byte sm4 key" "$BC" encrypt 'ctr(sm4)' --key "$(rhex 24)" --iv "$iv" --in "$T/e"
says "24-byte sm4 key" "takes 16 bytes"
run 2 "gcm 20-byte key" "$BC" encrypt 'gcm(aes)' --key "$(rhex 20)" --iv "$iv" --in "$T/e"
says "gcm 20-byte key" "takes 16, 24 or 32 bytes"
run 2 "cmac 8-byte key" "$BC" mac 'cmac(aes)' --key "$(rhex 8)" --in "$T/e"
says "cmac 8-byte key" "takes 16, 24 or 32 bytes"
h=$(rhex 32)
run 2 "xts equal halves" "$BC" encrypt 'xts(aes)' --key "$h$h" --iv "$iv" --in "$T/e"
says "xts equal halves" "xts key halves are equal (use --allow-weak-keys for legacy data)"
head -c 20 /dev/urandom > "$T/p"
run 2 "cbc 20 bytes" "$BC" encrypt 'cbc(aes)' --key "$k16" --iv "$iv" --in "$T/p"
says "cbc 20 bytes" "length must be a multiple of 16"
head -c 15 /dev/urandom > "$T/p"
run 2 "xts 15 bytes" "$BC" encrypt 'xts(aes)' --key "$(rhex 32)" --iv "$iv" --in "$T/p"
says "xts 15 bytes" "at least 16 bytes"
run 2 "cts 15 bytes" "$BC" decrypt 'cts(cbc(aes))' --key "$k16" --iv "$iv" --in "$T/p"
says "cts 15 bytes" "at least 16 bytes"
run 2 "mac of a hash" "$BC" mac sha256 --key "$k16" --in "$T/p"
says "mac of a hash" "use blockcrypt hash sha256"
run 2 "mac of a hash without a key" "$BC" mac sm3 --in "$T/p"
says "mac of a hash without a key" "use blockcrypt hash sm3"
run 2 "hash of a MAC" "$BC" hash 'cmac(aes)' --in "$T/p"
says "hash of a MAC" "use blockcrypt mac"

# ---- the manual names every command and option the help texts name (test_install.sh renders it) ----------
for c in list selftest encrypt decrypt mac hash speed benchmark help; do
	grep -q "^\.B[RI]* $c\b" man/blockcrypt.1 && ok || bad "man/blockcrypt.1 does not describe $c"
	for o in $("$BC" help "$c" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" man/blockcrypt.1 && ok || bad "man/blockcrypt.1 lacks $o (help $c)"
	done
done
thver=$(grep '^\.TH' man/blockcrypt.1 | grep -o '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*')
[ -z "$thver" ] || [ "$thver" = "$ver" ] && ok || bad "man/blockcrypt.1 says version $thver, the header $ver"
for v in BLOCKCRYPT_DISABLE BLOCKCRYPT_CHUNK_SIZE; do
	grep -q "^\.B $v" man/blockcrypt.1 && ok || bad "man/blockcrypt.1 does not describe $v"
done

# ---- bounded memory: 256 MiB of ctr, xts data units, ecb and gcm encryption in a few MB (GNU time reports the peak RSS) --------
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true > /dev/null 2>&1; then
	for spec in "ctr(aes):" "xts(aes):--data-unit-size 4096" "ecb(sm4):" "gcm(aes):"; do
		alg=${spec%%:*} opt=${spec#*:}
		case $alg in
		ecb*) set -- --key "$k16" ;;
		xts*) set -- --key "$(rhex 64)" --iv "$iv" ;;
		gcm*) set -- --key "$k16" --iv "$(rhex 12)" ;;
		*) set -- --key "$k16" --iv "$iv" ;;
		esac
		# shellcheck disable=SC2086
		head -c 256M /dev/zero | /usr/bin/time -f %M -o "$T/rss" "$BC" encrypt "$alg" "$@" $opt | tail -c 16 > /dev/null
		rss=$(tail -n 1 "$T/rss")
		[ "$rss" -lt 16384 ] && ok || bad "$alg $opt: peak RSS $rss KB for 256 MiB (bounded: under 16 MB)"
	done
else
	echo "SKIPPED: $NAME: peak memory of a 256 MiB stream: GNU time (/usr/bin/time) is not installed"
fi

finish
