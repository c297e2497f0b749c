/* blockcrypt: the adiantum template, adiantum(S,aes) over an XChaCha stream cipher S, AES-256 and NH-Poly1305 (Linux crypto/adiantum.c).
 * Crowley and Biggers, "Adiantum: length-preserving encryption for entry-level processors" (ia.cr/2018/720), with the kernel's 32-byte tweak. */
#include "mode.h"
#include "../hash/poly1305.h"

#define TWEAK_SIZE 32
#define KEY_SIZE 32
#define DERIVED (KEY_SIZE + BC_POLY1305_R + BC_NHPOLY1305_KEY)

/* The header, the tweak hash's Poly1305 keyed by K_T, then the stream
 * cipher's, the hash's and the block cipher's contexts, each at a
 * BC_CTX_ALIGN boundary. */
struct adiantum_ctx {
	const struct bc_skcipher_alg *stream;
	const struct bc_shash_alg *hash;
	const struct bc_cipher_alg *cipher;
	size_t stream_off, hash_off, cipher_off;
	struct bc_poly1305 tweak_key;
};

static size_t layout(const struct bc_skcipher_alg *a, struct adiantum_ctx *t)
{
	size_t off = bc_ctx_round(sizeof(struct adiantum_ctx));

	t->stream_off = off;
	off += bc_ctx_round(a->inner->ctxsize);
	t->hash_off = off;
	off += bc_ctx_round(a->hash->ctxsize);
	t->cipher_off = off;
	return off + a->cipher->ctxsize;
}

static void adiantum_init(void *ctx, const struct bc_skcipher_alg *self)
{
	struct adiantum_ctx *t = ctx;

	t->stream = self->inner;
	t->hash = self->hash;
	t->cipher = self->cipher;
	layout(self, t);
	bc_init_inner(t->stream, bc_ctx_at(ctx, t->stream_off));
	if (t->hash->init_tfm)
		t->hash->init_tfm(bc_ctx_at(ctx, t->hash_off), t->hash);
}

/* Section 4 of the paper: the stream cipher keyed by K, with the nonce 1,
 * gives the AES-256 key, K_T and K_N in that order. The stream cipher takes
 * the key first, so a refused key changes nothing derived. */
static int adiantum_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct adiantum_ctx *t = ctx;
	uint8_t iv[BC_MAX_IV] = { 1 }, d[DERIVED] = { 0 };
	int err;

	if (keylen != KEY_SIZE)
		return -EINVAL;
	err = t->stream->setkey(bc_ctx_at(ctx, t->stream_off), key, keylen, flags);
	if (err)
		return err;
	t->stream->encrypt(bc_ctx_at(ctx, t->stream_off), iv, d, d, sizeof(d));
	err = t->cipher->setkey(bc_ctx_at(ctx, t->cipher_off), d, KEY_SIZE);
	if (!err)
		err = t->hash->setkey(bc_ctx_at(ctx, t->hash_off), d + KEY_SIZE + BC_POLY1305_R, BC_NHPOLY1305_KEY);
	if (!err)
		bc_poly1305_init_r(&t->tweak_key, d + KEY_SIZE);
	bc_wipe(d, sizeof(d));
	bc_wipe(iv, sizeof(iv));
	return err;
}

/* 128-bit little-endian sums and differences, as the paper's + and - on
 * the block (no branch on the values). */
static void add128(uint8_t r[BC_BLOCK], const uint8_t a[BC_BLOCK], const uint8_t b[BC_BLOCK], int sub)
{
	uint64_t a0 = bc_load_le64(a), a1 = bc_load_le64(a + 8), b0 = bc_load_le64(b), b1 = bc_load_le64(b + 8);
	uint64_t lo, c;

	if (sub) {
		lo = a0 - b0;
		c = a0 < b0;
		bc_store_le64(r + 8, a1 - b1 - c);
	} else {
		lo = a0 + b0;
		c = lo < a0;
		bc_store_le64(r + 8, a1 + b1 + c);
	}
	bc_store_le64(r, lo);
}

/* H(T, L) = Poly1305_{K_T}(le128(8 |L|) || T) + NH-Poly1305_{K_N}(L): the
 * tweak part th is made once per message, the rest for each of its halves. */
static void adiantum_hash(const struct adiantum_ctx *t, const uint8_t th[BC_BLOCK], const uint8_t *x, size_t len,
			  uint8_t out[BC_BLOCK])
{
	const void *hctx = bc_ctx_at(t, t->hash_off);
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
	uint8_t h[BC_BLOCK];

	t->hash->init(hctx, desc);
	t->hash->update(hctx, desc, x, len);
	t->hash->final(hctx, desc, h);
	add128(out, th, h, 0);
	bc_wipe(desc, t->hash->descsize);
	bc_wipe(h, sizeof(h));
}

/* One message, whole; the last 16 bytes are the block R, the rest L.
 * Encryption: P_M = P_R + H(P_L), C_M = E(P_M),
 * C_L = P_L ^ S(C_M || le32(1)), C_R = C_M - H(C_L). Decryption: C_M =
 * C_R + H(C_L), P_M = D(C_M), P_L = C_L ^ S(same nonce), P_R = P_M - H(P_L).
 * Both: a = src_R + H(src_L), b = E or D of a, the nonce from C_M (b or
 * a), dst_R = b - H(dst_L). R is read before anything is written, so src
 * may equal dst. */
static int adiantum_crypt(const void *ctx, const uint8_t *tweak, const uint8_t *src, uint8_t *dst, size_t len,
			  int enc)
{
	const struct adiantum_ctx *t = ctx;
	const void *cctx = bc_ctx_at(ctx, t->cipher_off);
	struct bc_poly1305 p = t->tweak_key;
	uint8_t hdr[BC_BLOCK] = { 0 }, th[BC_BLOCK], a[BC_BLOCK], b[BC_BLOCK], iv[BC_MAX_IV] = { 0 };
	size_t n = len - BC_BLOCK;

	bc_store_le64(hdr, (uint64_t)n * 8);
	bc_poly1305_update(&p, hdr, BC_BLOCK);
	bc_poly1305_update(&p, tweak, TWEAK_SIZE);
	bc_poly1305_final(&p, th);
	adiantum_hash(t, th, src, n, a);
	add128(a, src + n, a, 0);
	(enc ? t->cipher->encrypt : t->cipher->decrypt)(cctx, b, a, 1);
	memcpy(iv, enc ? b : a, BC_BLOCK);
	iv[BC_BLOCK] = 1;
	t->stream->encrypt(bc_ctx_at(ctx, t->stream_off), iv, src, dst, n);
	adiantum_hash(t, th, dst, n, a);
	add128(dst + n, b, a, 1);
	bc_wipe(th, sizeof(th));
	bc_wipe(a, sizeof(a));
	bc_wipe(b, sizeof(b));
	bc_wipe(iv, sizeof(iv));
	return 0;
}

static int adiantum_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return adiantum_crypt(ctx, iv, src, dst, len, 1);
}

static int adiantum_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return adiantum_crypt(ctx, iv, src, dst, len, 0);
}

static void fill(struct bc_skcipher_alg *alg)
{
	struct adiantum_ctx t;

	alg->min_keysize = KEY_SIZE;
	alg->max_keysize = KEY_SIZE;
	alg->ctxsize = layout(alg, &t);
	alg->ivsize = TWEAK_SIZE;
	alg->blocksize = BC_BLOCK;
	alg->min_len = BC_BLOCK;
	alg->len_align = 1;
	alg->init = adiantum_init;
	alg->setkey = adiantum_setkey;
	alg->encrypt = adiantum_encrypt;
	alg->decrypt = adiantum_decrypt;
}

const struct bc_template bc_tmpl_adiantum = {
	.name = "adiantum", .driver_name = "adiantum", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_ADIANTUM,
	.fill_skcipher = fill,
};
