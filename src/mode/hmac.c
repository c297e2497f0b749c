/* blockcrypt: the hmac template over any unkeyed hash driver (Linux crypto/hmac.c).
 * RFC 2104 / FIPS 198-1: H((K ^ opad) || H((K ^ ipad) || m)), a key longer than the block hashed first. */
#include "mode.h"

/* The hash's states after its first block, K ^ ipad and K ^ opad, are taken
 * once at setkey, so a message costs its own blocks and the outer block,
 * never the two key blocks again: a short one, two compressions. The running
 * state (desc) is the inner hash's own. Layout: header, the hash's context,
 * then the two states, each at a BC_CTX_ALIGN boundary. */
struct hmac_ctx {
	const struct bc_shash_alg *hash;
	size_t ipad_off, opad_off;
};
#define HASH_OFF bc_ctx_round(sizeof(struct hmac_ctx))

static const void *hash_ctx(const struct hmac_ctx *t)
{
	return bc_ctx_at(t, HASH_OFF);
}

static void hmac_init_tfm(void *ctx, const struct bc_shash_alg *self)
{
	struct hmac_ctx *t = ctx;

	t->hash = self->hash;
	t->ipad_off = HASH_OFF + bc_ctx_round(self->hash->ctxsize);
	t->opad_off = t->ipad_off + bc_ctx_round(self->hash->descsize);
	if (self->hash->init_tfm)
		self->hash->init_tfm(bc_ctx_at(ctx, HASH_OFF), self->hash);
}

/* Any length is a key (the kernel's hmac takes them all), so this cannot
 * fail and the old key is replaced only by a complete new one. The lengths
 * steer branches; the key bytes never do. */
static int hmac_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	const struct hmac_ctx *t = ctx;
	const struct bc_shash_alg *h = t->hash;
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t pad[BC_HASH_MAX_BLOCK];
	size_t bs = h->blocksize;

	memset(pad, 0, bs);
	if (keylen > bs) {
		h->init(hash_ctx(t), desc);
		h->update(hash_ctx(t), desc, key, keylen);
		h->final(hash_ctx(t), desc, pad);
	} else if (keylen) {
		memcpy(pad, key, keylen);
	}
	for (size_t i = 0; i < bs; i++)
		pad[i] ^= 0x36;
	h->init(hash_ctx(t), bc_ctx_at(ctx, t->ipad_off));
	h->update(hash_ctx(t), bc_ctx_at(ctx, t->ipad_off), pad, bs);
	for (size_t i = 0; i < bs; i++)
		pad[i] ^= 0x36 ^ 0x5c;
	h->init(hash_ctx(t), bc_ctx_at(ctx, t->opad_off));
	h->update(hash_ctx(t), bc_ctx_at(ctx, t->opad_off), pad, bs);
	bc_wipe(pad, sizeof(pad));
	bc_wipe(desc, sizeof(desc));
	/* The hash's states here are the key's equivalents; a block function
	 * that spills its working state (sha512-avx2's schedule and rounds)
	 * leaves it below this frame. */
	bc_burn_stack();
	return 0;
}

static void hmac_init(const void *ctx, void *desc)
{
	const struct hmac_ctx *t = ctx;

	memcpy(desc, bc_ctx_at(ctx, t->ipad_off), t->hash->descsize);
}

static void hmac_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	const struct hmac_ctx *t = ctx;

	t->hash->update(hash_ctx(t), desc, data, len);
}

static void hmac_final(const void *ctx, void *desc, uint8_t *out)
{
	const struct hmac_ctx *t = ctx;
	const struct bc_shash_alg *h = t->hash;
	_Alignas(BC_CTX_ALIGN) uint8_t outer[BC_DESC_MAX];
	uint8_t inner[BC_MAX_AUTHSIZE];

	h->final(hash_ctx(t), desc, inner);
	memcpy(outer, bc_ctx_at(ctx, t->opad_off), h->descsize);
	h->update(hash_ctx(t), outer, inner, h->digestsize);
	h->final(hash_ctx(t), outer, out);
	bc_wipe(inner, h->digestsize);
	bc_wipe(outer, h->descsize);   /* a state keyed by K ^ opad */
}

static void fill(struct bc_shash_alg *alg)
{
	const struct bc_shash_alg *h = alg->hash;

	alg->min_keysize = 0;
	alg->max_keysize = BC_KEYSIZE_ANY;
	alg->digestsize = h->digestsize;
	alg->blocksize = h->blocksize;
	alg->ctxsize = HASH_OFF + bc_ctx_round(h->ctxsize) + 2 * bc_ctx_round(h->descsize);
	alg->descsize = h->descsize;
	alg->init_tfm = hmac_init_tfm;
	alg->setkey = hmac_setkey;
	alg->init = hmac_init;
	alg->update = hmac_update;
	alg->final = hmac_final;
}

const struct bc_template bc_tmpl_hmac = {
	.name = "hmac", .driver_name = "hmac", .type = BC_TYPE_SHASH, .args = BC_ARGS_SHASH,
	.fill_shash = fill,
};
