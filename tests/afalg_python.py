# Python's socket.AF_ALG (run under libblockcrypt-afalg.so): hashes and hmac beside hashlib and hmac, cbc(aes) beside
# openssl enc, gcm(aes) beside `blockcrypt encrypt`, through sendmsg_afalg as the Python socket documentation shows.
import hashlib
import hmac
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, summary  # noqa: E402

BC = os.path.join(os.environ.get("BUILD", "build"), "blockcrypt")


def op_socket(kind, name, key=None, authsize=None):
    with socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0) as algo:
        algo.bind((kind, name))
        if key is not None:
            algo.setsockopt(socket.SOL_ALG, socket.ALG_SET_KEY, key)
        if authsize is not None:
            algo.setsockopt(socket.SOL_ALG, socket.ALG_SET_AEAD_AUTHSIZE, None, authsize)
        op, _ = algo.accept()
    return op


def main():
    data = os.urandom(100000)
    for name in ("sha1", "sha256", "sha512"):
        for n in (0, 1, 63, 64, 1000, 100000):
            with op_socket("hash", name) as op:
                op.sendall(data[:n])
                got = op.recv(64)
            check(got == hashlib.new(name, data[:n]).digest(), "%s %d bytes" % (name, n))
    key = os.urandom(32)
    with op_socket("hash", "hmac(sha256)", key) as op:
        op.send(data[:500], socket.MSG_MORE)
        op.send(data[500:1000])
        check(op.recv(32) == hmac.new(key, data[:1000], "sha256").digest(), "hmac(sha256) in two pieces")

    # cbc(aes): one sendmsg_afalg, beside openssl enc -nopad
    key, iv = os.urandom(16), os.urandom(16)
    pt = data[:4096]
    with op_socket("skcipher", "cbc(aes)", key) as op:
        op.sendmsg_afalg([pt], op=socket.ALG_OP_ENCRYPT, iv=iv)
        ct = op.recv(len(pt))
        op.sendmsg_afalg([ct], op=socket.ALG_OP_DECRYPT, iv=iv)
        back = op.recv(len(ct))
    ref = subprocess.run(["openssl", "enc", "-aes-128-cbc", "-nopad", "-K", key.hex(), "-iv", iv.hex()],
                         input=pt, capture_output=True).stdout
    check(ct == ref, "cbc(aes) beside openssl enc")
    check(back == pt, "cbc(aes) decrypted back")

    # gcm(aes): AAD || plaintext in, AAD || ciphertext || tag out
    key, iv, aad = os.urandom(16), os.urandom(12), os.urandom(20)
    pt = data[:1000]
    with op_socket("aead", "gcm(aes)", key, 16) as op:
        op.sendmsg_afalg([aad + pt], op=socket.ALG_OP_ENCRYPT, iv=iv, assoclen=len(aad))
        out = op.recv(len(aad) + len(pt) + 16)
        ref = subprocess.run([BC, "encrypt", "gcm(aes)", "--key", key.hex(), "--iv", iv.hex(), "--aad", aad.hex()],
                             input=pt, capture_output=True).stdout
        check(out[:len(aad)] == aad and out[len(aad):] == ref, "gcm(aes) beside blockcrypt encrypt")
        op.sendmsg_afalg([out], op=socket.ALG_OP_DECRYPT, iv=iv, assoclen=len(aad))
        check(op.recv(len(out)) == aad + pt, "gcm(aes) decrypted back")
        bad = bytearray(out)
        bad[-1] ^= 1
        op.sendmsg_afalg([bytes(bad)], op=socket.ALG_OP_DECRYPT, iv=iv, assoclen=len(aad))
        try:
            op.recv(len(out))
            check(False, "gcm(aes) took a bad tag")
        except OSError as e:
            check(e.errno == 74, "gcm(aes) bad tag: EBADMSG (got %s)" % e)

    # a forked child goes on with the socket (its own copy of it)
    with op_socket("hash", "sha256") as op:
        pid = os.fork()
        if pid == 0:
            op.sendall(b"child")
            os._exit(0 if op.recv(32) == hashlib.sha256(b"child").digest() else 1)
        _, status = os.waitpid(pid, 0)
        op.sendall(b"parent")
        check(status == 0 and op.recv(32) == hashlib.sha256(b"parent").digest(), "the socket after fork")

    # errors as the kernel's
    try:
        op_socket("skcipher", "cbc(nosuch)")
        check(False, "bind cbc(nosuch) succeeded")
    except OSError as e:
        check(e.errno == 2, "bind cbc(nosuch): ENOENT (got %s)" % e)
    summary("afalg_python")


main()
