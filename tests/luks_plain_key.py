# blockcrypt-luks: bc_luks_plain_key (plain dm-crypt passphrase hashing) against libcryptsetup's own derivation
# (crypt_format PLAIN + crypt_volume_key_get, through ctypes) and against the construction cryptsetup(8) documents.
import ctypes
import hashlib
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, summary  # noqa: E402

build = sys.argv[1]
ctypes.CDLL(os.path.join(build, "libblockcrypt.so.1"), mode=ctypes.RTLD_GLOBAL)
bc = ctypes.CDLL(os.path.join(build, "libblockcrypt-luks.so.1"))
bc.bc_luks_error.restype = ctypes.c_char_p
cs = ctypes.CDLL("libcryptsetup.so.12")


class PlainParams(ctypes.Structure):   # struct crypt_params_plain (libcryptsetup.h)
    _fields_ = [("hash", ctypes.c_char_p), ("offset", ctypes.c_uint64), ("skip", ctypes.c_uint64),
                ("size", ctypes.c_uint64), ("sector_size", ctypes.c_uint32)]






def ours(hash_spec, pw, keylen):
    key = ctypes.create_string_buffer(keylen)
    r = bc.bc_luks_plain_key(hash_spec.encode(), pw, ctypes.c_size_t(len(pw)), key, ctypes.c_size_t(keylen))
    return key.raw if r == 0 else r


def cryptsetup_lib(image, hash_spec, pw, keylen):
    cd = ctypes.c_void_p()
    if cs.crypt_init(ctypes.byref(cd), image.encode()):
        return None
    p = PlainParams(hash_spec.encode(), 0, 0, 0, 512)
    key = ctypes.create_string_buffer(keylen)
    n = ctypes.c_size_t(keylen)
    r = cs.crypt_format(cd, b"PLAIN", b"aes", b"cbc-essiv:sha256", None, None, ctypes.c_size_t(keylen), ctypes.byref(p))
    if r == 0:
        r = cs.crypt_volume_key_get(cd, -1, key, ctypes.byref(n), pw, ctypes.c_size_t(len(pw)))
    cs.crypt_free(cd)
    return key.raw[:n.value] if r == 0 else r


def documented(hash_spec, pw, keylen):
    """cryptsetup(8): one hash, cut to the key size; longer keys take hash("A" * i || pw) for round i
    (the hashalot rule); HASH:N hashes to N bytes and zero-fills; "plain" pads or cuts the passphrase."""
    name, _, n = hash_spec.partition(":")
    n = int(n) if n else keylen
    if name == "plain":
        out = pw[:n]
    else:
        out = b"".join(hashlib.new(name, b"A" * i + pw).digest() for i in range(keylen // 16 + 1))[:n]
    return out + bytes(keylen - len(out))


with tempfile.NamedTemporaryFile() as img:
    img.truncate(1 << 20)
    img.flush()
    words = [b"", b"x", b"correct horse battery staple", bytes(range(256)) * 2]
    for h in ["ripemd160", "sha1", "sha256", "sha512", "sm3", "sha256:16", "sha1:32", "ripemd160:20"]:
        for keylen in [16, 20, 32, 48, 64, 100, 128]:
            if ":" in h and int(h.split(":")[1]) > keylen:
                continue
            for pw in words:
                got = ours(h, pw, keylen)
                what = "%s key %d, passphrase %d bytes" % (h, keylen, len(pw))
                check(got == documented(h, pw, keylen), what + ": not the documented construction")
                check(got == cryptsetup_lib(img.name, h, pw, keylen), what + ": differs from libcryptsetup")
    for keylen in [16, 32, 64]:
        for pw in words:
            what = "plain key %d, passphrase %d bytes" % (keylen, len(pw))
            check(ours("plain", pw, keylen) == documented("plain", pw, keylen), what)
            if len(pw) >= keylen:   # libcryptsetup's "plain" wants the whole key (cryptsetup's tool pads first)
                check(ours("plain", pw, keylen) == cryptsetup_lib(img.name, "plain", pw, keylen), what + " (libcryptsetup)")
            if len(pw) >= 8:
                check(ours("plain:8", pw, keylen) == cryptsetup_lib(img.name, "plain:8", pw, keylen), what + " plain:8")
    # refused: unknown hashes, a hash length above the key or zero, a key size out of range, plain:N too short
    for h, keylen in [("whirlpool-x", 32), ("sha256:33", 32), ("sha256:0", 32), ("sha256:", 32), ("sha256", 0),
                      ("sha256", 129), ("plain:16", 32)]:
        r = ours(h, b"short", keylen)
        check(isinstance(r, int) and r < 0, "%s key %d must be refused" % (h, keylen))
summary("luks_plain_key")
