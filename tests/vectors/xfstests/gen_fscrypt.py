#!/usr/bin/env python3
# Generates fscrypt_crypt_util.txt: fscrypt known answers from two independent implementations,
# xfstests' src/fscrypt-crypt-util.c (contents, names, key identifiers) and OpenSSL's HKDF (`openssl kdf`).
# Usage: gen_fscrypt.py FSCRYPT_CRYPT_UTIL > fscrypt_crypt_util.txt  (not run by the tests)
import hashlib, shlex, subprocess, sys

TOOL = sys.argv[1]

def det(label, n):
    out = b''
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f'{label}/{i}'.encode()).digest()
        i += 1
    return out[:n]

def run(args, data=b''):
    r = subprocess.run([TOOL] + args, input=data, stdout=subprocess.PIPE, check=True)
    return r.stdout

def cmdline(args, stdin_note):
    return 'fscrypt-crypt-util ' + ' '.join(shlex.quote(a) for a in args) + stdin_note

MODES = {1: ('AES-256-XTS', 64), 4: ('AES-256-CTS-CBC', 32), 5: ('AES-128-CBC-ESSIV', 16),
         6: ('AES-128-CTS-CBC', 16), 9: ('Adiantum', 32), 10: ('AES-256-HCTR2', 32)}
M64 = det('master64', 64)
M32 = det('master32', 32)
UUID = det('fs-uuid', 16)
recs = []

def rec(comment, fields):
    recs.append((comment, fields))

# key identifiers (HKDF-SHA512, context 1)
for name, mk in (('16', det('master16', 16)), ('32', M32), ('64', M64)):
    args = ['--dump-key-identifier', '--kdf=HKDF-SHA512', mk.hex()]
    kid = run(args).decode().strip()
    rec(cmdline(args, ''), [('alg', 'fscrypt(key_identifier)'), ('master', mk.hex()), ('id', kid)])

# every HKDF context, derived directly by OpenSSL: info = "fscrypt\0" || context || info
def ossl_hkdf(mk, info, n):
    args = ['openssl', 'kdf', '-keylen', str(n), '-kdfopt', 'digest:SHA512', '-kdfopt', 'hexkey:' + mk.hex(),
            '-kdfopt', 'hexinfo:' + info.hex(), 'HKDF']
    out = subprocess.run(args, stdout=subprocess.PIPE, check=True).stdout.decode().strip().replace(':', '').lower()
    return ' '.join(shlex.quote(a) for a in args), out

nonce0 = det('nonce-hkdf', 16)
for ctx, info, n, what in ((1, b'', 16, 'key identifier'), (2, nonce0, 64, 'per-file key (AES-256-XTS)'),
                           (2, nonce0, 32, 'per-directory name key (AES-256-CTS)'),
                           (3, bytes([9]), 32, 'DIRECT_KEY key of Adiantum'),
                           (4, bytes([1]) + UUID, 64, 'IV_INO_LBLK_64 key of AES-256-XTS'),
                           (5, nonce0, 16, 'dirhash key'),
                           (6, bytes([1]) + UUID, 64, 'IV_INO_LBLK_32 key of AES-256-XTS'),
                           (7, b'', 16, 'inode hash key')):
    full = b'fscrypt\0' + bytes([ctx]) + info
    for mk in (M32, M64):
        cmd, out = ossl_hkdf(mk, full, n)
        rec(f'{what}: {cmd}', [('alg', 'fscrypt(hkdf)'), ('master', mk.hex()), ('context', str(ctx)),
                               ('info', info.hex()), ('okm', out)])

# contents: 3 data units of 512 bytes from unit `index` on
# the options that give the tool a policy: its KDF, IV flags and mode, then the cipher and master key
def policy_args(version, mode, flags, mk, ino, nonce):
    args = [f'--file-nonce={nonce.hex()}']
    if version == 2:
        args.append('--kdf=HKDF-SHA512')
    elif not flags & 4:
        args.append('--kdf=AES-128-ECB')
    if flags & 4:
        args.append('--direct-key')
    if flags & 0x18:
        args += ['--iv-ino-lblk-64' if flags & 8 else '--iv-ino-lblk-32', f'--inode-number={ino}',
                 f'--fs-uuid={UUID.hex()}']
    if version == 2 and flags & 0x1c:
        args.append(f'--mode-num={mode}')
    return args + [MODES[mode][0], mk.hex()]

def contents(version, mode, flags, mk, index, ino=0, label=''):
    nonce = det('nonce-' + label, 16)
    args = ['--data-unit-size=512', f'--data-unit-index={index}'] + policy_args(version, mode, flags, mk, ino, nonce)
    pt = det('ptext-' + label, 3 * 512)
    ct = run(args, pt)
    rec(cmdline(args, ' < ptext'), [('alg', 'fscrypt(contents)'), ('version', str(version)), ('mode', str(mode)),
        ('flags', str(flags)), ('master', mk.hex()), ('nonce', nonce.hex()), ('fs_uuid', UUID.hex()),
        ('ino', str(ino)), ('index', str(index)), ('du_size', '512'), ('ptext', pt.hex()), ('ctext', ct.hex())])

for mode in (1, 9, 5):
    contents(2, mode, 0, M64, 0, label=f'c{mode}a')
    contents(2, mode, 0, M32 if mode != 1 else M64, 1000, label=f'c{mode}b')
    contents(2, mode, 0x08, M64, 77, ino=1234567, label=f'c{mode}l64')
    contents(2, mode, 0x10, M64, 4294967293, ino=98765, label=f'c{mode}l32')
    contents(1, mode, 0, M64, 5, label=f'c{mode}v1')
contents(2, 9, 0x04, M64, 9, label='c9dk')
contents(1, 9, 0x04, M32, 2, label='c9v1dk')

# names: the tool pads like the kernel (--padding, at least 16 bytes, at most --data-unit-size=255)
def fname(version, mode, flags, mk, nm, ino=0, label=''):
    nonce = det('nonce-' + label, 16)
    args = ['--data-unit-size=255', f'--padding={4 << (flags & 3)}'] + policy_args(version, mode, flags, mk, ino, nonce)
    ct = run(args, nm)
    rec(cmdline(args, ' < name'), [('alg', 'fscrypt(name)'), ('version', str(version)), ('mode', str(mode)),
        ('flags', str(flags)), ('master', mk.hex()), ('nonce', nonce.hex()), ('fs_uuid', UUID.hex()),
        ('ino', str(ino)), ('ptext', nm.hex()), ('ctext', ct.hex())])

def aname(label, n):
    return bytes(0x61 + b % 26 for b in det('name-' + label, n))

for mode in (4, 6, 9, 10):
    for pad in range(4):
        for n in ((1, 15, 17, 100) if pad == 0 else (3, 16, 33, 250) if pad == 3 else (5, 31, 255)):
            fname(2, mode, pad, M64, aname(f'{mode}-{pad}-{n}', n), label=f'n{mode}-{pad}-{n}')
for mode in (9, 10):
    fname(2, mode, 0x04 | 3, M64, aname(f'dk{mode}', 20), label=f'ndk{mode}')
fname(2, 4, 0x08 | 2, M64, aname('l64', 20), ino=4242, label='nl64')
fname(2, 4, 0x10 | 1, M64, aname('l32', 20), ino=4243, label='nl32')
fname(1, 4, 3, M64, aname('v1', 40), label='nv1')
fname(1, 9, 0x04, M32, aname('v1dk', 12), label='nv1dk')

print('''# fscrypt known answers: key identifiers, HKDF-SHA512 subkeys, file contents and file names.
# Generated by gen_fscrypt.py (beside this file) from two independent implementations:
#  * xfstests src/fscrypt-crypt-util.c (github.com/kdave/xfstests, commit 63a29724a85f1999e49bf0a9bf0d22643b6116e5;
#    GPL-2.0+, used as a program only, none of its code is in blockcrypt), built with `gcc -O2`; each record's
#    comment is its command line (ptext on standard input);
#  * OpenSSL 3.0 `openssl kdf ... HKDF` for the HKDF contexts (command line in each comment).
# Inputs (keys, nonces, UUID, texts) are SHA-256 outputs of fixed labels, see the script.
# Records (uniform format, FORMAT.md):
#   fscrypt(key_identifier): master -> id (16 bytes)
#   fscrypt(hkdf): HKDF-SHA512(salt none, ikm master, info "fscrypt\\0" || context || info) = okm
#   fscrypt(contents): policy version (1, 2), mode (uapi number), flags (uapi bits), the file's nonce, the
#     filesystem UUID, inode number ino; ptext is whole data units of du_size bytes from unit `index` on
#   fscrypt(name): a directory's policy, nonce and inode number; ptext the name, ctext the encrypted name
''')
for c, fields in recs:
    print('# ' + c)
    for k, v in fields:
        print(f'{k} = {v}')
    print()
