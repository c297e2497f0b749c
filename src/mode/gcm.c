/* blockcrypt: the gcm template, gcm_base(ctr(X),ghash) over any ctr and ghash drivers and the cipher X (Linux crypto/gcm.c).
 * NIST SP 800-38D: any IV length, inc32 counter, tags of 4, 8 or 12..16 bytes. */
#include "mode.h"

struct gcm_ctx {
	const struct bc_skcipher_alg *ctr;
	const struct bc_shash_alg *ghash;
	const struct bc_cipher_alg *cipher;
	size_t ghash_off, cipher_off;
};
#define CTR_OFF bc_ctx_round(sizeof(struct gcm_ctx))

static const void *ctr_ctx(const struct gcm_ctx *t)
{
	return bc_ctx_at(t, CTR_OFF);
}
static const void *ghash_ctx(const struct gcm_ctx *t)
{
	return bc_ctx_at(t, t->ghash_off);
}
static const void *cipher_ctx(const struct gcm_ctx *t)
{
	return bc_ctx_at(t, t->cipher_off);
}

static void gcm_init(void *ctx, const struct bc_aead_alg *self)
{
	struct gcm_ctx *t = ctx;

	t->ctr = self->inner;
	t->ghash = self->hash;
	t->cipher = self->cipher;
	t->ghash_off = CTR_OFF + bc_ctx_round(self->inner->ctxsize);
	t->cipher_off = t->ghash_off + bc_ctx_round(self->hash->ctxsize);
	bc_init_inner(self->inner, bc_ctx_at(ctx, CTR_OFF));
	if (self->hash->init_tfm)
		self->hash->init_tfm(bc_ctx_at(ctx, t->ghash_off), self->hash);
}

/* H = E_K(0^128), through the block cipher under the ctr driver; the ghash
 * driver's setkey turns the secret H into its key without tables indexed by it. */
static int gcm_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	const struct gcm_ctx *t = ctx;
	uint8_t h[BC_BLOCK] = { 0 };
	int err = t->ctr->setkey(bc_ctx_at(ctx, CTR_OFF), key, keylen, 0);

	if (err)
		return err;
	t->cipher->setkey(bc_ctx_at(ctx, t->cipher_off), key, keylen);   /* same key, so accepted */
	t->cipher->encrypt(cipher_ctx(t), h, h, 1);
	err = t->ghash->setkey(bc_ctx_at(ctx, t->ghash_off), h, BC_BLOCK);
	bc_wipe(h, sizeof(h));
	return err;
}

static void ghash_pad(const struct gcm_ctx *t, void *desc, size_t len)
{
	static const uint8_t zeros[BC_BLOCK];

	if (len % BC_BLOCK)
		t->ghash->update(ghash_ctx(t), desc, zeros, BC_BLOCK - len % BC_BLOCK);
}

/* J0 = IV || 0^31 || 1 for 96-bit IVs, else GHASH(IV || 0-pad || [0]64 || [len(IV)]64). */
static void gcm_j0(const struct gcm_ctx *t, const uint8_t *iv, size_t ivlen, uint8_t j0[16])
{
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t lens[BC_BLOCK] = { 0 };

	if (ivlen == 12) {
		memcpy(j0, iv, 12);
		bc_store_be32(j0 + 12, 1);
		return;
	}
	t->ghash->init(ghash_ctx(t), desc);
	t->ghash->update(ghash_ctx(t), desc, iv, ivlen);
	ghash_pad(t, desc, ivlen);
	bc_store_be64(lens + 8, (uint64_t)ivlen * 8);
	t->ghash->update(ghash_ctx(t), desc, lens, BC_BLOCK);
	t->ghash->final(ghash_ctx(t), desc, j0);
	bc_wipe(desc, sizeof(desc));
}

/* GCTR with inc32 (SP 800-38D 6.5) from counter value c, for len bytes
 * (the last block may be partial); returns the counter after the blocks
 * used. Only the low 32 bits of the counter count. With a 96-bit IV,
 * J0 = IV || 1 is public and the counter cannot wrap (a message has at
 * most 2^32 - 2 blocks), so the ctr driver, whose 128-bit carry then never
 * fires, does the work. Any other IV makes J0 a function of H, a secret:
 * the counter must neither steer a branch (as the wrap point or a ctr
 * driver's carry check would) nor be carried out of its low word, so the
 * counter blocks are built here with a 32-bit add and go through the block
 * cipher in chunks. */
static uint32_t gcm_ctr(const struct gcm_ctx *t, const uint8_t j0[16], size_t ivlen, uint32_t c,
			const uint8_t *src, uint8_t *dst, size_t len)
{
	uint8_t ks[BC_CHUNK_BLOCKS * BC_BLOCK];

	if (ivlen == 12) {
		memcpy(ks, j0, BC_BLOCK);
		bc_store_be32(ks + 12, c);
		t->ctr->encrypt(ctr_ctx(t), ks, src, dst, len);
		return c + (uint32_t)((len + BC_BLOCK - 1) / BC_BLOCK);
	}
	while (len) {
		size_t n = len < sizeof(ks) ? len : sizeof(ks);
		size_t nb = (n + BC_BLOCK - 1) / BC_BLOCK;

		for (size_t i = 0; i < nb; i++) {
			memcpy(ks + i * BC_BLOCK, j0, 12);
			bc_store_be32(ks + i * BC_BLOCK + 12, c + bc_opaque32((uint32_t)i));
		}
		c += (uint32_t)nb;
		t->cipher->encrypt(cipher_ctx(t), ks, ks, nb);
		bc_xor(dst, src, ks, n);
		src += n;
		dst += n;
		len -= n;
	}
	bc_wipe(ks, sizeof(ks));
	return c;
}

/* The end of S = GHASH(A || pad || C || pad || [len(A)]64 || [len(C)]64),
 * with the text hashed so far in desc: its pad and the lengths; then
 * tag = E(J0) ^ S. Wipes desc. */
static void gcm_close(const struct gcm_ctx *t, void *desc, const uint8_t j0[16], uint64_t adlen, uint64_t len,
		      uint8_t tag[16])
{
	uint8_t lens[BC_BLOCK], s[BC_BLOCK], ek[BC_BLOCK];

	ghash_pad(t, desc, (size_t)(len % BC_BLOCK));
	bc_store_be64(lens, adlen * 8);
	bc_store_be64(lens + 8, len * 8);
	t->ghash->update(ghash_ctx(t), desc, lens, BC_BLOCK);
	t->ghash->final(ghash_ctx(t), desc, s);
	t->cipher->encrypt(cipher_ctx(t), ek, j0, 1);
	bc_xor(tag, s, ek, BC_BLOCK);
	bc_wipe(desc, t->ghash->descsize);
	bc_wipe(s, sizeof(s));
	bc_wipe(ek, sizeof(ek));
}

static void gcm_tag(const struct gcm_ctx *t, const uint8_t j0[16], const uint8_t *ad, size_t adlen,
		    const uint8_t *ct, size_t len, uint8_t tag[16])
{
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];

	t->ghash->init(ghash_ctx(t), desc);
	t->ghash->update(ghash_ctx(t), desc, ad, adlen);
	ghash_pad(t, desc, adlen);
	t->ghash->update(ghash_ctx(t), desc, ct, len);
	gcm_close(t, desc, j0, adlen, len, tag);
}

static void gcm_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
			const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag, size_t taglen)
{
	const struct gcm_ctx *t = ctx;
	uint8_t j0[BC_BLOCK], full[BC_BLOCK];

	gcm_j0(t, iv, ivlen, j0);
	gcm_ctr(t, j0, ivlen, bc_load_be32(j0 + 12) + 1, src, dst, len);
	gcm_tag(t, j0, ad, adlen, dst, len, full);
	memcpy(tag, full, taglen);
	bc_wipe(j0, sizeof(j0));     /* GHASH_H(IV) for IVs other than 96 bits */
	bc_wipe(full, sizeof(full)); /* the untruncated tag */
}

/* The tag is checked before anything is decrypted, so a forgery never
 * releases plaintext: dst is only zero-filled. bc_memneq reads every byte,
 * so where the tags differ does not show; the verdict itself is public
 * (the return value), so branching on it leaks nothing. */
static int gcm_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		       const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag, size_t taglen)
{
	const struct gcm_ctx *t = ctx;
	uint8_t j0[BC_BLOCK], full[BC_BLOCK];
	int err = 0;

	gcm_j0(t, iv, ivlen, j0);
	gcm_tag(t, j0, ad, adlen, src, len, full);
	if (bc_memneq(full, tag, taglen)) {
		memset(dst, 0, len);
		err = -EBADMSG;
	} else {
		gcm_ctr(t, j0, ivlen, bc_load_be32(j0 + 12) + 1, src, dst, len);
	}
	bc_wipe(j0, sizeof(j0));
	bc_wipe(full, sizeof(full)); /* on a forgery, the right tag for its ciphertext */
	return err;
}

/* ---- the incremental form: one message in pieces ----------------------------
 * The state carries J0, the next counter value, the keystream block a piece
 * ended inside, and the GHASH state (which buffers partial blocks itself).
 * Whole blocks of each piece go to the ctr and ghash drivers in one call each. */
struct gcm_req {
	uint8_t j0[BC_BLOCK];
	uint8_t ks[BC_BLOCK];        /* keystream of the block the last piece ended in */
	uint64_t adlen, len;
	size_t ivlen;
	uint32_t c;                  /* counter value of the next keystream block */
	uint32_t ks_used;            /* bytes of ks used; BC_BLOCK: none left */
	int in_text;                 /* the AD is closed (padded) */
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
};

static void gcm_start(const void *ctx, void *req, const uint8_t *iv, size_t ivlen)
{
	const struct gcm_ctx *t = ctx;
	struct gcm_req *r = req;

	gcm_j0(t, iv, ivlen, r->j0);
	r->c = bc_load_be32(r->j0 + 12) + 1;
	r->ivlen = ivlen;
	r->adlen = r->len = 0;
	r->ks_used = BC_BLOCK;
	r->in_text = 0;
	t->ghash->init(ghash_ctx(t), r->desc);
}

static void gcm_ad(const void *ctx, void *req, const uint8_t *ad, size_t len)
{
	const struct gcm_ctx *t = ctx;
	struct gcm_req *r = req;

	t->ghash->update(ghash_ctx(t), r->desc, ad, len);
	r->adlen += len;
}

static void gcm_close_ad(const struct gcm_ctx *t, struct gcm_req *r)
{
	if (!r->in_text) {
		ghash_pad(t, r->desc, (size_t)(r->adlen % BC_BLOCK));
		r->in_text = 1;
	}
}

/* The ciphertext is hashed before it is written on decryption, after on
 * encryption, so src == dst works both ways. */
static void gcm_crypt(const void *ctx, void *req, const uint8_t *src, uint8_t *dst, size_t len, int enc)
{
	static const uint8_t zeros[BC_BLOCK];
	const struct gcm_ctx *t = ctx;
	struct gcm_req *r = req;
	size_t n = BC_BLOCK - r->ks_used < len ? BC_BLOCK - r->ks_used : len;

	gcm_close_ad(t, r);
	r->len += len;
	for (int pass = 0; pass < 3 && len; pass++) {
		/* pass 0: the rest of the block the last piece ended in;
		 * pass 1: whole blocks; pass 2: the head of a new block. */
		if (pass == 1)
			n = len & ~(size_t)(BC_BLOCK - 1);
		if (pass == 2) {
			r->c = gcm_ctr(t, r->j0, r->ivlen, r->c, zeros, r->ks, BC_BLOCK);
			r->ks_used = 0;
			n = len;
		}
		if (!n)
			continue;
		if (!enc)
			t->ghash->update(ghash_ctx(t), r->desc, src, n);
		if (pass == 1) {
			r->c = gcm_ctr(t, r->j0, r->ivlen, r->c, src, dst, n);
		} else {
			bc_xor(dst, src, r->ks + r->ks_used, n);
			r->ks_used += (uint32_t)n;
		}
		if (enc)
			t->ghash->update(ghash_ctx(t), r->desc, dst, n);
		src += n;
		dst += n;
		len -= n;
	}
}

static void gcm_final(const void *ctx, void *req, uint8_t tag[16])
{
	const struct gcm_ctx *t = ctx;
	struct gcm_req *r = req;

	gcm_close_ad(t, r);
	gcm_close(t, r->desc, r->j0, r->adlen, r->len, tag);
	bc_wipe(r, sizeof(*r));
}

static void fill(struct bc_aead_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize;
	alg->max_keysize = alg->inner->max_keysize;
	alg->ctxsize = CTR_OFF + bc_ctx_round(alg->inner->ctxsize) + bc_ctx_round(alg->hash->ctxsize) +
		       alg->cipher->ctxsize;
	alg->ivsize = 12;
	alg->maxauthsize = BC_BLOCK;
	alg->init = gcm_init;
	alg->setkey = gcm_setkey;
	alg->encrypt = gcm_encrypt;
	alg->decrypt = gcm_decrypt;
	alg->reqsize = sizeof(struct gcm_req);
	alg->start = gcm_start;
	alg->ad = gcm_ad;
	alg->crypt = gcm_crypt;
	alg->final = gcm_final;
}

const struct bc_template bc_tmpl_gcm = {
	.name = "gcm", .driver_name = "gcm_base", .type = BC_TYPE_AEAD, .args = BC_ARGS_GCM,
	.fill_aead = fill,
};
