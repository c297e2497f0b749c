/* blockcrypt x86-64: Camellia with VAESENCLAST/VAESDECLAST on 256-bit registers, 32 blocks byte-sliced a pass (drivers "camellia-aesni-avx2", "MODE-camellia-aesni-avx2").
 * RFC 3713 (Camellia); NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 (XTS). Needs AVX2, VAES, AES-NI. */
#include "drivers.h"

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * The S-boxes. camellia_generic.c derives s1(x) = B * inv(A * (x + 0xc5)) + 0x6e
 * with inv the inversion in the AES field. The AES S-box is M * inv(y) + 0x63
 * and its inverse inv(M^-1 * (y + 0x63)), so s1 is an affine map, one of
 * AESENCLAST or AESDECLAST (key zero) and another affine map: before
 * AESENCLAST y = A * x + 0x08 and after it B * M^-1 * (w + 0x63) + 0x6e;
 * before AESDECLAST M * (A * x + 0x08) + 0x63 and after it B * w + 0x6e. s2
 * and s3 rotate the output map left and right by one, s4 rotates the input
 * first. Each affine map is two 16-entry PSHUFB tables, of the low and the
 * high nibble (the constant in the low one), in both 128-bit lanes; computed
 * from A and B (the matrices of camellia_gfni_avx512.c) and checked over all
 * 256 inputs against s1..s4, both ways.
 *
 * AESENCLAST also applies ShiftRows, AESDECLAST its inverse, to the bytes of
 * each lane, which here are 16 blocks: the rounds that update R use
 * AESENCLAST and those that update L AESDECLAST, and R keeps its bytes in
 * ShiftRows order throughout (CAMX_ENTER, CAMX_LEAVE), so each F's output
 * comes out in the order of the half it is XORed into, with no shuffle.
 */
static const uint8_t camy_nib[10][2][32] __attribute__((aligned(32))) = {
	{ { 0x08, 0x09, 0x11, 0x10, 0xb9, 0xb8, 0xa0, 0xa1, 0xa3, 0xa2, 0xba, 0xbb, 0x12, 0x13, 0x0b, 0x0a,
	    0x08, 0x09, 0x11, 0x10, 0xb9, 0xb8, 0xa0, 0xa1, 0xa3, 0xa2, 0xba, 0xbb, 0x12, 0x13, 0x0b, 0x0a },
	  { 0x00, 0xa7, 0x93, 0x34, 0x61, 0xc6, 0xf2, 0x55, 0xd9, 0x7e, 0x4a, 0xed, 0xb8, 0x1f, 0x2b, 0x8c,
	    0x00, 0xa7, 0x93, 0x34, 0x61, 0xc6, 0xf2, 0x55, 0xd9, 0x7e, 0x4a, 0xed, 0xb8, 0x1f, 0x2b, 0x8c } },   /* A (s1 s2 s3), before AESENCLAST */
	{ { 0x08, 0x11, 0xb9, 0xa0, 0xa3, 0xba, 0x12, 0x0b, 0xaf, 0xb6, 0x1e, 0x07, 0x04, 0x1d, 0xb5, 0xac,
	    0x08, 0x11, 0xb9, 0xa0, 0xa3, 0xba, 0x12, 0x0b, 0xaf, 0xb6, 0x1e, 0x07, 0x04, 0x1d, 0xb5, 0xac },
	  { 0x00, 0x93, 0x61, 0xf2, 0xd9, 0x4a, 0xb8, 0x2b, 0x01, 0x92, 0x60, 0xf3, 0xd8, 0x4b, 0xb9, 0x2a,
	    0x00, 0x93, 0x61, 0xf2, 0xd9, 0x4a, 0xb8, 0x2b, 0x01, 0x92, 0x60, 0xf3, 0xd8, 0x4b, 0xb9, 0x2a } },   /* A * rotl1 (s4), before AESENCLAST */
	{ { 0x11, 0x82, 0x84, 0x17, 0x3e, 0xad, 0xab, 0x38, 0x71, 0xe2, 0xe4, 0x77, 0x5e, 0xcd, 0xcb, 0x58,
	    0x11, 0x82, 0x84, 0x17, 0x3e, 0xad, 0xab, 0x38, 0x71, 0xe2, 0xe4, 0x77, 0x5e, 0xcd, 0xcb, 0x58 },
	  { 0x00, 0xb8, 0xd9, 0x61, 0xa0, 0x18, 0x79, 0xc1, 0xa8, 0x10, 0x71, 0xc9, 0x08, 0xb0, 0xd1, 0x69,
	    0x00, 0xb8, 0xd9, 0x61, 0xa0, 0x18, 0x79, 0xc1, 0xa8, 0x10, 0x71, 0xc9, 0x08, 0xb0, 0xd1, 0x69 } },   /* s1 after AESENCLAST */
	{ { 0x22, 0x05, 0x09, 0x2e, 0x7c, 0x5b, 0x57, 0x70, 0xe2, 0xc5, 0xc9, 0xee, 0xbc, 0x9b, 0x97, 0xb0,
	    0x22, 0x05, 0x09, 0x2e, 0x7c, 0x5b, 0x57, 0x70, 0xe2, 0xc5, 0xc9, 0xee, 0xbc, 0x9b, 0x97, 0xb0 },
	  { 0x00, 0x71, 0xb3, 0xc2, 0x41, 0x30, 0xf2, 0x83, 0x51, 0x20, 0xe2, 0x93, 0x10, 0x61, 0xa3, 0xd2,
	    0x00, 0x71, 0xb3, 0xc2, 0x41, 0x30, 0xf2, 0x83, 0x51, 0x20, 0xe2, 0x93, 0x10, 0x61, 0xa3, 0xd2 } },   /* s2 after AESENCLAST */
	{ { 0x88, 0x41, 0x42, 0x8b, 0x1f, 0xd6, 0xd5, 0x1c, 0xb8, 0x71, 0x72, 0xbb, 0x2f, 0xe6, 0xe5, 0x2c,
	    0x88, 0x41, 0x42, 0x8b, 0x1f, 0xd6, 0xd5, 0x1c, 0xb8, 0x71, 0x72, 0xbb, 0x2f, 0xe6, 0xe5, 0x2c },
	  { 0x00, 0x5c, 0xec, 0xb0, 0x50, 0x0c, 0xbc, 0xe0, 0x54, 0x08, 0xb8, 0xe4, 0x04, 0x58, 0xe8, 0xb4,
	    0x00, 0x5c, 0xec, 0xb0, 0x50, 0x0c, 0xbc, 0xe0, 0x54, 0x08, 0xb8, 0xe4, 0x04, 0x58, 0xe8, 0xb4 } },   /* s3 after AESENCLAST */
	{ { 0x9b, 0x84, 0x8d, 0x92, 0x19, 0x06, 0x0f, 0x10, 0x2e, 0x31, 0x38, 0x27, 0xac, 0xb3, 0xba, 0xa5,
	    0x9b, 0x84, 0x8d, 0x92, 0x19, 0x06, 0x0f, 0x10, 0x2e, 0x31, 0x38, 0x27, 0xac, 0xb3, 0xba, 0xa5 },
	  { 0x00, 0x31, 0x5f, 0x6e, 0x3b, 0x0a, 0x64, 0x55, 0x5e, 0x6f, 0x01, 0x30, 0x65, 0x54, 0x3a, 0x0b,
	    0x00, 0x31, 0x5f, 0x6e, 0x3b, 0x0a, 0x64, 0x55, 0x5e, 0x6f, 0x01, 0x30, 0x65, 0x54, 0x3a, 0x0b } },   /* A (s1 s2 s3), before AESDECLAST */
	{ { 0x9b, 0x8d, 0x19, 0x0f, 0x2e, 0x38, 0xac, 0xba, 0xaa, 0xbc, 0x28, 0x3e, 0x1f, 0x09, 0x9d, 0x8b,
	    0x9b, 0x8d, 0x19, 0x0f, 0x2e, 0x38, 0xac, 0xba, 0xaa, 0xbc, 0x28, 0x3e, 0x1f, 0x09, 0x9d, 0x8b },
	  { 0x00, 0x5f, 0x3b, 0x64, 0x5e, 0x01, 0x65, 0x3a, 0x1f, 0x40, 0x24, 0x7b, 0x41, 0x1e, 0x7a, 0x25,
	    0x00, 0x5f, 0x3b, 0x64, 0x5e, 0x01, 0x65, 0x3a, 0x1f, 0x40, 0x24, 0x7b, 0x41, 0x1e, 0x7a, 0x25 } },   /* A * rotl1 (s4), before AESDECLAST */
	{ { 0x6e, 0x9f, 0xd5, 0x24, 0xe0, 0x11, 0x5b, 0xaa, 0x67, 0x96, 0xdc, 0x2d, 0xe9, 0x18, 0x52, 0xa3,
	    0x6e, 0x9f, 0xd5, 0x24, 0xe0, 0x11, 0x5b, 0xaa, 0x67, 0x96, 0xdc, 0x2d, 0xe9, 0x18, 0x52, 0xa3 },
	  { 0x00, 0xfa, 0xd7, 0x2d, 0x21, 0xdb, 0xf6, 0x0c, 0xe1, 0x1b, 0x36, 0xcc, 0xc0, 0x3a, 0x17, 0xed,
	    0x00, 0xfa, 0xd7, 0x2d, 0x21, 0xdb, 0xf6, 0x0c, 0xe1, 0x1b, 0x36, 0xcc, 0xc0, 0x3a, 0x17, 0xed } },   /* s1 after AESDECLAST */
	{ { 0xdc, 0x3f, 0xab, 0x48, 0xc1, 0x22, 0xb6, 0x55, 0xce, 0x2d, 0xb9, 0x5a, 0xd3, 0x30, 0xa4, 0x47,
	    0xdc, 0x3f, 0xab, 0x48, 0xc1, 0x22, 0xb6, 0x55, 0xce, 0x2d, 0xb9, 0x5a, 0xd3, 0x30, 0xa4, 0x47 },
	  { 0x00, 0xf5, 0xaf, 0x5a, 0x42, 0xb7, 0xed, 0x18, 0xc3, 0x36, 0x6c, 0x99, 0x81, 0x74, 0x2e, 0xdb,
	    0x00, 0xf5, 0xaf, 0x5a, 0x42, 0xb7, 0xed, 0x18, 0xc3, 0x36, 0x6c, 0x99, 0x81, 0x74, 0x2e, 0xdb } },   /* s2 after AESDECLAST */
	{ { 0x37, 0xcf, 0xea, 0x12, 0x70, 0x88, 0xad, 0x55, 0xb3, 0x4b, 0x6e, 0x96, 0xf4, 0x0c, 0x29, 0xd1,
	    0x37, 0xcf, 0xea, 0x12, 0x70, 0x88, 0xad, 0x55, 0xb3, 0x4b, 0x6e, 0x96, 0xf4, 0x0c, 0x29, 0xd1 },
	  { 0x00, 0x7d, 0xeb, 0x96, 0x90, 0xed, 0x7b, 0x06, 0xf0, 0x8d, 0x1b, 0x66, 0x60, 0x1d, 0x8b, 0xf6,
	    0x00, 0x7d, 0xeb, 0x96, 0x90, 0xed, 0x7b, 0x06, 0xf0, 0x8d, 0x1b, 0x66, 0x60, 0x1d, 0x8b, 0xf6 } },   /* s3 after AESDECLAST */
};
enum { CAMY_PRE, CAMY_PRE4, CAMY_POST1, CAMY_POST2, CAMY_POST3, CAMY_DEC };

#define CAMY_LD(t, h) _mm256_load_si256((const __m256i *)(const void *)camy_nib[t][h])
/* an affine map of every byte: the two nibbles looked up and XORed */
#define CAMY_AFF(x, t) \
	_mm256_xor_si256(_mm256_shuffle_epi8(CAMY_LD(t, 0), _mm256_and_si256((x), _mm256_set1_epi8(0x0f))), \
	                 _mm256_shuffle_epi8(CAMY_LD(t, 1), _mm256_and_si256(_mm256_srli_epi16((x), 4), _mm256_set1_epi8(0x0f))))
#define CAMY_SB(x, pre, post, odd) \
	((camv)CAMY_AFF((odd) ? _mm256_aesdeclast_epi128(CAMY_AFF(CAMX_I(x), CAMY_DEC + (pre)), _mm256_setzero_si256()) \
	                      : _mm256_aesenclast_epi128(CAMY_AFF(CAMX_I(x), (pre)), _mm256_setzero_si256()), \
	                CAMY_DEC * (odd) + (post)))
/* positions 0..7: s1 s2 s3 s4 s2 s3 s4 s1 */
#define CAMX_SBOX(x, i, odd) \
	CAMY_SB(x, (i) == 3 || (i) == 6 ? CAMY_PRE4 : CAMY_PRE, \
	        (i) == 1 || (i) == 4 ? CAMY_POST2 : (i) == 2 || (i) == 5 ? CAMY_POST3 : CAMY_POST1, odd)
#define CAMX_SHR7(v) ((camv)_mm256_and_si256(_mm256_srli_epi16(CAMX_I(v), 7), _mm256_set1_epi8(1)))
/* ShiftRows and its inverse on the bytes of each lane */
#define CAMX_ENTER(r) \
	((camv)_mm256_shuffle_epi8(CAMX_I(r), _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11))))
#define CAMX_LEAVE(r) \
	((camv)_mm256_shuffle_epi8(CAMX_I(r), _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3))))
#define CAMX_BITS 256
#define CAMX_TARGET "vaes,aes,avx2,avx,sse4.1,ssse3"
#include "camellia_x86.h"

/* ---- loads and stores of up to a pass: a short one through pad, nothing touched past len ---- */
CAMX_FN const uint8_t *camy_load(__m256i b[16], const uint8_t *src, size_t len, uint8_t pad[CAMX_PASS])
{
	if (len < CAMX_PASS) {
		memset(pad, 0, CAMX_PASS);
		memcpy(pad, src, len);
		src = pad;
	}
	for (int r = 0; r < 16; r++)
		b[r] = _mm256_loadu_si256((const __m256i *)(const void *)(src + 32 * r));
	return src;
}

CAMX_FN void camy_store(uint8_t *dst, const __m256i b[16], size_t len, uint8_t pad[CAMX_PASS])
{
	uint8_t *out = len < CAMX_PASS ? pad : dst;

	for (int r = 0; r < 16; r++)
		_mm256_storeu_si256((__m256i *)(void *)(out + 32 * r), b[r]);
	if (len < CAMX_PASS)
		memcpy(dst, pad, len);
}

/* ---- ECB ---------------------------------------------------------------------------- */
CAMX_API void camx_ecb(const struct camx_key *k, int dec, uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct camx_sched *sk = dec ? &k->dec : &k->enc;
	__m256i b[16];
	uint8_t pad[CAMX_PASS];

	for (; len; ) {
		size_t m = len < CAMX_PASS ? len : CAMX_PASS;

		camy_load(b, src, m, pad);
		camx_pass(sk, k->groups, (camv *)b);
		camy_store(dst, b, m, pad);
		src += m;
		dst += m;
		len -= m;
	}
	bc_wipe(b, sizeof(b));
	bc_wipe(pad, sizeof(pad));
}

/* ---- CBC decryption: parallel -------------------------------------------------------
 * Each block's predecessor comes from the ciphertext registers themselves
 * (shifted by one block), read before anything is written, so dst == src works. */
CAMX_API int camx_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camx_key *k = ctx;
	__m128i prev = _mm_loadu_si128((const __m128i *)(void *)iv);
	__m256i b[16], p[16];
	uint8_t pad[CAMX_PASS];

	for (size_t left = len; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;
		__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(src + m - 16));

		camy_load(b, src, m, pad);
		p[0] = _mm256_permute2x128_si256(_mm256_castsi128_si256(prev), b[0], 0x20);
		for (int r = 1; r < 16; r++)
			p[r] = _mm256_permute2x128_si256(b[r - 1], b[r], 0x21);
		camx_pass(&k->dec, k->groups, (camv *)b);
		for (int r = 0; r < 16; r++)
			b[r] = _mm256_xor_si256(b[r], p[r]);
		camy_store(dst, b, m, pad);
		prev = last;
		src += m;
		dst += m;
		left -= m;
	}
	_mm_storeu_si128((__m128i *)(void *)iv, prev);
	bc_wipe(b, sizeof(b));
	bc_wipe(p, sizeof(p));
	bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- CTR: the whole block is a 128-bit big-endian counter ---------------------------
 * The counter is public: a pass whose 32 low halves do not wrap adds lane
 * offsets to one register, one that does builds each block with the carry. */
CAMX_FN void camy_counters(__m256i b[16], uint64_t hi, uint64_t lo)
{
	const __m256i bswap = bc_x86_bswap256_mask();

	if (lo + CAMX_BLOCKS > lo) {
		const __m256i two = _mm256_set_epi64x(0, 2, 0, 2);
		__m256i c = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);

		for (int r = 0; r < 16; r++) {
			b[r] = _mm256_shuffle_epi8(c, bswap);
			c = _mm256_add_epi64(c, two);
		}
	} else {
		for (int r = 0; r < 16; r++)
			b[r] = _mm256_set_m128i(bc_x86_ctr_block(hi, lo, 2 * (uint64_t)r + 1), bc_x86_ctr_block(hi, lo, 2 * (uint64_t)r));
	}
}

CAMX_API int camx_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camx_key *k = ctx;
	uint64_t hi, lo, n = 0;
	__m256i b[16], d[16];
	uint8_t pad[CAMX_PASS];

	bc_x86_ctr_load(iv, &hi, &lo);
	for (size_t left = len; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;
		uint64_t l = lo + n;

		camy_counters(b, hi + (l < lo), l);
		camx_pass(&k->enc, k->groups, (camv *)b);
		camy_load(d, src, m, pad);
		for (int r = 0; r < 16; r++)
			d[r] = _mm256_xor_si256(d[r], b[r]);
		camy_store(dst, d, m, pad);
		n += (m + 15) / 16;
		src += m;
		dst += m;
		left -= m;
	}
	bc_x86_ctr_store(iv, hi, lo, n);
	bc_wipe(b, sizeof(b));   /* keystream */
	bc_wipe(d, sizeof(d));
	bc_wipe(pad, sizeof(pad));
	return 0;
}

/* ---- XTS: tweaks in registers, ciphertext stealing at the end --------------------------
 * Each 128-bit lane (a tweak, little-endian) times x^2: both halves shifted,
 * the bits the low half loses carried into the high half, those the high
 * half loses (c < 4) folded back as c * (x^7 + x^2 + x + 1). */
CAMX_FN __m256i camy_mul_x2(__m256i v)
{
	__m256i sw = _mm256_shuffle_epi32(_mm256_srli_epi64(v, 62), 0x4e);
	__m256i c = _mm256_and_si256(sw, _mm256_set_epi64x(0, -1, 0, -1));

	return _mm256_xor_si256(_mm256_xor_si256(_mm256_slli_epi64(v, 2), sw),
	                        _mm256_xor_si256(_mm256_xor_si256(_mm256_slli_epi64(c, 1), _mm256_slli_epi64(c, 2)),
	                                         _mm256_slli_epi64(c, 7)));
}

/* XTS (see camellia_x86.h) */
CAMX_API void camx_xts(const struct camx_xts_key *key, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
                       size_t len)
{
	const struct camx_key *k = &key->k1;
	const struct camx_sched *sk = enc ? &k->enc : &k->dec;
	const __m128i mask = bc_x86_xts_mask();
	const size_t r = len % 16, bulk = r ? len - r - 16 : len;
	__m256i b[16], tw[17];
	uint8_t t[16], pad[CAMX_PASS];
	__m128i tv;

	camx_one(&key->k2.enc, key->k2.groups, t, iv);
	tv = _mm_loadu_si128((const __m128i *)(void *)t);
	for (size_t left = bulk; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;

		tw[0] = _mm256_set_m128i(bc_x86_xts_mul_x(tv, mask), tv);
		for (int i = 1; i < 17; i++)
			tw[i] = camy_mul_x2(tw[i - 1]);
		camy_load(b, src, m, pad);
		for (int i = 0; i < 16; i++)
			b[i] = _mm256_xor_si256(b[i], tw[i]);
		camx_pass(sk, k->groups, (camv *)b);
		for (int i = 0; i < 16; i++)
			b[i] = _mm256_xor_si256(b[i], tw[i]);
		camy_store(dst, b, m, pad);
		/* the next tweak: number j = m / 16 of this pass, lane j % 2 of tw[j / 2]
		 * (j a public index) */
		tv = m / 16 % 2 ? _mm256_extracti128_si256(tw[m / 32], 1) : _mm256_castsi256_si128(tw[m / 32]);
		src += m;
		dst += m;
		left -= m;
	}
	if (r)
		camx_xts_steal(k, enc, dst, src, r, tv);
	/* the tweaks come from E_K2(iv): key-derived */
	bc_wipe(b, sizeof(b));
	bc_wipe(tw, sizeof(tw));
	bc_wipe(t, sizeof(t));
	bc_wipe(&tv, sizeof(tv));
	bc_wipe(pad, sizeof(pad));
}

BC_CAMELLIA_X86_DRIVERS(aesni_avx2, "aesni-avx2", 300, 400, BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_VAES);
#endif
