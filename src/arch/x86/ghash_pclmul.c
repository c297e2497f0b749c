/* blockcrypt x86: the "ghash" shash with PCLMULQDQ, 4 blocks per reduction (driver ghash-pclmul).
 * NIST SP 800-38D section 6.4; shash semantics of Linux crypto/ghash-generic.c. */
#include "drivers.h"
#include "ghash_x86.h"

BC_X86_PCLMUL int bc_ghash_x86_shash_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	bc_ghash_x86_setkey(ctx, key);
	return 0;
}

void bc_ghash_x86_shash_init(const void *ctx, void *desc)
{
	(void)ctx;
	memset(desc, 0, sizeof(struct bc_ghash_desc));
}

static BC_X86_PCLMUL void ghash_pclmul_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	__m128i acc = bc_ghash_x86_desc_head(ctx, desc, &data, &len, 1);

	if (len)
		acc = bc_ghash_x86_blocks(ctx, acc, data, len / 16);
	bc_ghash_x86_desc_tail(desc, acc, data, len, 1);
}

BC_X86_PCLMUL void bc_ghash_x86_shash_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_ghash_x86_desc_final(ctx, desc, out, 1);
}

const struct bc_shash_alg bc_ghash_pclmul =
	BC_GF128_X86_SHASH("ghash", "ghash-pclmul", 300, BC_CPU_PCLMUL,
			   bc_ghash_x86_shash_setkey, ghash_pclmul_update, bc_ghash_x86_shash_final);
