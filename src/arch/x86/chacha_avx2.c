/* blockcrypt x86-64: ChaCha20, XChaCha20 and XChaCha12 on ymm registers, 8 blocks per pass (drivers chacha20-avx2,
 * xchacha20-avx2, xchacha12-avx2). RFC 8439 section 2. Needs AVX2. */
#include <immintrin.h>

#include "drivers.h"

#if defined(__x86_64__)
#define CHX_TARGET "avx2"
#define CHX_V __m256i
#define CHX_N 8
#define chx_set1(w) _mm256_set1_epi32((int)(w))
#define chx_add _mm256_add_epi32
#define chx_xor _mm256_xor_si256
#define chx_unpack32(lo, a, b) (lo ? _mm256_unpacklo_epi32(a, b) : _mm256_unpackhi_epi32(a, b))
#define chx_unpack64(lo, a, b) (lo ? _mm256_unpacklo_epi64(a, b) : _mm256_unpackhi_epi64(a, b))
#define chx_lanes() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
/* Rotations by 16 and 8 move whole bytes: one VPSHUFB; 12 and 7 take two
 * shifts and an OR. n is a literal, so the choice folds away. */
#define chx_rol(v, n)                                                                                            \
	((n) == 16 ? _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(_mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10,   \
			11, 8, 9, 14, 15, 12, 13)))                                                              \
	 : (n) == 8 ? _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(_mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11,  \
			8, 9, 10, 15, 12, 13, 14)))                                                              \
	 : _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - (n))))

/* The rounds in assembly, since the sixteen state words and the temporaries
 * of the rotations need more than the sixteen ymm registers and the
 * compiler's spills land on the dependency chains. Here words 8..11 (the
 * third row) live in memory, two of them at a time in ymm12 and ymm13 (ymm14
 * and ymm15 hold the rotations' shifted halves), and the quarter rounds go
 * in pairs over the same two: the columns 0 and 1 and the diagonals of
 * columns 2 and 3 take words 8 and 9, the others 10 and 11. */
#define CHA_CA "%%ymm12"
#define CHA_CB "%%ymm13"
#define CHA_T1 "%%ymm14"
#define CHA_T2 "%%ymm15"
#define CHA_X(i) "%[x" #i "]"
#define CHA_2(op, a1, b1, c1, a2, b2, c2) op " " a1 ", " b1 ", " c1 "\n\t" op " " a2 ", " b2 ", " c2 "\n\t"
#define CHA_ROT(n, m, b1, b2)                                                                              \
	CHA_2("vpsrld", "$" #n, b1, CHA_T1, "$" #n, b2, CHA_T2) CHA_2("vpslld", "$" #m, b1, b1, "$" #m, b2, b2) \
	CHA_2("vpor", CHA_T1, b1, b1, CHA_T2, b2, b2)
/* Two quarter rounds (a1, b1, CA, d1) and (a2, b2, CB, d2) */
#define CHA_QQ(a1, b1, d1, a2, b2, d2)                                                                     \
	CHA_2("vpaddd", CHA_X(b1), CHA_X(a1), CHA_X(a1), CHA_X(b2), CHA_X(a2), CHA_X(a2))                   \
	CHA_2("vpxor", CHA_X(a1), CHA_X(d1), CHA_X(d1), CHA_X(a2), CHA_X(d2), CHA_X(d2))                    \
	CHA_2("vpshufb", "(%[k])", CHA_X(d1), CHA_X(d1), "(%[k])", CHA_X(d2), CHA_X(d2))                   \
	CHA_2("vpaddd", CHA_X(d1), CHA_CA, CHA_CA, CHA_X(d2), CHA_CB, CHA_CB)                              \
	CHA_2("vpxor", CHA_CA, CHA_X(b1), CHA_X(b1), CHA_CB, CHA_X(b2), CHA_X(b2))                          \
	CHA_ROT(20, 12, CHA_X(b1), CHA_X(b2))                                                               \
	CHA_2("vpaddd", CHA_X(b1), CHA_X(a1), CHA_X(a1), CHA_X(b2), CHA_X(a2), CHA_X(a2))                   \
	CHA_2("vpxor", CHA_X(a1), CHA_X(d1), CHA_X(d1), CHA_X(a2), CHA_X(d2), CHA_X(d2))                    \
	CHA_2("vpshufb", "32(%[k])", CHA_X(d1), CHA_X(d1), "32(%[k])", CHA_X(d2), CHA_X(d2))                     \
	CHA_2("vpaddd", CHA_X(d1), CHA_CA, CHA_CA, CHA_X(d2), CHA_CB, CHA_CB)                              \
	CHA_2("vpxor", CHA_CA, CHA_X(b1), CHA_X(b1), CHA_CB, CHA_X(b2), CHA_X(b2))                          \
	CHA_ROT(25, 7, CHA_X(b1), CHA_X(b2))
/* The pair in registers to words s1, s2 of the third row, and words l1, l2 into the registers */
#define CHA_SWAP(s1, s2, l1, l2)                                                                           \
	"vmovdqa " CHA_CA ", " #s1 "(%[c])\n\tvmovdqa " CHA_CB ", " #s2 "(%[c])\n\t"                         \
	"vmovdqa " #l1 "(%[c]), " CHA_CA "\n\tvmovdqa " #l2 "(%[c]), " CHA_CB "\n\t"

/* The two byte rotations' VPSHUFB patterns (by 16, by 8), read through a pointer. */
static const __m256i cha_rot[2] = {
	{ 0x0504070601000302ll, 0x0d0c0f0e09080b0all, 0x0504070601000302ll, 0x0d0c0f0e09080b0all },
	{ 0x0605040702010003ll, 0x0e0d0c0f0a09080bll, 0x0605040702010003ll, 0x0e0d0c0f0a09080bll },
};

struct cha_row {
	__m256i w[4];
};

/* The whole loop of double rounds in one statement, so that the state stays in registers from one to the next. */
static inline __attribute__((target(CHX_TARGET), always_inline)) void cha_rounds(__m256i x[16], int nrounds)
{
	struct cha_row *c = (struct cha_row *)&x[8];
	long n = nrounds / 2;

	__asm__("vmovdqa 0(%[c]), " CHA_CA "\n\tvmovdqa 32(%[c]), " CHA_CB "\n\t"
		"1:\n\t"
		CHA_QQ(0, 4, 12, 1, 5, 13) CHA_SWAP(0, 32, 64, 96)
		CHA_QQ(2, 6, 14, 3, 7, 15) CHA_QQ(0, 5, 15, 1, 6, 12) CHA_SWAP(64, 96, 0, 32)
		CHA_QQ(2, 7, 13, 3, 4, 14)
		"dec %[n]\n\tjnz 1b\n\t"
		"vmovdqa " CHA_CA ", 0(%[c])\n\tvmovdqa " CHA_CB ", 32(%[c])\n\t"
		: [x0] "+x"(x[0]), [x1] "+x"(x[1]), [x2] "+x"(x[2]), [x3] "+x"(x[3]), [x4] "+x"(x[4]),
		  [x5] "+x"(x[5]), [x6] "+x"(x[6]), [x7] "+x"(x[7]), [x12] "+x"(x[12]), [x13] "+x"(x[13]),
		  [x14] "+x"(x[14]), [x15] "+x"(x[15]), "+m"(*c), [n] "+r"(n)
		: [c] "r"(c), [k] "r"(cha_rot)
		: "xmm12", "xmm13", "xmm14", "xmm15", "cc");
}
#define CHX_ROUNDS(x, nrounds) cha_rounds(x, nrounds)
#define CHX_TAIL_MAX BC_CHACHA_BLOCK
#define chx_tail bc_chacha_xor_rows

#include "../../cipher/chacha_lanes.h"

/* Half a block (32 bytes) per ymm: whole halves directly, the last partial
 * one through a buffer (the length is public). */
CHX_INLINE void out_half(__m256i ks, uint8_t *dst, const uint8_t *src, size_t off, size_t n)
{
	if (off + 32 <= n) {
		_mm256_storeu_si256((__m256i *)(dst + off),
				    _mm256_xor_si256(ks, _mm256_loadu_si256((const __m256i *)(src + off))));
	} else if (off < n) {
		uint8_t buf[32];

		_mm256_storeu_si256((__m256i *)buf, ks);
		bc_xor(dst + off, src + off, buf, n - off);
		bc_wipe(buf, sizeof(buf));
	}
}

/* After chx_transpose4, one lane exchange joins words 0..7 and 8..15 of each block. */
CHX_INLINE void chx_store(__m256i x[16], uint8_t *dst, const uint8_t *src, size_t n)
{
	chx_transpose4(x);
	for (int j = 0; j < 4; j++) {
		size_t lo = (size_t)j * 64, hi = (size_t)(4 + j) * 64;

		out_half(_mm256_permute2x128_si256(x[j], x[4 + j], 0x20), dst, src, lo, n);
		out_half(_mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x20), dst, src, lo + 32, n);
		out_half(_mm256_permute2x128_si256(x[j], x[4 + j], 0x31), dst, src, hi, n);
		out_half(_mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x31), dst, src, hi + 32, n);
	}
}


BC_CHACHA_DRIVERS(avx2, "avx2", 300, BC_CPU_AVX | BC_CPU_AVX2, bc_hchacha, chx_stream_xor);
#endif
