/* blockcrypt arm64: ecb-aes-ce, cbc-aes-ce, ctr-aes-ce and xts-aes-ce, four blocks in flight. CPU: AES (Crypto Extensions).
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE Std 1619-2018 / SP 800-38E (XTS); semantics of the Linux templates. */
#include "aes_ce.h"

int bc_aes_ce_sk_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return bc_aes_ce_setkey(ctx, key, keylen);
}

static int ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_aes_ce_ecb_encrypt(ctx, dst, src, len / 16);
	return 0;
}

static int ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	bc_aes_ce_ecb_decrypt(ctx, dst, src, len / 16);
	return 0;
}

static int cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_a64_cbc_enc(&r, bc_aes_ce_enc1, iv, src, dst, len / 16));
	return 0;
}

static int cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->dk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_a64_cbc_dec(&r, bc_aes_ce_dec4, bc_aes_ce_dec1, iv, src, dst, len / 16));
	return 0;
}

static int ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_a64_ctr(&r, bc_aes_ce_enc4, bc_aes_ce_enc1, iv, src, dst, len));
	return 0;
}

/* Both halves are checked (length, then equality unless weak keys are
 * allowed) before the context is written. */
static int xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_aes_ce_xts_ctx *c = ctx;
	size_t half = keylen / 2;

	if (keylen % 2 || !bc_aes_ce_keylen_ok(half))
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	bc_aes_ce_expand(&c->k1, key, half);
	bc_aes_ce_expand(&c->k2, key + half, half);
	return 0;
}

/* T = E_K2(iv) with the tweak key's registers, which are then free for the
 * data key's. */
static uint8x16_t xts_tweak(const struct bc_aes_ce_xts_ctx *c, const uint8_t *iv)
{
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, c->k2.rk, c->k2.rounds);
	return bc_aes_ce_enc1(&r, vld1q_u8(iv));
}

/* Out of line: it spills round keys around the stealing step's calls,
 * which the callers then burn (bc_burn_stack). */
static __attribute__((noinline)) void xts_crypt(const struct bc_aes_ce_xts_ctx *c, int dec, const uint8_t *iv,
						const uint8_t *src, uint8_t *dst, size_t len)
{
	uint8x16_t T = xts_tweak(c, iv);
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, dec ? c->k1.dk : c->k1.rk, c->k1.rounds);
	if (dec)
		BC_AES_CE_PER_KEYSIZE(&r, bc_a64_xts(&r, bc_aes_ce_dec4, bc_aes_ce_dec1, 1, 0, T, src, dst, len));
	else
		BC_AES_CE_PER_KEYSIZE(&r, bc_a64_xts(&r, bc_aes_ce_enc4, bc_aes_ce_enc1, 0, 0, T, src, dst, len));
}

static int xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	xts_crypt(ctx, 0, iv, src, dst, len);
	bc_burn_stack();
	return 0;
}

static int xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	xts_crypt(ctx, 1, iv, src, dst, len);
	bc_burn_stack();
	return 0;
}

#define AES_CE_SK(mode, ivsz, bs, minlen, align, keymul, ctx_t, setkey_, enc, dec)                              \
	{                                                                                                     \
		.name = #mode "(aes)", .driver = #mode "-aes-ce", .priority = 400, .cpu = BC_CPU_ARM_AES,    \
		.min_keysize = 16 * (keymul), .max_keysize = 32 * (keymul), .ivsize = ivsz, .blocksize = bs, \
		.min_len = minlen, .len_align = align, .ctxsize = sizeof(ctx_t), .setkey = setkey_,          \
		.encrypt = enc, .decrypt = dec,                                                               \
	}

const struct bc_skcipher_alg bc_ecb_aes_ce =
	AES_CE_SK(ecb, 0, 16, 0, 16, 1, struct bc_aes_ce_key, bc_aes_ce_sk_setkey, ecb_encrypt, ecb_decrypt);
const struct bc_skcipher_alg bc_cbc_aes_ce =
	AES_CE_SK(cbc, 16, 16, 0, 16, 1, struct bc_aes_ce_key, bc_aes_ce_sk_setkey, cbc_encrypt, cbc_decrypt);
const struct bc_skcipher_alg bc_ctr_aes_ce =
	AES_CE_SK(ctr, 16, 1, 0, 1, 1, struct bc_aes_ce_key, bc_aes_ce_sk_setkey, ctr_crypt, ctr_crypt);
const struct bc_skcipher_alg bc_xts_aes_ce =
	AES_CE_SK(xts, 16, 16, 16, 1, 2, struct bc_aes_ce_xts_ctx, xts_setkey, xts_encrypt, xts_decrypt);
