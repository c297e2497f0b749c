/* blockcrypt: the cts template over any cbc driver, variant CBC-CS3 (Linux crypto/cts.c).
 * RFC 3962 section 5 / NIST SP 800-38A addendum: the last two blocks are always swapped. */
#include "mode.h"

struct cts_ctx {
	const struct bc_skcipher_alg *cbc;
};
#define CBC_OFF bc_ctx_round(sizeof(struct cts_ctx))

static void cts_init(void *ctx, const struct bc_skcipher_alg *self)
{
	((struct cts_ctx *)ctx)->cbc = self->inner;
	bc_init_inner(self->inner, bc_ctx_at(ctx, CBC_OFF));
}

static int cts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	const struct cts_ctx *t = ctx;

	return t->cbc->setkey(bc_ctx_at(ctx, CBC_OFF), key, keylen, flags);
}

/* Whole blocks before the last two go through the inner cbc in one call; the
 * final full block and the tail (1..16 bytes) are stolen through a 32-byte
 * buffer, read before anything is written, so src may equal dst; tail and
 * head, the copies' sizes, come from the public length alone. The
 * caller's IV is left unchanged, as the kernel's cts leaves it. */
static int cts_encrypt(const void *ctx, uint8_t *iv_in, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct cts_ctx *t = ctx;
	const void *c = bc_ctx_at(ctx, CBC_OFF);
	uint8_t iv[BC_BLOCK], buf[2 * BC_BLOCK] = { 0 };
	size_t tail, head;

	memcpy(iv, iv_in, BC_BLOCK);
	if (len == BC_BLOCK) {
		t->cbc->encrypt(c, iv, src, dst, len);
		return 0;
	}
	tail = len % BC_BLOCK ? len % BC_BLOCK : BC_BLOCK;
	head = len - tail - BC_BLOCK;
	t->cbc->encrypt(c, iv, src, dst, head);
	memcpy(buf, src + head, BC_BLOCK + tail);       /* P(n-1) || P(n) || zeros */
	t->cbc->encrypt(c, iv, buf, buf, sizeof(buf));  /* C(n-1)' || C(n) */
	memcpy(dst + head, buf + BC_BLOCK, BC_BLOCK);
	memcpy(dst + head + BC_BLOCK, buf, tail);
	return 0;
}

static int cts_decrypt(const void *ctx, uint8_t *iv_in, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct cts_ctx *t = ctx;
	const void *c = bc_ctx_at(ctx, CBC_OFF);
	uint8_t iv[BC_BLOCK], zero[BC_BLOCK] = { 0 }, cn[BC_BLOCK], d[BC_BLOCK], last[BC_BLOCK];
	size_t tail, head;

	memcpy(iv, iv_in, BC_BLOCK);
	if (len == BC_BLOCK) {
		t->cbc->decrypt(c, iv, src, dst, len);
		return 0;
	}
	tail = len % BC_BLOCK ? len % BC_BLOCK : BC_BLOCK;
	head = len - tail - BC_BLOCK;
	memcpy(cn, src + head, BC_BLOCK);                 /* C(n), stored first */
	memcpy(last, src + head + BC_BLOCK, tail);        /* C(n-1)', truncated */
	t->cbc->decrypt(c, iv, src, dst, head);           /* iv becomes C(n-2) */
	/* D = Dec(C(n)) = (P(n) || 0) ^ C(n-1)': the zero padding gives back
	 * the stolen bytes of C(n-1)'. A zero IV turns cbc into a plain decrypt. */
	t->cbc->decrypt(c, zero, cn, d, BC_BLOCK);
	memcpy(last + tail, d + tail, BC_BLOCK - tail);
	bc_xor(d, d, last, tail);                         /* P(n) */
	t->cbc->decrypt(c, iv, last, dst + head, BC_BLOCK);
	memcpy(dst + head + BC_BLOCK, d, tail);
	return 0;
}

static void fill(struct bc_skcipher_alg *alg)
{
	alg->min_keysize = alg->inner->min_keysize;
	alg->max_keysize = alg->inner->max_keysize;
	alg->ctxsize = CBC_OFF + alg->inner->ctxsize;
	alg->ivsize = BC_BLOCK;
	alg->blocksize = BC_BLOCK;
	alg->min_len = BC_BLOCK;
	alg->len_align = 1;
	alg->init = cts_init;
	alg->setkey = cts_setkey;
	alg->encrypt = cts_encrypt;
	alg->decrypt = cts_decrypt;
}

const struct bc_template bc_tmpl_cts = {
	.name = "cts", .driver_name = "cts", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_SKCIPHER,
	.over = "cbc", .fill_skcipher = fill,
};
