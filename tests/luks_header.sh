#!/bin/sh
# blockcrypt luks header-backup, header-restore, erase and convert against cryptsetup's luksHeaderBackup,
# luksHeaderRestore, erase and convert: the same backup bytes both ways, restores and conversions cryptsetup opens,
# hostile backups and every refusal (exit 2, one line, the image unchanged).
NAME=luks_header
. "$(dirname "$0")/sh_common.sh"

CS=cryptsetup
PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
printf 'correct horse' >"$T/pw"
printf 'battery staple' >"$T/pw2"

sum() { sha256sum <"$1"; }
# refused <description> <file> <command...>: exit 2, one line on stderr, and the file as it was
refused() {
	d=$1
	f=$2
	shift 2
	before=$(sum "$f")
	rc 2 "$d" "$@"
	if [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else bad "$d: not one line of reason"; head -n 3 "$T/err"; fi
	if [ "$(sum "$f")" = "$before" ]; then ok; else bad "$d: $f changed"; fi
}
zeros() { # zeros <file> <offset> <length>: the range holds only zero bytes
	dd if="$1" bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) 2>/dev/null | cmp -s -n "$3" - "$T/zero"
}
head -c 1048576 /dev/zero >"$T/zero"
head -c 3000000 /dev/urandom >"$T/plain"

# two keyslots from cryptsetup, the data filled here
mkimg() { # mkimg <file> <luksFormat options...>
	f=$1
	shift
	rm -f "$f"
	truncate -s 20M "$f"
	$CS luksFormat "$@" $PB2 --batch-mode --key-file "$T/pw" "$f" >/dev/null 2>&1 || bad "luksFormat $*"
	$CS luksAddKey $PB2 --batch-mode --key-file "$T/pw" --key-slot 3 "$f" "$T/pw2" >/dev/null 2>&1 || bad "luksAddKey $*"
	$BC luks encrypt "$f" "$T/plain" --key-file "$T/pw" >/dev/null 2>&1 || bad "encrypt into $*"
}
mkimg "$T/l1" --type luks1
mkimg "$T/l2" --type luks2 --sector-size 512

# ---- header-backup: the file cryptsetup writes ----------------------------------------------------------
for v in l1 l2; do
	rc 0 "cryptsetup luksHeaderBackup $v" $CS luksHeaderBackup "$T/$v" --header-backup-file "$T/$v.cs"
	rc 0 "header-backup $v" $BC luks header-backup "$T/$v" --header-backup-file "$T/$v.bc"
	check "the same bytes as cryptsetup's backup ($v)" cmp "$T/$v.cs" "$T/$v.bc"
	check "read-only for its owner, as cryptsetup creates it ($v)" test "$(stat -c %a "$T/$v.bc")" = 400
	refused "header-backup over an existing file ($v)" "$T/$v.bc" $BC luks header-backup "$T/$v" --header-backup-file "$T/$v.bc"
done
check "LUKS1 backup: up to the last keyslot, rounded to 4 KiB" test "$(stat -c %s "$T/l1.bc")" = 2068480
check "LUKS2 backup: both headers and the keyslots area" test "$(stat -c %s "$T/l2.bc")" = 16777216
# a detached LUKS2 header made here
rm -f "$T/d" "$T/d.hdr"
rc 0 "format --header" $BC luks format "$T/d" --header "$T/d.hdr" $PB2 --from "$T/plain" --key-file "$T/pw"
rc 0 "cryptsetup luksHeaderBackup of the detached header" $CS luksHeaderBackup "$T/d.hdr" --header-backup-file "$T/d.cs"
rc 0 "header-backup --header" $BC luks header-backup "$T/d" --header "$T/d.hdr" --header-backup-file "$T/d.bc"
check "the same bytes (detached header)" cmp "$T/d.cs" "$T/d.bc"
refused "header-backup of a file that is no LUKS image" "$T/plain" $BC luks header-backup "$T/plain" --header-backup-file "$T/p.bc"
check "no backup file is left by a refusal" test ! -e "$T/p.bc"
refused "header-backup needs --header-backup-file" "$T/l1" $BC luks header-backup "$T/l1"

# ---- header-restore: each tool's backup restored by the other ------------------------------------------
for v in l1 l2; do
	cp "$T/$v" "$T/r"
	dd if=/dev/urandom of="$T/r" bs=4096 count=8 conv=notrunc 2>/dev/null
	rc 0 "header-restore of cryptsetup's backup ($v)" $BC luks header-restore "$T/r" --header-backup-file "$T/$v.cs" --batch-mode
	check "the image is whole again ($v)" cmp "$T/r" "$T/$v"
	dd if=/dev/zero of="$T/r" bs=4096 count=8 conv=notrunc 2>/dev/null
	rc 0 "cryptsetup luksHeaderRestore of our backup ($v)" $CS luksHeaderRestore --batch-mode "$T/r" --header-backup-file "$T/$v.bc"
	check "the image is whole again, by cryptsetup ($v)" cmp "$T/r" "$T/$v"
	# keys added after the backup are gone after the restore, as cryptsetup's man page warns
	$BC luks kill-slot "$T/r" 3 --batch-mode >/dev/null 2>&1
	rc 2 "the removed passphrase no longer opens ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$T/r"
	rc 0 "header-restore over a LUKS header with the same layout ($v)" $BC luks header-restore "$T/r" --header-backup-file "$T/$v.bc" --batch-mode
	rc 0 "the backup's passphrase opens again, by cryptsetup ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$T/r"
	refused "header-restore without --batch-mode, stdin not a terminal ($v)" "$T/r" $BC luks header-restore "$T/r" --header-backup-file "$T/$v.bc" </dev/null
done
# onto a file without a LUKS header (cryptsetup's rule: written too); a detached header restored into its file
head -c $((20 << 20)) /dev/zero >"$T/z"
rc 0 "header-restore onto a file without a header" $BC luks header-restore "$T/z" --header-backup-file "$T/l2.cs" --batch-mode
rc 0 "it opens with the backup's passphrase" $CS open --test-passphrase --key-file "$T/pw" "$T/z"
dd if=/dev/zero of="$T/d.hdr" bs=4096 count=8 conv=notrunc 2>/dev/null
rc 0 "header-restore --header" $BC luks header-restore "$T/d" --header "$T/d.hdr" --header-backup-file "$T/d.cs" --batch-mode
check "the detached header decrypts again" sh -c "$BC luks decrypt '$T/d' - --header '$T/d.hdr' --key-file '$T/pw' | cmp -n 3000000 - '$T/plain'"
# a terminal is asked, and only YES goes on
PTY="python3 tests/pty_run.py"
before=$(sum "$T/r")
rc 2 "header-restore on a terminal: no aborts" $PTY "capital letters): =no" -- $BC luks header-restore "$T/r" --header-backup-file "$T/l2.bc"
cp "$T/out" "$T/tty"
check "the question is cryptsetup's" grep -q "already contains LUKS2 header. Replacing header will destroy existing keyslots" "$T/tty"
check "the aborted restore wrote nothing" test "$(sum "$T/r")" = "$before"
rc 0 "header-restore on a terminal: YES restores" $PTY "capital letters): =YES" -- $BC luks header-restore "$T/r" --header-backup-file "$T/l2.bc"

# ---- hostile and mismatched backups: refused, nothing written --------------------------------------------
python3 - "$T" <<'EOF'
import hashlib, struct, sys
T = sys.argv[1]
b2 = open(T + "/l2.cs", "rb").read()
b1 = open(T + "/l1.cs", "rb").read()
def put(name, data):
    open(T + "/h." + name, "wb").write(data)
def resum(img, off):
    img[off + 448:off + 512] = bytes(64)
    img[off + 448:off + 480] = hashlib.sha256(bytes(img[off:off + 16384])).digest()
put("trunc2", b2[:len(b2) // 2])
put("trunc2-page", b2[:len(b2) - 4096])
put("trunc2-hdr", b2[:20000])
put("empty", b"")
put("trunc1", b1[:len(b1) - 8192])
put("trunc1-phdr", b1[:300])
for name, off in (("magic1", 0), ("magic2", 16384)):
    x = bytearray(b2); x[off] ^= 1; put(name, bytes(x))
for name, off in (("csum1", 0), ("csum2", 16384)):
    x = bytearray(b2); x[off + 448] ^= 1; put(name, bytes(x))
x = bytearray(b2); x[4096 + 10] ^= 1; put("json1", bytes(x))          # JSON changed, checksum not
x = bytearray(b2); x[16384 + 4096 + 10] ^= 1; put("json2", bytes(x))
x = bytearray(b2); x[6:8] = struct.pack(">H", 3); resum(x, 0); put("version2", bytes(x))
x = bytearray(b2); x[16384 + 16:16384 + 24] = struct.pack(">Q", 99); resum(x, 16384); put("seqid", bytes(x))
x = bytearray(b1); x[0] ^= 1; put("magic-l1", bytes(x))
x = bytearray(b1); x[6:8] = struct.pack(">H", 9); put("version-l1", bytes(x))
x = bytearray(b1); x[208 + 44:208 + 48] = struct.pack(">I", 3999); put("stripes-l1", bytes(x))
EOF
for h in trunc2 trunc2-page trunc2-hdr empty trunc1 trunc1-phdr magic1 magic2 csum1 csum2 json1 json2 version2 seqid \
	magic-l1 version-l1 stripes-l1; do
	cp "$T/l2" "$T/r"
	refused "hostile backup $h" "$T/r" $BC luks header-restore "$T/r" --header-backup-file "$T/h.$h" --batch-mode
done
refused "a missing backup file" "$T/r" $BC luks header-restore "$T/r" --header-backup-file "$T/none" --batch-mode
# cryptsetup's rules over an existing header: the same data offset; LUKS1 the same key size, LUKS2 the same areas
truncate -s 20M "$T/o"
$CS luksFormat --type luks2 --offset 8192 $PB2 --batch-mode --key-file "$T/pw" "$T/o" >/dev/null 2>&1
refused "a LUKS2 backup with another data offset" "$T/o" $BC luks header-restore "$T/o" --header-backup-file "$T/l2.cs" --batch-mode
rc 1 "cryptsetup refuses it too" $CS luksHeaderRestore --batch-mode "$T/o" --header-backup-file "$T/l2.cs"
rm -f "$T/o"
truncate -s 20M "$T/o"
$CS luksFormat --type luks1 --key-size 256 $PB2 --batch-mode --key-file "$T/pw" "$T/o" >/dev/null 2>&1
$CS luksHeaderBackup "$T/o" --header-backup-file "$T/o.cs"
refused "a LUKS1 backup with another key size" "$T/l1" $BC luks header-restore "$T/l1" --header-backup-file "$T/o.cs" --batch-mode
refused "a LUKS1 backup over a LUKS2 image with another data offset" "$T/l2" $BC luks header-restore "$T/l2" --header-backup-file "$T/l1.cs" --batch-mode
refused "a detached header's backup (data at 0) into an image" "$T/l2" $BC luks header-restore "$T/l2" --header-backup-file "$T/d.cs" --batch-mode
truncate -s 8M "$T/small"
refused "a backup whose data offset lies beyond the image" "$T/small" $BC luks header-restore "$T/small" --header-backup-file "$T/l2.cs" --batch-mode

# ---- erase: the same header as cryptsetup's erase; tokens stay, without keyslots ---------------------------
for v in l1 l2; do
	cp "$T/$v" "$T/e"
	cp "$T/$v" "$T/e.cs"
	if [ $v = l2 ]; then
		printf '{"type":"blockcrypt-test","keyslots":["0","3"]}' >"$T/tok"
		for f in "$T/e" "$T/e.cs"; do $CS token import --json-file "$T/tok" "$f" >/dev/null 2>&1 || bad "token import"; done
	fi
	refused "erase without --batch-mode, stdin not a terminal ($v)" "$T/e" $BC luks erase "$T/e" </dev/null
	rc 0 "erase ($v)" $BC luks erase "$T/e" --batch-mode
	rc 0 "cryptsetup erase ($v)" $CS erase --batch-mode "$T/e.cs"
	check "cryptsetup sees the header its erase makes ($v)" sh -c "$CS luksDump '$T/e' | sed 1d >'$T/e.d1'; $CS luksDump '$T/e.cs' | sed 1d >'$T/e.d2'; cmp '$T/e.d1' '$T/e.d2'"
	rc 1 "cryptsetup opens it with no passphrase ($v)" $CS open --test-passphrase --key-file "$T/pw" "$T/e"
	rc 1 "nor with the other one ($v)" $CS open --test-passphrase --key-file "$T/pw2" "$T/e"
	rc 1 "test-passphrase finds no keyslot ($v)" $BC luks test-passphrase "$T/e" --key-file "$T/pw"
	rc 0 "erase of an erased image does nothing ($v)" $BC luks erase "$T/e" --batch-mode
	[ $v = l1 ] && check "LUKS1: the same phdr bytes as cryptsetup's erase" cmp -n 4096 "$T/e" "$T/e.cs"
	[ $v = l2 ] && check "LUKS2: the same JSON as cryptsetup's erase" sh -c "cmp -i 4096 -n 12288 '$T/e' '$T/e.cs' &&
		cmp -i 20480 -n 12288 '$T/e' '$T/e.cs'"
	[ $v = l1 ] && at=2097152 || at=16777216
	check "the data untouched ($v)" sh -c "cmp -i $at '$T/e' '$T/$v' && cmp -i $at '$T/e.cs' '$T/$v'"
done
check "the LUKS2 token stayed, without keyslots" grep -q "blockcrypt-test" "$T/e.d1"
cp "$T/l1" "$T/e1"
rc 0 "erase -q" $BC luks erase "$T/e1" -q
check "LUKS1: the key material is wiped (zeros)" zeros "$T/e1" 4096 258048
check "LUKS1: keyslot 3's too" zeros "$T/e1" $((1520 * 512)) 258048
# on a terminal, cryptsetup's questions; anything but YES leaves the image as it was
cp "$T/l2" "$T/q"
for act in erase "convert --type luks1"; do
	before=$(sum "$T/q")
	rc 2 "$act on a terminal: no aborts" $PTY "capital letters): =no" -- $BC luks $act "$T/q"
	cp "$T/out" "$T/tty"
	check "$act asks cryptsetup's question" grep -q "This operation will $(echo $act | cut -d' ' -f1) " "$T/tty"
	check "$act: the aborted action wrote nothing" test "$(sum "$T/q")" = "$before"
done
rc 0 "erase on a terminal: YES erases" $PTY "capital letters): =YES" -- $BC luks erase "$T/q"
rc 1 "nothing opens it" $CS open --test-passphrase --key-file "$T/pw" "$T/q"
refused "erase of a file that is no LUKS image" "$T/plain" $BC luks erase "$T/plain" --batch-mode

# ---- convert: cryptsetup's layout and rules ---------------------------------------------------------------
cp "$T/l1" "$T/c"
cp "$T/l1" "$T/c.cs"
refused "convert without --batch-mode, stdin not a terminal" "$T/c" $BC luks convert "$T/c" --type luks2 </dev/null
refused "convert to the version it is" "$T/c" $BC luks convert "$T/c" --type luks1 --batch-mode
refused "convert needs --type" "$T/c" $BC luks convert "$T/c" --batch-mode
rc 0 "convert LUKS1 to LUKS2" $BC luks convert "$T/c" --type luks2 --batch-mode
rc 0 "cryptsetup convert LUKS1 to LUKS2" $CS convert --batch-mode --type luks2 "$T/c.cs"
check "cryptsetup dumps the same LUKS2 header" sh -c "$CS luksDump '$T/c' | sed 1d >'$T/c.d1'; $CS luksDump '$T/c.cs' | sed 1d >'$T/c.d2'; cmp '$T/c.d1' '$T/c.d2'"
check "the keyslot areas and data are cryptsetup's bytes" cmp -i 32768 "$T/c" "$T/c.cs"
rc 0 "cryptsetup opens the converted image" $CS open --test-passphrase --key-file "$T/pw" "$T/c"
rc 0 "and with the second passphrase" $CS open --test-passphrase --key-file "$T/pw2" "$T/c"
check "the data decrypts as before" sh -c "$BC luks decrypt '$T/c' - --key-file '$T/pw2' | cmp -n 3000000 - '$T/plain'"
rc 0 "convert back to LUKS1" $BC luks convert "$T/c" --type luks1 --batch-mode
rc 0 "cryptsetup convert back to LUKS1" $CS convert --batch-mode --type luks1 "$T/c.cs"
check "the round trip gives the LUKS1 header area back" cmp -n 2068480 "$T/c" "$T/l1"
check "and the data" cmp -i 2097152 "$T/c" "$T/l1"
check "the same image as cryptsetup's round trip, byte for byte" cmp "$T/c" "$T/c.cs"
cp "$T/l2" "$T/c"
cp "$T/l2" "$T/c.cs"
rc 0 "convert LUKS2 to LUKS1" $BC luks convert "$T/c" --type luks1 --batch-mode
rc 0 "cryptsetup convert LUKS2 to LUKS1" $CS convert --batch-mode --type luks1 "$T/c.cs"
check "the same image as cryptsetup's, byte for byte" cmp "$T/c" "$T/c.cs"
rc 0 "cryptsetup opens the LUKS1 image" $CS open --test-passphrase --key-file "$T/pw2" "$T/c"
check "the data decrypts as before (LUKS1)" sh -c "$BC luks decrypt '$T/c' - --key-file '$T/pw' | cmp -n 3000000 - '$T/plain'"
# a detached LUKS2 header: converted in its file
cp "$T/d.hdr" "$T/dc.hdr"
rc 0 "convert a detached header to LUKS1" $BC luks convert "$T/d" --header "$T/dc.hdr" --type luks1 --batch-mode
rc 0 "cryptsetup opens it" $CS open --test-passphrase --header "$T/dc.hdr" --key-file "$T/pw" "$T/d"
rc 0 "and back to LUKS2" $BC luks convert "$T/d" --header "$T/dc.hdr" --type luks2 --batch-mode
check "it decrypts" sh -c "$BC luks decrypt '$T/d' - --header '$T/dc.hdr' --key-file '$T/pw' | cmp -n 3000000 - '$T/plain'"
# what LUKS1 cannot express, refused by both tools
cp "$T/l2" "$T/x"
$CS luksAddKey --pbkdf argon2id --pbkdf-force-iterations 4 --pbkdf-memory 32 --batch-mode --key-file "$T/pw" --key-slot 5 "$T/x" "$T/pw2" >/dev/null 2>&1
refused "LUKS2 to LUKS1 with an argon2id keyslot" "$T/x" $BC luks convert "$T/x" --type luks1 --batch-mode
check "cryptsetup refuses it too" sh -c "! $CS convert --batch-mode --type luks1 '$T/x'"
cp "$T/l2" "$T/x"
$CS token import --json-file "$T/tok" "$T/x" >/dev/null 2>&1
refused "LUKS2 to LUKS1 with a token" "$T/x" $BC luks convert "$T/x" --type luks1 --batch-mode
check "cryptsetup refuses it too (token)" sh -c "! $CS convert --batch-mode --type luks1 '$T/x'"
cp "$T/l2" "$T/x"
$CS luksAddKey $PB2 --batch-mode --key-file "$T/pw" --key-slot 9 "$T/x" "$T/pw2" >/dev/null 2>&1
refused "LUKS2 to LUKS1 with keyslot 9 in use" "$T/x" $BC luks convert "$T/x" --type luks1 --batch-mode
check "cryptsetup refuses it too (keyslot 9)" sh -c "! $CS convert --batch-mode --type luks1 '$T/x'"
mkimg "$T/x" --type luks2 --sector-size 4096
refused "LUKS2 to LUKS1 with 4096-byte sectors" "$T/x" $BC luks convert "$T/x" --type luks1 --batch-mode
check "cryptsetup refuses it too (sectors)" sh -c "! $CS convert --batch-mode --type luks1 '$T/x'"
rm -f "$T/x"
rc 0 "format LUKS1 with the data right after the keyslots" $BC luks format "$T/x" --type luks1 --key-size 256 --offset 2056 --size 4M $PB2 --key-file "$T/pw"
refused "LUKS1 to LUKS2 without room to move the keyslots" "$T/x" $BC luks convert "$T/x" --type luks2 --batch-mode
check "cryptsetup refuses it too (no room)" sh -c "! $CS convert --batch-mode --type luks2 '$T/x'"
rm -f "$T/x"
truncate -s 20M "$T/x"
$CS luksFormat --type luks2 --luks2-metadata-size 32k --sector-size 512 $PB2 --batch-mode --key-file "$T/pw" "$T/x" >/dev/null 2>&1
refused "LUKS2 to LUKS1 with 32 KiB headers" "$T/x" $BC luks convert "$T/x" --type luks1 --batch-mode

# ---- resize: the LUKS2 segment's size in the header (offline; the data untouched) --------------------------
cp "$T/l2" "$T/s"
rc 0 "resize to 2 MiB" $BC luks resize "$T/s" --device-size 2M
check "cryptsetup sees the fixed size" sh -c "$CS luksDump '$T/s' | grep -q 'length: 2097152 \\[bytes\\]'"
rc 0 "cryptsetup opens the resized image" $CS open --test-passphrase --key-file "$T/pw" "$T/s"
check "the segment decrypts to its 2 MiB" sh -c "$BC luks decrypt '$T/s' - --key-file '$T/pw' >'$T/s.out' && test \$(stat -c %s '$T/s.out') = 2097152 && cmp -n 2097152 '$T/s.out' '$T/plain'"
rc 0 "resize without a size: dynamic again" $BC luks resize "$T/s"
check "cryptsetup sees the whole device" sh -c "$CS luksDump '$T/s' | grep -q 'length: (whole device)'"
check "the data is as it was" sh -c "$BC luks decrypt '$T/s' - --key-file '$T/pw' | cmp -n 3000000 - '$T/plain'"
rc 0 "resize beyond the file grows it" $BC luks resize "$T/s" --device-size 30M
check "to the data offset and 30 MiB" test "$(stat -c %s "$T/s")" = $(((16 + 30) << 20))
check "cryptsetup sees 30 MiB" sh -c "$CS luksDump '$T/s' | grep -q 'length: 31457280 \\[bytes\\]'"
refused "resize to a size that is no whole sector" "$T/s" $BC luks resize "$T/s" --device-size 1000
refused "resize of LUKS1 (no size field)" "$T/l1" $BC luks resize "$T/l1" --device-size 1M
refused "resize of a file that is no LUKS image" "$T/plain" $BC luks resize "$T/plain" --device-size 1M

finish
