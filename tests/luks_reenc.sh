#!/bin/sh
# blockcrypt luks decrypt and read of LUKS2 images in the middle of a cryptsetup reencryption (the online-reencrypt-v2
# requirement): metadata only (--init-only), runs killed with SIGKILL, torn hot zones, against the plaintext byte by byte.
NAME=luks_reenc
. "$(dirname "$0")/sh_common.sh"

CS=cryptsetup
PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
printf 'correct horse' >"$T/pw"
head -c 25165824 /dev/urandom >"$T/plain"

sum() { sha256sum <"$1"; }
# the segments of an image as "N:flags" words, and its hot zone as "offset size"
segs() { $CS luksDump --dump-json-metadata "$1" | python3 -c '
import json, sys
j = json.load(sys.stdin)["segments"]
print(" ".join("%s:%s" % (k, ",".join(v.get("flags", []))) for k, v in sorted(j.items(), key=lambda e: int(e[0]))))'; }
hot() { $CS luksDump --dump-json-metadata "$1" | python3 -c '
import json, sys
for v in json.load(sys.stdin)["segments"].values():
    if "in-reencryption" in v.get("flags", []): print(v["offset"], v["size"])'; }
# same <description> <image>: decrypt and a read across every segment boundary give the plaintext
same() {
	rm -f "$T/dec"
	rc 0 "decrypt ($1)" $BC luks decrypt "$2" "$T/dec" --key-file "$T/pw"
	check "the plaintext ($1)" cmp "$T/dec" "$T/plain"
	h=$(hot "$2")
	if [ -n "$h" ]; then
		o=$((${h% *} - 16777216 - 1000))
		n=$((${h#* } + 3000))
		[ $o -ge 0 ] || o=0
		$BC luks read "$2" --offset $o --length $n --key-file "$T/pw" >"$T/part" 2>"$T/err" || bad "read ($1)"
		dd if="$T/plain" bs=1 skip=$o count=$n 2>/dev/null | cmp -s - "$T/part" && ok || bad "read across the hot zone ($1)"
	fi
}
mkimg() { # mkimg <file> <luksFormat options...>
	f=$1
	shift
	rm -f "$f"
	truncate -s 40M "$f"
	$CS luksFormat "$@" $PB2 --batch-mode --key-file "$T/pw" "$f" >/dev/null 2>&1 || bad "luksFormat $*"
	$BC luks encrypt "$f" "$T/plain" --key-file "$T/pw" >/dev/null 2>&1 || bad "encrypt into $*"
}
reenc() { $CS reencrypt --batch-mode --force-offline-reencrypt --key-file "$T/pw" $PB2 "$@"; }

mkimg "$T/base" --type luks2
mkimg "$T/base512" --type luks2 --sector-size 512

# ---- metadata only: every segment and both backups, nothing rewritten yet ------------------------------------
for r in checksum journal none; do
	cp "$T/base" "$T/i"
	check "cryptsetup reencrypt --init-only --resilience $r" reenc --init-only --resilience $r "$T/i"
	same "init-only, $r" "$T/i"
done
cp "$T/base" "$T/i"
check "cryptsetup reencrypt --init-only to another cipher and sector size" \
	reenc --init-only --cipher aes-cbc-essiv:sha256 --key-size 256 --sector-size 512 "$T/i"
same "init-only, to aes-cbc-essiv:sha256 in 512-byte sectors" "$T/i"

# ---- killed runs: a data segment under each key and the hot zone between them --------------------------------
# kill <image> <reencrypt options...>: SIGKILL after some progress, retried until the image is caught midway
kill_mid() {
	f=$1
	shift
	src=$T/base
	case "$*" in *sector-size*) src=$T/base512 ;; esac
	for d in 0.2 0.3 0.5 0.1 0.7 0.25 0.4 0.15 0.6 0.35 0.45 0.55 0.65 0.8 0.9 1; do
		cp "$src" "$f"
		$CS reencrypt --batch-mode --force-offline-reencrypt --key-file "$T/pw" $PB2 --hotzone-size 64k "$@" "$f" \
			>/dev/null 2>&1 &
		p=$!
		sleep $d
		kill -9 $p 2>/dev/null
		wait $p 2>/dev/null
		[ -n "$(hot "$f")" ] && return 0
	done
	return 1
}
for r in checksum journal; do
	for extra in "" "--cipher aes-cbc-essiv:sha256 --key-size 256 --sector-size 512"; do
		what="$r${extra:+, to aes-cbc-essiv in 512-byte sectors}"
		if ! kill_mid "$T/k" --resilience $r $extra; then
			bad "no run of cryptsetup reencrypt ($what) was caught midway"
			continue
		fi
		case $(segs "$T/k") in *:in-reencryption*backup-previous*backup-final*) ok ;; *) bad "killed midway: the segments ($what)" ;; esac
		same "killed, $what" "$T/k"
		# the run finished by cryptsetup: all under the new key
		cp "$T/k" "$T/f"
		check "cryptsetup repair, the recovery of the hot zone ($what)" $CS repair --batch-mode --key-file "$T/pw" "$T/f"
		check "cryptsetup reencrypt --resume-only ($what)" reenc --resume-only "$T/f"
		same "resumed by cryptsetup, $what" "$T/f"
		# a torn hot zone: its first half written with the new key, the rest still old
		set -- $(hot "$T/k")
		src=$T/base
		case "$extra" in *sector-size*) src=$T/base512 ;; esac
		cp "$T/k" "$T/t"
		dd if="$src" of="$T/t" bs=4096 skip=$(($1 / 4096)) seek=$(($1 / 4096)) count=$(($2 / 4096)) conv=notrunc 2>/dev/null
		dd if="$T/f" of="$T/t" bs=4096 skip=$(($1 / 4096)) seek=$(($1 / 4096)) count=$(($2 / 8192)) conv=notrunc 2>/dev/null
		check "the torn zone differs from both ($what)" sh -c "! cmp -s '$T/t' '$T/k' && ! cmp -s '$T/t' '$T/f'"
		same "torn hot zone, $what" "$T/t"
	done
done

# ---- refusals: nothing written, exit 2, one line -------------------------------------------------------------
kill_mid "$T/k" --resilience checksum || bad "no run caught midway"
before=$(sum "$T/k")
printf 'other' >"$T/pw2"
rc 2 "add-key during a reencryption" $BC luks add-key "$T/k" "$T/pw2" --key-file "$T/pw" $PB2
check "one line of reason" test "$(wc -l <"$T/err")" -eq 1
check "the image unchanged" test "$(sum "$T/k")" = "$before"
check "dump names the hot zone and the resilience" sh -c "$BC luks dump '$T/k' | grep -q 'hot zone' &&
	$BC luks dump '$T/k' | grep -q 'Reencryption in progress: reencrypt, forward, resilience checksum'"
rc 0 "test-passphrase during a reencryption" $BC luks test-passphrase "$T/k" --key-file "$T/pw"
check "header-backup during a reencryption: cryptsetup's bytes" sh -c "$BC luks header-backup '$T/k' --header-backup-file '$T/hb' &&
	$CS luksHeaderBackup '$T/k' --header-backup-file '$T/hb2' && cmp '$T/hb' '$T/hb2'"
# hostile metadata of an image caught midway: each edit refused with exit 2 and one line, nothing written
mkdir -p "$T/h"
python3 - "$T/k" "$T/h" <<'PY'
import hashlib, json, struct, sys
img = open(sys.argv[1], "rb").read()
hs = struct.unpack(">Q", img[8:16])[0]
meta = json.loads(img[4096:hs].split(b"\0")[0])
hot = [k for k, v in meta["segments"].items() if "in-reencryption" in v.get("flags", [])][0]
rk = [k for k, v in meta["keyslots"].items() if v["type"] == "reencrypt"][0]
def case(name, edit):
    o = json.loads(json.dumps(meta))
    edit(o)
    b = bytearray(img)
    t = json.dumps(o, separators=(",", ":")).encode()
    for c in (0, 1):
        off = c * hs
        b[off + 4096 : off + hs] = t.ljust(hs - 4096, b"\0")
        b[off + 448 : off + 512] = bytes(64)
        b[off + 448 : off + 480] = hashlib.sha256(bytes(b[off : off + hs])).digest()
    open("%s/%s" % (sys.argv[2], name), "wb").write(b)
def setp(o, path, v):
    for k in path[:-1]:
        o = o[k]
    if v is None:
        del o[path[-1]]
    else:
        o[path[-1]] = v
case("req-v9", lambda o: setp(o, ["config", "requirements", "mandatory"], ["online-reencrypt-v9"]))
case("req-two", lambda o: setp(o, ["config", "requirements", "mandatory"], ["online-reencrypt-v2", "x"]))
case("no-reenc-slot", lambda o: (setp(o, ["keyslots", rk], None), [d["keyslots"].remove(rk) for d in o["digests"].values() if rk in d["keyslots"]]))
case("area-type", lambda o: setp(o, ["keyslots", rk, "area", "type"], "mirror"))
case("mode", lambda o: setp(o, ["keyslots", rk, "mode"], "sideways"))
case("direction", lambda o: setp(o, ["keyslots", rk, "direction"], "up"))
case("key-size", lambda o: setp(o, ["keyslots", rk, "key_size"], 2))
case("csum-sector", lambda o: setp(o, ["keyslots", rk, "area", "sector_size"], 1000))
case("csum-hash", lambda o: setp(o, ["keyslots", rk, "area", "hash"], "nohash"))
case("resilience-none", lambda o: setp(o, ["keyslots", rk, "area"], {k: v for k, v in o["keyslots"][rk]["area"].items() if k in ("offset", "size")} | {"type": "none"}))
case("hot-one-digest", lambda o: [d["segments"].remove(hot) for d in list(o["digests"].values())[:1]])
case("no-final", lambda o: [v.__setitem__("flags", []) for v in o["segments"].values() if "backup-final" in v.get("flags", [])])
case("two-hot", lambda o: o["segments"]["0"].__setitem__("flags", ["in-reencryption"]))
case("cipher", lambda o: setp(o, ["segments", "0", "encryption"], "aes-cbc-plain64"))
case("sector", lambda o: setp(o, ["segments", "0", "sector_size"], 512))
case("gap", lambda o: o["segments"].__setitem__("9", o["segments"].pop("0")))
case("linear-digest", lambda o: o["segments"]["0"].__setitem__("type", "linear"))
# well formed, but not what the reencryption digest was computed over
fin = [k for k, v in meta["segments"].items() if "backup-final" in v.get("flags", [])][0]
case("vd-hash", lambda o: setp(o, ["keyslots", rk, "area", "hash"], "sha1"))
case("vd-iv", lambda o: setp(o, ["segments", fin, "iv_tweak"], "8"))
case("vd-none", lambda o: [d["keyslots"].remove(rk) for d in o["digests"].values() if rk in d["keyslots"]])
PY
for f in "$T"/h/*; do
	before=$(sum "$f")
	rc 2 "hostile $(basename "$f")" $BC luks decrypt "$f" "$T/x" --key-file "$T/pw"
	cp "$T/err" "$T/err.$(basename "$f")"
	check "hostile $(basename "$f"): one line" test "$(wc -l <"$T/err")" -eq 1
	check "hostile $(basename "$f"): unchanged" test "$(sum "$f")" = "$before"
done
check "20 hostile images" test "$(ls "$T/h" | wc -l)" -eq 20
for f in "$T"/h/vd-*; do
	check "cryptsetup refuses $(basename "$f") too" sh -c "! $CS open --test-passphrase --key-file '$T/pw' '$f' 2>/dev/null"
	check "the reason for $(basename "$f")" grep -q "reencryption metadata is invalid" "$T/err.$(basename "$f")"
done
printf 'wrong' >"$T/bad"
rc 1 "a wrong passphrase" $BC luks decrypt "$T/k" "$T/out2" --key-file "$T/bad"
finish
