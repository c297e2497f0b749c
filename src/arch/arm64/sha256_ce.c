/* blockcrypt arm64: SHA-256 and SHA-224 with the ARMv8 SHA2 instructions (drivers sha256-ce, sha224-ce). CPU: SHA2 (FEAT_SHA256).
 * FIPS 180-4 section 6.2.2; SHA256H, SHA256H2, SHA256SU0 and SHA256SU1 as the Arm ARM defines them. */
#include <arm_neon.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sha256.h"

static void sha256_ce_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(st), efgh = vld1q_u32(st + 4);

	for (; nblocks; nblocks--, p += 64) {
		uint32x4_t abcd0 = abcd, efgh0 = efgh, m[4];

#pragma GCC unroll 16
		for (int i = 0; i < 16; i++) {
			/* W[4i..4i+3]: the block's words (big-endian), then from
			 * the 16 before: SU0 adds sigma0 of the next word, SU1
			 * the word seven back and sigma1 of the two before. */
			if (i < 4)
				m[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
			else
				m[i % 4] = vsha256su1q_u32(vsha256su0q_u32(m[i % 4], m[(i + 1) % 4]), m[(i + 2) % 4],
				                           m[(i + 3) % 4]);
			/* Four rounds: SHA256H makes the new a..d, SHA256H2 the new
			 * e..h from the old a..d. */
			uint32x4_t wk = vaddq_u32(m[i % 4], vld1q_u32(bc_sha256_k + 4 * i));
			uint32x4_t abcd_in = abcd;
			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, abcd_in, wk);
		}
		abcd = vaddq_u32(abcd, abcd0);
		efgh = vaddq_u32(efgh, efgh0);
	}
	vst1q_u32(st, abcd);
	vst1q_u32(st + 4, efgh);
}

BC_MD32_SHASH(sha256_ce, "sha256", "sha256-ce", 400, BC_CPU_ARM_SHA2, bc_sha256_iv, sha256_ce_compress);
BC_SHA224_SHASH(sha224_ce, "sha224-ce", 400, BC_CPU_ARM_SHA2, sha256_ce_compress);
