# blockcrypt-luks: dm-crypt's IV generators and cipher modes (blockcrypt plain) against an independent reference:
# the IVs as Documentation/admin-guide/device-mapper/dm-crypt.rst defines them, the block cipher from `openssl enc`.
import hashlib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, summary  # noqa: E402

bc = os.path.join(sys.argv[1], "blockcrypt")




# ---- the block ciphers, from openssl enc (no padding, raw key) -------------------------------------------------
OSSL = {("aes", 16): "aes-128", ("aes", 24): "aes-192", ("aes", 32): "aes-256", ("des3_ede", 24): "des-ede3",
        ("sm4", 16): "sm4", ("camellia", 16): "camellia-128", ("camellia", 32): "camellia-256"}


def openssl(cipher, mode, key, data, iv=None, decrypt=False):
    name = OSSL[(cipher, len(key))] + "-" + mode
    if name == "des-ede3-ecb":
        name = "des-ede3"
    cmd = ["openssl", "enc", "-" + name, "-nopad", "-K", key.hex()]
    if iv is not None:
        cmd += ["-iv", iv.hex()]
    if decrypt:
        cmd.append("-d")
    out = subprocess.run(cmd, input=data, capture_output=True)
    if out.returncode != 0:
        raise RuntimeError("openssl enc -%s: %s" % (name, out.stderr.decode().strip()))
    return out.stdout


def have_openssl(cipher, keylen):
    try:
        return len(openssl(cipher, "ecb", bytes(keylen), bytes(16))) == 16
    except (RuntimeError, KeyError):
        return False


def block_of(cipher):
    return 8 if cipher.startswith("des") else 16


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


# ---- the modes over ECB ------------------------------------------------------------------------------------------
def gf_x_le(t):   # XTS: times x, little-endian (IEEE 1619)
    v = int.from_bytes(t, "little") << 1
    if v >> 128:
        v ^= (1 << 128) | 0x87
    return v.to_bytes(16, "little")


def gf_mul_bbe(a, b):   # LRW: the big-endian integers as polynomials, bit j the coefficient of x^j
    r = 0
    for i in range(128):
        if b >> i & 1:
            r ^= a << i
    for i in range(254, 127, -1):
        if r >> i & 1:
            r ^= ((1 << 128) | 0x87) << (i - 128)
    return r


def mode_encrypt(cipher, mode, key, iv, data):
    bs = block_of(cipher)
    if mode in ("cbc", "ctr"):
        return openssl(cipher, mode, key, data, iv)
    if mode == "ecb":
        return openssl(cipher, "ecb", key, data)
    blocks = [data[i:i + 16] for i in range(0, len(data), 16)]
    if mode == "xts":
        k1, k2 = key[:len(key) // 2], key[len(key) // 2:]
        t = openssl(cipher, "ecb", k2, iv)
        tweaks = []
        for _ in blocks:
            tweaks.append(t)
            t = gf_x_le(t)
    elif mode == "lrw":
        k1, k2 = key[:-16], int.from_bytes(key[-16:], "big")
        i = int.from_bytes(iv, "big")
        tweaks = [gf_mul_bbe(k2, (i + j) % (1 << 128)).to_bytes(16, "big") for j in range(len(blocks))]
    else:
        raise ValueError(mode)
    assert bs == 16
    mid = openssl(cipher, "ecb", k1, b"".join(xor(b, t) for b, t in zip(blocks, tweaks)))
    return b"".join(xor(mid[16 * j:16 * j + 16], t) for j, t in enumerate(tweaks))


# ---- dm-crypt's IV generators (dm-crypt.rst), for 512-byte sector number n ----------------------------------
def make_iv(cipher, mode, ivgen, key, n, sector_size):
    ivsize = block_of(cipher)
    if ivgen == "plain":
        return (n & 0xffffffff).to_bytes(4, "little").ljust(ivsize, b"\0")
    if ivgen == "plain64":
        return n.to_bytes(8, "little").ljust(ivsize, b"\0")
    if ivgen == "plain64be":
        return n.to_bytes(8, "big").rjust(ivsize, b"\0")
    if ivgen == "null":
        return bytes(ivsize)
    if ivgen == "benbi":   # the big-endian index of the sector's first block, counted from 1 (ctr's block: 1 byte)
        return ((n * 512 // (1 if mode == "ctr" else block_of(cipher)) + 1) % (1 << 64)).to_bytes(8, "big").rjust(ivsize, b"\0")
    if ivgen.startswith("essiv:"):   # plain64 encrypted with the hash of the whole key
        salt = hashlib.new(ivgen[6:], key).digest()
        return openssl(cipher, "ecb", salt, n.to_bytes(8, "little").ljust(ivsize, b"\0"))
    if ivgen == "eboiv":   # a zero block through the data cipher, the sector's byte offset as its IV
        return mode_encrypt(cipher, mode, key, (n * sector_size).to_bytes(8, "little").ljust(ivsize, b"\0"),
                            bytes(ivsize))
    raise ValueError(ivgen)


def reference_sector(spec, key, data, n, sector_size):
    cipher, mode, *rest = spec.split("-", 2)
    ivgen = rest[0] if rest else None
    iv = make_iv(cipher, mode, ivgen, key, n, sector_size) if mode != "ecb" else None
    return mode_encrypt(cipher, mode, key, iv, data)


# ---- the cases ---------------------------------------------------------------------------------------------------------
tmp = tempfile.mkdtemp()
plain = os.path.join(tmp, "plain")
with open(plain, "wb") as f:
    f.write(os.urandom(64 << 10))
data = open(plain, "rb").read()


def run_case(spec, keylen, sector_size, iv_offset, large, cspec=None):
    key = os.urandom(keylen)
    kf = os.path.join(tmp, "key")
    with open(kf, "wb") as f:
        f.write(key)
    img = os.path.join(tmp, "img")
    if os.path.exists(img):
        os.unlink(img)
    args = [bc, "plain", "encrypt", plain, img, "--cipher", cspec or spec, "--key-file", kf, "--key-size",
            str(keylen * 8), "--sector-size", str(sector_size), "--iv-offset", str(iv_offset), "--batch-mode",
            "--no-progress"]
    if large:
        args.append("--iv-large-sectors")
    what = "%s key %d sector %d iv-offset %d%s" % (cspec or spec, keylen * 8, sector_size, iv_offset,
                                                  " large" if large else "")
    r = subprocess.run(args, capture_output=True)
    check(r.returncode == 0, what + ": plain encrypt: " + r.stderr.decode().strip())
    if r.returncode:
        return
    enc = open(img, "rb").read()
    count = len(data) // sector_size
    for s in sorted({0, 1, 3, count - 1}):
        n = iv_offset + s * sector_size // 512
        if large:
            n //= sector_size // 512
        want = reference_sector(spec, key, data[s * sector_size:(s + 1) * sector_size], n, sector_size)
        check(enc[s * sector_size:(s + 1) * sector_size] == want, "%s: sector %d differs from the reference" % (what, s))


IVGENS = ["plain", "plain64", "plain64be", "benbi", "null", "essiv:sha256", "eboiv"]
cases = []
for ivgen in IVGENS + ["essiv:md5"]:
    for keylen in (16, 32):
        cases.append(("aes-cbc-" + ivgen, keylen))
for ivgen in IVGENS:
    cases.append(("aes-xts-" + ivgen, 64))
    cases.append(("aes-lrw-" + ivgen, 32))
cases += [("aes-xts-plain64", 32), ("aes-lrw-benbi", 48), ("aes-lrw-benbi", 40), ("aes-ctr-plain64", 32),
          ("aes-ctr-benbi", 16), ("aes-ecb", 32), ("aes-xts-essiv:md5", 32)]
# other ciphers where both openssl enc and this build of the library have them
for c, keylen, ivgens in (("des3_ede", 24, ("plain64", "benbi", "plain64be", "null")),
                          ("sm4", 16, ("plain64", "benbi", "plain64be", "essiv:md5")),
                          ("camellia", 32, ("plain64", "benbi", "essiv:sha256", "eboiv"))):
    built = subprocess.run([bc, "list", "cbc(%s)" % c], capture_output=True).returncode == 0
    if have_openssl(c, keylen) and built:
        for ivgen in ivgens:
            cases.append(("%s-cbc-%s" % (c, ivgen), keylen))
    else:
        print("luks_ivgen: %s is not in %s here: its cases are left out" % (c, "blockcrypt" if not built else "openssl enc"))

for spec, keylen in cases:
    run_case(spec, keylen, 512, 0, 0)
    run_case(spec, keylen, 512, 4294967290 if "plain" in spec else 77, 0)
    if not spec.startswith("des3_ede"):
        run_case(spec, keylen, 4096, 24, 0)
        run_case(spec, keylen, 4096, 24, 1)
run_case("aes-cbc-essiv:sha256", 32, 1024, 5, 0, cspec="capi:cbc(aes)-essiv:sha256")
run_case("aes-xts-plain64", 64, 512, 3, 0, cspec="capi:xts(aes)-plain64")
run_case("aes-lrw-benbi", 32, 2048, 8, 0, cspec="capi:lrw(aes)-benbi")

# refused with exit 2 and one line: no such spec in dm-crypt, or a digest the cipher takes as no key
for spec, keylen in [("aes-cbc-essiv:sha1", 32), ("aes-cbc-essiv:sha512", 32), ("aes-cbc-essiv:sha224", 32), ("aes:64-cbc-lmk", 64),
                     ("aes-cbc-tcw", 32), ("aes-cbc-lmk", 32), ("aes-xts-random", 64), ("aes-cbc", 32),
                     ("aes-ctr-eboiv", 32), ("aes-lrw-plain64", 64), ("nosuch-cbc-plain64", 32)]:
    img = os.path.join(tmp, "refused")
    r = subprocess.run([bc, "plain", "encrypt", plain, img, "--cipher", spec, "--key-file", "/dev/zero",
                        "--key-size", str(keylen * 8), "--batch-mode", "--no-progress"], capture_output=True)
    err = r.stderr.decode()
    check(r.returncode == 2 and err.count("\n") == 1 and not os.path.exists(img),
          "%s must be refused with exit 2 and one line (exit %d): %s" % (spec, r.returncode, err.strip()))

for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
summary("luks_ivgen")
