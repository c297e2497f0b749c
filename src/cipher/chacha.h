/* blockcrypt: what the ChaCha20/XChaCha drivers share: the key context, the state layout, HChaCha and the IV rules.
 * RFC 8439 section 2.3 (the state), draft-irtf-cfrg-xchacha section 2.2 (HChaCha); the IV layouts of Linux crypto/chacha_generic.c. */
#ifndef BC_CHACHA_H
#define BC_CHACHA_H

#include "internal.h"

#define BC_CHACHA_KEY 32
#define BC_CHACHA_IV 16        /* chacha20: 32-bit little-endian block counter, then the 96-bit nonce */
#define BC_XCHACHA_IV 32       /* xchacha: 24-byte nonce, then the 64-bit stream position */
#define BC_CHACHA_BLOCK 64

struct bc_chacha_ctx {
	uint32_t key[8];
};

/* Xors len bytes of the keystream of state st (nrounds 20 or 12) into
 * src, block by block from the counter st[12], which it leaves on the next
 * unused block. The counter is the kernel's: state word 12 alone, wrapping
 * at 2^32 (the stream position's high word in st[13] never changes). */
typedef void bc_chacha_xor_fn(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds);

int  bc_chacha_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
/* The 16-word state: constants, key, then the 16 bytes iv as four little-endian words. */
void bc_chacha_state(uint32_t st[16], const uint32_t key[8], const uint8_t iv[16]);
/* HChaCha: the subkey of xchacha from the key and the nonce's first 16 bytes
 * (bc_hchacha the portable one, a driver may bring its own). */
typedef void bc_hchacha_fn(uint32_t out[8], const uint32_t key[8], const uint8_t nonce[16], int nrounds);
bc_hchacha_fn bc_hchacha;
/* One 64-byte block of keystream from st (st itself unchanged). */
void bc_chacha_block(const uint32_t st[16], uint8_t out[BC_CHACHA_BLOCK], int nrounds);
/* The portable keystream, also the tail of the wide drivers. */
void bc_chacha_xor_generic(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds);

/* The skcipher operations over a driver's keystream function: chacha20's
 * IV, and xchacha's (nonce and stream position) through HChaCha. The
 * caller's IV is left as it was, as the kernel leaves req->iv. */
int bc_chacha20_crypt(const void *ctx, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len,
		      bc_chacha_xor_fn *xor_fn);
int bc_xchacha_crypt(const void *ctx, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, int nrounds,
		     bc_hchacha_fn *hchacha_fn, bc_chacha_xor_fn *xor_fn);

/* The three skciphers of one driver family ("-generic", "-avx2"...): the
 * fields they share, their operations named after prefix. */
#define BC_CHACHA_SKCIPHER(var, algname, drvname, prio, cpubits, ivlen, fn)                                      \
	const struct bc_skcipher_alg var = {                                                                    \
		.name = algname, .driver = drvname, .priority = prio, .cpu = cpubits,                          \
		.min_keysize = BC_CHACHA_KEY, .max_keysize = BC_CHACHA_KEY, .ivsize = ivlen, .blocksize = 1,   \
		.min_len = 0, .len_align = 1, .ctxsize = sizeof(struct bc_chacha_ctx),                          \
		.setkey = bc_chacha_setkey, .encrypt = fn, .decrypt = fn,                                       \
	}
#define BC_CHACHA_DRIVERS(prefix, suffix, prio, cpubits, hchacha_fn, xor_fn)                                     \
	static int prefix##_chacha20(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len) \
	{                                                                                                       \
		return bc_chacha20_crypt(ctx, iv, src, dst, len, xor_fn);                                       \
	}                                                                                                       \
	static int prefix##_xchacha20(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len) \
	{                                                                                                       \
		return bc_xchacha_crypt(ctx, iv, src, dst, len, 20, hchacha_fn, xor_fn);                        \
	}                                                                                                       \
	static int prefix##_xchacha12(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len) \
	{                                                                                                       \
		return bc_xchacha_crypt(ctx, iv, src, dst, len, 12, hchacha_fn, xor_fn);                        \
	}                                                                                                       \
	BC_CHACHA_SKCIPHER(bc_chacha20_##prefix, "chacha20", "chacha20-" suffix, prio, cpubits, BC_CHACHA_IV,  \
			   prefix##_chacha20);                                                                  \
	BC_CHACHA_SKCIPHER(bc_xchacha20_##prefix, "xchacha20", "xchacha20-" suffix, prio, cpubits,             \
			   BC_XCHACHA_IV, prefix##_xchacha20);                                                  \
	BC_CHACHA_SKCIPHER(bc_xchacha12_##prefix, "xchacha12", "xchacha12-" suffix, prio, cpubits,             \
			   BC_XCHACHA_IV, prefix##_xchacha12)

#endif
