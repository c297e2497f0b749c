/* blockcrypt: the hctr2 template, hctr2_base(xctr(X),polyval) over a 16-byte block cipher X (Linux crypto/hctr2.c).
 * HCTR2 of Crot, Hopwood, Langley, "Length-preserving encryption with HCTR2" (ia.cr/2021/1441), with the kernel's 32-byte tweak. */
#include "mode.h"

#define TWEAK_SIZE 32

/* The header, then the two POLYVAL states after the tweak-length block
 * (for a tail that is a whole number of blocks, and for one that is not),
 * then the xctr, polyval and cipher contexts, each at a BC_CTX_ALIGN
 * boundary. L = E_K(le128(1)) is the third secret HCTR2 derives. */
struct hctr2_ctx {
	const struct bc_skcipher_alg *xctr;
	const struct bc_shash_alg *polyval;
	const struct bc_cipher_alg *cipher;
	size_t desc_off[2], xctr_off, hash_off, cipher_off;
	uint8_t L[BC_BLOCK];
};

/* The offsets of an instance's parts; returns the context size. */
static size_t layout(const struct bc_skcipher_alg *a, struct hctr2_ctx *t)
{
	size_t off = bc_ctx_round(sizeof(struct hctr2_ctx));

	for (int i = 0; i < 2; i++) {
		t->desc_off[i] = off;
		off += bc_ctx_round(a->hash->descsize);
	}
	t->xctr_off = off;
	off += bc_ctx_round(a->inner->ctxsize);
	t->hash_off = off;
	off += bc_ctx_round(a->hash->ctxsize);
	t->cipher_off = off;
	return off + a->cipher->ctxsize;
}

static void hctr2_init(void *ctx, const struct bc_skcipher_alg *self)
{
	struct hctr2_ctx *t = ctx;

	t->xctr = self->inner;
	t->polyval = self->hash;
	t->cipher = self->cipher;
	layout(self, t);
	bc_init_inner(t->xctr, bc_ctx_at(ctx, t->xctr_off));
	if (t->polyval->init_tfm)
		t->polyval->init_tfm(bc_ctx_at(ctx, t->hash_off), t->polyval);
}

/* The cipher takes the key first, so a refused key changes nothing; the
 * xctr's cipher is the same kind and takes it too. Then H = E_K(0) keys
 * POLYVAL, L = E_K(le128(1)), and the tweak-length blocks
 * le128(2 * 8 * |T| + 2 (+ 1 when the tail has a partial block)) are
 * hashed once here, as the kernel does. */
static int hctr2_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct hctr2_ctx *t = ctx;
	void *hctx = bc_ctx_at(ctx, t->hash_off);
	uint8_t hl[2][BC_BLOCK] = { { 0 } };
	int err;

	if (keylen < t->cipher->min_keysize || keylen > t->cipher->max_keysize)
		return -EINVAL;
	err = t->cipher->setkey(bc_ctx_at(ctx, t->cipher_off), key, keylen);
	if (!err)
		err = t->xctr->setkey(bc_ctx_at(ctx, t->xctr_off), key, keylen, flags);
	if (err)
		return err;
	hl[1][0] = 1;
	t->cipher->encrypt(bc_ctx_at(ctx, t->cipher_off), hl[0], hl[0], 2);
	t->polyval->setkey(hctx, hl[0], BC_BLOCK);
	memcpy(t->L, hl[1], BC_BLOCK);
	bc_wipe(hl, sizeof(hl));
	for (int partial = 0; partial < 2; partial++) {
		uint8_t lb[BC_BLOCK] = { 0 };

		bc_store_le64(lb, TWEAK_SIZE * 8 * 2 + 2 + (unsigned)partial);
		t->polyval->init(hctx, bc_ctx_at(ctx, t->desc_off[partial]));
		t->polyval->update(hctx, bc_ctx_at(ctx, t->desc_off[partial]), lb, BC_BLOCK);
	}
	return 0;
}

/* POLYVAL over the tweak's state st, then x: len bytes, and when len is not
 * whole blocks a 1 byte after them, zero-padded by final (the paper's
 * pad(x || 1)). */
static void hctr2_hash(const struct hctr2_ctx *t, const void *st, const uint8_t *x, size_t len, uint8_t out[BC_BLOCK])
{
	static const uint8_t one = 1;
	const void *hctx = bc_ctx_at(t, t->hash_off);
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];

	memcpy(desc, st, t->polyval->descsize);
	t->polyval->update(hctx, desc, x, len);
	if (len % BC_BLOCK)
		t->polyval->update(hctx, desc, &one, 1);
	t->polyval->final(hctx, desc, out);
	bc_wipe(desc, t->polyval->descsize);
}

/* One message, whole: the first block and the rest are each a function of
 * all of the other, so a message cannot be split across calls.
 * Encryption: MM = M ^ H(N), UU = E(MM), S = MM ^ UU ^ L,
 * V = N ^ XCTR_S, U = UU ^ H(V). Decryption is the same steps with U for M,
 * V for N and D for E: UU = U ^ H(V), MM = D(UU), the same S, N, then
 * M = MM ^ H(N). The tweak is hashed once for both hashes. The first block
 * is read before anything is written, so src may equal dst. */
static int hctr2_crypt(const void *ctx, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, int enc)
{
	const struct hctr2_ctx *t = ctx;
	const void *cctx = bc_ctx_at(ctx, t->cipher_off);
	const void *hctx = bc_ctx_at(ctx, t->hash_off);
	_Alignas(BC_CTX_ALIGN) uint8_t st[BC_DESC_MAX];
	uint8_t a[BC_BLOCK], b[BC_BLOCK], s[BC_BLOCK], d[BC_BLOCK];
	size_t n = len - BC_BLOCK;

	memcpy(st, bc_ctx_at(ctx, t->desc_off[n % BC_BLOCK != 0]), t->polyval->descsize);
	t->polyval->update(hctx, st, iv, TWEAK_SIZE);
	hctr2_hash(t, st, src + BC_BLOCK, n, d);
	bc_xor(a, src, d, BC_BLOCK);                              /* MM (enc) or UU (dec) */
	(enc ? t->cipher->encrypt : t->cipher->decrypt)(cctx, b, a, 1);   /* UU (enc) or MM (dec) */
	bc_xor(s, a, b, BC_BLOCK);
	bc_xor(s, s, t->L, BC_BLOCK);
	t->xctr->encrypt(bc_ctx_at(ctx, t->xctr_off), s, src + BC_BLOCK, dst + BC_BLOCK, n);
	hctr2_hash(t, st, dst + BC_BLOCK, n, d);
	bc_xor(dst, b, d, BC_BLOCK);                              /* U (enc) or M (dec) */
	bc_wipe(st, t->polyval->descsize);
	bc_wipe(a, sizeof(a));
	bc_wipe(b, sizeof(b));
	bc_wipe(s, sizeof(s));
	bc_wipe(d, sizeof(d));
	return 0;
}

static int hctr2_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return hctr2_crypt(ctx, iv, src, dst, len, 1);
}

static int hctr2_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return hctr2_crypt(ctx, iv, src, dst, len, 0);
}

static void fill(struct bc_skcipher_alg *alg)
{
	struct hctr2_ctx t;

	alg->min_keysize = alg->cipher->min_keysize;
	alg->max_keysize = alg->cipher->max_keysize;
	alg->ctxsize = layout(alg, &t);
	alg->ivsize = TWEAK_SIZE;
	alg->blocksize = BC_BLOCK;
	alg->min_len = BC_BLOCK;
	alg->len_align = 1;
	alg->init = hctr2_init;
	alg->setkey = hctr2_setkey;
	alg->encrypt = hctr2_encrypt;
	alg->decrypt = hctr2_decrypt;
}

const struct bc_template bc_tmpl_hctr2 = {
	.name = "hctr2", .driver_name = "hctr2_base", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_HCTR2,
	.fill_skcipher = fill,
};
