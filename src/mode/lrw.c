/* blockcrypt: the lrw template over any ecb driver of a 16-byte block cipher (Linux crypto/lrw.c).
 * LRW-AES of the IEEE P1619 draft (LRW-32-AES): T = K2 (x) I in GF(2^128), C = E(P ^ T) ^ T. */
#include "mode.h"

/* A 128-bit value in the big-endian bit order LRW uses ("bbe"): bit j of the
 * big-endian integer is the coefficient of x^j. */
struct b128 {
	uint64_t hi, lo;
};

struct lrw_ctx {
	const struct bc_skcipher_alg *ecb;
	/* mul[j] = K2 * x^j, so K2 (x) I is the XOR of mul[j] over the set
	 * bits j of I; inc[k] = K2 * (x^(k+1) - 1), the step from T(I) to
	 * T(I + 1) when I ends in k one bits. Both are indexed by public
	 * values only (bit positions of I, trailing-one counts of I). */
	struct b128 mul[128];
	uint64_t inc[128][2];   /* in memory order: the block's bytes as two native words */
};
#define DATA_OFF bc_ctx_round(sizeof(struct lrw_ctx))

static const void *data_ctx(const struct lrw_ctx *t)
{
	return bc_ctx_at(t, DATA_OFF);
}

static void lrw_init(void *ctx, const struct bc_skcipher_alg *self)
{
	struct lrw_ctx *t = ctx;

	t->ecb = self->inner;
	bc_init_inner(self->inner, bc_ctx_at(ctx, DATA_OFF));
}

/* Multiplication by x modulo x^128 + x^7 + x^2 + x + 1, branch-free: the
 * bit shifted out selects the reduction through a mask. */
static struct b128 mul_x(struct b128 a)
{
	uint64_t red = (uint64_t)((int64_t)a.hi >> 63) & 0x87;
	struct b128 r = { a.hi << 1 | a.lo >> 63, a.lo << 1 ^ red };

	return r;
}

static struct b128 load(const uint8_t b[16])
{
	struct b128 r = { bc_load_be64(b), bc_load_be64(b + 8) };

	return r;
}

static void store(uint8_t b[16], struct b128 a)
{
	bc_store_be64(b, a.hi);
	bc_store_be64(b + 8, a.lo);
}

/* The cipher key comes first, the 16-byte tweak key K2 last (the kernel's
 * layout). The cipher key is set first: if it is refused, nothing changes. */
static int lrw_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct lrw_ctx *t = ctx;
	struct b128 m, acc = { 0, 0 };
	uint8_t blk[BC_BLOCK];
	int err;

	if (keylen < BC_BLOCK + t->ecb->min_keysize || keylen > BC_BLOCK + t->ecb->max_keysize)
		return -EINVAL;
	err = t->ecb->setkey(bc_ctx_at(ctx, DATA_OFF), key, keylen - BC_BLOCK, flags);
	if (err)
		return err;
	m = load(key + keylen - BC_BLOCK);
	for (int j = 0; j < 128; j++) {
		t->mul[j] = m;
		acc.hi ^= m.hi;
		acc.lo ^= m.lo;
		store(blk, acc);
		memcpy(t->inc[j], blk, BC_BLOCK);
		m = mul_x(m);
	}
	bc_wipe(&m, sizeof(m));
	bc_wipe(&acc, sizeof(acc));
	bc_wipe(blk, sizeof(blk));
	return 0;
}

/* K2 (x) I: the XOR of mul[j] over the set bits j of I. I is the IV, public
 * (a sector's block index), so its bits may choose the entries: which
 * addresses are read and how many never depend on K2. */
static struct b128 tweak_of(const struct lrw_ctx *t, struct b128 i)
{
	struct b128 r = { 0, 0 };

	for (uint64_t w = i.lo; w; w &= w - 1) {
		const struct b128 *m = &t->mul[__builtin_ctzll(w)];

		r.hi ^= m->hi;
		r.lo ^= m->lo;
	}
	for (uint64_t w = i.hi; w; w &= w - 1) {
		const struct b128 *m = &t->mul[64 + __builtin_ctzll(w)];

		r.hi ^= m->hi;
		r.lo ^= m->lo;
	}
	return r;
}

/* The number of trailing one bits of the 128-bit block index (public). */
static int trailing_ones(struct b128 i)
{
	if (~i.lo)
		return __builtin_ctzll(~i.lo);
	return ~i.hi ? 64 + __builtin_ctzll(~i.hi) : 127;
}

/* Whole blocks in chunks: the chunk's tweaks and P ^ T in one pass, one ecb
 * call, the tweaks again. The IV is left as it was, as xts leaves it. */
static int lrw_crypt(const void *ctx, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct lrw_ctx *t = ctx;
	uint8_t tw[BC_CHUNK_BLOCKS * BC_BLOCK], buf[BC_CHUNK_BLOCKS * BC_BLOCK];
	struct b128 idx = load(iv);
	uint64_t T[2];   /* T in memory order, so that each step is two XORs and a 16-byte store */
	size_t nblocks = len / BC_BLOCK;

	store(tw, tweak_of(t, idx));
	memcpy(T, tw, BC_BLOCK);
	while (nblocks) {
		size_t n = nblocks < BC_CHUNK_BLOCKS ? nblocks : BC_CHUNK_BLOCKS;

		for (size_t b = 0; b < n; b++) {
			const uint64_t *step = t->inc[trailing_ones(idx)];
			uint64_t x[2];

			memcpy(tw + b * BC_BLOCK, T, BC_BLOCK);
			memcpy(x, src + b * BC_BLOCK, BC_BLOCK);
			x[0] ^= T[0];
			x[1] ^= T[1];
			memcpy(buf + b * BC_BLOCK, x, BC_BLOCK);
			T[0] ^= step[0];
			T[1] ^= step[1];
			idx.lo++;
			idx.hi += !idx.lo;
		}
		(enc ? t->ecb->encrypt : t->ecb->decrypt)(data_ctx(t), NULL, buf, buf, n * BC_BLOCK);
		bc_xor(dst, buf, tw, n * BC_BLOCK);
		src += n * BC_BLOCK;
		dst += n * BC_BLOCK;
		nblocks -= n;
	}
	bc_wipe(tw, sizeof(tw));
	bc_wipe(buf, sizeof(buf));
	bc_wipe(T, sizeof(T));
	return 0;
}

static int lrw_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return lrw_crypt(ctx, 1, iv, src, dst, len);
}

static int lrw_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return lrw_crypt(ctx, 0, iv, src, dst, len);
}

static void fill(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize + BC_BLOCK;
	alg->max_keysize = alg->inner->max_keysize + BC_BLOCK;
	alg->ctxsize = DATA_OFF + alg->inner->ctxsize;
	alg->ivsize = BC_BLOCK;
	alg->blocksize = BC_BLOCK;
	alg->min_len = 0;
	alg->len_align = BC_BLOCK;
	alg->init = lrw_init;
	alg->setkey = lrw_setkey;
	alg->encrypt = lrw_encrypt;
	alg->decrypt = lrw_decrypt;
}

const struct bc_template bc_tmpl_lrw = {
	.name = "lrw", .driver_name = "lrw", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_ECB,
	.fill_skcipher = fill,
};
