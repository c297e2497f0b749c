/* blockcrypt: the cbc template over any block cipher driver (Linux crypto/cbc.c).
 * NIST SP 800-38A section 6.2; the last ciphertext block is written back as the next IV. */
#include "mode.h"

/* Encryption is a chain: one block at a time through the cipher's CBC-MAC
 * step would lose the intermediate ciphertexts, so each block is its own call.
 * Dedicated drivers (cbc-aes-aesni, ...) replace this where speed matters. */
static int cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_cipher_tctx *t = ctx;
	const void *c = bc_tctx_cipher(ctx);
	uint8_t x[BC_BLOCK];
	const uint8_t *prev = iv;

	for (; len; len -= BC_BLOCK, src += BC_BLOCK, dst += BC_BLOCK) {
		bc_xor(x, src, prev, BC_BLOCK);
		t->cipher->encrypt(c, dst, x, 1);
		prev = dst;
	}
	if (prev != iv)
		memcpy(iv, prev, BC_BLOCK);
	return 0;
}

/* Decryption is parallel: each chunk goes through the cipher in one call.
 * The chunk's ciphertext is copied first, so dst may overwrite src. */
static int cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_cipher_tctx *t = ctx;
	const void *c = bc_tctx_cipher(ctx);
	uint8_t ct[BC_CHUNK_BLOCKS * BC_BLOCK], prev[BC_BLOCK];

	memcpy(prev, iv, BC_BLOCK);
	while (len) {
		size_t n = len < sizeof(ct) ? len : sizeof(ct);

		memcpy(ct, src, n);
		t->cipher->decrypt(c, dst, ct, n / BC_BLOCK);
		bc_xor(dst, dst, prev, BC_BLOCK);
		bc_xor(dst + BC_BLOCK, dst + BC_BLOCK, ct, n - BC_BLOCK);
		memcpy(prev, ct + n - BC_BLOCK, BC_BLOCK);
		src += n;
		dst += n;
		len -= n;
	}
	memcpy(iv, prev, BC_BLOCK);
	return 0;
}

static void fill(struct bc_skcipher_alg *alg)
{
	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = BC_BLOCK;
	alg->blocksize = BC_BLOCK;
	alg->min_len = 0;
	alg->len_align = BC_BLOCK;
	alg->encrypt = cbc_encrypt;
	alg->decrypt = cbc_decrypt;
}

const struct bc_template bc_tmpl_cbc = {
	.name = "cbc", .driver_name = "cbc", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill,
};
