/* blockcrypt arm64: NH-Poly1305 with NH on NEON, a stride's two 64-bit products per pass in one UMLAL (driver nhpoly1305-neon).
 * Crowley and Biggers, "Adiantum" (ia.cr/2018/720), sections 6.3-6.4. CPU: NEON (Advanced SIMD, part of every arm64 CPU). */
#include "arm64_modes.h"
#include "../../hash/nhpoly1305.h"

/* t = x + k, then (t0 t1) times (t2 t3) lane by lane, added into s. */
BC_A64_INLINE uint64x2_t nh_pass(uint64x2_t s, uint32x4_t x, uint32x4_t k)
{
	uint32x4_t t = vaddq_u32(x, k);

	return vmlal_u32(s, vget_low_u32(t), vget_low_u32(vextq_u32(t, t, 2)));
}

/* Pass i of stride n takes key words 4(n + i) on: the four key vectors of
 * one stride are three of the last one's and one new load. */
static void nh_strides_neon(const uint32_t *kw, uint64_t sums[BC_NH_PASSES], const uint8_t *m, size_t n)
{
	uint64x2_t s0 = vdupq_n_u64(0), s1 = s0, s2 = s0, s3 = s0;
	uint32x4_t k0 = vld1q_u32(kw), k1 = vld1q_u32(kw + 4), k2 = vld1q_u32(kw + 8), k3;

	for (kw += 12; n; n--, m += 16, kw += 4) {
		uint32x4_t x = vreinterpretq_u32_u8(vld1q_u8(m));

		k3 = vld1q_u32(kw);
		s0 = nh_pass(s0, x, k0);
		s1 = nh_pass(s1, x, k1);
		s2 = nh_pass(s2, x, k2);
		s3 = nh_pass(s3, x, k3);
		k0 = k1, k1 = k2, k2 = k3;
	}
	sums[0] += vaddvq_u64(s0);
	sums[1] += vaddvq_u64(s1);
	sums[2] += vaddvq_u64(s2);
	sums[3] += vaddvq_u64(s3);
}

BC_NHPOLY1305_SHASH(bc_nhpoly1305_neon, "nhpoly1305-neon", 200, 0, nh_strides_neon);
