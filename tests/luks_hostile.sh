#!/bin/sh
# blockcrypt luks against hostile images: a corpus generated here from cryptsetup-made LUKS1 and LUKS2 headers
# (LUKS1/LUKS2 on-disk format fields set out of range, broken JSON, wrong types, overlaps, checksums, truncations).
# Every case must be refused with exit 2 and a one-line reason, must not hang or crash, and must write nothing.
NAME=luks_hostile
. "$(dirname "$0")/sh_common.sh"

PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
printf 'correct horse' >"$T/pw"
printf 'battery staple' >"$T/pw2"
truncate -s 2M "$T/base2" "$T/base1"
cryptsetup luksFormat --type luks2 --offset 2048 $PB2 --batch-mode --key-file "$T/pw" "$T/base2" >/dev/null 2>&1 ||
	bad "cryptsetup luksFormat --type luks2"
cryptsetup luksFormat --type luks1 $PB2 --batch-mode --key-file "$T/pw" "$T/base1" >/dev/null 2>&1 ||
	bad "cryptsetup luksFormat --type luks1"
for b in base1 base2; do
	if $BC luks test-passphrase "$T/$b" --key-file "$T/pw" >/dev/null 2>&1; then ok; else bad "$b does not open"; fi
done

mkdir -p "$T/corpus" "$T/good"
vk() {
	cryptsetup luksDump --dump-volume-key --batch-mode --key-file "$T/pw" "$1" 2>/dev/null |
		sed -n '/MK dump:/,$p' | sed 's/MK dump://' | tr -d ' \t\n'
}
python3 - "$T" "$(vk "$T/base1")" "$(vk "$T/base2")" <<'EOF'
import base64, hashlib, json, os, struct, sys

T = sys.argv[1]
base1 = open(T + "/base1", "rb").read()
base2 = open(T + "/base2", "rb").read()
hdr_size = struct.unpack(">Q", base2[8:16])[0]
meta = json.loads(base2[4096:hdr_size].split(b"\0")[0])

# The volume key digests cryptsetup made cost ~125 ms each to check; at 1000 iterations the corpus runs fast.
d = meta["digests"]["0"]
d["iterations"] = 1000
d["digest"] = base64.b64encode(hashlib.pbkdf2_hmac(d["hash"], bytes.fromhex(sys.argv[3]), base64.b64decode(d["salt"]),
                                                    1000, len(base64.b64decode(d["digest"])))).decode()
b1 = bytearray(base1)
b1[164:168] = struct.pack(">I", 1000)
b1[112:132] = hashlib.pbkdf2_hmac(b1[72:104].split(b"\0")[0].decode(), bytes.fromhex(sys.argv[2]), bytes(b1[132:164]), 1000, 20)
base1 = bytes(b1)

def luks2(text=None, obj=None, bin_edit=None, csum=True, copies=(0, 1), data=None):
    """An image whose JSON area holds `text` (or `obj` serialized) in the given copies, checksums recomputed."""
    img = bytearray(data if data is not None else base2)
    if text is None:
        text = json.dumps(obj if obj is not None else meta, separators=(",", ":"))
    for c in copies:
        off = c * hdr_size
        if text is not None:
            raw = text.encode() if isinstance(text, str) else text
            area = raw[: hdr_size - 4096].ljust(hdr_size - 4096, b"\0")
            img[off + 4096 : off + hdr_size] = area
        if bin_edit:
            bin_edit(img, off)
        if csum:
            img[off + 448 : off + 512] = bytes(64)
            img[off + 448 : off + 480] = hashlib.sha256(bytes(img[off : off + hdr_size])).digest()
    return bytes(img)

base2 = luks2()   # the cheap digest in both copies: the reference every case below starts from
for name, data in (("base1", base1), ("base2", base2)):
    open("%s/good/%s" % (T, name), "wb").write(data)

def edited(path, value):
    o = json.loads(json.dumps(meta))
    cur = o
    for k in path[:-1]:
        cur = cur[k]
    if value is DELETE:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return o

DELETE = object()
cases = {}
ks = ["keyslots", "0"]
seg = ["segments", "0"]
dig = ["digests", "0"]
for name, path, value in [
    ("missing-segments", ["segments"], DELETE),
    ("missing-config", ["config"], DELETE),
    ("keyslots-array", ["keyslots"], []),
    ("tokens-string", ["tokens"], "x"),
    ("seg-offset-text", seg + ["offset"], "abc"),
    ("seg-offset-number", seg + ["offset"], 1048576),
    ("seg-offset-0-overlaps-header", seg + ["offset"], "0"),
    ("seg-offset-beyond-file", seg + ["offset"], "99999999999"),
    ("seg-offset-overflow", seg + ["offset"], "18446744073709551616"),
    ("seg-offset-negative", seg + ["offset"], "-512"),
    ("seg-offset-unaligned", seg + ["offset"], "1048577"),
    ("seg-size-beyond-file", seg + ["size"], "1099511627776"),
    ("seg-size-unaligned", seg + ["size"], "1000"),
    ("seg-sector-1000", seg + ["sector_size"], 1000),
    ("seg-sector-8192", seg + ["sector_size"], 8192),
    ("seg-sector-string", seg + ["sector_size"], "512"),
    ("seg-type-linear", seg + ["type"], "linear"),
    ("seg-cipher-unknown", seg + ["encryption"], "nosuchcipher-xts-plain64"),
    ("seg-cipher-lrw-keysize", seg + ["encryption"], "aes-lrw-benbi"),
    ("seg-cipher-keycount", seg + ["encryption"], "aes:2-xts-plain64"),
    ("seg-cipher-tcw", seg + ["encryption"], "aes-xts-tcw"),
    ("seg-cipher-essiv-sha512", seg + ["encryption"], "aes-xts-essiv:sha512"),
    ("seg-cipher-no-iv", seg + ["encryption"], "aes-xts"),
    ("seg-cipher-capi-unclosed", seg + ["encryption"], "capi:xts(aes-plain64"),
    ("seg-iv-tweak-huge", seg + ["iv_tweak"], "18446744073709551615"),
    ("seg-integrity", seg + ["integrity"], {"type": "hmac(sha256)", "journal_encryption": "none", "journal_integrity": "none"}),
    ("ks-area-offset-0", ks + ["area", "offset"], "0"),
    ("ks-area-beyond", ks + ["area", "offset"], "1044480"),
    ("ks-area-size-0", ks + ["area", "size"], "0"),
    ("ks-area-size-huge", ks + ["area", "size"], "18446744073709551615"),
    ("ks-area-type-none", ks + ["area", "type"], "none"),
    ("ks-keysize-0", ks + ["key_size"], 0),
    ("ks-keysize-huge", ks + ["key_size"], 99999),
    ("ks-keysize-string", ks + ["key_size"], "64"),
    ("ks-area-keysize-huge", ks + ["area", "key_size"], 100000),
    ("ks-stripes-3999", ks + ["af", "stripes"], 3999),
    ("ks-stripes-huge", ks + ["af", "stripes"], 2147483647),
    ("ks-af-hash-unknown", ks + ["af", "hash"], "nosuchhash"),
    ("ks-af-type", ks + ["af", "type"], "luks2"),
    ("ks-kdf-scrypt", ks + ["kdf", "type"], "scrypt"),
    ("ks-pbkdf2-iter-0", ks + ["kdf", "iterations"], 0),
    ("ks-pbkdf2-iter-huge", ks + ["kdf", "iterations"], 4294967295),
    ("ks-pbkdf2-iter-negative", ks + ["kdf", "iterations"], -5),
    ("ks-salt-not-base64", ks + ["kdf", "salt"], "!!!!"),
    ("ks-salt-empty", ks + ["kdf", "salt"], ""),
    ("ks-type-unknown", ks + ["type"], "luks3"),
    ("ks-priority-9", ks + ["priority"], 9),
    ("dig-iter-0", dig + ["iterations"], 0),
    ("dig-iter-huge", dig + ["iterations"], 2000000000),
    ("dig-digest-bad", dig + ["digest"], "****"),
    ("dig-digest-short", dig + ["digest"], "AAAA"),
    ("dig-keyslot-missing", dig + ["keyslots"], ["7"]),
    ("dig-keyslot-twice", dig + ["keyslots"], ["0", "0"]),
    ("dig-keyslot-number", dig + ["keyslots"], [0]),
    ("dig-no-segment", dig + ["segments"], []),
    ("dig-type", dig + ["type"], "hmac"),
    ("cfg-json-size", ["config", "json_size"], "4096"),
    ("cfg-keyslots-size", ["config", "keyslots_size"], "123"),
    ("cfg-keyslots-size-huge", ["config", "keyslots_size"], "18446744073709551615"),
    ("cfg-requirement", ["config", "requirements"], {"mandatory": ["online-reencrypt-v2"]}),
    ("cfg-requirement-array", ["config", "requirements"], ["offline-reencrypt"]),
    ("cfg-flags-string", ["config", "flags"], "allow-discards"),
]:
    cases["l2-" + name] = luks2(obj=edited(path, value))

o = json.loads(json.dumps(meta))
o["keyslots"]["1"] = o["keyslots"]["0"]
o["digests"]["0"]["keyslots"].append("1")
cases["l2-keyslots-overlap"] = luks2(obj=o)
for bad_name in ["01", "abc", "99", "-1", ""]:
    o = json.loads(json.dumps(meta))
    o["keyslots"][bad_name] = o["keyslots"].pop("0")
    cases["l2-ks-name-" + (bad_name or "empty")] = luks2(obj=o)
o = json.loads(json.dumps(meta))
o["segments"]["1"] = o["segments"]["0"]
cases["l2-two-segments"] = luks2(obj=o)
o = json.loads(json.dumps(meta))
o["tokens"]["0"] = {"type": "x", "keyslots": ["5"]}
cases["l2-token-bad-keyslot"] = luks2(obj=o)
o = json.loads(json.dumps(meta))
o["digests"]["1"] = o["digests"]["0"]
cases["l2-two-digests-one-keyslot"] = luks2(obj=o)
text = json.dumps(meta, separators=(",", ":"))
cases["l2-json-truncated"] = luks2(text=text[: len(text) // 2])
cases["l2-json-top-array"] = luks2(text="[" + text + "]")
cases["l2-json-duplicate-key"] = luks2(text=text.replace('{"keyslots":', '{"keyslots":{},"keyslots":', 1))
cases["l2-json-trailing"] = luks2(text=text + "}")
cases["l2-json-deep"] = luks2(text='{"tokens":' + "[" * 5000 + "]" * 5000 + "}")
cases["l2-json-empty"] = luks2(text="")
cases["l2-json-not-terminated"] = luks2(text=b"{" + b" " * (hdr_size - 4097))
# binary headers (both copies)
put = lambda at, b: (lambda img, off: img.__setitem__(slice(off + at, off + at + len(b)), b))
cases["l2-checksum-mismatch"] = luks2(text=text.replace("sha256", "sha257", 1), csum=False)
cases["l2-version-3"] = luks2(bin_edit=put(6, b"\0\3"))
cases["l2-hdr-size-odd"] = luks2(bin_edit=put(8, struct.pack(">Q", 12345)))
cases["l2-hdr-size-huge"] = luks2(bin_edit=put(8, struct.pack(">Q", 1 << 62)))
cases["l2-hdr-offset-wrong"] = luks2(bin_edit=put(256, struct.pack(">Q", 4096)))
cases["l2-csum-alg-unknown"] = luks2(bin_edit=put(72, b"md99\0"))
cases["l2-label-unterminated"] = luks2(bin_edit=put(24, b"L" * 48))
cases["l2-uuid-unterminated"] = luks2(bin_edit=put(168, b"U" * 40))
for n in [0, 100, 4095, 4096, 16384, 20000, 32768 + 100, 200000]:
    cases["l2-truncated-%d" % n] = base2[:n]

# LUKS1 phdr fields
def luks1(edits):
    img = bytearray(base1)
    for at, b in edits:
        img[at : at + len(b)] = b
    return bytes(img)
be32 = lambda v: struct.pack(">I", v)
slot = lambda i, f: 208 + 48 * i + f
for name, edits in [
    ("keybytes-0", [(108, be32(0))]),
    ("keybytes-huge", [(108, be32(100000))]),
    ("cipher-unterminated", [(8, b"a" * 32)]),
    ("hash-unknown", [(72, b"nosuchhash\0")]),
    ("payload-beyond-file", [(104, be32(0xFFFFFFF0))]),
    ("payload-overlaps-keys", [(104, be32(1))]),
    ("digest-iter-0", [(164, be32(0))]),
    ("digest-iter-huge", [(164, be32(0xFFFFFFFF))]),
    ("slot0-state", [(slot(0, 0), be32(0x12345678))]),
    ("slot0-iter-0", [(slot(0, 4), be32(0))]),
    ("slot0-iter-huge", [(slot(0, 4), be32(0xFFFFFFFF))]),
    ("slot0-offset-0", [(slot(0, 40), be32(0))]),
    ("slot0-offset-beyond", [(slot(0, 40), be32(0x7FFFFFFF))]),
    ("slot1-overlaps-slot0", [(slot(1, 40), be32(10))]),
    ("slot0-stripes-1", [(slot(0, 44), be32(1))]),
    ("slot0-stripes-huge", [(slot(0, 44), be32(0xFFFFFFFF))]),
]:
    cases["l1-" + name] = luks1(edits)
for n in [592, 1000, 4096, 100000]:
    cases["l1-truncated-%d" % n] = base1[:n]
cases["not-luks"] = b"\0" * 65536
for name, data in cases.items():
    open("%s/corpus/%s" % (T, name), "wb").write(data)

# Damaged primary, intact secondary: recovered (section 4.5), so it must still open.
img = bytearray(base2)
img[0:6] = b"XXXXXX"
open(T + "/good/l2-primary-damaged", "wb").write(img)
img = bytearray(base2)
img[4096 + 10] ^= 1
open(T + "/good/l2-primary-bad-checksum", "wb").write(img)
EOF

# each case: test-passphrase, add-key (and decrypt) are refused with exit 2 and one line; dump exits 0 or 2; nothing written
for f in "$T"/corpus/*; do
	c=$(basename "$f")
	before=$(sha256sum <"$f")
	# decrypt opens and unlocks as test-passphrase does: only every fifth case runs it, to save time
	acts="test-passphrase add-key dump"
	[ $((n = ${n:-0} + 1)) -ge 5 ] && n=0 && acts="$acts decrypt"
	for act in $acts; do
		case $act in
		decrypt) extra="$T/out-$c" ;;
		add-key) extra="$T/pw2 $PB2" ;;
		*) extra= ;;
		esac
		timeout 60 $BC luks $act "$f" $extra --key-file "$T/pw" >/dev/null 2>"$T/err"
		st=$?
		# lines on stderr, counted without starting a process (0, 1, or 2 for "more")
		lines=0
		{ read -r _ && lines=1 && read -r _ && lines=2; } <"$T/err"
		# dump shows what it can parse (an unsupported cipher or a costly KDF is still shown); the others refuse
		if { [ $st -eq 2 ] || { [ $act = dump ] && [ $st -eq 0 ]; }; } && [ "$lines" -le 1 ] && { [ $st -eq 0 ] || [ "$lines" -eq 1 ]; }; then
			ok
		else
			bad "$c: luks $act gave exit $st and $lines lines on stderr"
			head -n 3 "$T/err" | sed 's/^/    /'
		fi
	done
	if [ "$(sha256sum <"$f")" = "$before" ] && [ ! -s "$T/out-$c" ]; then ok; else bad "$c: something was written"; fi
done
for f in "$T"/good/*; do
	if $BC luks test-passphrase "$f" --key-file "$T/pw" >/dev/null 2>&1; then ok; else bad "$(basename "$f") does not open"; fi
done
echo "corpus: $(ls "$T/corpus" | wc -l) hostile images"
# LUKS_HOSTILE_KEEP=DIR keeps the images (tests/fuzz/luks_seeds.py turns them into fuzz_luks_header seeds)
[ -z "$LUKS_HOSTILE_KEEP" ] || cp "$T"/corpus/* "$T"/good/* "$LUKS_HOSTILE_KEEP"/
finish
