/* blockcrypt x86: the "polyval" shash with PCLMULQDQ, 4 blocks per reduction (driver polyval-clmulni). CPU: PCLMULQDQ, SSSE3, SSE4.1.
 * RFC 8452 section 3 and appendix A (POLYVAL through GHASH's multiply); shash semantics of Linux crypto/polyval-generic.c. */
#include "drivers.h"
#include "ghash_x86.h"

/* H becomes GHASH's key mulX_GHASH(ByteReverse(H)) (RFC 8452 appendix A),
 * whose powers ghash-pclmul's setkey prepares; the blocks then need no
 * byte swap (bc_ghash_x86_in). */
BC_X86_PCLMUL int bc_polyval_x86_shash_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	uint8_t g[16];

	if (keylen != 16)
		return -EINVAL;
	bc_polyval_ghash_key(g, key);
	bc_ghash_x86_setkey(ctx, g);
	bc_wipe(g, sizeof(g));
	return 0;
}

static BC_X86_PCLMUL void polyval_clmulni_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	__m128i acc = bc_ghash_x86_desc_head(ctx, desc, &data, &len, 0);

	if (len)
		acc = bc_gf128_x86_blocks(ctx, acc, data, len / 16, 0);
	bc_ghash_x86_desc_tail(desc, acc, data, len, 0);
}

BC_X86_PCLMUL void bc_polyval_x86_shash_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_ghash_x86_desc_final(ctx, desc, out, 0);
}

const struct bc_shash_alg bc_polyval_clmulni =
	BC_GF128_X86_SHASH("polyval", "polyval-clmulni", 300, BC_CPU_PCLMUL,
			   bc_polyval_x86_shash_setkey, polyval_clmulni_update, bc_polyval_x86_shash_final);
