/* blockcrypt x86: SHA-256 and SHA-224 with the SHA extensions (drivers sha256-ni, sha224-ni). CPU: SHA-NI, SSSE3, SSE4.1.
 * FIPS 180-4 section 6.2.2; the instructions as the Intel SDM vol. 2 (SHA256RNDS2, SHA256MSG1/2) defines them. */
#include <immintrin.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sha256.h"

#define BC_X86_SHA __attribute__((target("sha,sse4.1,ssse3")))

/* Four rounds from the state pair (abef, cdgh) and W[i..i+3] + K[i..i+3]:
 * SHA256RNDS2 does two rounds with the low two words of its third operand
 * and returns the new a, b, e, f; the old ones become c, d, g, h. Two
 * calls bring each half back to its own variable. */
#define ROUNDS4(wk) do {                                           \
		__m128i wk_ = (wk);                                 \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);      \
		wk_ = _mm_shuffle_epi32(wk_, 0x0e);                 \
		abef = _mm_sha256rnds2_epu32(abef, cdgh, wk_);      \
	} while (0)

static BC_X86_SHA void sha256_ni_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	/* Big-endian words to integers: reverse the bytes of each 32-bit lane. */
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	const __m128i *k = (const __m128i *)bc_sha256_k;
	__m128i dcba = _mm_loadu_si128((const __m128i *)st);         /* lane 0 is a */
	__m128i hgfe = _mm_loadu_si128((const __m128i *)(st + 4));   /* lane 0 is e */
	/* The instructions keep {a, b, e, f} and {c, d, g, h}, a and c in lane 3. */
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

	for (; nblocks; nblocks--, p += 64) {
		__m128i abef0 = abef, cdgh0 = cdgh, m[4];

#pragma GCC unroll 4
		for (int i = 0; i < 4; i++) {
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
			ROUNDS4(_mm_add_epi32(m[i], _mm_loadu_si128(k + i)));
		}
		/* W[i..i+3] from W[i-16..i-1], four words at a time: MSG1 adds
		 * sigma0 of the next word to each, PALIGNR brings W[i-7..i-4],
		 * MSG2 adds sigma1 of the two words before each (its own results
		 * for the upper two). m[i % 4] holds W[i-16..i-13] until replaced. */
#pragma GCC unroll 12
		for (int i = 4; i < 16; i++) {
			__m128i w = _mm_sha256msg1_epu32(m[i % 4], m[(i + 1) % 4]);

			w = _mm_add_epi32(w, _mm_alignr_epi8(m[(i + 3) % 4], m[(i + 2) % 4], 4));
			m[i % 4] = _mm_sha256msg2_epu32(w, m[(i + 3) % 4]);
			ROUNDS4(_mm_add_epi32(m[i % 4], _mm_loadu_si128(k + i)));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	/* Back to a..h in order: {a, b, c, d} and {e, f, g, h}. */
	__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)st, _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128((__m128i *)(st + 4), _mm_alignr_epi8(dchg, feba, 8));
}

BC_MD32_SHASH(sha256_ni, "sha256", "sha256-ni", 400, BC_CPU_SHA, bc_sha256_iv, sha256_ni_compress);
BC_SHA224_SHASH(sha224_ni, "sha224-ni", 400, BC_CPU_SHA, sha256_ni_compress);
