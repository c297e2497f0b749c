/* blockcrypt: the xctr template over any 16-byte block cipher driver (Linux crypto/xctr.c).
 * XCTR of the HCTR2 paper (Crot, Hopwood, Langley, "Length-preserving encryption with HCTR2", section 3):
 * keystream block i = E_K(IV XOR le128(i)), i = 1, 2, ... */
#include "mode.h"

/* Counter block i (from 1) is the IV with the little-endian i XORed in.
 * The counter restarts at 1 on every call and the IV is left as it was, as
 * in the kernel's xctr; a call of fewer than 2^64 blocks (any call) leaves
 * the high half of the IV alone. */
static void xctr_blocks(uint8_t *ks, uint8_t *iv, uint64_t first, size_t nb, size_t bs)
{
	uint64_t lo = bc_load_le64(iv);

	(void)bs;
	for (size_t i = 0; i < nb; i++) {
		bc_store_le64(ks + 16 * i, lo ^ (first + i + 1));
		memcpy(ks + 16 * i + 8, iv + 8, 8);
	}
}

static int xctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_keystream_crypt(ctx, iv, src, dst, len, BC_BLOCK, xctr_blocks);
}

static void fill(struct bc_skcipher_alg *alg)
{
	bc_fill_skcipher_over_cipher(alg);
	alg->ivsize = BC_BLOCK;
	alg->blocksize = 1;
	alg->min_len = 0;
	alg->len_align = 1;
	alg->encrypt = xctr_crypt;
	alg->decrypt = xctr_crypt;
}

const struct bc_template bc_tmpl_xctr = {
	.name = "xctr", .driver_name = "xctr", .type = BC_TYPE_SKCIPHER, .args = BC_ARGS_CIPHER,
	.fill_skcipher = fill,
};
