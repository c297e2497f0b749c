#!/usr/bin/env python3
# Seed inputs for fuzz_nbd: NBD client byte streams (handshake flags, options, requests) as doc/proto.md lays them
# out; the first byte is the harness's export choice (bit 0: named "disk", bit 1: read-only). Usage: nbd_seeds.py OUTDIR
import os
import struct
import sys

IHAVEOPT = 0x49484156454F5054


def opt(o, data=b""):
    return struct.pack(">QII", IHAVEOPT, o, len(data)) + data


def req(t, off, n, flags=0, payload=b""):
    return struct.pack(">IHHQQI", 0x25609513, flags, t, 1, off, n) + payload


GO = opt(7, struct.pack(">I", 0) + struct.pack(">HH", 1, 3))
SEEDS = {
    "go_read_write": b"\0" + struct.pack(">I", 1) + GO + req(1, 1001, 7, 1, b"abcdefg") + req(0, 1000, 10) +
    req(3, 0, 0) + req(6, 511, 1030, 2) + req(4, 0, 4096) + req(2, 0, 0),
    "options": b"\1" + struct.pack(">I", 3) + opt(3) + opt(6, struct.pack(">I", 4) + b"disk" + struct.pack(">H", 0)) +
    opt(99) + opt(1, b"disk") + req(0, 0, 512) + req(2, 0, 0),
    "readonly_errors": b"\2" + struct.pack(">I", 1) + GO + req(1, 0, 4, 0, b"xxxx") + req(0, (1 << 20) - 1, 2) +
    req(77, 0, 0) + opt(2),
    "abort": b"\0" + struct.pack(">I", 1) + opt(2),
    "block_status": b"\0" + struct.pack(">I", 1) + opt(8) +
    opt(9, struct.pack(">II", 0, 1) + struct.pack(">I", 5) + b"base:") +
    opt(10, struct.pack(">II", 0, 1) + struct.pack(">I", 15) + b"base:allocation") + GO + req(7, 0, 4096, 1 << 3) +
    req(7, 1 << 20, 1) + req(2, 0, 0),
    "structured": b"\0" + struct.pack(">I", 1) + opt(8) + GO + req(0, 7, 9, 1 << 2) + req(0, 1 << 20, 1) + req(0, 0, 0) +
    req(2, 0, 0),
}
os.makedirs(sys.argv[1], exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(data)
