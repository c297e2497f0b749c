/* blockcrypt arm64: SHA-1 with the ARMv8 SHA1 instructions (driver sha1-ce). CPU: SHA1 (FEAT_SHA1).
 * FIPS 180-4 section 6.1.2; SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0 and SHA1SU1 as the Arm ARM defines them. */
#include <arm_neon.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sha1.h"

static void sha1_ce_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	static const uint32_t k[4] = { BC_SHA1_K0, BC_SHA1_K1, BC_SHA1_K2, BC_SHA1_K3 };
	uint32x4_t abcd = vld1q_u32(st);
	uint32_t e = st[4];

	for (; nblocks; nblocks--, p += 64) {
		uint32x4_t abcd0 = abcd, m[4];
		uint32_t e0 = e;

		for (int g = 0; g < 4; g++)
			m[g] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * g)));
#pragma GCC unroll 20
		for (int g = 0; g < 20; g++) {
			/* Four rounds; E for the next four is A of these, <<< 30 (SHA1H). */
			uint32x4_t wk = vaddq_u32(m[g % 4], vdupq_n_u32(k[g / 5]));
			uint32_t e_next = vsha1h_u32(vgetq_lane_u32(abcd, 0));
			if (g < 5)
				abcd = vsha1cq_u32(abcd, e, wk);
			else if (g < 10 || g >= 15)
				abcd = vsha1pq_u32(abcd, e, wk);
			else
				abcd = vsha1mq_u32(abcd, e, wk);
			e = e_next;
			/* W[4g+16..4g+19] into the slot of W[4g..4g+3]: SU0 XORs the
			 * words 2 and 8 on, SU1 those 13 on and rotates. */
			if (g < 16)
				m[g % 4] = vsha1su1q_u32(vsha1su0q_u32(m[g % 4], m[(g + 1) % 4], m[(g + 2) % 4]),
				                         m[(g + 3) % 4]);
		}
		abcd = vaddq_u32(abcd, abcd0);
		e += e0;
	}
	vst1q_u32(st, abcd);
	st[4] = e;
}

BC_MD32_SHASH_FULL(sha1_ce, "sha1", "sha1-ce", 400, BC_CPU_ARM_SHA1, bc_sha1_iv, 5, sha1_ce_compress, 20, 0);
