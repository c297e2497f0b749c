/* blockcrypt x86: SHA-1 with the SHA extensions (driver sha1-ni). CPU: SHA-NI, SSSE3, SSE4.1.
 * FIPS 180-4 section 6.1.2; SHA1RNDS4, SHA1NEXTE, SHA1MSG1 and SHA1MSG2 as the Intel SDM vol. 2 defines them. */
#include <immintrin.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sha1.h"

#define BC_X86_SHA __attribute__((target("sha,sse4.1,ssse3")))

/* Rounds 4g..4g+3 with W[4g..4g+3] in w (W[4g] in lane 3). SHA1RNDS4 takes
 * E already added to the first word: for g = 0 the state's E, after that
 * SHA1NEXTE's rotation of the A of four rounds before (which is what E has
 * become by then). F selects the function and constant (0..3). Before the
 * rounds, W[4g+12..4g+15] is made for later (g < 16): MSG1 XORs the word two
 * on, PXOR the one eight back, MSG2 the one three back and rotates, the
 * fourth word with MSG2's own first result. */
#define ROUNDS4(g, F) do {                                                                      \
		__m128i wk_ = (g) == 0 ? _mm_add_epi32(e, m[0]) : _mm_sha1nexte_epu32(prev, m[(g) % 4]); \
		prev = abcd;                                                                     \
		abcd = _mm_sha1rnds4_epu32(abcd, wk_, F);                                        \
		if ((g) >= 1 && (g) < 17)                                                        \
			m[((g) + 3) % 4] = _mm_sha1msg2_epu32(_mm_xor_si128(                     \
				_mm_sha1msg1_epu32(m[((g) + 3) % 4], m[(g) % 4]), m[((g) + 1) % 4]), \
				m[((g) + 2) % 4]);                                               \
	} while (0)
#define ROUNDS20(g, F) ROUNDS4(g, F); ROUNDS4((g) + 1, F); ROUNDS4((g) + 2, F); ROUNDS4((g) + 3, F); \
	ROUNDS4((g) + 4, F)

static BC_X86_SHA void sha1_ni_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	/* Big-endian words, the first in lane 3: reverse all sixteen bytes. */
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)st), 0x1b);   /* A in lane 3 */
	__m128i e = _mm_set_epi32((int)st[4], 0, 0, 0);

	for (; nblocks; nblocks--, p += 64) {
		__m128i abcd0 = abcd, e0 = e, prev, m[4];

		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
		ROUNDS20(0, 0);
		ROUNDS20(5, 1);
		ROUNDS20(10, 2);
		ROUNDS20(15, 3);
		e = _mm_sha1nexte_epu32(prev, e0);
		abcd = _mm_add_epi32(abcd, abcd0);
	}
	_mm_storeu_si128((__m128i *)st, _mm_shuffle_epi32(abcd, 0x1b));
	st[4] = (uint32_t)_mm_extract_epi32(e, 3);
}

BC_MD32_SHASH_FULL(sha1_ni, "sha1", "sha1-ni", 400, BC_CPU_SHA, bc_sha1_iv, 5, sha1_ni_compress, 20, 0);
