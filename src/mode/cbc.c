/* blockcrypt: the cbc template over any block cipher driver (Linux crypto/cbc.c).
 * NIST SP 800-38A section 6.2; the last ciphertext block is written back as the next IV. */
#include "mode.h"

/* Encryption is a chain: one block at a time through the cipher's CBC-MAC
 * step would lose the intermediate ciphertexts, so each block is its own call.
 * Dedicated drivers (cbc-aes-aesni, ...) replace this where speed matters. */
/* bs (16, or 8 for des and des3_ede) is a constant in each caller. */
static inline int cbc_enc(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, size_t bs)
{
	const struct bc_cipher_tctx *t = ctx;
	const void *c = bc_tctx_cipher(ctx);
	uint8_t x[BC_BLOCK];
	const uint8_t *prev = iv;

	for (; len; len -= bs, src += bs, dst += bs) {
		bc_xor(x, src, prev, bs);
		t->cipher->encrypt(c, dst, x, 1);
		prev = dst;
	}
	if (prev != iv)
		memcpy(iv, prev, bs);
	return 0;
}

static int cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return cbc_enc(ctx, iv, src, dst, len, BC_BLOCK);
}

static int cbc8_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return cbc_enc(ctx, iv, src, dst, len, 8);
}

/* Decryption is parallel: each chunk goes through the cipher in one call.
 * The chunk's ciphertext is copied first, so dst may overwrite src. */
static inline int cbc_dec(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, size_t bs)
{
	const struct bc_cipher_tctx *t = ctx;
	const void *c = bc_tctx_cipher(ctx);
	uint8_t ct[BC_CHUNK_BYTES_MAX], prev[BC_BLOCK];
	const size_t chunk = bs == 8 ? BC_CHUNK8_BLOCKS * 8 : BC_CHUNK_BLOCKS * BC_BLOCK;

	memcpy(prev, iv, bs);
	while (len) {
		size_t n = len < chunk ? len : chunk;

		memcpy(ct, src, n);
		t->cipher->decrypt(c, dst, ct, n / bs);
		bc_xor(dst, dst, prev, bs);
		bc_xor(dst + bs, dst + bs, ct, n - bs);
		memcpy(prev, ct + n - bs, bs);
		src += n;
		dst += n;
		len -= n;
	}
	memcpy(iv, prev, bs);
	return 0;
}

static int cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return cbc_dec(ctx, iv, src, dst, len, BC_BLOCK);
}

static int cbc8_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return cbc_dec(ctx, iv, src, dst, len, 8);
}

static void fill(struct bc_skcipher_alg *alg)
{
	int b8 = bc_cipher_blocksize(alg->cipher) == 8;

	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = bc_cipher_blocksize(alg->cipher);
	alg->blocksize = alg->ivsize;
	alg->min_len = 0;
	alg->len_align = alg->ivsize;
	alg->encrypt = b8 ? cbc8_encrypt : cbc_encrypt;
	alg->decrypt = b8 ? cbc8_decrypt : cbc_decrypt;
}

const struct bc_template bc_tmpl_cbc = {
	.name = "cbc", .driver_name = "cbc", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill, .any_block = 1,
};
