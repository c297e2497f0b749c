/* blockcrypt x86-64: NH-Poly1305 with NH on xmm registers, a stride's four passes as 64-bit products (driver nhpoly1305-sse2).
 * Crowley and Biggers, "Adiantum" (ia.cr/2018/720), sections 6.3-6.4. Needs SSE2 (every x86-64 CPU). */
#include "drivers.h"

#if defined(__x86_64__)
#include "nh_x86.h"

static BC_X86_SSE2 void nh_strides_sse2(const uint32_t *kw, uint64_t sums[BC_NH_PASSES], const uint8_t *m, size_t n)
{
	__m128i s[BC_NH_PASSES] = { _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128() };

	for (; n; n--, m += 16, kw += 4)
		bc_nh_stride128(s, kw, m);
	bc_nh_sums_add128(sums, s);
}

BC_NHPOLY1305_SHASH(bc_nhpoly1305_sse2, "nhpoly1305-sse2", 200, 0, nh_strides_sse2);
#endif
