/* blockcrypt-fscrypt: the key derivation, IVs and file-name encryption of Linux filesystem encryption.
 * Specification: the kernel's Documentation/filesystems/fscrypt.rst (v1 and v2 policies, HKDF-SHA512 KDF). */
#ifndef BLOCKCRYPT_FSCRYPT_H
#define BLOCKCRYPT_FSCRYPT_H

#include <stddef.h>
#include <stdint.h>

#include "blockcrypt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Errors are blockcrypt's negative errno values (blockcrypt.h), plus
 *   -ENAMETOOLONG  a file name longer than BC_FSCRYPT_NAME_MAX bytes
 * A call that fails writes nothing. Derived keys live only in the caller's
 * buffers and in the tfms; every intermediate value is wiped.
 */

/* The encryption modes, numbered as in the kernel's uapi (linux/fscrypt.h). */
#define BC_FSCRYPT_MODE_AES_256_XTS    1   /* xts(aes), 64-byte key: contents */
#define BC_FSCRYPT_MODE_AES_256_CTS    4   /* cts(cbc(aes)), 32-byte key: names */
#define BC_FSCRYPT_MODE_AES_128_CBC    5   /* essiv(cbc(aes),sha256), 16-byte key: contents */
#define BC_FSCRYPT_MODE_AES_128_CTS    6   /* cts(cbc(aes)), 16-byte key: names */
#define BC_FSCRYPT_MODE_ADIANTUM       9   /* adiantum(xchacha12,aes), 32-byte key, 32-byte IV: both */
#define BC_FSCRYPT_MODE_AES_256_HCTR2 10   /* hctr2(aes), 32-byte key, 32-byte IV: names */

/* Policy versions and flags (uapi values). The low two flag bits choose the
 * name padding: 4 << (flags & BC_FSCRYPT_POLICY_FLAGS_PAD_MASK) bytes. */
#define BC_FSCRYPT_POLICY_V1                0
#define BC_FSCRYPT_POLICY_V2                2
#define BC_FSCRYPT_POLICY_FLAGS_PAD_4       0x00
#define BC_FSCRYPT_POLICY_FLAGS_PAD_8       0x01
#define BC_FSCRYPT_POLICY_FLAGS_PAD_16      0x02
#define BC_FSCRYPT_POLICY_FLAGS_PAD_32      0x03
#define BC_FSCRYPT_POLICY_FLAGS_PAD_MASK    0x03
#define BC_FSCRYPT_POLICY_FLAG_DIRECT_KEY   0x04
#define BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 0x08
#define BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32 0x10

/* The HKDF-SHA512 contexts of v2 policies: info = "fscrypt\0" || context || the context's bytes. */
#define BC_FSCRYPT_CTX_KEY_IDENTIFIER   1   /* nothing: the 16-byte key identifier */
#define BC_FSCRYPT_CTX_PER_FILE_ENC_KEY 2   /* the file's 16-byte nonce */
#define BC_FSCRYPT_CTX_DIRECT_KEY       3   /* the mode number */
#define BC_FSCRYPT_CTX_IV_INO_LBLK_64   4   /* the mode number, the filesystem's 16-byte UUID */
#define BC_FSCRYPT_CTX_DIRHASH_KEY      5   /* the directory's nonce: its 16-byte SipHash key */
#define BC_FSCRYPT_CTX_IV_INO_LBLK_32   6   /* the mode number, the filesystem's UUID */
#define BC_FSCRYPT_CTX_INODE_HASH_KEY   7   /* nothing: the 16-byte SipHash key of inode numbers */

#define BC_FSCRYPT_NONCE_SIZE          16
#define BC_FSCRYPT_UUID_SIZE           16
#define BC_FSCRYPT_KEY_IDENTIFIER_SIZE 16
#define BC_FSCRYPT_SIPHASH_KEY_SIZE    16
#define BC_FSCRYPT_MIN_KEY_SIZE        16   /* master keys: 16 to 64 bytes */
#define BC_FSCRYPT_MAX_KEY_SIZE        64
#define BC_FSCRYPT_MAX_IV_SIZE         32
#define BC_FSCRYPT_NAME_MAX           255   /* longest name, plain or encrypted (NAME_MAX) */
#define BC_FSCRYPT_NAME_MIN_MSG       16    /* names are padded to at least this */

/* A policy as a file's encryption context carries it, with the filesystem's
 * UUID (used by the IV_INO_LBLK_* flags only). */
struct bc_fscrypt_policy {
	uint8_t version;                 /* BC_FSCRYPT_POLICY_V1 or _V2 */
	uint8_t contents_mode;           /* BC_FSCRYPT_MODE_* of regular files' data */
	uint8_t filenames_mode;          /* BC_FSCRYPT_MODE_* of names and symlink targets */
	uint8_t flags;                   /* BC_FSCRYPT_POLICY_FLAG* */
	uint8_t fs_uuid[BC_FSCRYPT_UUID_SIZE];
};

/* A mode's algorithm name (the kernel's), key size and IV size; -EINVAL for an unknown mode. */
BC_API int bc_fscrypt_mode_info(unsigned mode, const char **alg, size_t *keysize, size_t *ivsize);

/* ---- master keys ---------------------------------------------------------------
 * A master key of 16 to 64 bytes (-EINVAL otherwise): the raw key for v1
 * policies and its HKDF-SHA512 pseudorandom key (extracted with no salt) for
 * v2. A key is used by one thread at a time (its hmac tfm's state). */
typedef struct bc_fscrypt_key bc_fscrypt_key;
BC_API int  bc_fscrypt_key_alloc(bc_fscrypt_key **key, const uint8_t *master, size_t len);
BC_API void bc_fscrypt_key_free(bc_fscrypt_key *key);        /* wipes the key and the PRK */

/* HKDF-Expand with fscrypt's info: "fscrypt\0" || context || info (info up to 64 bytes). */
BC_API int bc_fscrypt_hkdf(bc_fscrypt_key *key, uint8_t context, const uint8_t *info, size_t infolen,
                           uint8_t *out, size_t outlen);
/* The v2 key identifier that names the key in policies and ioctls (16 bytes). */
BC_API int bc_fscrypt_key_identifier(bc_fscrypt_key *key, uint8_t id[BC_FSCRYPT_KEY_IDENTIFIER_SIZE]);

/* The encryption key of a file (dir = 0: the contents mode) or of a directory
 * or symlink (dir = 1: the filenames mode, the key of its names), keysize
 * bytes of the mode. v2: per-file from the nonce, or per mode with
 * DIRECT_KEY, or per mode and filesystem UUID with IV_INO_LBLK_64 or _32.
 * v1: AES-128-ECB of the master key under the nonce, or the master key itself
 * with DIRECT_KEY. -EINVAL for an unknown mode or version, a master key
 * shorter than v1 needs (the mode's key) or than v2 needs (its strength: 32
 * bytes for AES-256, 16 for AES-128), more than one of DIRECT_KEY,
 * IV_INO_LBLK_64 and _32, or DIRECT_KEY on a mode whose IV cannot hold the nonce. */
BC_API int bc_fscrypt_file_key(bc_fscrypt_key *key, const struct bc_fscrypt_policy *policy, int dir,
                               const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE], uint8_t *out);
/* A directory's SipHash key for the names of casefolded encrypted directories (v2 only). */
BC_API int bc_fscrypt_dirhash_key(bc_fscrypt_key *key, const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE],
                                  uint8_t out[BC_FSCRYPT_SIPHASH_KEY_SIZE]);
/* IV_INO_LBLK_32's hashed inode number: SipHash-2-4 of ino under the inode
 * hash key (BC_FSCRYPT_CTX_INODE_HASH_KEY), its low 32 bits. v2 only. */
BC_API int bc_fscrypt_hash_ino(bc_fscrypt_key *key, uint64_t ino, uint32_t *hashed);

/* The IV of data unit `index` of a file (a name's IV is index 0), all
 * BC_FSCRYPT_MAX_IV_SIZE bytes (a mode takes its ivsize first ones), zero but:
 *   default:        le64 index
 *   DIRECT_KEY:     le64 index, then the 16-byte nonce
 *   IV_INO_LBLK_64: le32 index, le32 ino (both must fit 32 bits, else -EINVAL)
 *   IV_INO_LBLK_32: le32 (hashed_ino + index) mod 2^32 (index must fit 32 bits)
 * nonce is read with DIRECT_KEY only, ino with IV_INO_LBLK_64, hashed_ino with _32. */
BC_API int bc_fscrypt_iv(const struct bc_fscrypt_policy *policy, const uint8_t nonce[BC_FSCRYPT_NONCE_SIZE],
                         uint64_t ino, uint32_t hashed_ino, uint64_t index, uint8_t iv[BC_FSCRYPT_MAX_IV_SIZE]);

/* A keyed tfm of the mode (the key from bc_fscrypt_file_key); weak keys refused as by the kernel. */
BC_API int bc_fscrypt_cipher_alloc(bc_skcipher **tfm, unsigned mode, const uint8_t *key);

/* ---- file names ------------------------------------------------------------------
 * Encryption: the name (1 to 255 bytes, -ENAMETOOLONG above) zero-padded to
 * at least 16 bytes and to a multiple of the policy's padding, at most 255,
 * encrypted whole under iv (the name IV, index 0) by a filenames-mode tfm;
 * *outlen gets the length (out holds BC_FSCRYPT_NAME_MAX bytes). Decryption:
 * a ciphertext of 16 to 255 bytes (-EINVAL otherwise), the NUL padding
 * stripped. */
BC_API int bc_fscrypt_name_encrypt(const bc_skcipher *tfm, uint8_t flags, const uint8_t *iv,
                                   const uint8_t *name, size_t len, uint8_t *out, size_t *outlen);
BC_API int bc_fscrypt_name_decrypt(const bc_skcipher *tfm, const uint8_t *iv,
                                   const uint8_t *ctext, size_t len, uint8_t *name, size_t *namelen);

#ifdef __cplusplus
}
#endif
#endif
