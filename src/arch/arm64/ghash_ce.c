/* blockcrypt arm64: the "ghash" shash with PMULL, 4 blocks per reduction (driver ghash-ce). CPU: PMULL.
 * NIST SP 800-38D section 6.4; shash semantics of Linux crypto/ghash-generic.c. */
#include "ghash_ce.h"

/* H^2..H^4 by repeated multiplication, and each power's lo ^ hi packed two
 * to a register for the Karatsuba middle products. */
void bc_ghash_ce_setkey(struct bc_ghash_ce_key *k, const uint8_t h[16])
{
	struct bc_ghash_ce_regs r;
	uint64x2_t p[4];

	memset(&r, 0, sizeof(r));
	r.red = vdupq_n_u64(0x87);
	p[0] = r.h[0] = bc_ghash_ce_in(vld1q_u8(h));
	r.k[0] = veorq_u64(p[0], vextq_u64(p[0], p[0], 1));
	for (int i = 1; i < 4; i++)
		p[i] = bc_ghash_ce_mul1(&r, p[i - 1]);
	for (int i = 0; i < 4; i++)
		vst1q_u64(k->h[i], p[i]);
	for (int i = 0; i < 2; i++) {
		uint64x2_t a = veorq_u64(p[2 * i], vextq_u64(p[2 * i], p[2 * i], 1));
		uint64x2_t b = veorq_u64(p[2 * i + 1], vextq_u64(p[2 * i + 1], p[2 * i + 1], 1));

		vst1q_u64(k->k[i], vzip1q_u64(a, b));
	}
}

static int ghash_ce_shash_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	bc_ghash_ce_setkey(ctx, key);
	return 0;
}

static void ghash_ce_update(const void *ctx, void *desc, const uint8_t *data, size_t len)
{
	bc_gf128_ce_update(ctx, desc, data, len, 0);
}

static void ghash_ce_final(const void *ctx, void *desc, uint8_t *out)
{
	bc_gf128_ce_final(ctx, desc, out, 0);
}

const struct bc_shash_alg bc_ghash_ce =
	BC_GF128_CE_SHASH("ghash", "ghash-ce", ghash_ce_shash_setkey, ghash_ce_update, ghash_ce_final);
