/* blockcrypt arm64: SHA-512 and SHA-384 with the ARMv8.2 SHA512 instructions (drivers sha512-ce, sha384-ce).
 * CPU: SHA512 (FEAT_SHA512). FIPS 180-4 section 6.4.2; SHA512H, SHA512H2, SHA512SU0, SHA512SU1 as the Arm ARM has them. */
#include <arm_neon.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sha512.h"

static void sha512_ce_compress(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
	/* Lane 0 holds the first of each pair: {a, b}, {c, d}, {e, f}, {g, h}. */
	uint64x2_t ab = vld1q_u64(st), cd = vld1q_u64(st + 2), ef = vld1q_u64(st + 4), gh = vld1q_u64(st + 6);

	for (; nblocks; nblocks--, p += 128) {
		uint64x2_t ab0 = ab, cd0 = cd, ef0 = ef, gh0 = gh, m[8];

		for (int i = 0; i < 8; i++)
			m[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p + 16 * i)));
#pragma GCC unroll 40
		for (int i = 0; i < 40; i++) {
			/* Rounds 2i and 2i+1. SHA512H takes {g, h} plus W+K of the
			 * two rounds (the second first), {f, g} and {d, e}, and
			 * returns their T1s; c, d plus these are the new e, f.
			 * SHA512H2 takes the T1s, {c, d} and {a, b} and returns
			 * the new a, b. The pairs then shift along: old {a, b} is
			 * {c, d}, old {e, f} is {g, h}. */
			uint64x2_t wk = vaddq_u64(m[i % 8], vld1q_u64(bc_sha512_k + 2 * i));
			uint64x2_t t1 = vaddq_u64(gh, vextq_u64(wk, wk, 1));
			t1 = vsha512hq_u64(t1, vextq_u64(ef, gh, 1), vextq_u64(cd, ef, 1));
			uint64x2_t ef_new = vaddq_u64(cd, t1), ab_new = vsha512h2q_u64(t1, cd, ab);
			gh = ef;
			ef = ef_new;
			cd = ab;
			ab = ab_new;
			/* W[2i+16], W[2i+17] into the slot of W[2i], W[2i+1]: SU0
			 * adds sigma0 of the words 1 and 2 on, SU1 sigma1 of the
			 * two before the new ones and the words 9 and 10 on. */
			if (i < 32)
				m[i % 8] = vsha512su1q_u64(vsha512su0q_u64(m[i % 8], m[(i + 1) % 8]), m[(i + 7) % 8],
				                           vextq_u64(m[(i + 4) % 8], m[(i + 5) % 8], 1));
		}
		ab = vaddq_u64(ab, ab0);
		cd = vaddq_u64(cd, cd0);
		ef = vaddq_u64(ef, ef0);
		gh = vaddq_u64(gh, gh0);
	}
	vst1q_u64(st, ab);
	vst1q_u64(st + 2, cd);
	vst1q_u64(st + 4, ef);
	vst1q_u64(st + 6, gh);
}

BC_SHA512_SHASH(sha512_ce, sha384_ce, "sha512-ce", "sha384-ce", 400, BC_CPU_ARM_SHA512, sha512_ce_compress);
