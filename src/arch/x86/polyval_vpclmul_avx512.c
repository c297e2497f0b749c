/* blockcrypt x86-64: the "polyval" shash with VPCLMULQDQ on 512-bit registers, 16 blocks per reduction (driver polyval-vpclmul-avx512).
 * RFC 8452 section 3 and appendix A; shash semantics of Linux crypto/polyval-generic.c. CPU: VPCLMULQDQ, AVX-512 F and BW, PCLMULQDQ. */
#include "drivers.h"
#include "ghash_x86.h"

#if defined(__x86_64__)

/* Key, init and final are polyval-clmulni's; only the bulk differs. */
static BC_X86_VPCLMUL512 void polyval_vpclmul512_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	__m128i acc = bc_ghash_x86_desc_head(ctx, desc, &data, &len, 0);

	if (len)
		acc = bc_gf128_x86_blocks512(ctx, acc, data, len / 16, 0);
	bc_ghash_x86_desc_tail(desc, acc, data, len, 0);
}

const struct bc_shash_alg bc_polyval_vpclmul_avx512 =
	BC_GF128_X86_SHASH("polyval", "polyval-vpclmul-avx512", 500, BC_CPU_VPCLMUL | BC_CPU_AVX512 | BC_CPU_AVX2 | BC_CPU_PCLMUL,
			   bc_polyval_x86_shash_setkey, polyval_vpclmul512_update, bc_polyval_x86_shash_final);

#endif
