/* blockcrypt arm64: ecb-sm4-ce, cbc-sm4-ce, ctr-sm4-ce and xts-sm4-ce, four blocks in flight. CPU: SM4.
 * GB/T 32907-2016 (SM4), NIST SP 800-38A (ECB, CBC, CTR), IEEE Std 1619-2018 (XTS); Linux template semantics. */
#include "sm4_ce.h"

static int sm4_ce_sk_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return bc_sm4_ce_setkey(ctx, key, keylen);
}

static int ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_sm4_ce_ecb_encrypt(ctx, dst, src, len / 16);
	return 0;
}

static int ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_sm4_ce_ecb_decrypt(ctx, dst, src, len / 16);
	return 0;
}

static int cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->rk);
	bc_a64_cbc_enc(&r, bc_sm4_ce_crypt1, iv, src, dst, len / 16);
	return 0;
}

static int cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->dk);
	bc_a64_cbc_dec(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, iv, src, dst, len / 16);
	return 0;
}

static int ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->rk);
	bc_a64_ctr(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, iv, src, dst, len);
	return 0;
}

/* Length, then equality of the halves (unless weak keys are allowed),
 * before the context is written. */
static int xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_sm4_ce_xts_ctx *c = ctx;

	if (keylen != 32)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + 16, 16))
		return -EINVAL;
	bc_sm4_ce_expand(&c->k1, key);
	bc_sm4_ce_expand(&c->k2, key + 16);
	return 0;
}

/* Out of line: it spills round keys around the stealing step's calls,
 * which the callers then burn (bc_burn_stack). */
static __attribute__((noinline)) void xts_crypt(const struct bc_sm4_ce_xts_ctx *c, const uint32_t *rk, int dec,
						const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	struct bc_sm4_ce_regs r;
	uint8x16_t T;

	bc_sm4_ce_load(&r, c->k2.rk);
	T = bc_sm4_ce_crypt1(&r, vld1q_u8(iv));
	bc_sm4_ce_load(&r, rk);
	bc_a64_xts(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, dec, 0, T, src, dst, len);
}

static int xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_ce_xts_ctx *c = ctx;

	xts_crypt(c, c->k1.rk, 0, iv, src, dst, len);
	bc_burn_stack();
	return 0;
}

static int xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_sm4_ce_xts_ctx *c = ctx;

	xts_crypt(c, c->k1.dk, 1, iv, src, dst, len);
	bc_burn_stack();
	return 0;
}

#define SM4_CE_SK(mode, ivsz, bs, minlen, align, keylen, ctx_t, setkey_, enc, dec)                              \
	{                                                                                                     \
		.name = #mode "(sm4)", .driver = #mode "-sm4-ce", .priority = 400, .cpu = BC_CPU_ARM_SM4,    \
		.min_keysize = keylen, .max_keysize = keylen, .ivsize = ivsz, .blocksize = bs,               \
		.min_len = minlen, .len_align = align, .ctxsize = sizeof(ctx_t), .setkey = setkey_,          \
		.encrypt = enc, .decrypt = dec,                                                               \
	}

const struct bc_skcipher_alg bc_ecb_sm4_ce =
	SM4_CE_SK(ecb, 0, 16, 0, 16, 16, struct bc_sm4_ce_key, sm4_ce_sk_setkey, ecb_encrypt, ecb_decrypt);
const struct bc_skcipher_alg bc_cbc_sm4_ce =
	SM4_CE_SK(cbc, 16, 16, 0, 16, 16, struct bc_sm4_ce_key, sm4_ce_sk_setkey, cbc_encrypt, cbc_decrypt);
const struct bc_skcipher_alg bc_ctr_sm4_ce =
	SM4_CE_SK(ctr, 16, 1, 0, 1, 16, struct bc_sm4_ce_key, sm4_ce_sk_setkey, ctr_crypt, ctr_crypt);
const struct bc_skcipher_alg bc_xts_sm4_ce =
	SM4_CE_SK(xts, 16, 16, 16, 1, 32, struct bc_sm4_ce_xts_ctx, xts_setkey, xts_encrypt, xts_decrypt);
