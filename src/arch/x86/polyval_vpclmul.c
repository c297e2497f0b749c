/* blockcrypt x86: the "polyval" shash with VPCLMULQDQ on 256-bit registers, 8 blocks per reduction (driver polyval-vpclmul-avx2).
 * RFC 8452 section 3 and appendix A; shash semantics of Linux crypto/polyval-generic.c. CPU: VPCLMULQDQ, AVX2, PCLMULQDQ. */
#include "drivers.h"
#include "ghash_x86.h"

/* Key, init and final are polyval-clmulni's; only the bulk differs. */
static BC_X86_VPCLMUL void polyval_vpclmul_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	__m128i acc = bc_ghash_x86_desc_head(ctx, desc, &data, &len, 0);

	if (len)
		acc = bc_gf128_x86_blocks256(ctx, acc, data, len / 16, 0);
	bc_ghash_x86_desc_tail(desc, acc, data, len, 0);
}

const struct bc_shash_alg bc_polyval_vpclmul_avx2 =
	BC_GF128_X86_SHASH("polyval", "polyval-vpclmul-avx2", 400, BC_CPU_VPCLMUL | BC_CPU_AVX2 | BC_CPU_PCLMUL,
			   bc_polyval_x86_shash_setkey, polyval_vpclmul_update, bc_polyval_x86_shash_final);
