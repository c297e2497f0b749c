/* blockcrypt internals: the driver interfaces every cipher, mode and hash implements.
 * Modelled on the Linux crypto API (crypto_alg / skcipher_alg / aead_alg / shash_alg). */
#ifndef BC_INTERNAL_H
#define BC_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blockcrypt.h"

#ifndef ENOKEY
#define ENOKEY 126
#endif

#define BC_BLOCK 16
#define BC_MAX_IV 32       /* longest skcipher IV: hctr2's tweak, xchacha's nonce and stream position */
#define BC_MAX_KEY 64      /* longest cipher-mode key (xts(aes) with AES-256); hmac and authenc take longer */
#define BC_DESC_MAX 576    /* largest per-operation hash state (nhpoly1305's, with Poly1305's wide
                            * powers); on the stack, aligned to BC_CTX_ALIGN */
#define BC_CTX_ALIGN 64    /* tfm contexts are allocated with this alignment */
#define BC_KEYSIZE_ANY 0xffffffffu  /* a max_keysize: no limit (hmac hashes a long key first) */
#define BC_HASH_MAX_BLOCK 256  /* longest hash block an hmac takes (the kernel's longest, sha3-224's, is 144) */
#define BC_MAX_AUTHSIZE 64 /* longest AEAD tag (authenc over hmac(sha512)) and shash digest */

/* ---- CPU features (src/core/cpu.c) ------------------------------------------
 * Detected once; BLOCKCRYPT_DISABLE=name,name,... (or "all") masks bits off.
 * A driver lists the bits it needs in its .cpu field; the registry never
 * hands out a driver whose bits are not all present. */
#define BC_CPU_AESNI     (1u << 0)   /* x86: AES-NI, with SSSE3 and SSE4.1 */
#define BC_CPU_PCLMUL    (1u << 1)   /* x86: PCLMULQDQ */
#define BC_CPU_AVX       (1u << 2)   /* x86: AVX, with the OS saving YMM state (XCR0) */
#define BC_CPU_AVX2      (1u << 3)   /* x86: AVX2 (implies AVX) */
#define BC_CPU_VAES      (1u << 4)   /* x86: VAES on ymm (implies AVX2) */
#define BC_CPU_VPCLMUL   (1u << 5)   /* x86: VPCLMULQDQ on ymm (implies AVX2) */
#define BC_CPU_GFNI      (1u << 6)   /* x86: GFNI with AVX2 (GF2P8AFFINE[INV]QB on ymm) */
#define BC_CPU_AVX512    (1u << 7)   /* x86: AVX-512 F, BW and VL, with the OS saving zmm and mask state */
#define BC_CPU_ARM_AES   (1u << 8)   /* arm64: AESE/AESD/AESMC/AESIMC */
#define BC_CPU_ARM_PMULL (1u << 9)   /* arm64: PMULL/PMULL2 (64x64) */
#define BC_CPU_ARM_SM4   (1u << 10)  /* arm64: SM4E/SM4EKEY */
#define BC_CPU_BMI2      (1u << 11)  /* x86: BMI2 (RORX, SHLX: rotates without flags or a copy) */
#define BC_CPU_SHA       (1u << 12)  /* x86: SHA-NI (SHA256RNDS2, SHA256MSG1/2), with SSSE3 and SSE4.1 */
#define BC_CPU_ARM_SHA2  (1u << 13)  /* arm64: SHA256H/SHA256H2/SHA256SU0/SHA256SU1 */
#define BC_CPU_ARM_SM3   (1u << 14)  /* arm64: SM3SS1/SM3TT1A/B/SM3TT2A/B/SM3PARTW1/2 */
#define BC_CPU_SSSE3     (1u << 15)  /* x86: SSSE3 (PSHUFB), the vector byte shuffle of CPUs before AVX2 */
#define BC_CPU_ARM_SHA1  (1u << 24)  /* arm64: SHA1C/SHA1P/SHA1M/SHA1H/SHA1SU0/SHA1SU1 (HWCAP_SHA1) */
#define BC_CPU_ARM_SHA512 (1u << 25) /* arm64: SHA512H/SHA512H2/SHA512SU0/SHA512SU1 (HWCAP_SHA512) */
#define BC_CPU_AVX512VBMI (1u << 26) /* x86: AVX-512 VBMI (VPERMB, VPERMI2B), with BC_CPU_AVX512 */
#define BC_CPU_AVX512IFMA (1u << 27) /* x86: AVX-512 IFMA (VPMADD52LUQ/HUQ), with BC_CPU_AVX512 */
uint32_t bc_cpu_features(void);

/* ---- block ciphers -----------------------------------------------------------
 * The seam every mode is written against. encrypt/decrypt take whole blocks;
 * dst may equal src, and neither needs any alignment. A driver that can work
 * on several blocks at once (bitsliced, AES-NI) does so inside one call, so a
 * mode calls it once per chunk, never once per block where it can avoid it. */
struct bc_cipher_alg {
	const char *name;                /* "aes", "sm4" */
	const char *driver;              /* "aes-generic", "aes-aesni", ... */
	int priority;
	uint32_t cpu;                    /* BC_CPU_* bits needed */
	unsigned min_keysize, max_keysize;
	size_t ctxsize;                  /* <= the context size the caller provides */
	/* Checks keylen first: on -EINVAL the context is untouched. */
	int  (*setkey)(void *ctx, const uint8_t *key, size_t keylen);
	void (*encrypt)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
	void (*decrypt)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
	/* CBC-MAC chain over whole blocks: for each block, st = E(st ^ block).
	 * The serial heart of cbc encryption and of cmac, xcbc and cbcmac. */
	void (*mac)(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks);
	/* Optional: n (<= 8) independent CBC-MAC chains of nblocks each,
	 * interleaved (bc_shash_digest_many). NULL: the MAC templates loop over mac. */
	void (*mac_many)(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[], size_t nblocks);
	/* The block size: 8 (des, des3_ede), or 0 for BC_BLOCK (16). The
	 * templates choose their 8- or 16-byte operations from it once, when an
	 * instance is built, so nothing divides by it per call. */
	unsigned blocksize;
	/* Optional: nonzero for a key the kernel refuses when weak keys are
	 * forbidden (des: the four weak keys; des3_ede: K1 == K2 or K2 == K3).
	 * Constant-time in the key bytes; only the verdict is public. The
	 * skcipher templates refuse such a key with -EINVAL unless
	 * BC_ALLOW_WEAK_KEYS; setkey itself takes any key of the right length. */
	int  (*weak_key)(const uint8_t *key, size_t keylen);
};
static inline size_t bc_cipher_blocksize(const struct bc_cipher_alg *a)
{
	return a->blocksize ? a->blocksize : BC_BLOCK;
}

/* ---- skciphers (ecb, cbc, ctr, cts, xts, essiv) ------------------------------
 * The front end (src/core/api.c) checks the key state and the length
 * (min_len, len_align) before calling, so encrypt/decrypt cannot fail. */
struct bc_skcipher_alg {
	const char *name;                /* "xts(aes)" */
	const char *driver;              /* "xts-aes-aesni", "xts(ecb(aes-generic))" */
	int priority;
	uint32_t cpu;
	unsigned min_keysize, max_keysize;
	size_t ivsize;                   /* 16, or 0 for ecb */
	size_t blocksize;                /* as /proc/crypto shows it: 16, or 1 for ctr */
	size_t min_len;                  /* shortest accepted length (16 for cts and xts) */
	size_t len_align;                /* lengths must be multiples of this (16 for ecb, cbc, essiv, else 1):
	                                  * a power of two, checked with a mask (a division costs more than
	                                  * a one-block operation) */
	size_t ctxsize;
	/* Optional; templates record their inner algorithms here (called once
	 * after the context is allocated and zeroed). */
	void (*init)(void *ctx, const struct bc_skcipher_alg *self);
	/* Checks everything first: on error the context is untouched. */
	int  (*setkey)(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
	/* 0, whatever the length the front end let through. An int, as the
	 * kernel's skcipher operations return, so that the front end hands over
	 * with a jump instead of a call and a return of its own, which a
	 * one-block operation notices; a driver's helpers that it ends on
	 * return it too, for the same reason. */
	int  (*encrypt)(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
	int  (*decrypt)(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
	/* Template instances: what they were built on (NULL otherwise). */
	const struct bc_cipher_alg *cipher;
	const struct bc_skcipher_alg *inner;
	const struct bc_shash_alg *hash;
};

/* ---- AEADs (gcm) ---------------------------------------------------------------
 * The front end checks the key state, ivlen >= 1 and taglen. */
struct bc_aead_alg {
	const char *name;                /* "gcm(aes)" */
	const char *driver;              /* "gcm-aes-vaes-avx2", "gcm_base(ctr(aes-generic),ghash-generic)" */
	int priority;
	uint32_t cpu;
	unsigned min_keysize, max_keysize;
	size_t ivsize;                   /* the default (fast-path) IV size: 12 */
	size_t maxauthsize;              /* 16 */
	size_t ctxsize;
	void (*init)(void *ctx, const struct bc_aead_alg *self);
	int  (*setkey)(void *ctx, const uint8_t *key, size_t keylen);
	void (*encrypt)(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
	                const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen);
	/* 0, or -EBADMSG with dst zero-filled. The tag compare is constant-time. */
	int  (*decrypt)(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
	                const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen);
	/* Optional incremental form (the gcm template has it): one message's
	 * state in reqsize bytes (allocated aligned and zeroed) that start initialises,
	 * then ad for the associated data in any pieces, crypt (enc 1 or 0) for
	 * the text in any pieces, and final for the full 16-byte tag. Pieces of
	 * any size give what one piece gives; the front end enforces the order
	 * and the length limits. */
	size_t reqsize;
	void (*start)(const void *ctx, void *req, const uint8_t *iv, size_t ivlen);
	void (*ad)(const void *ctx, void *req, const uint8_t *ad, size_t len);
	void (*crypt)(const void *ctx, void *req, const uint8_t *src, uint8_t *dst, size_t len, int enc);
	void (*final)(const void *ctx, void *req, uint8_t tag[16]);
	const struct bc_skcipher_alg *inner;   /* gcm_base: the ctr skcipher; authenc: the cipher mode */
	const struct bc_shash_alg *hash;       /* gcm_base: the ghash shash; authenc: the MAC */
	const struct bc_cipher_alg *cipher;    /* gcm_base: the block cipher under ctr */
	/* ---- templates over other AEADs and over (MAC, skcipher) pairs ----
	 * The kernel's aead templates differ from gcm in what a request may be
	 * (rfc4106's 8-byte IV and ESP's assoclen, authenc's cipher IV) and in
	 * their tag lengths. NULL: gcm's rules (any IV, tags 4, 8, 12..16). */
	const struct bc_aead_alg *aead;        /* rfc4106, rfc4543, rfc4309: the AEAD they wrap */
	/* 0, -EINVAL, or (ccm) -EOVERFLOW for a text too long for the IV's
	 * length field, from the IV and the lengths, in place of gcm's limits
	 * (bc_gcm_too_long); the front end asks before every encrypt and
	 * decrypt, so the operations may rely on the shape. */
	int (*check)(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len);
	int (*setauthsize)(size_t taglen);   /* 0 or -EINVAL, taglen <= maxauthsize already checked */
	/* Set when the operations read ad and the text as one buffer (rfc4543's
	 * GMAC covers both: ad + adlen == src); the front end joins them when
	 * the caller's lie apart. */
	int joined_ad;
};

/* SP 800-38D 5.2.1.1: at most 2^39 - 256 bits of plaintext, and at most
 * 2^64 - 1 bits of IV and of AAD, whose bit lengths GHASH encodes in 64 bits
 * (limits only a 64-bit size_t can reach). The front end's rule for gcm, and
 * the ESP wrappers' over it. */
static inline int bc_gcm_too_long(uint64_t ivlen, uint64_t adlen, uint64_t len)
{
	return len > (((uint64_t)1 << 39) - 256) / 8 || ivlen > UINT64_MAX / 8 || adlen > UINT64_MAX / 8;
}

/* ---- shashes (sha256, sm3, ghash, cmac, xcbc, cbcmac) ----------------------------
 * ctx holds the key (may be empty), desc the running state of one message
 * (descsize <= BC_DESC_MAX, so an operation can keep it on its stack). */
struct bc_shash_alg {
	const char *name;                /* "cmac(aes)" */
	const char *driver;              /* "cmac(aes-generic)" */
	int priority;
	uint32_t cpu;
	unsigned min_keysize, max_keysize;   /* 0, 0: unkeyed; 0, BC_KEYSIZE_ANY: any length (hmac) */
	size_t digestsize, blocksize;
	size_t ctxsize, descsize;
	void (*init_tfm)(void *ctx, const struct bc_shash_alg *self);   /* optional, like skcipher init */
	int  (*setkey)(void *ctx, const uint8_t *key, size_t keylen);   /* NULL when unkeyed */
	void (*init)(const void *ctx, void *desc);
	void (*update)(const void *ctx, void *desc, const uint8_t *data, size_t len);
	void (*final)(const void *ctx, void *desc, uint8_t *out);
	/* Optional: n (<= 8) one-shot digests interleaved. */
	void (*digest_many)(const void *ctx, unsigned n, const uint8_t *const msgs[], const size_t lens[],
	                    uint8_t *const outs[]);
	const struct bc_cipher_alg *cipher;   /* cmac/xcbc/cbcmac templates: the block cipher */
	const struct bc_shash_alg *hash;      /* hmac template: the unkeyed hash */
};

/* ---- registry (src/core/registry.c) ----------------------------------------------
 * By algorithm name: the best usable driver that passed its self-test (a
 * template instance over the best inner driver competes with the dedicated
 * drivers). By driver name: exactly that driver (*err 0). NULL if none, with
 * *err -ENOENT, or -ENOMEM when memory ran out on the way (nothing is remembered
 * of that: the same call can succeed later). */
const struct bc_cipher_alg   *bc_find_cipher(const char *name, int *err);
const struct bc_skcipher_alg *bc_find_skcipher(const char *name, int *err);
const struct bc_aead_alg     *bc_find_aead(const char *name, int *err);
const struct bc_shash_alg    *bc_find_shash(const char *name, int *err);

/* ---- helpers shared by all code (src/core/util.c) ---------------------------------- */
void bc_wipe(void *p, size_t len);                       /* memset the compiler cannot drop */
/* Zeroed memory aligned to BC_CTX_ALIGN (src/core/api.c), and its wiping free: tfm contexts and other key holders. */
void *bc_ctx_alloc(size_t size);
void bc_ctx_free(void *p, size_t size);
/* Zeroes BC_BURN_STACK bytes of stack below the caller's frame: where a
 * function it has just called (out of line) spilled what the compiler could
 * not keep in registers (arm64's round keys and H powers: 15 AES round
 * keys, the GHASH powers and a pipeline of blocks exceed 32 registers; the
 * x86 ccm pass, whose chain and counter block exceed 16 xmm registers). */
#define BC_BURN_STACK 1024
void bc_burn_stack(void);
/* The same below a callee with a large frame: the x86 SM4 GCM pass, whose
 * keystream groups and spilled round keys take a few KiB. */
#define BC_BURN_STACK_DEEP 6144
void bc_burn_stack_deep(void);
/* Hides a public value from the optimiser. Adding it to a secret then gives
 * no induction variable, so a loop over a public index cannot be rewritten
 * into one whose exit test compares the secret (gcc does exactly that to
 * "c + i" counters). */
static inline uint32_t bc_opaque32(uint32_t v)
{
#if defined(__GNUC__)
	__asm__("" : "+r"(v));
#endif
	return v;
}
/* dst = a ^ b (dst may be a or b). Whole 16-byte blocks move as one vector:
 * a block written byte by byte and then loaded whole by a cipher (cbc, mac)
 * cannot take the store-forwarding path and waits for the bytes to reach
 * the cache, ~20-60 cycles on each block. */
static inline void bc_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i = 0;

#if defined(__GNUC__)
	typedef uint8_t bc_v16 __attribute__((vector_size(16)));

	for (; i + 16 <= len; i += 16) {
		bc_v16 x, y;

		memcpy(&x, a + i, 16);
		memcpy(&y, b + i, 16);
		x ^= y;
		memcpy(dst + i, &x, 16);
	}
#endif
	for (; i < len; i++)
		dst[i] = a[i] ^ b[i];
}
static inline uint32_t bc_load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void bc_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline uint32_t bc_load_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static inline void bc_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint64_t bc_load_be64(const uint8_t *p)
{
	return (uint64_t)bc_load_be32(p) << 32 | bc_load_be32(p + 4);
}
static inline void bc_store_be64(uint8_t *p, uint64_t v)
{
	bc_store_be32(p, (uint32_t)(v >> 32)); bc_store_be32(p + 4, (uint32_t)v);
}
static inline uint64_t bc_load_le64(const uint8_t *p)
{
	return (uint64_t)bc_load_le32(p + 4) << 32 | bc_load_le32(p);
}
static inline void bc_store_le64(uint8_t *p, uint64_t v)
{
	bc_store_le32(p, (uint32_t)v); bc_store_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- GF(2^128) helpers shared by the modes (src/mode/gf128mul.c) --------------------
 * Branch-free on purpose: the carried-out bit becomes an all-ones mask by an
 * arithmetic shift, never a conditional a compiler could turn into a branch. */
void bc_gf128mul_x_ble(uint8_t out[16], const uint8_t in[16]);  /* XTS: multiply by x, little-endian (IEEE 1619) */
void bc_gf128mul_x_bbe(uint8_t out[16], const uint8_t in[16]);  /* CMAC: doubling, big-endian (SP 800-38B) */
void bc_gf128mul_x_lle(uint8_t out[16], const uint8_t in[16]);  /* GHASH's order: times x (SP 800-38D 6.3) */

#endif
