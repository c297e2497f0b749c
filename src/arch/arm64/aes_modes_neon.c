/* blockcrypt arm64: ecb-aes-neon, cbc-aes-neon, ctr-aes-neon and xts-aes-neon, four blocks in flight. CPU: NEON only.
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE Std 1619-2018 / SP 800-38E (XTS); semantics of the Linux templates. */
#include "aes_neon.h"

static int aes_neon_sk_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return bc_aes_neon_setkey(ctx, key, keylen);
}

static int ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_aes_neon_ecb_encrypt(ctx, dst, src, len / 16);
	return 0;
}

static int ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_aes_neon_ecb_decrypt(ctx, dst, src, len / 16);
	return 0;
}

static int cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	struct bc_aes_neon_state s;

	bc_aes_neon_init(&s, ctx, 0);
	bc_a64_cbc_enc(&s, bc_aes_neon_enc1, iv, src, dst, len / 16);
	return 0;
}

static int cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	struct bc_aes_neon_state s;

	bc_aes_neon_init(&s, ctx, 1);
	bc_a64_cbc_dec(&s, bc_aes_neon_dec4, bc_aes_neon_dec1, iv, src, dst, len / 16);
	return 0;
}

static int ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	struct bc_aes_neon_state s;

	bc_aes_neon_init(&s, ctx, 0);
	bc_a64_ctr(&s, bc_aes_neon_enc4, bc_aes_neon_enc1, iv, src, dst, len);
	return 0;
}

static int xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_aes_neon_xts_ctx *c = ctx;
	size_t half = keylen / 2;

	if (keylen % 2 || !bc_aes_neon_keylen_ok(half))
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	bc_aes_neon_expand(&c->k1, key, half);
	bc_aes_neon_expand(&c->k2, key + half, half);
	return 0;
}

/* The table takes every spare register, so the loop rebuilds the tweak
 * mask each iteration (three register moves) rather than spill it. */
static int xts_crypt(const struct bc_aes_neon_xts_ctx *c, int dec, const uint8_t *iv, const uint8_t *src,
		      uint8_t *dst, size_t len)
{
	struct bc_aes_neon_state s;
	uint8x16_t T;

	bc_aes_neon_init(&s, &c->k2, 0);
	T = bc_aes_neon_enc1(&s, vld1q_u8(iv));
	if (dec) {
		bc_aes_neon_init(&s, &c->k1, 1);
		bc_a64_xts(&s, bc_aes_neon_dec4, bc_aes_neon_dec1, 1, 1, T, src, dst, len);
	} else {
		s.rk = (const uint8_t (*)[16])c->k1.rk;
		bc_a64_xts(&s, bc_aes_neon_enc4, bc_aes_neon_enc1, 0, 1, T, src, dst, len);
	}
	return 0;
}

static int xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return xts_crypt(ctx, 0, iv, src, dst, len);
}

static int xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return xts_crypt(ctx, 1, iv, src, dst, len);
}

#define AES_NEON_SK(mode, ivsz, bs, minlen, align, keymul, ctx_t, setkey_, enc, dec)                            \
	{                                                                                                     \
		.name = #mode "(aes)", .driver = #mode "-aes-neon", .priority = 250, .cpu = 0,               \
		.min_keysize = 16 * (keymul), .max_keysize = 32 * (keymul), .ivsize = ivsz, .blocksize = bs, \
		.min_len = minlen, .len_align = align, .ctxsize = sizeof(ctx_t), .setkey = setkey_,          \
		.encrypt = enc, .decrypt = dec,                                                               \
	}

const struct bc_skcipher_alg bc_ecb_aes_neon =
	AES_NEON_SK(ecb, 0, 16, 0, 16, 1, struct bc_aes_neon_key, aes_neon_sk_setkey, ecb_encrypt, ecb_decrypt);
const struct bc_skcipher_alg bc_cbc_aes_neon =
	AES_NEON_SK(cbc, 16, 16, 0, 16, 1, struct bc_aes_neon_key, aes_neon_sk_setkey, cbc_encrypt, cbc_decrypt);
const struct bc_skcipher_alg bc_ctr_aes_neon =
	AES_NEON_SK(ctr, 16, 1, 0, 1, 1, struct bc_aes_neon_key, aes_neon_sk_setkey, ctr_crypt, ctr_crypt);
const struct bc_skcipher_alg bc_xts_aes_neon =
	AES_NEON_SK(xts, 16, 16, 16, 1, 2, struct bc_aes_neon_xts_ctx, xts_setkey, xts_encrypt, xts_decrypt);
