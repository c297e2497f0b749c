/* blockcrypt: the xts template over any ecb driver, with ciphertext stealing (Linux crypto/xts.c).
 * IEEE Std 1619-2018 / NIST SP 800-38E; equal key halves are refused unless BC_ALLOW_WEAK_KEYS. */
#include "mode.h"

struct xts_ctx {
	const struct bc_skcipher_alg *ecb;
	size_t keyctx_size;
};
#define DATA_OFF bc_ctx_round(sizeof(struct xts_ctx))

static const void *data_ctx(const struct xts_ctx *t)
{
	return bc_ctx_at(t, DATA_OFF);
}
static const void *tweak_ctx(const struct xts_ctx *t)
{
	return bc_ctx_at(t, DATA_OFF + t->keyctx_size);
}

static void xts_init(void *ctx, const struct bc_skcipher_alg *self)
{
	struct xts_ctx *t = ctx;

	t->ecb = self->inner;
	t->keyctx_size = bc_ctx_round(self->inner->ctxsize);
	bc_init_inner(self->inner, bc_ctx_at(ctx, DATA_OFF));
	bc_init_inner(self->inner, bc_ctx_at(ctx, DATA_OFF + t->keyctx_size));
}

/* SP 800-38E requires the two keys to differ (IEEE 1619-2018 5.1); the check
 * is public-length work on secret data but its outcome is reported anyway.
 * Both halves have the same length, so once the first is accepted the second
 * is too: a refused key leaves the context as it was. */
static int xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct xts_ctx *t = ctx;
	size_t half = keylen / 2;
	int err;

	if (keylen % 2 || half < t->ecb->min_keysize || half > t->ecb->max_keysize)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	err = t->ecb->setkey(bc_ctx_at(ctx, DATA_OFF), key, half, flags);
	if (err)
		return err;
	return t->ecb->setkey(bc_ctx_at(ctx, DATA_OFF + t->keyctx_size), key + half, half, flags);
}

/* Whole blocks in chunks: XOR each with its tweak, one ecb call for the
 * chunk, XOR again. T advances by multiplication with x per block. */
static void xts_blocks(const struct xts_ctx *t, int enc, uint8_t T[16], const uint8_t *src, uint8_t *dst,
		       size_t nblocks)
{
	uint8_t tw[BC_CHUNK_BLOCKS * BC_BLOCK], buf[BC_CHUNK_BLOCKS * BC_BLOCK];

	while (nblocks) {
		size_t n = nblocks < BC_CHUNK_BLOCKS ? nblocks : BC_CHUNK_BLOCKS;

		for (size_t i = 0; i < n; i++) {
			memcpy(tw + i * BC_BLOCK, T, BC_BLOCK);
			bc_gf128mul_x_ble(T, T);
		}
		bc_xor(buf, src, tw, n * BC_BLOCK);
		(enc ? t->ecb->encrypt : t->ecb->decrypt)(data_ctx(t), NULL, buf, buf, n * BC_BLOCK);
		bc_xor(dst, buf, tw, n * BC_BLOCK);
		src += n * BC_BLOCK;
		dst += n * BC_BLOCK;
		nblocks -= n;
	}
	bc_wipe(tw, sizeof(tw));
}

static int xts_crypt(const void *ctx, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct xts_ctx *t = ctx;
	size_t tail = len % BC_BLOCK, full = len / BC_BLOCK;
	uint8_t T[BC_BLOCK], T2[BC_BLOCK], cc[BC_BLOCK], pp[BC_BLOCK];

	t->ecb->encrypt(tweak_ctx(t), NULL, iv, T, BC_BLOCK);
	if (!tail) {
		xts_blocks(t, enc, T, src, dst, full);
		bc_wipe(T, sizeof(T));
		return 0;
	}
	/* Ciphertext stealing (IEEE 1619 5.3.2): the last full block and the
	 * tail are done together. Encryption uses tweaks m-1 then m; decryption
	 * needs them in reverse order, so it computes T(m) before using T(m-1).
	 * The swap is copies whose sizes come from the public length alone, and
	 * the doubling to T(m) is branch-free. */
	xts_blocks(t, enc, T, src, dst, full - 1);
	src += (full - 1) * BC_BLOCK;
	dst += (full - 1) * BC_BLOCK;
	bc_gf128mul_x_ble(T2, T);                          /* T = T(m-1), T2 = T(m) */
	xts_blocks(t, enc, enc ? T : T2, src, cc, 1);      /* CC = E(P(m-1)) or D(C(m-1)) */
	memcpy(pp, src + BC_BLOCK, tail);                  /* read the tail before dst is written */
	memcpy(pp + tail, cc + tail, BC_BLOCK - tail);
	memcpy(dst + BC_BLOCK, cc, tail);
	xts_blocks(t, enc, enc ? T2 : T, pp, dst, 1);
	bc_wipe(T, sizeof(T));
	bc_wipe(T2, sizeof(T2));
	bc_wipe(cc, sizeof(cc));
	bc_wipe(pp, sizeof(pp));
	return 0;
}

static int xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return xts_crypt(ctx, 1, iv, src, dst, len);
}

static int xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return xts_crypt(ctx, 0, iv, src, dst, len);
}

static void fill(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = 2 * alg->inner->min_keysize;
	alg->max_keysize = 2 * alg->inner->max_keysize;
	alg->ctxsize = DATA_OFF + 2 * bc_ctx_round(alg->inner->ctxsize);
	alg->ivsize = BC_BLOCK;
	alg->blocksize = BC_BLOCK;
	alg->min_len = BC_BLOCK;
	alg->len_align = 1;
	alg->init = xts_init;
	alg->setkey = xts_setkey;
	alg->encrypt = xts_encrypt;
	alg->decrypt = xts_decrypt;
}

const struct bc_template bc_tmpl_xts = {
	.name = "xts", .driver_name = "xts", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_ECB,
	.fill_skcipher = fill,
};
