#!/usr/bin/env python3
# Seed inputs for fuzz_luks_header: LUKS1 and LUKS2 headers made by cryptsetup (LUKS1 On-Disk Format 1.2.3,
# LUKS2 On-Disk Format 1.1.4), trimmed to the header region. Usage: luks_seeds.py OUTDIR [HOSTILE] (needs
# cryptsetup); then `build-fuzz/fuzz_luks_header -merge=1 tests/fuzz/corpus/fuzz_luks_header OUTDIR`.
# HOSTILE: the images tests/luks_hostile.sh makes (from cryptsetup headers, a field out of range each), kept by
# `LUKS_HOSTILE_KEEP=HOSTILE sh tests/luks_hostile.sh`; they become seeds too, so the fuzzer starts from every
# validation branch that test reaches.
# Each seed is the harness's two control bytes (flags, unlock) then the header file; see fuzz_luks_header.c.
# The corpus's named inputs are regressions: luks1-control-bytes-in-hash-name (found by the fuzzer: a newline in
# the refusal message), luks1-file-ends-inside-a-sector (the unlocking LUKS1 seed on a file 48 bytes past a
# sector: its data size was not whole sectors), luks2-24-keyslots-cheap-kdf (24 keyslots with 128-byte keys,
# SHA-1 AF and 1 PBKDF2 iteration: 12 s per input before the AF merge fetched its digest once and the harness
# capped the keyslots tried).
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

# Cheap keyslots, so the harness's PBKDF bounds (PBKDF2 1000 iterations, Argon2 128 KiB and time 4) let them run.
PBKDF2 = ["--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000"]
ARGON2 = ["--pbkdf-memory", "32", "--pbkdf-parallel", "1", "--pbkdf-force-iterations", "4"]
PASS, OTHER = b"fuzz", b"other passphrase"
SIZE_2M, SIZE_17M = 1 << 2, 2 << 2   # the harness's file size classes (flags bits 2-3)
DETACHED = 1


def cryptsetup(tmp, *args):
    subprocess.run(["cryptsetup", "--batch-mode", "--key-file", tmp + "/pw", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def add_key(tmp, image, *args):
    """A second keyslot, with another passphrase."""
    cryptsetup(tmp, "luksAddKey", *args, image, tmp + "/pw2")


def make(tmp, luks_args, size=4 << 20, header=False, second=None):
    """A cryptsetup-formatted image (or detached header); returns its bytes."""
    img = tmp + "/img"
    for f in (img, tmp + "/hdr"):
        if os.path.exists(f):
            os.unlink(f)
    with open(img, "wb") as f:
        f.truncate(size)
    target = [img]
    if header:
        with open(tmp + "/hdr", "wb") as f:
            f.truncate(16 << 20)
        target = ["--header", tmp + "/hdr", img]
    cryptsetup(tmp, "luksFormat", *luks_args, *target)
    if second is not None:
        add_key(tmp, target[-1] if not header else tmp + "/hdr", *second)
    return open(tmp + "/hdr" if header else img, "rb").read()


def luks2_resum(img):
    """Both LUKS2 binary headers' sha256 checksums (section 2.1), after an edit of the JSON."""
    img = bytearray(img)
    hdr_size = struct.unpack(">Q", img[8:16])[0]
    for off in (0, hdr_size):
        img[off + 448:off + 512] = bytes(64)
        img[off + 448:off + 480] = hashlib.sha256(bytes(img[off:off + hdr_size])).digest()
    return bytes(img)


def luks2_edit(img, edit):
    """The JSON of both copies changed by edit(meta), re-serialised into the same area and re-summed."""
    hdr_size = struct.unpack(">Q", img[8:16])[0]
    meta = json.loads(img[4096:hdr_size].split(b"\0")[0])
    edit(meta)
    text = json.dumps(meta, separators=(",", ":")).encode().ljust(hdr_size - 4096, b"\0")
    img = bytearray(img)
    for off in (0, hdr_size):
        img[off + 4096:off + hdr_size] = text
    return luks2_resum(bytes(img))


def luks2_trim(img, keep_slot0=False, both=False):
    """The primary binary header and its JSON text (the harness's file reads as zeros after the input, and it
    re-sums the header over them); with both, the secondary header and JSON area too; with keep_slot0, up to the
    end of keyslot 0's area (the other keyslots' areas then read as zeros, and do not open)."""
    hdr_size = struct.unpack(">Q", img[8:16])[0]
    text = img[4096:hdr_size].split(b"\0")[0]
    end = 2 * hdr_size if both else 4096 + len(text) + 1
    if keep_slot0:
        area = json.loads(text)["keyslots"]["0"]["area"]
        end = int(area["offset"]) + int(area["size"])
    return img[:end]


def luks1_trim(img, keep_slot0=False):
    """The phdr's 592 bytes, or up to the end of keyslot 0's key material."""
    end = 592
    if keep_slot0:
        key_bytes = struct.unpack(">I", img[108:112])[0]
        end = struct.unpack(">I", img[208 + 40:208 + 44])[0] * 512 + key_bytes * 4000
    return img[:end]


def hostile_seed(img):
    """A luks_hostile.sh image (2 MiB, or shorter when it tests truncation) as a seed on a 2 MiB file: the
    LUKS1 phdr, the LUKS2 primary header (both when the primary's magic is damaged), checksums kept as they are
    (one case is a checksum mismatch). Truncations into the key material are left out: the seeds above end
    there already."""
    if len(img) > 32768 + 4096 and len(img) != 2 << 20:
        return None
    if len(img) != 2 << 20:
        return bytes([2, 0x80]) + img
    end = 592 if img[:8] == b"LUKS\xba\xbe\x00\x01" else 32768 if img[:8] != b"LUKS\xba\xbe\x00\x02" else 16384
    return bytes([2 | SIZE_2M, 0x80]) + img[:end].rstrip(b"\0")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        open(tmp + "/pw", "wb").write(PASS)
        open(tmp + "/pw2", "wb").write(OTHER)
        l2 = ["--type", "luks2", "--offset", "4096"]   # data at 2 MiB
        l1 = ["--type", "luks1"]
        seeds = {
            # LUKS2: xts with a 512-bit key, PBKDF2, 512-byte sectors, label and subsystem (headers only)
            "luks2-aes-xts512-pbkdf2-sha256": (SIZE_2M, luks2_trim(make(
                tmp, l2 + PBKDF2 + ["--cipher", "aes-xts-plain64", "--key-size", "512", "--sector-size", "512",
                                    "--label", "fuzz", "--subsystem", "seeds"]))),
            # LUKS2: 4096-byte sectors, Argon2id, sha512 (headers only)
            "luks2-aes-xts256-argon2id-4k": (SIZE_2M, luks2_trim(make(
                tmp, l2 + ARGON2 + ["--pbkdf", "argon2id", "--cipher", "aes-xts-plain64", "--key-size", "256",
                                    "--sector-size", "4096", "--hash", "sha512"]))),
            # LUKS2 detached header (data offset 0), PBKDF2-sha1, 16 MiB keyslots area (headers only)
            "luks2-detached-aes-xts-sha1": (DETACHED | SIZE_17M, luks2_trim(make(
                tmp, ["--type", "luks2"] + PBKDF2 + ["--hash", "sha1", "--cipher", "aes-xts-plain64",
                                                     "--key-size", "256"], header=True))),
            # LUKS2 with a token, and the segment and keyslot rewritten to sm4 (cryptsetup's cipher check needs
            # the kernel's sm4; the header stays cryptsetup's otherwise)
            "luks2-sm4-xts-token": (SIZE_17M, luks2_trim(luks2_edit(make(
                tmp, ["--type", "luks2"] + PBKDF2 + ["--cipher", "aes-xts-plain64", "--key-size", "256"]),
                lambda m: (m["segments"]["0"].update(encryption="sm4-xts-plain64"),
                           m["keyslots"]["0"]["area"].update(encryption="sm4-xts-plain64"),
                           m["tokens"].update({"0": {"type": "fuzz-token", "keyslots": ["0"]}}))), both=True)),
            # LUKS1: xts 512-bit, sha256 (the phdr only)
            "luks1-aes-xts512-sha256": (SIZE_2M, luks1_trim(make(
                tmp, l1 + PBKDF2 + ["--cipher", "aes-xts-plain64", "--key-size", "512", "--hash", "sha256"]))),
            # LUKS1: cbc-plain64 256-bit, sha512, at the input's own length (payload offset beyond it: refused)
            "luks1-aes-cbc-plain64-sha512": (0, luks1_trim(make(
                tmp, l1 + PBKDF2 + ["--cipher", "aes-cbc-plain64", "--key-size", "256", "--hash", "sha512"]))),
        }
        # Two keyslots each (Argon2i or PBKDF2-sha1, then PBKDF2), cbc-essiv with 128-bit keys: "fuzz" opens
        # keyslot 0, whose key material is kept; "fuzz" on keyslot 1 (unlock byte 0x82) is a wrong passphrase.
        two = {"luks2-aes-cbc-essiv-argon2i-2slots": (luks2_trim, make(
                   tmp, l2 + ARGON2 + ["--pbkdf", "argon2i", "--cipher", "aes-cbc-essiv:sha256", "--key-size", "128"],
                   second=PBKDF2)),
               "luks1-aes-cbc-essiv-sha1-2slots": (luks1_trim, make(
                   tmp, l1 + PBKDF2 + ["--cipher", "aes-cbc-essiv:sha256", "--key-size", "128", "--hash", "sha1"],
                   second=PBKDF2))}
        for name, (trim, img) in two.items():
            seeds[name + "-unlocks"] = (SIZE_2M, trim(img, keep_slot0=True))
            seeds[name + "-wrong"] = (SIZE_2M, trim(img), 0x82)
        if len(sys.argv) > 2:
            for name in sorted(os.listdir(sys.argv[2])):
                seed = hostile_seed(open(os.path.join(sys.argv[2], name), "rb").read())
                if seed:
                    with open(os.path.join(out, "hostile-" + name), "wb") as f:
                        f.write(seed)
        for name, seed in seeds.items():
            # unlock byte: "fuzz" on every keyslot (0x80) unless given
            with open(os.path.join(out, name), "wb") as f:
                f.write(bytes([seed[0], seed[2] if len(seed) > 2 else 0x80]) + seed[1])


if __name__ == "__main__":
    main()
