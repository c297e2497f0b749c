/* blockcrypt x86: the "ghash" shash with VPCLMULQDQ on 256-bit registers, 8 blocks per reduction (driver ghash-vpclmul-avx2).
 * NIST SP 800-38D section 6.4; shash semantics of Linux crypto/ghash-generic.c. */
#include "drivers.h"
#include "ghash_x86.h"

/* Key, init and final are ghash-pclmul's; only the bulk differs. */
static BC_X86_VPCLMUL void ghash_vpclmul_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	__m128i acc = bc_ghash_x86_desc_head(ctx, desc, &data, &len, 1);

	if (len)
		acc = bc_ghash_x86_blocks256(ctx, acc, data, len / 16);
	bc_ghash_x86_desc_tail(desc, acc, data, len, 1);
}

const struct bc_shash_alg bc_ghash_vpclmul_avx2 =
	BC_GF128_X86_SHASH("ghash", "ghash-vpclmul-avx2", 400, BC_CPU_VPCLMUL | BC_CPU_AVX2 | BC_CPU_PCLMUL,
			   bc_ghash_x86_shash_setkey, ghash_vpclmul_update, bc_ghash_x86_shash_final);
