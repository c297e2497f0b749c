#!/bin/sh
# blockcrypt luks/plain against cryptsetup, both ways: images cryptsetup encrypts (reencrypt --encrypt, offline)
# decrypt here, images made here pass luksDump/--test-passphrase/--dump-volume-key/reencrypt --decrypt; keyslots.
NAME=luks_interop
. "$(dirname "$0")/sh_common.sh"

CS=cryptsetup
# tiny PBKDF costs: the group must run in seconds
CS_PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
CS_A2="--pbkdf argon2id --pbkdf-force-iterations 4 --pbkdf-memory 32 --pbkdf-parallel 1"
BC_PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
BC_A2="--pbkdf argon2id --pbkdf-force-iterations 4 --pbkdf-memory 32 --pbkdf-parallel 1"
printf 'correct horse' >"$T/pw"
printf 'battery staple' >"$T/pw2"
printf 'wrong' >"$T/bad"
printf 'correct horse' >"$T/pl1"

same_prefix() { # same_prefix <bytes> <a> <b>
	cmp -n "$1" "$2" "$3" >/dev/null 2>&1
}
vk_of_cs() { # the volume key cryptsetup reports, as hex
	$CS luksDump --dump-volume-key --batch-mode --key-file "$T/pw" "$@" 2>/dev/null |
		sed -n '/MK dump:/,$p' | sed 's/MK dump://' | tr -d ' \t\n'
}
vk_of_bc() {
	$BC luks dump --dump-volume-key --key-file "$T/pw" "$@" 2>/dev/null |
		sed -n '/MK dump:/,$p' | sed 's/MK dump://' | tr -d ' \t\n'
}

le64() { printf '%016x' "$1" | sed 's/\(..\)/\1 /g' | awk '{for (i = 8; i >= 1; i--) printf "%s", $i}'; }

head -c $((34 << 20)) /dev/urandom >"$T/plain34"
head -c 3000000 /dev/urandom >"$T/plain3"

# ---- cryptsetup encrypts (offline reencrypt moves the data 16 MiB up), blockcrypt decrypts -----------------
n=0
for cfg in "aes-xts-plain64 256 512 pbkdf2" "aes-xts-plain64 512 4096 argon2id" \
	"aes-cbc-essiv:sha256 256 512 argon2id" "aes-xts-plain64 512 4096 pbkdf2" "aes-cbc-essiv:sha256 256 4096 pbkdf2"; do
	set -- $cfg
	n=$((n + 1))
	img=$T/cs$n
	cp "$T/plain34" "$img"
	[ "$4" = pbkdf2 ] && kdf=$CS_PB2 || kdf=$CS_A2
	if ! $CS reencrypt --encrypt --type luks2 --reduce-device-size 32M --cipher "$1" --key-size "$2" \
		--sector-size "$3" $kdf --batch-mode --key-file "$T/pw" "$img" >"$T/out" 2>&1; then
		bad "cryptsetup reencrypt --encrypt $cfg"
		cat "$T/out"
		continue
	fi
	# the reduced device keeps the first 34-32 MiB of the plaintext
	check "decrypt of cryptsetup's $cfg" sh -c "rm -f '$T/dec'; $BC luks decrypt '$img' '$T/dec' --key-file '$T/pw' && cmp -n $((2 << 20)) '$T/dec' '$T/plain34'"
	check "read of cryptsetup's $cfg" sh -c "$BC luks read '$img' --offset 1234567 --length 4096 --key-file '$T/pw' >'$T/r' &&
		dd if='$T/plain34' bs=1 skip=1234567 count=4096 2>/dev/null | cmp - '$T/r'"
	rc 0 "test-passphrase right ($cfg)" $BC luks test-passphrase "$img" --key-file "$T/pw"
	rc 1 "test-passphrase wrong ($cfg)" $BC luks test-passphrase "$img" --key-file "$T/bad"
	check "volume key of $cfg" test "$(vk_of_cs "$img")" = "$(vk_of_bc "$img")"
done

# detached header: no data move, the whole file is the data
cp "$T/plain3" "$T/csd"
truncate -s 3002368 "$T/csd"
if $CS reencrypt --encrypt --type luks2 --header "$T/csd.hdr" --sector-size 4096 --cipher aes-xts-plain64 --key-size 512 \
	$CS_PB2 --batch-mode --key-file "$T/pw" "$T/csd" >"$T/out" 2>&1; then
	check "detached cryptsetup header, sector 4096" sh -c "$BC luks decrypt '$T/csd' - --header '$T/csd.hdr' --key-file '$T/pw' | cmp -n 3000000 - '$T/plain3'"
else
	bad "cryptsetup reencrypt --encrypt --header"
	cat "$T/out"
fi

# ---- blockcrypt formats, cryptsetup checks ------------------------------------------------------------------
n=0
for cfg in "luks2 aes-xts-plain64 512 512 pbkdf2" "luks2 aes-cbc-essiv:sha256 256 4096 argon2id" \
	"luks2 aes-xts-plain64 256 4096 argon2i" "luks1 aes-xts-plain64 256 512 pbkdf2" "luks1 aes-cbc-essiv:sha256 256 512 pbkdf2"; do
	set -- $cfg
	n=$((n + 1))
	img=$T/bc$n
	[ "$5" = pbkdf2 ] && kdf=$BC_PB2 || kdf="--pbkdf $5 --pbkdf-force-iterations 4 --pbkdf-memory 32 --pbkdf-parallel 1"
	[ "$1" = luks2 ] && ss="--sector-size $4" || ss=
	rc 0 "format --from $cfg" $BC luks format "$img" --type "$1" --cipher "$2" --key-size "$3" $ss $kdf --from "$T/plain3" --key-file "$T/pw"
	rc 0 "cryptsetup luksDump of $cfg" $CS luksDump "$img"
	rc 0 "cryptsetup accepts the passphrase ($cfg)" $CS open --test-passphrase --key-file "$T/pw" "$img"
	rc 2 "cryptsetup refuses a wrong passphrase ($cfg)" $CS open --test-passphrase --key-file "$T/bad" "$img"
	check "same volume key ($cfg)" test -n "$(vk_of_bc "$img")" -a "$(vk_of_cs "$img")" = "$(vk_of_bc "$img")"
	check "round trip ($cfg)" sh -c "$BC luks decrypt '$img' - --key-file '$T/pw' | cmp -n 3000000 - '$T/plain3'"
done

# ---- every IV generator and mode cryptsetup's user-space backend reaches here (aes over cbc, xts, ctr, ecb from
# OpenSSL; it has no lrw without the kernel), both ways: cryptsetup encrypts and blockcrypt decrypts; blockcrypt
# formats (detached LUKS2 header, and LUKS1) and cryptsetup checks the key and decrypts. A wrong IV generator
# shows as different plaintext. Left out: aes-xts-eboiv and aes-ctr-benbi, where cryptsetup's user-space IV code
# (which writes the keyslots) and dm-crypt disagree; blockcrypt follows dm-crypt (eboiv through the data cipher,
# benbi counting the skcipher's blocks: one byte for ctr), and luks_ivgen.py checks those sectors.
head -c $((18 << 20)) /dev/urandom >"$T/plain18"
n=0
for cfg in "aes-cbc-plain64 256 512" "aes-cbc-plain 256 4096" "aes-cbc-plain64be 128 512" "aes-cbc-benbi 256 512" \
	"aes-cbc-benbi 128 4096" "aes-cbc-eboiv 256 512" "aes-cbc-eboiv 128 4096" "aes-cbc-null 256 512" \
	"aes-cbc-essiv:sha256 128 4096" "aes-cbc-essiv:md5 256 512" "aes-xts-plain64be 512 512" "aes-xts-benbi 256 4096" \
	"aes-xts-essiv:sha256 512 512" "aes-xts-null 512 512" "aes-ctr-plain64 256 512" "aes-ecb 256 4096"; do
	set -- $cfg
	n=$((n + 1))
	img=$T/iv$n
	cp "$T/plain18" "$img"
	if $CS reencrypt --encrypt --type luks2 --reduce-device-size 16M --cipher "$1" --key-size "$2" --sector-size "$3" \
		$CS_PB2 --batch-mode --key-file "$T/pw" "$img" >"$T/out" 2>&1; then
		check "decrypt of cryptsetup's $cfg" sh -c "$BC luks decrypt '$img' - --key-file '$T/pw' | cmp -n $((2 << 20)) - '$T/plain18'"
		check "volume key of cryptsetup's $cfg" test -n "$(vk_of_cs "$img")" -a "$(vk_of_cs "$img")" = "$(vk_of_bc "$img")"
	else
		bad "cryptsetup reencrypt --encrypt $cfg"
		head -n 3 "$T/out"
	fi
	rm -f "$img" "$img.hdr"
	rc 0 "format --header --from $cfg" $BC luks format "$img" --header "$img.hdr" --cipher "$1" --key-size "$2" \
		--sector-size "$3" $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
	check "cryptsetup reencrypt --decrypt of $cfg" sh -c "$CS reencrypt --decrypt --header '$img.hdr' --force-offline-reencrypt \
		--batch-mode --key-file '$T/pw' '$img' && cmp -n 3000000 '$img' '$T/plain3'"
	rm -f "$img"
	rc 0 "format luks1 $cfg" $BC luks format "$img" --type luks1 --cipher "$1" --key-size "$2" $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
	rc 0 "cryptsetup opens luks1 $cfg" $CS open --test-passphrase --key-file "$T/pw" "$img"
	check "same volume key (luks1 $cfg)" test -n "$(vk_of_bc "$img")" -a "$(vk_of_cs "$img")" = "$(vk_of_bc "$img")"
	rm -f "$img" "$img.hdr"
done
# lrw: cryptsetup needs the kernel for it, so blockcrypt's own round trip (the sectors are checked against a
# reference in luks_ivgen.py)
for c in "aes-lrw-benbi 384" "aes-lrw-plain64 256"; do
	set -- $c
	rm -f "$T/lrw"
	rc 0 "format $1" $BC luks format "$T/lrw" --cipher $1 --key-size $2 $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
	check "round trip $1" sh -c "$BC luks decrypt '$T/lrw' - --key-file '$T/pw' | cmp -n 3000000 - '$T/plain3'"
done

# SM4 (cryptsetup's OpenSSL 3.0 backend has no SM4-XTS, so a round trip here and a sector check below); essiv
# keys the cipher with the whole digest as dm-crypt does, so sm4 takes md5's 128 bits and refuses sm3's 256
rc 2 "sm4-cbc-essiv:sm3 refused (a 256-bit salt is no SM4 key)" $BC luks format "$T/sm4" --cipher sm4-cbc-essiv:sm3 $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
for c in sm4-xts-plain64 sm4-cbc-essiv:md5; do
	rm -f "$T/sm4"
	rc 0 "format $c" $BC luks format "$T/sm4" --cipher $c $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
	check "round trip $c" sh -c "$BC luks decrypt '$T/sm4' - --key-file '$T/pw' | cmp -n 3000000 - '$T/plain3'"
done

# detached header made here, decrypted by cryptsetup (offline reencrypt --decrypt)
for ss in 512 4096; do
	rm -f "$T/bd" "$T/bd.hdr"
	rc 0 "format --header --from (sector $ss)" $BC luks format "$T/bd" --header "$T/bd.hdr" --sector-size $ss $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
	check "cryptsetup reencrypt --decrypt --header (sector $ss)" sh -c "$CS reencrypt --decrypt --header '$T/bd.hdr' --force-offline-reencrypt --batch-mode --key-file '$T/pw' '$T/bd' && cmp -n 3000000 '$T/bd' '$T/plain3'"
done

# PBKDF2/AF/digest hashes both ways
for h in sha1 sha384 sha512 ripemd160 whirlpool; do
	for v in luks1 luks2; do
		rm -f "$T/h"
		rc 0 "format $v --hash $h" $BC luks format "$T/h" --type $v --hash $h --size 20M $BC_PB2 --key-file "$T/pw"
		rc 0 "cryptsetup opens $v --hash $h" $CS open --test-passphrase --key-file "$T/pw" "$T/h"
		rc 0 "cryptsetup luksFormat $v --hash $h" $CS luksFormat --type $v --hash $h $CS_PB2 --batch-mode --key-file "$T/pw" "$T/h"
		rc 0 "blockcrypt opens cryptsetup's $v --hash $h" $BC luks test-passphrase "$T/h" --key-file "$T/pw"
	done
done

# LUKS1 with a detached header; passphrases from a stdin line and from --key-file -
rm -f "$T/ld" "$T/ld.hdr"
rc 0 "format --type luks1 --header" $BC luks format "$T/ld" --type luks1 --header "$T/ld.hdr" $BC_PB2 --from "$T/plain3" --key-file "$T/pw"
rc 0 "cryptsetup opens the detached LUKS1 header" $CS open --test-passphrase --header "$T/ld.hdr" --key-file "$T/pw" "$T/ld"
check "detached LUKS1 round trip, passphrase line on stdin" sh -c "(cat '$T/pw'; echo) | $BC luks decrypt '$T/ld' - --header '$T/ld.hdr' | cmp -n 3000000 - '$T/plain3'"
rc 0 "--key-file - reads stdin whole" sh -c "$BC luks test-passphrase '$T/ld' --header '$T/ld.hdr' --key-file - <'$T/pw'"

# --keyfile-offset/--keyfile-size as cryptsetup reads them, both ways
head -c 100 /dev/urandom >"$T/kfo"
rm -f "$T/h"
truncate -s 20M "$T/h"
rc 0 "cryptsetup luksFormat --keyfile-offset 10 --keyfile-size 20" $CS luksFormat --type luks2 $CS_PB2 --batch-mode \
	--key-file "$T/kfo" --keyfile-offset 10 --keyfile-size 20 "$T/h"
rc 0 "the same key file slice opens here" $BC luks test-passphrase "$T/h" --key-file "$T/kfo" --keyfile-offset 10 --keyfile-size 20
rc 1 "the whole key file does not" $BC luks test-passphrase "$T/h" --key-file "$T/kfo"
rm -f "$T/h"
rc 0 "format here with --keyfile-offset 50 -l 32" $BC luks format "$T/h" --size 20M $BC_PB2 --key-file "$T/kfo" --keyfile-offset 50 -l 32
rc 0 "cryptsetup opens it with the same slice" $CS open --test-passphrase --key-file "$T/kfo" --keyfile-offset 50 --keyfile-size 32 "$T/h"
rc 2 "--keyfile-size beyond the file is refused" $BC luks test-passphrase "$T/h" --key-file "$T/kfo" --keyfile-offset 50 -l 51

# LUKS1 made by cryptsetup (it cannot fill the data without device mapper): the data written here decrypts with
# the key cryptsetup dumps, sector by sector through the library's own xts(aes) (IV = little-endian sector number)
truncate -s 8M "$T/l1"
rc 0 "cryptsetup luksFormat --type luks1" $CS luksFormat --type luks1 $CS_PB2 --batch-mode --key-file "$T/pw" "$T/l1"
rc 0 "luks encrypt into cryptsetup's LUKS1" $BC luks encrypt "$T/l1" "$T/plain3" --key-file "$T/pw"
vk=$(vk_of_cs "$T/l1")
off=$($CS luksDump "$T/l1" | awk '/Payload offset/ {print $3}')
for sector in 0 7 5000; do
	dd if="$T/plain3" bs=512 skip=$sector count=1 2>/dev/null >"$T/s"
	check "LUKS1 sector $sector under cryptsetup's key" sh -c "dd if='$T/l1' bs=512 skip=$((off + sector)) count=1 2>/dev/null |
		$BC decrypt 'xts(aes)' --key $vk --iv $(le64 $sector)0000000000000000 | cmp - '$T/s'"
done

# ---- keyslots both ways ----------------------------------------------------------------------------------
for v in luks2 luks1; do
	img=$T/ks$v
	rc 0 "format $v" $BC luks format "$img" --type $v --size 20M $BC_PB2 --key-file "$T/pw"
	rc 0 "cryptsetup luksAddKey ($v)" $CS luksAddKey $CS_PB2 --batch-mode --key-file "$T/pw" "$img" "$T/pw2"
	rc 0 "the key cryptsetup added opens here ($v)" $BC luks test-passphrase "$img" --key-file "$T/pw2"
	rc 0 "remove-key here ($v)" $BC luks remove-key "$img" --key-file "$T/pw2"
	rc 1 "removed key refused here ($v)" $BC luks test-passphrase "$img" --key-file "$T/pw2"
	rc 2 "removed key refused by cryptsetup ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$img"
	rc 0 "add-key here ($v)" $BC luks add-key "$img" "$T/pw2" $BC_PB2 --key-file "$T/pw"
	rc 0 "the key added here opens with cryptsetup ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$img"
	slot=$($BC luks test-passphrase "$img" --key-file "$T/pw2" | awk '{print $3}')
	rc 0 "cryptsetup luksKillSlot ($v)" $CS luksKillSlot --batch-mode "$img" "$slot"
	rc 1 "slot killed by cryptsetup refused here ($v)" $BC luks test-passphrase "$img" --key-file "$T/pw2"
	rc 0 "change-key ($v)" $BC luks change-key "$img" "$T/pw2" $BC_PB2 --key-file "$T/pw"
	rc 0 "changed key opens with cryptsetup ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$img"
	rc 2 "old key refused by cryptsetup after change-key ($v)" $CS open --test-passphrase --key-file "$T/pw" "$img"
	slot=$($BC luks test-passphrase "$img" --key-file "$T/pw2" | awk '{print $3}')
	rc 2 "kill-slot of the last slot needs --batch-mode ($v)" $BC luks kill-slot "$img" "$slot" --key-file "$T/pw2"
	rc 0 "cryptsetup sees exactly one keyslot ($v)" sh -c "test \$($CS luksDump '$img' | grep -cE '^  [0-9]+: luks2|ENABLED') -eq 1"
	rc 0 "uuid set ($v)" $BC luks uuid "$img" --uuid 01234567-89ab-cdef-0123-456789abcdef
	check "cryptsetup sees the uuid ($v)" test "$($CS luksUUID "$img")" = 01234567-89ab-cdef-0123-456789abcdef
done
# change-key moves or keeps the slot as cryptsetup's luksChangeKey does (checked on cryptsetup here: LUKS1 takes the
# first free slot and disables the old one, in place when all 8 are used; LUKS2 keeps it; --key-slot N: in place)
slots_of() { # the enabled keyslots cryptsetup sees
	$CS luksDump "$1" | awk '/^Key Slot [0-9]+: ENABLED/ {sub(":", "", $3); printf "%s ", $3}
		/^  [0-9]+: luks2/ {sub(":", "", $1); printf "%s ", $1}'
}
slot_opened() { # the slot cryptsetup opens with a key file
	$CS open --test-passphrase -v --key-file "$2" "$1" 2>/dev/null | awk '/unlocked/ {print $3}'
}
printf 'pw three' >"$T/pw3"
printf 'pw four' >"$T/pw4"
for v in luks1 luks2; do
	rm -f "$T/ccs" "$T/cbc"
	truncate -s 20M "$T/ccs"
	$CS luksFormat --type $v $CS_PB2 --batch-mode --key-file "$T/pw" "$T/ccs" &&
		$CS luksAddKey $CS_PB2 --batch-mode --key-file "$T/pw" "$T/ccs" "$T/pw2" || bad "cryptsetup setup ($v)"
	$BC luks format "$T/cbc" --type $v --size 20M $BC_PB2 --key-file "$T/pw" >/dev/null &&
		$BC luks add-key "$T/cbc" "$T/pw2" $BC_PB2 --key-file "$T/pw" >/dev/null || bad "setup ($v)"
	$CS luksChangeKey $CS_PB2 --batch-mode --key-file "$T/pw" "$T/ccs" "$T/pw3"
	rc 0 "change-key of slot 0 ($v)" $BC luks change-key "$T/cbc" "$T/pw3" $BC_PB2 --key-file "$T/pw"
	want=$([ $v = luks1 ] && echo 2 || echo 0)
	check "cryptsetup moves slot 0's key to slot $want ($v)" test "$(slot_opened "$T/ccs" "$T/pw3")" = $want
	check "so does change-key ($v)" test "$(slot_opened "$T/cbc" "$T/pw3")" = $want
	check "the same slots are enabled as after cryptsetup's ($v: $(slots_of "$T/ccs"))" test "$(slots_of "$T/cbc")" = "$(slots_of "$T/ccs")"
	$CS luksChangeKey $CS_PB2 --batch-mode --key-slot 1 --key-file "$T/pw2" "$T/ccs" "$T/pw4"
	rc 0 "change-key --key-slot 1 ($v)" $BC luks change-key "$T/cbc" "$T/pw4" --key-slot 1 $BC_PB2 --key-file "$T/pw2"
	check "--key-slot 1 changes slot 1 in place, as cryptsetup ($v)" \
		test "$(slot_opened "$T/cbc" "$T/pw4")" = 1 -a "$(slot_opened "$T/ccs" "$T/pw4")" = 1
	check "the same slots are enabled ($v: $(slots_of "$T/ccs"))" test "$(slots_of "$T/cbc")" = "$(slots_of "$T/ccs")"
	rc 1 "--key-slot names a slot the passphrase does not open ($v)" \
		$BC luks change-key "$T/cbc" "$T/pw2" --key-slot 1 $BC_PB2 --key-file "$T/pw3"
done
# LUKS1 with all eight slots in use: in place
for i in 3 4 5 6 7 8; do
	printf "filler $i" >"$T/f$i"
	$CS luksAddKey $CS_PB2 --batch-mode --key-file "$T/pw4" "$T/ccs" "$T/f$i"
	$BC luks add-key "$T/cbc" "$T/f$i" $BC_PB2 --key-file "$T/pw4" >/dev/null
done
check "eight slots used" test "$(slots_of "$T/cbc")" = "0 1 2 3 4 5 6 7 " -a "$(slots_of "$T/ccs")" = "0 1 2 3 4 5 6 7 "
s5=$(slot_opened "$T/ccs" "$T/f5")
$CS luksChangeKey $CS_PB2 --batch-mode --key-file "$T/f5" "$T/ccs" "$T/pw"
rc 0 "change-key on a full LUKS1 header" $BC luks change-key "$T/cbc" "$T/pw" $BC_PB2 --key-file "$T/f5"
check "a full LUKS1 header changes the key in place, as cryptsetup" \
	test "$(slot_opened "$T/cbc" "$T/pw")" = "$(slot_opened "$T/ccs" "$T/pw")" -a "$(slot_opened "$T/ccs" "$T/pw")" = "$s5" -a -n "$s5"
rc 2 "the old passphrase is refused by cryptsetup" $CS open --test-passphrase --key-file "$T/f5" "$T/cbc"

rc 0 "argon2id add-key" $BC luks add-key "$T/ksluks2" "$T/pw" $BC_A2 --key-file "$T/pw2"
rc 0 "argon2id keyslot opens with cryptsetup" $CS open --test-passphrase --key-file "$T/pw" "$T/ksluks2"

# ---- safety ----------------------------------------------------------------------------------------------
sum=$(sha256sum <"$T/bc1")
rc 2 "format refuses an existing LUKS header" $BC luks format "$T/bc1" $BC_PB2 --key-file "$T/pw"
check "refused format wrote nothing" test "$(sha256sum <"$T/bc1")" = "$sum"
# on a terminal, cryptsetup's question (pty_run.py types the answers); only YES overwrites
PTY="python3 tests/pty_run.py"
# ptyrc: rc, keeping what the terminal showed in $T/tty
ptyrc() {
	rc "$@"
	cp "$T/out" "$T/tty"
}
ptyrc 2 "format on a terminal: an answer other than YES aborts" $PTY "capital letters): =yes" -- $BC luks format "$T/bc1" $BC_PB2 --key-file "$T/pw"
check "the question is cryptsetup's" grep -q "This will overwrite data on $T/bc1 irrevocably" "$T/tty"
check "it names the LUKS header it would overwrite" grep -q "already contains a 'crypto_LUKS' superblock signature" "$T/tty"
check "aborted, as cryptsetup says it" grep -q "Operation aborted" "$T/tty"
check "the aborted format wrote nothing" test "$(sha256sum <"$T/bc1")" = "$sum"
ptyrc 0 "format on a terminal: YES overwrites, then the passphrase is asked twice" $PTY "capital letters): =YES" \
	"Enter passphrase for $T/bc1: =battery staple" "Verify passphrase: =battery staple" -- $BC luks format "$T/bc1" $BC_PB2
check "the typed passphrase is not echoed" sh -c "! grep -q 'battery staple' '$T/tty'"
rc 0 "the new passphrase opens with cryptsetup" $CS open --test-passphrase --key-file "$T/pw2" "$T/bc1"
ptyrc 2 "a passphrase typed differently twice is refused" $PTY "capital letters): =YES" "Enter passphrase for $T/bc1: =one" \
	"Verify passphrase: =two" -- $BC luks format "$T/bc1" $BC_PB2
rc 0 "the refused format left the image as it was" $CS open --test-passphrase --key-file "$T/pw2" "$T/bc1"
head -c 1M /dev/urandom >"$T/nonempty"
ptyrc 0 "format of a non-empty file on a terminal, YES" $PTY "capital letters): =YES" -- $BC luks format "$T/nonempty" $BC_PB2 --key-file "$T/pw"
check "no LUKS warning for a file without a header" sh -c "! grep -q crypto_LUKS '$T/tty'"
ptyrc 0 "a new file is formatted without a question" $PTY -- $BC luks format "$T/fresh" --size 20M $BC_PB2 --key-file "$T/pw"
check "no question for a new file" sh -c "! grep -q capital '$T/tty'"
rc 2 "without a terminal a non-empty file is refused" $BC luks format "$T/nonempty" $BC_PB2 --key-file "$T/pw"
ptyrc 0 "--batch-mode overwrites without a question" $PTY -- $BC luks format "$T/nonempty" -q $BC_PB2 --key-file "$T/pw"
rc 0 "--force too" sh -c "$BC luks format '$T/nonempty' --force $BC_PB2 --key-file '$T/pw' </dev/null"
# plain mode's passphrase prompt, without echo; -y asks twice
rm -f "$T/pt"
ptyrc 0 "plain: the passphrase typed at the prompt" $PTY "Enter passphrase for $T/pt: =correct horse" -- \
	$BC plain encrypt "$T/plain3" "$T/pt" --hash sha256
check "plain: the typed passphrase is not echoed" sh -c "! grep -q 'correct horse' '$T/tty'"
check "plain: typed, it hashes as the same line on stdin" sh -c "$BC plain decrypt '$T/pt' - --hash sha256 <'$T/pl1' | cmp -n 3000000 - '$T/plain3'"
ptyrc 2 "plain -y: two different passphrases are refused" $PTY "Enter passphrase for $T/pt: =a" "Verify passphrase: =b" -- \
	$BC plain decrypt "$T/pt" "$T/x" -y

rc 2 "an unknown cipher refused" $BC luks format "$T/sp" --size 20M --cipher nosuchcipher-xts-plain64 $BC_PB2 --key-file "$T/pw"
check "the message names the cipher" grep -q nosuchcipher "$T/err"
for spec in aes:64-cbc-lmk aes-cbc-lmk aes-xts-tcw aes-cbc-essiv:sha512; do
	rc 2 "$spec refused" $BC luks format "$T/sp2" --size 20M --cipher $spec $BC_PB2 --key-file "$T/pw"
	check "$spec: one line naming the spec" sh -c "test \$(wc -l <'$T/err') -eq 1 && grep -q '$spec' '$T/err'"
	check "$spec: nothing written" test ! -e "$T/sp2"
done
cp "$T/plain34" "$T/req"
$CS reencrypt --encrypt --init-only --type luks2 --reduce-device-size 32M $CS_PB2 --batch-mode --key-file "$T/pw" "$T/req" >/dev/null 2>&1
rc 2 "an unfinished reencryption (LUKS2 requirement) is refused" $BC luks decrypt "$T/req" "$T/x" --key-file "$T/pw"
check "the refusal names the requirement" grep -q requirement "$T/err"

# ---- plain mode against the library's skcipher, sector by sector ---------------------------------------------
head -c 64 /dev/urandom >"$T/k64"
head -c 32 /dev/urandom >"$T/k32"
k64=$(od -An -tx1 -v "$T/k64" | tr -d ' \n')
k32=$(od -An -tx1 -v "$T/k32" | tr -d ' \n')
dd if="$T/plain3" bs=512 skip=3 count=1 2>/dev/null >"$T/s3"
# plain_case <cipher> <key file> <key hex> <lib alg> <sector size> <iv-offset> <large 0|1> <iv kind> <sector>
plain_case() {
	large=
	[ "$7" = 1 ] && large=--iv-large-sectors
	rm -f "$T/pimg"
	$BC plain encrypt "$T/plain3" "$T/pimg" --cipher "$1" --key-file "$2" --key-size $(($(wc -c <"$2") * 8)) \
		--sector-size "$5" --iv-offset "$6" $large >/dev/null 2>&1 || { bad "plain encrypt $*"; return; }
	n=$(($6 + $9 * $5 / 512))
	[ "$7" = 1 ] && n=$((n / ($5 / 512)))
	case $8 in
	plain64) iv=$(le64 $n)0000000000000000 ;;
	plain64_32) iv=$(le64 $n)000000000000000000000000000000000000000000000000 ;;   # adiantum, hctr2: 32 bytes
	plain) iv=$(le64 $((n & 4294967295)))0000000000000000 ;;
	plain64be) iv=0000000000000000$(printf '%016x' $n) ;;
	esac
	dd if="$T/plain3" bs="$5" skip="$9" count=1 2>/dev/null >"$T/ps"
	check "plain $1 sector $9 ($5 bytes, iv-offset $6, large $7)" sh -c "dd if='$T/pimg' bs=$5 skip=$9 count=1 2>/dev/null |
		$BC decrypt '$4' --key $3 --iv $iv | cmp - '$T/ps'"
	check "plain decrypt round trip $1" sh -c "$BC plain decrypt '$T/pimg' - --cipher '$1' --key-file '$2' --key-size $(($(wc -c <"$2") * 8)) \
		--sector-size $5 --iv-offset $6 $large | cmp -n 3000000 - '$T/plain3'"
}
plain_case aes-xts-plain64 "$T/k64" "$k64" 'xts(aes)' 512 0 0 plain64 9
plain_case aes-xts-plain64 "$T/k64" "$k64" 'xts(aes)' 4096 0 0 plain64 100
plain_case aes-xts-plain64 "$T/k64" "$k64" 'xts(aes)' 4096 24 1 plain64 33
plain_case aes-xts-plain "$T/k32" "$k32" 'xts(aes)' 512 4294967290 0 plain 11
plain_case aes-xts-plain64be "$T/k32" "$k32" 'xts(aes)' 512 77 0 plain64be 5
plain_case aes-cbc-essiv:sha256 "$T/k32" "$k32" 'essiv(cbc(aes),sha256)' 512 3 0 plain64 12
plain_case sm4-xts-plain64 "$T/k32" "$k32" 'xts(sm4)' 512 0 0 plain64 4
plain_case 'capi:xts(aes)-plain64' "$T/k64" "$k64" 'xts(aes)' 1024 8 0 plain64 6
# the wide-block modes: dm-crypt's plain64 zero-filled to their 32-byte tweak, the same key as the library's tfm
plain_case xchacha12,aes-adiantum-plain64 "$T/k32" "$k32" 'adiantum(xchacha12,aes)' 512 0 0 plain64_32 7
plain_case xchacha20,aes-adiantum-plain64 "$T/k32" "$k32" 'adiantum(xchacha20,aes)' 4096 24 1 plain64_32 21
plain_case 'capi:adiantum(xchacha12,aes)-plain64' "$T/k32" "$k32" 'adiantum(xchacha12,aes)' 4096 0 0 plain64_32 5
plain_case 'capi:hctr2(aes)-plain64' "$T/k32" "$k32" 'hctr2(aes)' 512 4294967290 0 plain64_32 13
# a mapping at an offset direct I/O cannot take (512 bytes: the page cache does it) and at one it can (4 KiB)
for off in 1 8; do
	rm -f "$T/po"
	head -c $((off * 512)) /dev/urandom >"$T/po"
	head -c $((off * 512)) "$T/po" >"$T/po.head"
	rc 0 "plain encrypt at --offset $off" $BC plain encrypt "$T/plain3" "$T/po" --key-file "$T/k32" --offset $off
	check "plain at --offset $off: the bytes before it untouched" cmp -n $((off * 512)) "$T/po" "$T/po.head"
	check "plain at --offset $off: sector 3 under the library's essiv" sh -c "dd if='$T/po' bs=512 skip=$((off + 3)) count=1 2>/dev/null |
		$BC decrypt 'essiv(cbc(aes),sha256)' --key $k32 --iv $(le64 3)0000000000000000 | cmp - '$T/s3'"
	check "plain at --offset $off: round trip" sh -c "$BC plain decrypt '$T/po' - --key-file '$T/k32' --offset $off | cmp -n 3000000 - '$T/plain3'"
done

# ---- plain mode passphrases, as cryptsetup open --type plain takes them -------------------------------------
# refkey <hash> <key bytes> <passphrase file>: the key cryptsetup(8) documents (hash("A" * i || passphrase) for
# round i, cut to the key; HASH:N zero-fills after N bytes; plain pads), to stdout. luks_plain_key.py checks this
# construction against libcryptsetup itself.
refkey() {
	python3 -c 'import hashlib, sys
name, _, n = sys.argv[1].partition(":"); keylen = int(sys.argv[2]); pw = open(sys.argv[3], "rb").read()
n = int(n) if n else keylen
out = pw[:n] if name == "plain" else b"".join(hashlib.new(name, b"A" * i + pw).digest() for i in range(keylen))[:n]
sys.stdout.buffer.write(out + bytes(keylen - len(out)))' "$@"
}
# same_as_raw <description> <raw key file> <plain options> -- <command producing the image $T/pp>: the image made
# from a passphrase must equal the one made with the expected raw key
same_as_raw() {
	d=$1
	key=$2
	opts=$3
	shift 4
	rm -f "$T/pp" "$T/pr"
	if ! "$@" >"$T/out" 2>&1; then
		bad "$d: exit $?"
		head -n 3 "$T/out" | sed 's/^/    /'
		return
	fi
	$BC plain encrypt "$T/plain3" "$T/pr" $opts --key-file "$key" -q >/dev/null 2>&1
	check "$d" cmp "$T/pp" "$T/pr"
}
printf 'correct horse\nsecond line' >"$T/pl"
refkey ripemd160 32 "$T/pl1" >"$T/rk"
same_as_raw "plain: a line of stdin, hashed with ripemd160 (the default)" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' <'$T/pl'"
refkey sha256 64 "$T/pl1" >"$T/rk"
same_as_raw "plain: sha256 into a 512-bit xts key (two hash rounds)" "$T/rk" "--cipher aes-xts-plain64 --key-size 512" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --hash sha256 --cipher aes-xts-plain64 --key-size 512 <'$T/pl'"
refkey sha1 64 "$T/pl1" >"$T/rk"
same_as_raw "plain: sha1 into a 512-bit key (four hash rounds)" "$T/rk" "--cipher aes-xts-plain64 --key-size 512" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' -h sha1 -c aes-xts-plain64 -s 512 <'$T/pl'"
refkey sha512 32 "$T/pl" >"$T/rk"
same_as_raw "plain: --key-file - hashes all of stdin, newlines included" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --key-file - --hash sha512 <'$T/pl'"
printf 't horse' >"$T/plo"
refkey sha256 32 "$T/plo" >"$T/rk"
same_as_raw "plain: --keyfile-offset and --keyfile-size on stdin" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --key-file - --keyfile-offset 6 --keyfile-size 7 --hash sha256 <'$T/pl'"
refkey plain 32 "$T/pl1" >"$T/rk"
same_as_raw "plain: --hash plain pads the passphrase with zeros" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --hash plain <'$T/pl'"
refkey sha256:16 32 "$T/pl1" >"$T/rk"
same_as_raw "plain: --hash sha256:16 zero-fills the key after 16 bytes" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --hash sha256:16 <'$T/pl'"
head -c 100 /dev/urandom >"$T/kf"
dd if="$T/kf" bs=1 skip=10 count=32 2>/dev/null >"$T/rk"
same_as_raw "plain: a key file is the raw key (--hash ignored, --keyfile-offset, longer file cut)" "$T/rk" "" -- \
	sh -c "$BC plain encrypt '$T/plain3' '$T/pp' --key-file '$T/kf' --keyfile-offset 10 --hash sha256 2>'$T/warn'"
check "plain: the ignored --hash is warned about" grep -q 'WARNING: The --hash parameter is being ignored' "$T/warn"
rc 0 "plain decrypt with the passphrase" sh -c "$BC plain decrypt '$T/pp' '$T/pd' --key-file '$T/kf' --keyfile-offset 10 -q &&
	$BC plain decrypt '$T/pr' - <'$T/pl' >/dev/null"
rm -f "$T/pp"
$BC plain encrypt "$T/plain3" "$T/pp" --hash sha256 <"$T/pl" >/dev/null 2>&1
check "plain: round trip through a passphrase" sh -c "$BC plain decrypt '$T/pp' - --hash sha256 <'$T/pl1' | cmp -n 3000000 - '$T/plain3'"
rc 2 "plain: a key file shorter than the key is refused" $BC plain decrypt "$T/pp" "$T/x" --key-file "$T/pl1" -q
rc 2 "plain: --keyfile-size longer than stdin is refused" sh -c "$BC plain decrypt '$T/pp' '$T/x' --keyfile-size 99 <'$T/pl'"
rc 2 "plain: an unknown hash is refused" sh -c "$BC plain decrypt '$T/pp' '$T/x' --hash nosuchhash <'$T/pl'"
rc 2 "plain: a hash length above the key is refused" sh -c "$BC plain decrypt '$T/pp' '$T/x' --hash sha256:33 <'$T/pl'"
check "plain: the refusals wrote nothing" test ! -e "$T/x"

finish
