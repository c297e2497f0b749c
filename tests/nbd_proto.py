# blockcrypt's NBD server byte by byte: handshake options, malformed and hostile requests, the replies they get.
# Protocol: the NBD project's doc/proto.md (fixed newstyle, simple and structured replies). Usage: nbd_proto.py SOCKET (an 8 MiB export).
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, summary  # noqa: E402

SOCK = sys.argv[1]
IHAVEOPT = 0x49484156454F5054
REP_MAGIC = 0x3E889045565A9
SIZE = 8 << 20
ERR_UNSUP, ERR_INVALID, ERR_UNKNOWN, ERR_TOO_BIG = (1 << 31) + 1, (1 << 31) + 3, (1 << 31) + 6, (1 << 31) + 9
EINVAL, ENOSPC = 22, 28


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def closed(s):
    """The server ended the session: end of stream (no further bytes)."""
    try:
        return s.recv(1) == b""
    except (ConnectionError, socket.timeout):
        return False


def connect(cflags=1):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(SOCK)
    magic, opt, hflags = struct.unpack(">QQH", recv_exact(s, 18))
    check(magic == 0x4E42444D41474943 and opt == IHAVEOPT and hflags & 1, "newstyle greeting")
    s.sendall(struct.pack(">I", cflags))
    return s


def option(s, opt, data=b""):
    s.sendall(struct.pack(">QII", IHAVEOPT, opt, len(data)) + data)


def reply(s):
    magic, opt, typ, n = struct.unpack(">QIII", recv_exact(s, 20))
    check(magic == REP_MAGIC, "option reply magic")
    return opt, typ, recv_exact(s, n)


def go(s, name=b"", infos=(), opt=7):
    option(s, opt, struct.pack(">I", len(name)) + name + struct.pack(">H", len(infos)) +
           b"".join(struct.pack(">H", i) for i in infos))
    got = []
    while True:
        o, typ, d = reply(s)
        got.append((typ, d))
        if typ != 3:
            return got


def request(s, typ, off, length, flags=0, cookie=0x1122334455667788, payload=b""):
    s.sendall(struct.pack(">IHHQQI", 0x25609513, flags, typ, cookie, off, length) + payload)


def simple(s, cookie=0x1122334455667788, data_len=0):
    magic, err, c = struct.unpack(">IIQ", recv_exact(s, 16))
    check(magic == 0x67446698 and c == cookie, "simple reply magic and cookie")
    return err, (recv_exact(s, data_len) if data_len and not err else b"")


def chunk(s, cookie):
    magic, flags, typ, c, n = struct.unpack(">IHHQI", recv_exact(s, 20))
    check(magic == 0x668E33EF and c == cookie and flags & 1, "structured chunk magic, cookie, DONE")
    return typ, recv_exact(s, n)


def session():
    s = connect()
    got = go(s, infos=(3,))
    check(got[-1][0] == 1 and any(t == 3 and d[:2] == b"\0\0" and struct.unpack(">Q", d[2:10])[0] == SIZE
                                  for t, d in got), "NBD_OPT_GO: export info then ACK")
    return s


# ---- option haggling -------------------------------------------------------------------------------------
s = connect()
option(s, 12345)
check(reply(s)[1] == ERR_UNSUP, "unknown option: ERR_UNSUP")
option(s, 8, b"x")
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_STRUCTURED_REPLY with data: ERR_INVALID")
option(s, 10, struct.pack(">II", 0, 0))
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_SET_META_CONTEXT before structured replies: ERR_INVALID")
option(s, 9, struct.pack(">II", 0, 1) + struct.pack(">I", 5) + b"base:")
typ, d = reply(s)[1:]
check(typ == 4 and d[4:] == b"base:allocation", "NBD_OPT_LIST_META_CONTEXT base: finds base:allocation")
check(reply(s)[1] == 1, "NBD_OPT_LIST_META_CONTEXT: then ACK")
option(s, 9, struct.pack(">II", 0, 2) + struct.pack(">I", 1000) + b"x")
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_LIST_META_CONTEXT: a query past the option: ERR_INVALID")
option(s, 3, b"x")
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_LIST with data: ERR_INVALID")
option(s, 3)
typ, d = reply(s)[1:]
check(typ == 2 and struct.unpack(">I", d[:4])[0] == len(d) - 4, "NBD_OPT_LIST: REP_SERVER")
check(reply(s)[1] == 1, "NBD_OPT_LIST: then ACK")
option(s, 6, struct.pack(">I", 100) + b"ab")
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_INFO: name length beyond the option: ERR_INVALID")
option(s, 6, struct.pack(">I", 0) + struct.pack(">H", 5) + b"\0\0")
check(reply(s)[1] == ERR_INVALID, "NBD_OPT_INFO: request count beyond the option: ERR_INVALID")
check(go(s, b"no such export", opt=6)[-1][0] == ERR_UNKNOWN, "NBD_OPT_INFO of an unknown export: ERR_UNKNOWN")
option(s, 6, bytes(100000))
check(reply(s)[1] == ERR_TOO_BIG, "an option of 100000 bytes: skipped, ERR_TOO_BIG")
check(go(s, opt=6)[-1][0] == 1, "NBD_OPT_INFO after all that: ACK")
option(s, 2)
check(reply(s)[1] == 1 and closed(s), "NBD_OPT_ABORT: ACK, then closed")

s = connect(cflags=0x80)
check(closed(s), "unknown client flags: closed")
s = connect()
s.sendall(b"NOTAMAGIC" * 2)
check(closed(s), "bad option magic: closed")
s = connect()
option(s, 1, b"no such export")
check(closed(s), "NBD_OPT_EXPORT_NAME of an unknown export: closed")
s = connect(cflags=3)
option(s, 1)
size, flags = struct.unpack(">QH", recv_exact(s, 10))
check(size == SIZE and flags & 1, "NBD_OPT_EXPORT_NAME with NO_ZEROES: size and flags, no padding")
request(s, 0, 0, 512)
check(simple(s, data_len=512)[0] == 0, "read after NBD_OPT_EXPORT_NAME")
s.close()

# ---- transmission: errors, and the stream stays in step after each ----------------------------------------
s = session()
for typ, off, n, flags, want, what in [
        (0, SIZE - 100, 512, 0, EINVAL, "read past the end"),
        (0, (1 << 64) - 256, 512, 0, EINVAL, "read at an offset that wraps"),
        (0, 0, (32 << 20) + 1, 0, EINVAL, "read above the payload limit"),
        (0, 0, 512, 1 << 2, EINVAL, "read with NBD_CMD_FLAG_DF (not negotiated)"),
        (4, SIZE, 1, 0, EINVAL, "trim past the end"),
        (6, SIZE - 1, 2, 0, ENOSPC, "write zeroes past the end"),
        (6, 0, 512, 1 << 4, EINVAL, "write zeroes with FAST_ZERO (not offered)"),
        (3, 0, 0, 1 << 7, EINVAL, "flush with an unknown flag"),
        (5, 0, 512, 0, EINVAL, "NBD_CMD_CACHE (not offered)"),
        (7, 0, 512, 0, EINVAL, "NBD_CMD_BLOCK_STATUS (not negotiated)"),
        (0x1234, 0, 512, 0, EINVAL, "unknown command")]:
    request(s, typ, off, n, flags)
    check(simple(s)[0] == want, what)
request(s, 1, SIZE - 10, 20, payload=b"z" * 20, cookie=7)
check(simple(s, cookie=7)[0] == ENOSPC, "write past the end: ENOSPC, payload swallowed")
request(s, 1, 3, 5, payload=b"abcde", cookie=8)
check(simple(s, cookie=8)[0] == 0, "write of 5 bytes at offset 3")
request(s, 0, 0, 10, cookie=9)
err, d = simple(s, cookie=9, data_len=10)
check(err == 0 and d[3:8] == b"abcde", "read back at any byte offset")
request(s, 0, SIZE - 1, 1, cookie=10)
check(simple(s, cookie=10, data_len=1)[0] == 0, "the last byte")
request(s, 2, 0, 0)
check(closed(s), "NBD_CMD_DISC: closed")

# ---- structured replies: a read is one final chunk (data, nothing, or the error); block status ---------------
s = connect()
option(s, 8)
check(reply(s)[1] == 1, "NBD_OPT_STRUCTURED_REPLY: ACK")
got = go(s)
flags = [struct.unpack(">H", d[10:12])[0] for t, d in got if t == 3 and d[:2] == b"\0\0"]
check(got[-1][0] == 1 and flags and flags[0] & (1 << 7), "NBD_OPT_GO after it: SEND_DF offered")
request(s, 7, 0, 512, cookie=30)
check(simple(s, cookie=30)[0] == EINVAL, "NBD_CMD_BLOCK_STATUS without a context: EINVAL")
request(s, 2, 0, 0)
check(closed(s), "NBD_CMD_DISC: closed")

s = connect()
option(s, 8)
check(reply(s)[1] == 1, "NBD_OPT_STRUCTURED_REPLY: ACK")
q = b"base:allocation"
option(s, 10, struct.pack(">II", 0, 2) + struct.pack(">I", len(q)) + q + struct.pack(">I", 7) + b"other:x")
typ, d = reply(s)[1:]
check(typ == 4 and d == struct.pack(">I", 1) + q, "NBD_OPT_SET_META_CONTEXT: base:allocation, id 1")
check(reply(s)[1] == 1, "NBD_OPT_SET_META_CONTEXT: then ACK")
check(go(s)[-1][0] == 1, "NBD_OPT_GO")
request(s, 7, 4096, 65536, cookie=31)
typ, d = chunk(s, 31)
check(typ == 5 and d == struct.pack(">III", 1, 65536, 0), "NBD_CMD_BLOCK_STATUS: one extent of data")
request(s, 7, SIZE - 512, 1024, cookie=32)
check(simple(s, cookie=32)[0] == EINVAL, "NBD_CMD_BLOCK_STATUS past the end: EINVAL")
request(s, 0, 3, 5, flags=1 << 2, cookie=21)
typ, d = chunk(s, 21)
check(typ == 1 and d == struct.pack(">Q", 3) + b"abcde", "structured read: one OFFSET_DATA chunk")
request(s, 0, SIZE, 1, cookie=22)
typ, d = chunk(s, 22)
check(typ == 0x8001 and struct.unpack(">IH", d[:6]) == (EINVAL, 0), "structured read past the end: ERROR chunk")
request(s, 0, 0, 0, cookie=23)
check(chunk(s, 23) == (0, b""), "structured read of 0 bytes: NONE chunk")
request(s, 3, 0, 0, cookie=24)
check(simple(s, cookie=24)[0] == 0, "flush: a simple reply")
request(s, 2, 0, 0)
check(closed(s), "NBD_CMD_DISC: closed")

s = session()
s.sendall(struct.pack(">IHHQQ", 0x25609513, 0, 0, 1, 0))   # a request cut short, then the client leaves
s.close()
s = session()
request(s, 1, 0, 4096, payload=b"q" * 100)   # a write whose payload never comes whole
s.close()
s = session()
request(s, 1, 0, 0xFFFFFFFF)
check(closed(s), "write above the payload limit: closed")
s = session()
s.sendall(struct.pack(">IHHQQI", 0xDEADBEEF, 0, 0, 1, 0, 512))
check(closed(s), "bad request magic: closed")
s = session()
request(s, 0, 3, 5)
err, d = simple(s, data_len=5)
check(err == 0 and d == b"abcde", "the earlier write survived the hostile clients")
request(s, 2, 0, 0)
summary("nbd_proto")
