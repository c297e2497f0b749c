/* blockcrypt: the ctr template over any block cipher driver (Linux crypto/ctr.c).
 * NIST SP 800-38A section 6.5: the whole IV (one block: 16 bytes, 8 for des) is one big-endian counter. */
#include "mode.h"

/* ctr += n over all 128 bits, so a carry out of the low word reaches the
 * high bytes, as the kernel's crypto_inc does. The counter is the caller's
 * IV, public; gcm's counters from a secret J0 never come here (gcm_ctr). */
void bc_ctr_add(uint8_t ctr[16], uint64_t n)
{
	uint64_t lo = bc_load_be64(ctr + 8), hi = bc_load_be64(ctr);
	uint64_t sum = lo + n;

	hi += sum < lo;
	bc_store_be64(ctr, hi);
	bc_store_be64(ctr + 8, sum);
}

/* The counter blocks from the IV, which advances past them: a partial
 * final block uses up one counter (the kernel writes back the counter after
 * it). Encryption and decryption are the same. */
static inline void ctr_blocks(uint8_t *ks, uint8_t *iv, uint64_t first, size_t nb, size_t bs)
{
	(void)first;
	for (size_t i = 0; i < nb; i++) {
		memcpy(ks + i * bs, iv, bs);
		if (bs == 8)    /* the whole 8-byte block is the counter, wrapping at 2^64 */
			bc_store_be64(iv, bc_load_be64(iv) + 1);
		else
			bc_ctr_add(iv, 1);
	}
}

static void ctr16_blocks(uint8_t *ks, uint8_t *iv, uint64_t first, size_t nb, size_t bs)
{
	(void)bs;
	ctr_blocks(ks, iv, first, nb, BC_BLOCK);
}

static void ctr8_blocks(uint8_t *ks, uint8_t *iv, uint64_t first, size_t nb, size_t bs)
{
	(void)bs;
	ctr_blocks(ks, iv, first, nb, 8);
}

static inline int ctr_crypt_bs(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len,
			       size_t bs)
{
	return bc_keystream_crypt(ctx, iv, src, dst, len, bs, bs == 8 ? ctr8_blocks : ctr16_blocks);
}

static int ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return ctr_crypt_bs(ctx, iv, src, dst, len, BC_BLOCK);
}

static int ctr8_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return ctr_crypt_bs(ctx, iv, src, dst, len, 8);
}

static void fill(struct bc_skcipher_alg *alg)
{
	int b8 = bc_cipher_blocksize(alg->cipher) == 8;

	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = bc_cipher_blocksize(alg->cipher);
	alg->blocksize = 1;
	alg->min_len = 0;
	alg->len_align = 1;
	alg->encrypt = b8 ? ctr8_crypt : ctr_crypt;
	alg->decrypt = b8 ? ctr8_crypt : ctr_crypt;
}

const struct bc_template bc_tmpl_ctr = {
	.name = "ctr", .driver_name = "ctr", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill, .any_block = 1,
};
