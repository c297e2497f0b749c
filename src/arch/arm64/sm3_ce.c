/* blockcrypt arm64: SM3 with the ARMv8.2 SM3 instructions (driver sm3-ce). CPU: SM3 (FEAT_SM3).
 * GB/T 32905-2016 sections 5.3.2 and 5.3.3; SM3SS1, SM3TT1A/B, SM3TT2A/B and SM3PARTW1/2 as the Arm ARM defines them. */
#include <arm_neon.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sm3.h"

/* The instructions keep the state as {D, C, B, A} and {H, G, F, E} (A and
 * E in lane 3) and the round constant in lane 3. One round: SS1 from A, E
 * and T_j; TT1A/B make {C, B <<< 9, A, TT1} from {D, C, B, A}, TT2A/B make
 * {G, F <<< 19, E, P0(TT2)} from {H, G, F, E}, taking W'_j or W_j from lane
 * i of the given vector. A: rounds 0-15 (XOR), B: rounds 16-63 (FF1, GG1). */
#define ROUND(i, j, TT1, TT2, w, wp) do {                                                   \
		uint32x4_t ss1_ = vsm3ss1q_u32(abcd, efgh, vld1q_dup_u32(bc_sm3_t + (j)));   \
		abcd = TT1(abcd, ss1_, wp, i);                                               \
		efgh = TT2(efgh, ss1_, w, i);                                                \
	} while (0)

/* Rounds j..j+3 from W_j..W_(j+3) (x) and W_(j+4)..W_(j+7) (y). */
#define ROUNDS4(j, TT1, TT2, x, y) do {                            \
		uint32x4_t wp_ = veorq_u32(x, y);                   \
		ROUND(0, (j) + 0, TT1, TT2, x, wp_);                \
		ROUND(1, (j) + 1, TT1, TT2, x, wp_);                \
		ROUND(2, (j) + 2, TT1, TT2, x, wp_);                \
		ROUND(3, (j) + 3, TT1, TT2, x, wp_);                \
	} while (0)

/* {a, b, c, d} <-> {d, c, b, a} */
static inline uint32x4_t reverse4(uint32x4_t v)
{
	v = vrev64q_u32(v);
	return vextq_u32(v, v, 2);
}

static void sm3_ce_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32x4_t abcd = reverse4(vld1q_u32(st)), efgh = reverse4(vld1q_u32(st + 4));

	for (; nblocks; nblocks--, p += 64) {
		uint32x4_t abcd0 = abcd, efgh0 = efgh, x[17];

		for (int i = 0; i < 4; i++)
			x[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
		/* W_(4i)..W_(4i+3) from the 16 words before: PARTW1 makes
		 * P1(W_(j-16) ^ W_(j-9) ^ W_(j-3) <<< 15) (W_j itself not yet
		 * known for lane 3), PARTW2 XORs in W_(j-13) <<< 7 and W_(j-6)
		 * and completes lane 3. */
#pragma GCC unroll 13
		for (int i = 4; i < 17; i++) {
			uint32x4_t w9 = vextq_u32(x[i - 3], x[i - 2], 3);
			uint32x4_t w6 = vextq_u32(x[i - 2], x[i - 1], 2);
			uint32x4_t w13 = vextq_u32(x[i - 4], x[i - 3], 3);

			x[i] = vsm3partw2q_u32(vsm3partw1q_u32(x[i - 4], w9, x[i - 1]), w6, w13);
		}
		ROUNDS4(0, vsm3tt1aq_u32, vsm3tt2aq_u32, x[0], x[1]);
		ROUNDS4(4, vsm3tt1aq_u32, vsm3tt2aq_u32, x[1], x[2]);
		ROUNDS4(8, vsm3tt1aq_u32, vsm3tt2aq_u32, x[2], x[3]);
		ROUNDS4(12, vsm3tt1aq_u32, vsm3tt2aq_u32, x[3], x[4]);
#pragma GCC unroll 12
		for (int i = 4; i < 16; i++)
			ROUNDS4(4 * i, vsm3tt1bq_u32, vsm3tt2bq_u32, x[i], x[i + 1]);
		abcd = veorq_u32(abcd, abcd0);
		efgh = veorq_u32(efgh, efgh0);
	}
	vst1q_u32(st, reverse4(abcd));
	vst1q_u32(st + 4, reverse4(efgh));
}

BC_MD32_SHASH(sm3_ce, "sm3", "sm3-ce", 400, BC_CPU_ARM_SM3, bc_sm3_iv, sm3_ce_compress);
