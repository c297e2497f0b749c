/* blockcrypt: POLYVAL in constant-time portable C (the kernel's "polyval-generic" shash), through GHASH's multiply.
 * RFC 8452 section 3 and appendix A; shash semantics of Linux crypto/polyval-generic.c. */
#include "drivers.h"
#include "ghash.h"

/* As the kernel's: the key is H itself, 16 bytes; a partial last block is
 * zero-padded at final, and split updates equal one. */
static int polyval_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	bc_polyval_setkey_generic(ctx, key);
	return 0;
}

static void polyval_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	bc_ghash_desc_update(ctx, desc, data, len, bc_polyval_blocks_generic);
}

static void polyval_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_ghash_desc_final(ctx, desc, out, bc_polyval_blocks_generic);
}

const struct bc_shash_alg bc_polyval_generic =
	BC_GF128_GENERIC_SHASH("polyval", "polyval-generic", polyval_setkey, polyval_update, polyval_final);
