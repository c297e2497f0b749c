/* blockcrypt: the Linux kernel crypto API's block-cipher modes in user space.
 * Public API. Algorithm names and semantics follow the kernel (crypto/, testmgr). */
#ifndef BLOCKCRYPT_H
#define BLOCKCRYPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Errors are negative errno values:
 *   -EINVAL  bad key, length or parameter     -ENOENT  unknown algorithm or driver name
 *   -EBADMSG authentication failed            -ENOMEM  out of memory
 *   -ENOKEY  operation on a tfm with no key set
 * A call that fails writes nothing to dst and changes no state; the one
 * exception is an AEAD decryption whose tag does not verify: -EBADMSG and dst
 * zero-filled, so no unauthenticated plaintext is ever released.
 *
 * src and dst may be the same buffer or any unaligned pointers. skcipher and
 * aead operations do not modify the tfm: one keyed tfm may be used by many
 * threads at once. shash tfms carry the running state and are single-threaded.
 */

/* Flag for bc_skcipher_set_flags(): accept xts keys whose halves are equal
 * (refused by default, as NIST SP 800-38E and IEEE 1619-2018 require). Set it
 * before setkey, where the check happens. */
#define BC_ALLOW_WEAK_KEYS 1u

/* ---- symmetric ciphers: ecb, cbc, ctr, cts(cbc), xts, essiv --------------- */
typedef struct bc_skcipher bc_skcipher;
int  bc_skcipher_alloc(bc_skcipher **tfm, const char *name);   /* algorithm or driver name */
void bc_skcipher_free(bc_skcipher *tfm);                        /* wipes key material */
void bc_skcipher_set_flags(bc_skcipher *tfm, unsigned flags);   /* BC_ALLOW_WEAK_KEYS */
int  bc_skcipher_setkey(bc_skcipher *tfm, const uint8_t *key, size_t keylen);
/* iv: ivsize bytes (NULL allowed for ecb). cbc and ctr write the chaining
 * value back (cbc: last ciphertext block; ctr: next unused counter block). */
int  bc_skcipher_encrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
int  bc_skcipher_decrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
size_t bc_skcipher_ivsize(const bc_skcipher *tfm);
size_t bc_skcipher_blocksize(const bc_skcipher *tfm);
const char *bc_skcipher_driver(const bc_skcipher *tfm);

/* ---- authenticated encryption: gcm ----------------------------------------- */
typedef struct bc_aead bc_aead;
int  bc_aead_alloc(bc_aead **tfm, const char *name);
void bc_aead_free(bc_aead *tfm);
int  bc_aead_setkey(bc_aead *tfm, const uint8_t *key, size_t keylen);
/* gcm: 4, 8, 12, 13, 14, 15 or 16 (the default) */
int  bc_aead_setauthsize(bc_aead *tfm, size_t taglen);
/* iv: any length >= 1 (12 is the fast path); tag: authsize bytes. */
int  bc_aead_encrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                     const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag);
int  bc_aead_decrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                     const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag);
size_t bc_aead_authsize(const bc_aead *tfm);
const char *bc_aead_driver(const bc_aead *tfm);

/* ---- hashes and MACs: sha256, sm3, ghash, cmac, xcbc, cbcmac --------------- */
typedef struct bc_shash bc_shash;
int  bc_shash_alloc(bc_shash **tfm, const char *name);
void bc_shash_free(bc_shash *tfm);                              /* wipes key and state */
int  bc_shash_setkey(bc_shash *tfm, const uint8_t *key, size_t keylen);
int  bc_shash_init(bc_shash *tfm);
int  bc_shash_update(bc_shash *tfm, const uint8_t *data, size_t len);
int  bc_shash_final(bc_shash *tfm, uint8_t *out);               /* then the state starts afresh */
int  bc_shash_digest(bc_shash *tfm, const uint8_t *data, size_t len, uint8_t *out);
/* n independent one-shot digests under the tfm's key: outs[i] = digest(msgs[i], lens[i]).
 * Drivers that can interleave messages (the MACs on accelerated ciphers) run up
 * to 8 at once, so many short MACs go at the speed of a parallel mode. Leaves
 * the tfm's running state alone. */
int  bc_shash_digest_many(bc_shash *tfm, size_t n, const uint8_t *const msgs[], const size_t lens[],
                          uint8_t *const outs[]);
size_t bc_shash_digestsize(const bc_shash *tfm);
const char *bc_shash_driver(const bc_shash *tfm);

/* ---- the registry ----------------------------------------------------------- */
enum bc_type { BC_TYPE_CIPHER, BC_TYPE_SKCIPHER, BC_TYPE_AEAD, BC_TYPE_SHASH };

struct bc_driver_info {
	const char *name;         /* algorithm name, e.g. "xts(aes)" */
	const char *driver;       /* driver name, e.g. "xts(ecb(aes-generic))" */
	enum bc_type type;
	int priority;
	unsigned min_keysize, max_keysize;
	size_t blocksize;
	size_t ivsize;            /* skcipher, aead */
	size_t digestsize;        /* shash */
	size_t maxauthsize;       /* aead */
	int selftest;             /* 1 passed, 0 not yet run, -1 failed */
};

/* Calls cb for every driver usable on this CPU: every dedicated driver and,
 * for each algorithm name, the template instance over its best inner driver.
 * Stops early and returns cb's value if it is non-zero; -ENOMEM if the
 * registry could not be set up. */
int bc_list_drivers(int (*cb)(const struct bc_driver_info *info, void *arg), void *arg);

/* Runs the known-answer tests of every driver bc_list_drivers shows
 * (full: also the long ones, such as the 1,000,000-iteration SM4 vector) and
 * calls cb with each result (0 or a negative errno). Returns the number of failures,
 * or -ENOMEM if the registry could not be set up. */
int bc_selftest_all(int full, void (*cb)(const struct bc_driver_info *info, int result, void *arg), void *arg);

/* The CPU features in use after BLOCKCRYPT_DISABLE, as a space-separated list. */
const char *bc_cpu_features_string(void);

/* Constant-time comparison: 0 if equal. */
int bc_memneq(const void *a, const void *b, size_t len);

#ifdef __cplusplus
}
#endif
#endif
