/* blockcrypt arm64: the "polyval" shash with PMULL/PMULL2, 4 blocks per reduction with H..H^4 (driver polyval-ce). CPU: PMULL.
 * RFC 8452 section 3 and appendix A (POLYVAL through GHASH's multiply); shash semantics of Linux crypto/polyval-generic.c. */
#include "ghash_ce.h"

/* H becomes GHASH's key mulX_GHASH(ByteReverse(H)) (RFC 8452 appendix A),
 * whose powers ghash-ce's setkey prepares; blocks, acc and the result are
 * then byte-reversed on the way in and out (bc_gf128_ce_in, _out). */
static int polyval_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	uint8_t g[16];

	if (keylen != 16)
		return -EINVAL;
	bc_polyval_ghash_key(g, key);
	bc_ghash_ce_setkey(ctx, g);
	bc_wipe(g, sizeof(g));
	return 0;
}

static void polyval_ce_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	bc_gf128_ce_update(ctx, desc, data, len, 1);
}

static void polyval_ce_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_gf128_ce_final(ctx, desc, out, 1);
}

const struct bc_shash_alg bc_polyval_ce =
	BC_GF128_CE_SHASH("polyval", "polyval-ce", polyval_ce_setkey, polyval_ce_update, polyval_ce_final);
