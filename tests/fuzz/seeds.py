#!/usr/bin/env python3
# Seed inputs for the fuzz harnesses, encoded from the library's known-answer vectors (src/core/selftest_vectors.txt,
# uniform format of tests/vectors/FORMAT.md). Usage: seeds.py OUTDIR; then `HARNESS -merge=1 CORPUS OUTDIR/HARNESS`.
import hashlib
import os
import struct
import sys

# The order of fz_algs[] in fuzz_common.c and the key sizes of tests/common.c.
ALGS = ["ecb(aes)", "cbc(aes)", "ctr(aes)", "cts(cbc(aes))", "xts(aes)", "essiv(cbc(aes),sha256)", "gcm(aes)",
        "cmac(aes)", "xcbc(aes)", "cbcmac(aes)", "ecb(sm4)", "cbc(sm4)", "ctr(sm4)", "cts(cbc(sm4))", "xts(sm4)",
        "essiv(cbc(sm4),sm3)", "gcm(sm4)", "cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)", "sha256", "sm3", "ghash",
        "sha1", "sha224", "sha384", "sha512", "md5", "ccm(aes)", "ccm(sm4)",
        "hmac(sha256)", "hmac(sm3)", "hmac(sha1)", "hmac(sha512)",
        "ecb(des)", "cbc(des)", "ctr(des)", "ecb(des3_ede)", "cbc(des3_ede)", "ctr(des3_ede)", "cmac(des3_ede)",
        "lrw(aes)", "lrw(sm4)",
        "ecb(camellia)", "cbc(camellia)", "ctr(camellia)", "cts(cbc(camellia))", "xts(camellia)", "gcm(camellia)",
        "cmac(camellia)",
        "ecb(twofish)", "cbc(twofish)", "ctr(twofish)", "cts(cbc(twofish))", "xts(twofish)",
        "essiv(cbc(twofish),sha256)", "gcm(twofish)", "cmac(twofish)", "xcbc(twofish)", "cbcmac(twofish)",
        "ecb(serpent)", "cbc(serpent)", "ctr(serpent)", "cts(cbc(serpent))", "xts(serpent)", "gcm(serpent)",
        "cmac(serpent)", "lrw(serpent)", "lrw(twofish)",
        "xctr(aes)", "polyval", "hctr2(aes)", "chacha20", "xchacha20", "xchacha12",
        "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)"]
HASHES = ("sha256", "sm3", "ghash", "polyval", "sha1", "sha224", "sha384", "sha512", "md5")
TAGS = [4, 8, 12, 13, 14, 15, 16]
CCM_TAGS = [4, 6, 8, 10, 12, 14, 16]


def keysizes(alg):
    for prefix, sizes in (("xts(aes)", [32, 48, 64]), ("xts(sm4)", [32]), ("xts(camellia)", [32, 48, 64]),
                          ("xts(twofish)", [32, 48, 64]), ("xts(serpent)", [32, 48, 64]), ("essiv(cbc(aes)", [16, 24, 32]),
                          ("essiv(cbc(sm4)", [16]), ("ghash", [16]), ("hmac(", [1, 20, 32, 64]),
                          ("(des3_ede)", [24]), ("(des)", [8]), ("lrw(sm4)", [32]), ("lrw(", [32, 40, 48]),
                          ("polyval", [16]), ("rfc7539esp(", [36]), ("chacha", [32])):
        if prefix in alg:
            return sizes
    if alg in HASHES:
        return []
    return [16] if "(sm4)" in alg else [16, 24, 32]


def records(path):
    rec = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            if rec:
                yield rec
            rec = {}
        elif not line.startswith("#") and "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            rec[k] = v
    if rec:
        yield rec


def u16(n):
    return struct.pack("<H", n)


def key_part(alg, key):
    sizes = keysizes(alg)
    if not sizes:
        return bytes([0])
    return bytes([sizes.index(len(key))]) + key if len(key) in sizes else None


def drivers_seed(alg, r):
    i = ALGS.index(alg)
    key = bytes.fromhex(r.get("key", ""))
    part = key_part(alg, key)
    if part is None:
        return None
    head = bytes([i, 0, 0]) + part
    if alg.startswith("ccm("):
        # ivb 0x80: the 16-byte counter block, its first byte read as 1 + iv[0] % 7
        iv, ad, pt = (bytes.fromhex(r.get(k, "")) for k in ("iv", "assoc", "ptext"))
        tag = bytes.fromhex(r.get("tag", "00" * 16))
        if len(iv) != 16 or len(pt) > 8191 or len(ad) > 1023 or len(tag) not in CCM_TAGS:
            return None
        return head + bytes([CCM_TAGS.index(len(tag)), 0x80]) + u16(len(ad)) + u16(len(pt)) + \
            bytes([iv[0] - 1]) + iv[1:] + pt + bytes([0]) + ad + bytes([0, 0, 0, 0, 0])
    if alg.startswith(("gcm(", "rfc7539")):
        # ivb 0x80: gcm's and rfc7539's 12 bytes, the ESP form's 8
        iv, ad, pt = (bytes.fromhex(r.get(k, "")) for k in ("iv", "assoc", "ptext"))
        tag = bytes.fromhex(r.get("tag", "00" * 16))
        if not iv or len(iv) > 127 or len(pt) > 8191 or len(ad) > 1023 or len(tag) not in TAGS:
            return None
        full = 8 if alg.startswith("rfc7539esp(") else 12
        return head + bytes([TAGS.index(len(tag)), 0x80 if len(iv) == full else len(iv)]) + u16(len(ad)) + \
            u16(len(pt)) + iv + pt + bytes([0]) + ad + bytes([0, 0, 0, 0, 0])
    if "mac" in alg or alg in HASHES:
        msg = bytes.fromhex(r.get("msg", r.get("ptext", "")))
        return head + u16(len(msg)) + bytes([0]) + msg + bytes([0, 1]) + u16(len(msg) // 2)
    iv, pt = bytes.fromhex(r.get("iv", "")), bytes.fromhex(r.get("ptext", ""))
    if len(pt) > 8191:
        return None
    return head + u16(len(pt)) + iv + pt + bytes([0, 0, 0])


def peers_seed(alg, r):
    i = ALGS.index(alg)
    key = bytes.fromhex(r.get("key", ""))
    sizes = keysizes(alg)
    if sizes and len(key) not in sizes:
        return None
    head = bytes([i, 0]) + (bytes([sizes.index(len(key))]) + key if sizes else b"")
    if alg.startswith("ccm("):
        iv, ad, pt = (bytes.fromhex(r.get(k, "")) for k in ("iv", "assoc", "ptext"))
        tag = bytes.fromhex(r.get("tag", "00" * 16))
        nlen = 14 - iv[0]
        if len(ad) >= 500 or len(tag) not in CCM_TAGS or not 7 <= nlen <= 13:
            return None
        return head + bytes([CCM_TAGS.index(len(tag)), nlen - 7]) + u16(len(ad)) + u16(len(pt)) + \
            iv[1:1 + nlen] + ad + pt
    if alg.startswith("gcm("):
        iv, ad, pt = (bytes.fromhex(r.get(k, "")) for k in ("iv", "assoc", "ptext"))
        if not 1 <= len(iv) <= 64:
            return None
        return head + bytes([6, len(iv) - 1]) + u16(len(ad)) + u16(len(pt)) + bytes([0]) + iv + ad + pt
    if alg.startswith("rfc7539"):
        # the ESP form's AD ends with the IV's copy, which the harness adds to the length it reads
        iv, ad, pt = (bytes.fromhex(r.get(k, "")) for k in ("iv", "assoc", "ptext"))
        extra = 8 if alg.startswith("rfc7539esp(") else 0
        if len(ad) < extra or len(ad) - extra >= 512:
            return None
        return head + u16(len(ad) - extra) + u16(len(pt)) + iv + ad + pt
    if "mac" in alg or alg in HASHES:
        msg = bytes.fromhex(r.get("msg", r.get("ptext", "")))
        return head + u16(len(msg)) + msg
    iv, pt = bytes.fromhex(r.get("iv", "00" * 16)), bytes.fromhex(r.get("ptext", ""))
    return head + u16(len(pt)) + iv.ljust(16, b"\0") + pt


def cli_seed(alg, r):
    args = []
    if alg.startswith(("gcm(", "ccm(", "rfc7539")) or alg.split("(")[0] in (
            "ecb", "cbc", "ctr", "cts", "xts", "essiv", "lrw", "xctr", "hctr2", "chacha20", "xchacha20", "xchacha12"):
        cmd, data = 0, r.get("ptext", "")
        args = [alg, "--key", r["key"]]
        if r.get("iv"):
            args += ["--iv", r["iv"]]
        if r.get("assoc"):
            args += ["--aad", r["assoc"]]
        if alg.startswith(("gcm(", "ccm(", "rfc7539")) and r.get("tag"):
            args += ["--tag-len", str(len(r["tag"]) // 2)]
    elif "key" in r:
        cmd, data, args = 2, r.get("msg", ""), [alg, "--key", r["key"], "--hex"]
    else:
        cmd, data, args = 3, r.get("msg", ""), [alg, "--hex"]
    return bytes([cmd]) + b"\0".join(a.encode() for a in args) + b"\0\0" + bytes.fromhex(data)


def main():
    out = sys.argv[1]
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src", "core", "selftest_vectors.txt")
    extra = {"fuzz_cli": [b"\x04", b"\x05list", b"\x06--sizes\x0016,64\x00--time\x000.5", b"\x07--time\x001e-3",
                          b"\x01xts(aes)\x00--key\x00zz\x00--iv\x00" + b"00" * 16 + b"\0\0",
                          # speed with names and every option; luks and plain actions with their options
                          b"\x06--sizes\x0016,64,1420\x00--key-bits\x00256\x00--csv\x00--threads\x002\x00xts(aes)\x00gcm(sm4)",
                          b"\x06--json\x00--decrypt\x00sha256\x00cbc(aes)",
                          b"\x08format\x00img\x00--type\x00luks1\x00--cipher\x00aes-xts-plain64\x00--key-size\x00512\x00"
                          b"--pbkdf\x00argon2id\x00--pbkdf-memory\x0064K\x00--iter-time\x00100\x00--offset\x004096\x00"
                          b"--sector-size\x004096",
                          b"\x08read\x00img\x00--offset\x001MiB\x00--length\x004096\x00--key-file\x00-\x00--key-slot\x003",
                          b"\x08kill-slot\x00img\x007\x00--batch-mode",
                          b"\x08dump\x00img\x00--json\x00--header\x00hdr\x00--progress-frequency\x000.5\x00--unbounded-pbkdf",
                          b"\x09encrypt\x00plain\x00img\x00--key-file\x00key\x00--cipher\x00sm4-xts-plain64\x00--size\x008\x00"
                          b"--iv-offset\x0016\x00--iv-large-sectors"]}
    for name, enc in (("fuzz_drivers", drivers_seed), ("fuzz_peers", peers_seed), ("fuzz_cli", cli_seed)):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        seeds = [enc(r["alg"], r) for r in records(src) if r.get("alg") in ALGS and "iterations" not in r]
        for s in [s for s in seeds if s] + extra.get(name, []):
            with open(os.path.join(d, hashlib.sha1(s).hexdigest()), "wb") as f:
                f.write(s)


main()
