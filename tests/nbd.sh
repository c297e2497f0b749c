#!/bin/sh
# blockcrypt luks serve / plain serve: LUKS1, LUKS2 and plain images' plaintext over NBD to qemu-img, qemu-io, nbdinfo,
# nbdcopy, nbdsh and nbdfuse; what they write must decrypt (blockcrypt luks decrypt, cryptsetup). Protocol: NBD doc/proto.md.
NAME=nbd
. "$(dirname "$0")/sh_common.sh"

SPID=
trap '[ -n "$SPID" ] && kill -TERM $SPID 2>/dev/null; rm -rf "$T"' EXIT
PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
printf 'correct horse' >"$T/pw"
S=$T/s
U="nbd+unix:///?socket=$S"
TO="timeout 60"
# nbdsh runs `python3 -m nbd`: the python3 that has the libnbd module (Debian's, ahead of another in PATH)
NBDSH=
if command -v nbdsh >/dev/null; then
	if python3 -c 'import nbd, nbdsh' 2>/dev/null; then
		NBDSH=nbdsh
	elif /usr/bin/python3 -c 'import nbd, nbdsh' 2>/dev/null; then
		NBDSH="env PATH=/usr/bin:$PATH nbdsh"
	fi
fi

check() {
	d=$1
	shift
	if "$@" >"$T/out" 2>&1; then ok; else bad "$d"; sed 's/^/    /' "$T/out" | head -n 8; fi
}

# serve <blockcrypt args...>: the server in the background on $S (bounded in time), once the socket is there
serve() {
	rm -f "$S"
	timeout 300 "$BC" "$@" --socket "$S" 2>"$T/serve.log" &
	SPID=$!
	i=0
	while [ ! -S "$S" ] && [ $i -lt 200 ] && kill -0 $SPID 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	if [ -S "$S" ]; then ok; else bad "server did not start: $*"; cat "$T/serve.log"; fi
}

# stop: SIGTERM; the server must exit 0 and remove its socket
stop() {
	kill -TERM $SPID
	wait $SPID
	st=$?
	SPID=
	if [ $st -eq 0 ] && [ ! -e "$S" ]; then ok; else bad "server exit $st after SIGTERM (socket left: $(ls "$S" 2>&1))"; fi
}

# patch FILE OFFSET COUNT BYTE: COUNT copies of BYTE (two hex digits) at OFFSET, as qemu-io's write -P does
patch() {
	head -c "$3" /dev/zero | tr '\000' "$(printf "\\$(printf '%03o' 0x$4)")" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

head -c $((8 << 20)) /dev/urandom >"$T/plain"
head -c $((8 << 20)) /dev/urandom >"$T/new"

# ---- each kind of image: read out, written in, written at odd offsets, decrypted offline --------------------
for cfg in "luks2 aes-xts-plain64 512 4096" "luks1 aes-xts-plain64 256 512" "luks2 aes-cbc-essiv:sha256 256 512" \
	"plain aes-cbc-essiv:sha256 256 512"; do
	set -- $cfg
	img=$T/img
	rm -f "$img"
	if [ "$1" = plain ]; then
		cp "$T/plain" "$T/p0"
		head -c 64 /dev/urandom >"$T/key"
		check "plain encrypt" "$BC" plain encrypt "$T/p0" "$img" --cipher "$2" --key-size "$3" --key-file "$T/key" -q
		serve plain serve "$img" --cipher "$2" --key-size "$3" --key-file "$T/key"
		dec() { "$BC" plain decrypt "$img" "$1" --cipher "$2" --key-size "$3" --key-file "$T/key" -q; }
	else
		# LUKS2 with a detached header (data offset 0): what cryptsetup's offline decryption takes
		hdr=
		[ "$1" = luks2 ] && hdr="--header $img.hdr --sector-size $4" && rm -f "$img.hdr"
		check "format $cfg" "$BC" luks format "$img" --type "$1" --cipher "$2" --key-size "$3" $hdr $PB2 \
			--from "$T/plain" --key-file "$T/pw" --batch-mode
		hdr=${hdr%% --sector-size*}
		serve luks serve "$img" $hdr --key-file "$T/pw"
		dec() { rm -f "$1"; "$BC" luks decrypt "$img" "$1" $hdr --key-file "$T/pw"; }
	fi
	check "nbdinfo size ($cfg)" sh -c "$TO nbdinfo --size '$U' | grep -qx $((8 << 20))"
	check "qemu-img info ($cfg)" sh -c "$TO qemu-img info -f raw '$U' | grep -q 'virtual size: 8 MiB'"
	check "qemu-img compare ($cfg)" $TO qemu-img compare -f raw -F raw "$U" "$T/plain"
	rm -f "$T/conv"
	check "qemu-img convert out ($cfg)" sh -c "$TO qemu-img convert -f raw -O raw '$U' '$T/conv' && cmp '$T/conv' '$T/plain'"
	rm -f "$T/copy"
	check "nbdcopy out ($cfg)" sh -c "$TO nbdcopy '$U' '$T/copy' && cmp '$T/copy' '$T/plain'"
	check "nbdcopy in ($cfg)" $TO nbdcopy "$T/new" "$U"
	check "qemu-io odd writes ($cfg)" $TO qemu-io -f raw -c 'write -P 0x55 1001 3333' -c 'write -P 0x66 5119 2' \
		-c 'write -P 0x77 8388000 608' -c 'write -z 12345 7000' -c 'read -P 0x55 1001 3333' -c 'read -P 0x66 5119 2' \
		-c 'read -P 0x77 8388000 608' -c 'read -P 0 12345 7000' -c flush "$U"
	cp "$T/new" "$T/exp"
	patch "$T/exp" 1001 3333 55
	patch "$T/exp" 5119 2 66
	patch "$T/exp" 8388000 608 77
	dd if=/dev/zero of="$T/exp" bs=1 seek=12345 count=7000 conv=notrunc 2>/dev/null
	check "qemu-img compare after writes ($cfg)" $TO qemu-img compare -f raw -F raw "$U" "$T/exp"
	stop
	if dec "$T/dec" "$2" "$3" >"$T/out" 2>&1 && cmp "$T/dec" "$T/exp" >/dev/null; then ok; else bad "offline decrypt of what NBD wrote ($cfg)"; fi
	# independent decryptions: cryptsetup's offline decryption (LUKS2), qemu's LUKS driver (LUKS1)
	if [ "$1" = luks2 ] && command -v cryptsetup >/dev/null; then
		check "cryptsetup reencrypt --decrypt of what NBD wrote ($cfg)" sh -c "$TO cryptsetup reencrypt --decrypt \
			$hdr --force-offline-reencrypt --batch-mode --key-file '$T/pw' '$img' && cmp '$img' '$T/exp'"
	elif [ "$1" = luks2 ]; then
		echo "SKIPPED: nbd: cryptsetup not installed (cryptsetup-bin): LUKS2 written through NBD not checked by it"
	elif [ "$1" = luks1 ]; then
		check "qemu's LUKS driver reads what NBD wrote ($cfg)" $TO qemu-img compare --object secret,id=s0,file="$T/pw" \
			--image-opts driver=luks,key-secret=s0,file.filename="$img" driver=raw,file.filename="$T/exp"
	fi
done

# ---- --read-only: reads work, writes fail with EPERM, the image is untouched ------------------------------
rm -f "$T/img"
check "format for read-only" "$BC" luks format "$T/img" $PB2 --from "$T/plain" --key-file "$T/pw" --batch-mode
cp "$T/img" "$T/img.orig"
serve luks serve "$T/img" --key-file "$T/pw" --read-only --export-name disk1
if [ -n "$NBDSH" ]; then
	check "nbdsh: writes to a read-only export fail with EPERM" $TO $NBDSH -c "
h.set_strict_mode(0)
h.connect_uri('$U')
for f, a in ((h.pwrite, (b'x' * 512, 0)), (h.zero, (512, 0)), (h.trim, (512, 0))):
    try:
        f(*a)
        raise AssertionError('%s succeeded' % f)
    except nbd.Error as x:
        assert x.errno == 'EPERM', (f, x.errno)
h.flush()
h.shutdown()
"
	check "nbdsh block status" $TO $NBDSH -c "
h.add_meta_context('base:allocation')
h.connect_uri('$U')
assert h.can_meta_context('base:allocation')
got = []
h.block_status(1 << 20, 4096, lambda m, o, e, err: got.append((m, o, e)))
assert got == [('base:allocation', 4096, [1 << 20, 0])], got
h.shutdown()
"
	check "nbdsh with simple replies only" $TO $NBDSH -c "
h.set_request_structured_replies(False)
h.connect_uri('$U')
assert not h.get_structured_replies_negotiated() and not h.can_df()
assert h.pread(4096, 8192) == open('$T/plain', 'rb').read()[8192:12288]
h.shutdown()
"
fi
check "nbdinfo read-only" sh -c "$TO nbdinfo '$U' | grep -q 'is_read_only: true'"
check "nbdinfo --list" sh -c "$TO nbdinfo --list '$U' | grep -q 'export=\"disk1\"'"
check "named export" sh -c "$TO nbdinfo --size 'nbd+unix:///disk1?socket=$S' | grep -qx $((8 << 20))"
check "unknown export refused" sh -c "! $TO nbdinfo 'nbd+unix:///other?socket=$S'"
check "qemu-io write refused" sh -c "$TO qemu-io -f raw -c 'write -P 1 0 512' '$U' 2>&1 | grep -qi 'not permitted\|read-only\|permission denied'"
rm -f "$T/copy"
check "nbdcopy out of read-only" sh -c "$TO nbdcopy '$U' '$T/copy' && cmp '$T/copy' '$T/plain'"
stop
check "read-only image untouched" cmp "$T/img" "$T/img.orig"

# ---- several clients at once, scripted and hostile requests (nbdsh), nbdfuse ------------------------------
serve luks serve "$T/img" --key-file "$T/pw"
rm -f "$T/c1" "$T/c2" "$T/c3"
$TO nbdcopy "$U" "$T/c1" &
p1=$!
$TO nbdcopy "$U" "$T/c2" &
p2=$!
$TO qemu-img convert -f raw -O raw "$U" "$T/c3"
wait $p1 && wait $p2 && cmp "$T/c1" "$T/plain" && cmp "$T/c2" "$T/plain" && cmp "$T/c3" "$T/plain" && ok ||
	bad "three clients at once"
if [ -n "$NBDSH" ]; then
	check "nbdsh requests" $TO $NBDSH -c "
h.set_strict_mode(0)
h.connect_uri('$U')
size = h.get_size()
assert size == 8 << 20
# nbd.Error.errno is the errno's name
def fails(e, f, *a):
    try:
        f(*a)
    except nbd.Error as x:
        assert x.errno == e, (f, a, x.errno, x.string)
        return
    raise AssertionError('no error from %s %s' % (f, a))
fails('EINVAL', h.pread, 512, size - 100)
fails('EINVAL', h.pread, 1, size)
fails('EINVAL', h.pread, 512, (1 << 64) - 256)
fails('ENOSPC', h.pwrite, b'x' * 512, size - 1)
fails('ENOSPC', h.zero, 4096, size)
fails('EINVAL', h.trim, 4096, size)
fails('EINVAL', h.pread, 512, 0, nbd.CMD_FLAG_REQ_ONE)
fails('EINVAL', h.zero, 512, 0, nbd.CMD_FLAG_FAST_ZERO)
h.pwrite(b'hello, nbd', 70001, nbd.CMD_FLAG_FUA)
assert h.pread(10, 70001) == b'hello, nbd'
assert h.get_structured_replies_negotiated() and h.can_df()
assert h.pread(10, 70001, nbd.CMD_FLAG_DF) == b'hello, nbd'
h.zero(1000, 69500)
assert h.pread(2000, 69000)[500:1500] == bytes(1000)
h.trim(65536, 0)
h.flush()
assert len(h.pread(0, 0)) == 0
assert len(h.pread(size, 0)) == size
h.shutdown()
"
else
	echo "SKIPPED: nbd: nbdsh or its python3 module not installed (python3-libnbd): scripted requests"
fi
check "raw protocol: handshake options and hostile requests" $TO python3 tests/nbd_proto.py "$S"
check "server alive after hostile clients" sh -c "$TO nbdinfo --size '$U' | grep -qx $((8 << 20))"
if ! command -v nbdfuse >/dev/null; then
	echo "SKIPPED: nbd: nbdfuse not installed (libnbd-bin)"
elif [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "SKIPPED: nbd: nbdfuse needs /dev/fuse and fusermount3 (fuse3)"
else
	printf 'via fuse' >"$T/via"
	mkdir "$T/mnt"
	$TO nbdfuse "$T/mnt/disk" "$U" 2>"$T/fuse.log" &
	fp=$!
	i=0
	while [ ! -e "$T/mnt/disk" ] && [ $i -lt 100 ] && kill -0 $fp 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
	if [ ! -e "$T/mnt/disk" ]; then
		echo "SKIPPED: nbd: nbdfuse could not mount here: $(head -n 1 "$T/fuse.log")"
	else
		rm -f "$T/now"
		check "nbdfuse read" sh -c "$TO nbdcopy '$U' '$T/now' && cmp '$T/mnt/disk' '$T/now'"
		check "nbdfuse write" sh -c "printf 'via fuse' | dd of='$T/mnt/disk' bs=1 seek=5000 conv=notrunc 2>/dev/null &&
			$TO nbdcopy '$U' - | cmp -s -n 8 -i 5000:0 - '$T/via'"
		fusermount3 -u "$T/mnt" 2>/dev/null || umount "$T/mnt" 2>/dev/null
	fi
	kill $fp 2>/dev/null
	wait $fp
fi
stop

# ---- TCP on the loopback ------------------------------------------------------------------------------------
port=$((20000 + $$ % 20000))
timeout 120 "$BC" luks serve "$T/img" --key-file "$T/pw" --port $port 2>"$T/serve.log" &
SPID=$!
i=0
while ! grep -q serving "$T/serve.log" && [ $i -lt 200 ] && kill -0 $SPID 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
check "TCP on 127.0.0.1" sh -c "$TO nbdinfo --size 'nbd://127.0.0.1:$port/' | grep -qx $((8 << 20))"
kill -TERM $SPID
wait $SPID && ok || bad "TCP server exit after SIGTERM"
SPID=

# ---- usage errors: exit 2, nothing served ------------------------------------------------------------------
for a in "--socket $S --port 1" "--port 70000" "--bind 127.0.0.1"; do
	"$BC" luks serve "$T/img" --key-file "$T/pw" $a >/dev/null 2>&1
	[ $? -eq 2 ] && ok || bad "luks serve $a: exit 2 expected"
done
printf 'wrong' >"$T/bad"
"$BC" luks serve "$T/img" --key-file "$T/bad" --socket "$S" >/dev/null 2>&1
[ $? -eq 1 ] && [ ! -e "$S" ] && ok || bad "wrong passphrase: exit 1 and no socket"
finish
