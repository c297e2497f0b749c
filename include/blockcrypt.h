/* blockcrypt: the Linux kernel crypto API's block-cipher modes in user space.
 * Public API. Algorithm names and semantics follow the kernel (crypto/, testmgr). */
#ifndef BLOCKCRYPT_H
#define BLOCKCRYPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The release this header belongs to: the one version number of the project
 * (the Makefile, pkg-config and `blockcrypt --version` read it from here).
 * The shared library's SONAME is libblockcrypt.so.MAJOR: a new MAJOR is an
 * incompatible ABI change, a new MINOR adds to the API. */
#define BLOCKCRYPT_VERSION_MAJOR 1
#define BLOCKCRYPT_VERSION_MINOR 0
#define BLOCKCRYPT_VERSION_PATCH 0
#define BLOCKCRYPT_VERSION_STR_(x) #x
#define BLOCKCRYPT_VERSION_STR(x) BLOCKCRYPT_VERSION_STR_(x)
#define BLOCKCRYPT_VERSION_STRING BLOCKCRYPT_VERSION_STR(BLOCKCRYPT_VERSION_MAJOR) "." \
	BLOCKCRYPT_VERSION_STR(BLOCKCRYPT_VERSION_MINOR) "." BLOCKCRYPT_VERSION_STR(BLOCKCRYPT_VERSION_PATCH)
#define BLOCKCRYPT_VERSION_NUMBER \
	((BLOCKCRYPT_VERSION_MAJOR << 16) | (BLOCKCRYPT_VERSION_MINOR << 8) | BLOCKCRYPT_VERSION_PATCH)

/* What the shared library exports: these declarations and nothing else (it is
 * built with hidden visibility). */
#ifndef BC_API
#define BC_API __attribute__((visibility("default")))
#endif

/* The version of the library actually running, as BLOCKCRYPT_VERSION_NUMBER
 * (0xMMmmpp). A program built against MAJOR.MINOR can run with any library
 * whose major is the same and whose minor is at least as large:
 *   (bc_version() >> 16) == BLOCKCRYPT_VERSION_MAJOR &&
 *   (bc_version() & 0xffff) >= (BLOCKCRYPT_VERSION_NUMBER & 0xff00) */
BC_API unsigned long bc_version(void);

/*
 * Errors are negative errno values:
 *   -EINVAL  bad key, length or parameter     -ENOENT  unknown algorithm or driver name
 *   -EBADMSG authentication failed            -ENOMEM  out of memory
 *   -ENOKEY  operation on a tfm with no key set
 *   -EOVERFLOW ccm: a text too long for the length field the IV chose
 * A call that fails writes nothing to dst and changes no state; the one
 * exception is an AEAD decryption whose tag does not verify: -EBADMSG and dst
 * zero-filled, so no unauthenticated plaintext is ever released.
 *
 * src and dst may be the same buffer or any unaligned pointers. skcipher and
 * aead operations do not modify the tfm: one keyed tfm may be used by many
 * threads at once. shash tfms carry the running state and are single-threaded.
 */

/* Flag for bc_skcipher_set_flags(): accept xts keys whose halves are equal
 * (refused by default, as NIST SP 800-38E and IEEE 1619-2018 require), des
 * weak keys and des3_ede keys with K1 == K2 or K2 == K3 (refused by default,
 * as by the kernel with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS). Set it before
 * setkey, where the check happens. */
#define BC_ALLOW_WEAK_KEYS 1u

/* ---- symmetric ciphers: ecb, cbc, ctr, cts(cbc), xts, essiv --------------- */
typedef struct bc_skcipher bc_skcipher;
BC_API int  bc_skcipher_alloc(bc_skcipher **tfm, const char *name);   /* algorithm or driver name */
BC_API void bc_skcipher_free(bc_skcipher *tfm);                        /* wipes key material */
BC_API void bc_skcipher_set_flags(bc_skcipher *tfm, unsigned flags);   /* BC_ALLOW_WEAK_KEYS */
BC_API int  bc_skcipher_setkey(bc_skcipher *tfm, const uint8_t *key, size_t keylen);
/* iv: ivsize bytes (NULL allowed for ecb). cbc and ctr write the chaining
 * value back (cbc: last ciphertext block; ctr: next unused counter block). */
BC_API int  bc_skcipher_encrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
BC_API int  bc_skcipher_decrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
BC_API size_t bc_skcipher_ivsize(const bc_skcipher *tfm);
BC_API size_t bc_skcipher_blocksize(const bc_skcipher *tfm);
BC_API const char *bc_skcipher_driver(const bc_skcipher *tfm);

/* ---- authenticated encryption: gcm, ccm, rfc4106/rfc4543/rfc4309, authenc --- */
typedef struct bc_aead bc_aead;
BC_API int  bc_aead_alloc(bc_aead **tfm, const char *name);
BC_API void bc_aead_free(bc_aead *tfm);
BC_API int  bc_aead_setkey(bc_aead *tfm, const uint8_t *key, size_t keylen);
/* gcm: 4, 8, 12, 13, 14, 15 or 16 (the default); ccm: 4, 6, 8, 10, 12, 14 or 16;
 * rfc4106, rfc4309: 8, 12, 16; rfc4543: 16; authenc: up to the MAC's digest (the
 * default; authencesn 0 or >= 4) */
BC_API int  bc_aead_setauthsize(bc_aead *tfm, size_t taglen);
/* iv: gcm any length >= 1 (12 is the fast path); ccm the kernel's 16-byte
 * counter block, iv[0] = L - 1 (L from 2 to 8), the 15 - L byte nonce after it
 * (the last L bytes are ignored), and len < 2^(8L) (else -EOVERFLOW); the ESP
 * forms 8 bytes with ESP's 16 or 20 bytes of ad ending with the IV; authenc the
 * cipher's IV. tag: authsize bytes. */
BC_API int  bc_aead_encrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                            const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag);
BC_API int  bc_aead_decrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
                            const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag);
/* Incremental gcm, for callers that see a message in pieces (streams, the
 * OpenSSL EVP interface): bc_aead_start with the IV, then the associated data
 * in any number of bc_aead_update_ad calls, then the text in any number of
 * bc_aead_update calls of any sizes (src == dst allowed), then bc_aead_final
 * for the tag (bc_aead_authsize bytes, on decryption too: compare it with the
 * received tag by bc_memneq). The pieces give the bytes and the tag the
 * one-shot calls give for their concatenation. A decryption hands out
 * plaintext before the tag is checked: keep it until bc_aead_final says it
 * is authentic (an empty update is no text: AD may still follow). AD after
 * text, text or final before start, and a message
 * past GCM's length limit get -EINVAL and change nothing. A req belongs to
 * one thread at a time; many reqs may share one keyed tfm, as the one-shot
 * calls may, as long as no one sets the tfm's key or authsize meanwhile.
 * bc_aead_start may be called again at any time to begin a new message.
 * ccm has no incremental form (its first MAC block encodes the lengths of
 * the AD and of the text, so nothing can be authenticated before both are
 * known): bc_aead_req_alloc refuses its tfms with -EINVAL. */
typedef struct bc_aead_req bc_aead_req;
BC_API int  bc_aead_req_alloc(bc_aead_req **req, const bc_aead *tfm);
BC_API void bc_aead_req_free(bc_aead_req *req);                  /* wipes the message state */
BC_API int  bc_aead_start(bc_aead_req *req, int encrypt, const uint8_t *iv, size_t ivlen);
BC_API int  bc_aead_update_ad(bc_aead_req *req, const uint8_t *ad, size_t len);
BC_API int  bc_aead_update(bc_aead_req *req, const uint8_t *src, uint8_t *dst, size_t len);
BC_API int  bc_aead_final(bc_aead_req *req, uint8_t *tag);
/* dst continues src's message from where src is (both go on independently):
 * both reqs belong to tfms of the same driver with the same key and authsize.
 * -EINVAL if their drivers differ. */
BC_API int  bc_aead_req_copy(bc_aead_req *dst, const bc_aead_req *src);
BC_API size_t bc_aead_authsize(const bc_aead *tfm);
BC_API const char *bc_aead_driver(const bc_aead *tfm);

/* ---- hashes and MACs: sha256, sm3, ghash, cmac, xcbc, cbcmac, hmac ---------- */
typedef struct bc_shash bc_shash;
BC_API int  bc_shash_alloc(bc_shash **tfm, const char *name);
BC_API void bc_shash_free(bc_shash *tfm);                              /* wipes key and state */
BC_API int  bc_shash_setkey(bc_shash *tfm, const uint8_t *key, size_t keylen);
BC_API int  bc_shash_init(bc_shash *tfm);
BC_API int  bc_shash_update(bc_shash *tfm, const uint8_t *data, size_t len);
BC_API int  bc_shash_final(bc_shash *tfm, uint8_t *out);               /* then the state starts afresh */
BC_API int  bc_shash_digest(bc_shash *tfm, const uint8_t *data, size_t len, uint8_t *out);
/* n independent one-shot digests under the tfm's key: outs[i] = digest(msgs[i], lens[i]).
 * Drivers that can interleave messages (the MACs on accelerated ciphers) run up
 * to 8 at once, so many short MACs go at the speed of a parallel mode. Leaves
 * the tfm's running state alone. */
BC_API int  bc_shash_digest_many(bc_shash *tfm, size_t n, const uint8_t *const msgs[], const size_t lens[],
                                 uint8_t *const outs[]);
/* A new tfm with src's algorithm, key and running state (a message half
 * hashed continues in both). Free it with bc_shash_free. */
BC_API int  bc_shash_dup(bc_shash **dst, const bc_shash *src);
BC_API size_t bc_shash_digestsize(const bc_shash *tfm);
BC_API const char *bc_shash_driver(const bc_shash *tfm);

/* ---- HKDF (RFC 5869) over an hmac(...) tfm, as the kernel's crypto/hkdf.c ------
 * Extract: prk = HMAC(salt, ikm), digestsize bytes (an empty salt is the RFC's
 * default, HashLen zeros); the tfm is then keyed with prk. Expand: okmlen bytes
 * from the tfm's key (the prk, or any key the caller set) and info; -EINVAL for
 * okmlen over 255 * digestsize or a tfm that is not an hmac. Both change the
 * tfm's running state (single-threaded, as every shash) and wipe what they
 * computed on the way. */
BC_API int  bc_hkdf_extract(bc_shash *hmac, const uint8_t *ikm, size_t ikmlen, const uint8_t *salt, size_t saltlen,
                            uint8_t *prk);
BC_API int  bc_hkdf_expand(bc_shash *hmac, const uint8_t *info, size_t infolen, uint8_t *okm, size_t okmlen);

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
BC_API int bc_list_drivers(int (*cb)(const struct bc_driver_info *info, void *arg), void *arg);

/* Runs the known-answer tests of every driver bc_list_drivers shows
 * (full: also the long ones, such as the 1,000,000-iteration SM4 vector) and
 * calls cb with each result (0 or a negative errno). Returns the number of failures,
 * or -ENOMEM if the registry could not be set up. */
BC_API int bc_selftest_all(int full, void (*cb)(const struct bc_driver_info *info, int result, void *arg), void *arg);

/* The CPU features in use after BLOCKCRYPT_DISABLE, as a space-separated list. */
BC_API const char *bc_cpu_features_string(void);

/* Constant-time comparison: 0 if equal. */
BC_API int bc_memneq(const void *a, const void *b, size_t len);

#ifdef __cplusplus
}
#endif
#endif
