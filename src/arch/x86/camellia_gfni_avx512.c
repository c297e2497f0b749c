/* blockcrypt x86-64: Camellia with GF2P8AFFINEINVQB on 512-bit registers, 64 blocks byte-sliced a pass (drivers "camellia-gfni-avx512", "MODE-camellia-gfni-avx512").
 * RFC 3713 (Camellia); NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 (XTS). Needs AVX-512 F and BW, GFNI, VPCLMULQDQ. */
#include "drivers.h"

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * The S-boxes. camellia_generic.c derives s1(x) = B * inv(A * (x + 0xc5)) + 0x6e
 * with inv the inversion in the AES field, which is what GF2P8AFFINEINVQB
 * computes before its affine map: so s1 is GF2P8AFFINEQB with A (constant
 * A * 0xc5 = 0x08) and then GF2P8AFFINEINVQB with B^-1 (constant 0x6e). s2 and
 * s3 rotate B^-1's output (and its constant) left and right by one; s4 rotates
 * the input first, so its A is A times that rotation. The 64-bit matrices hold
 * output bit i's row in byte 7 - i; computed by the same script from the same
 * A and B, checked over all 256 inputs against the RFC's SBOX1 to SBOX4.
 */
#define CAMZ_PRE   0xff38108aa65cc0bcll   /* A, for s1, s2, s3 */
#define CAMZ_PRE4  0xff1c0845532e605ell   /* A * rotl1, for s4 */
#define CAMZ_PREC  0x08
#define CAMZ_POST1 0xeb36241e33d3b1b7ll   /* B^-1, + 0x6e */
#define CAMZ_POST2 0xb7eb36241e33d3b1ll   /* rotl1 * B^-1, + 0xdc */
#define CAMZ_POST3 0x36241e33d3b1b7ebll   /* rotr1 * B^-1, + 0x37 */
#define CAMZ_SHR7  ((long long)0x8000000000000000ull)   /* bit 7 to bit 0, the rest zero */

#define CAMZ_SB(x, pre, post, c) \
	((camv)_mm512_gf2p8affineinv_epi64_epi8(_mm512_gf2p8affine_epi64_epi8(CAMX_I(x), _mm512_set1_epi64(pre), CAMZ_PREC), \
	                                        _mm512_set1_epi64(post), (c)))
/* positions 0..7: s1 s2 s3 s4 s2 s3 s4 s1 */
#define CAMX_SBOX(x, i, odd) \
	((i) == 3 || (i) == 6 ? CAMZ_SB(x, CAMZ_PRE4, CAMZ_POST1, 0x6e) \
	 : (i) == 1 || (i) == 4 ? CAMZ_SB(x, CAMZ_PRE, CAMZ_POST2, 0xdc) \
	 : (i) == 2 || (i) == 5 ? CAMZ_SB(x, CAMZ_PRE, CAMZ_POST3, 0x37) : CAMZ_SB(x, CAMZ_PRE, CAMZ_POST1, 0x6e))
/* an affine map moving bit 7 to bit 0 */
#define CAMX_SHR7(v) ((camv)_mm512_gf2p8affine_epi64_epi8(CAMX_I(v), _mm512_set1_epi64(CAMZ_SHR7), 0))
#define CAMX_ENTER(r) (r)
#define CAMX_LEAVE(r) (r)
#define CAMX_BITS 512
#define CAMX_TARGET "gfni,vpclmulqdq,pclmul,avx512f,avx512bw,avx2,avx,sse4.1,ssse3"
#include "camellia_x86.h"

/* ---- loads and stores of up to a pass: byte masks, nothing touched past len ---- */
CAMX_FN __mmask64 camz_mask(size_t len, int r)
{
	size_t off = 64 * (size_t)r, n = len > off ? len - off : 0;

	return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}

CAMX_FN void camz_load(__m512i b[16], const uint8_t *src, size_t len)
{
	for (int r = 0; r < 16; r++)
		b[r] = _mm512_maskz_loadu_epi8(camz_mask(len, r), src + 64 * r);
}

CAMX_FN void camz_store(uint8_t *dst, const __m512i b[16], size_t len)
{
	for (int r = 0; r < 16; r++)
		_mm512_mask_storeu_epi8(dst + 64 * r, camz_mask(len, r), b[r]);
}

/* ---- ECB ---------------------------------------------------------------------------- */
CAMX_API void camx_ecb(const struct camx_key *k, int dec, uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct camx_sched *sk = dec ? &k->dec : &k->enc;
	__m512i b[16];

	for (; len; ) {
		size_t m = len < CAMX_PASS ? len : CAMX_PASS;

		camz_load(b, src, m);
		camx_pass(sk, k->groups, (camv *)b);
		camz_store(dst, b, m);
		src += m;
		dst += m;
		len -= m;
	}
	bc_wipe(b, sizeof(b));
}

/* ---- CBC decryption: parallel -------------------------------------------------------
 * Each block's predecessor comes from the ciphertext registers themselves
 * (shifted by one block), read before anything is written, so dst == src works. */
CAMX_API int camx_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camx_key *k = ctx;
	__m128i prev = _mm_loadu_si128((const __m128i *)(void *)iv);
	__m512i b[16], p[16];

	for (size_t left = len; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;
		__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(src + m - 16));

		camz_load(b, src, m);
		for (int r = 0; r < 16; r++)
			p[r] = _mm512_alignr_epi64(b[r], r ? b[r - 1] : _mm512_broadcast_i32x4(prev), 6);
		camx_pass(&k->dec, k->groups, (camv *)b);
		for (int r = 0; r < 16; r++)
			b[r] = _mm512_xor_si512(b[r], p[r]);
		camz_store(dst, b, m);
		prev = last;
		src += m;
		dst += m;
		left -= m;
	}
	_mm_storeu_si128((__m128i *)(void *)iv, prev);
	bc_wipe(b, sizeof(b));
	bc_wipe(p, sizeof(p));
	return 0;
}

/* ---- CTR: the whole block is a 128-bit big-endian counter --------------------------- */
CAMX_API int camx_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camx_key *k = ctx;
	const __m512i bswap = _mm512_broadcast_i32x4(bc_x86_bswap128_mask());
	/* lane L of register r: counter + 4r + L, as a little-endian 128-bit number */
	const __m512i lanes = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0), four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
	const __m512i one_hi = _mm512_set_epi64(1, 0, 1, 0, 1, 0, 1, 0);
	uint64_t hi, lo, n = 0;
	__m512i b[16];

	bc_x86_ctr_load(iv, &hi, &lo);
	for (size_t left = len; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;
		uint64_t l = lo + n, h = hi + (l < lo);
		__m512i c = _mm512_add_epi64(_mm512_set_epi64((long long)h, (long long)l, (long long)h, (long long)l,
		                                              (long long)h, (long long)l, (long long)h, (long long)l), lanes);

		for (int r = 0; r < 16; r++) {
			/* carry into the high half where the low half wrapped (an unsigned compare) */
			__mmask8 w = _mm512_cmplt_epu64_mask(c, _mm512_set1_epi64((long long)l));
			__m512i v = _mm512_mask_add_epi64(c, (__mmask8)(w << 1), c, one_hi);

			b[r] = _mm512_shuffle_epi8(v, bswap);
			c = _mm512_add_epi64(c, four);
		}
		camx_pass(&k->enc, k->groups, (camv *)b);
		for (int r = 0; r < 16; r++) {
			__mmask64 mk = camz_mask(m, r);

			_mm512_mask_storeu_epi8(dst + 64 * r, mk,
			                        _mm512_xor_si512(b[r], _mm512_maskz_loadu_epi8(mk, src + 64 * r)));
		}
		n += (m + 15) / 16;
		src += m;
		dst += m;
		left -= m;
	}
	bc_x86_ctr_store(iv, hi, lo, n);
	bc_wipe(b, sizeof(b));   /* keystream */
	return 0;
}

/* ---- XTS: tweaks in registers, ciphertext stealing at the end --------------------------
 * Each 128-bit lane times x^n (n <= 56, a literal): the 64-bit halves
 * shifted, the bits the low half loses carried into the high half, those the
 * high half loses times 0x87 (VPCLMULQDQ, at most n + 7 bits, so no second
 * reduction) into the low half. */
#define CAMZ_MUL_XN(t, n) \
	_mm512_ternarylogic_epi64(_mm512_slli_epi64((t), (n)), _mm512_bslli_epi128(_mm512_srli_epi64((t), 64 - (n)), 8), \
	                          _mm512_clmulepi64_epi128(_mm512_srli_epi64((t), 64 - (n)), \
	                                                   _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87), 0x01), 0x96)

/* The tweaks of the 64 blocks from t on in tw[0..15], and t times x^64 in
 * tw[16]: each from tw[0] in at most two steps (x^4, x^8, x^12, then x^16,
 * x^32, x^48), not a chain of sixteen. */
CAMX_FN void camz_tweaks(__m512i tw[17], __m128i t, __m128i mask)
{
	__m128i t1 = bc_x86_xts_mul_x(t, mask), t2 = bc_x86_xts_mul_x(t1, mask), t3 = bc_x86_xts_mul_x(t2, mask);

	tw[0] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(t1, t)), _mm256_set_m128i(t3, t2), 1);
	tw[1] = CAMZ_MUL_XN(tw[0], 4);
	tw[2] = CAMZ_MUL_XN(tw[0], 8);
	tw[3] = CAMZ_MUL_XN(tw[0], 12);
	CAMX_UNROLL
	for (int r = 0; r < 4; r++) {
		tw[4 + r] = CAMZ_MUL_XN(tw[r], 16);
		tw[8 + r] = CAMZ_MUL_XN(tw[r], 32);
		tw[12 + r] = CAMZ_MUL_XN(tw[r], 48);
	}
	tw[16] = CAMZ_MUL_XN(tw[12], 16);
}

/* XTS (see camellia_x86.h) */
CAMX_API void camx_xts(const struct camx_xts_key *key, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
                       size_t len)
{
	const struct camx_key *k = &key->k1;
	const struct camx_sched *sk = enc ? &k->enc : &k->dec;
	const __m128i mask = bc_x86_xts_mask();
	const size_t r = len % 16, bulk = r ? len - r - 16 : len;
	__m512i b[16], tw[17];
	uint8_t t[16];
	__m128i tv;

	camx_one(&key->k2.enc, key->k2.groups, t, iv);
	tv = _mm_loadu_si128((const __m128i *)(void *)t);
	for (size_t left = bulk; left; ) {
		size_t m = left < CAMX_PASS ? left : CAMX_PASS;

		camz_tweaks(tw, tv, mask);
		camz_load(b, src, m);
		for (int i = 0; i < 16; i++)
			b[i] = _mm512_xor_si512(b[i], tw[i]);
		camx_pass(sk, k->groups, (camv *)b);
		for (int i = 0; i < 16; i++)
			b[i] = _mm512_xor_si512(b[i], tw[i]);
		camz_store(dst, b, m);
		/* the next tweak: number j = m / 16 of this pass, lane j % 4 of tw[j / 4]
		 * moved down (j a public index) */
		tv = _mm512_castsi512_si128(_mm512_maskz_compress_epi64((__mmask8)(3u << (m / 16 % 4 * 2)), tw[m / 64]));
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
}

#define CAMZ_CPU (BC_CPU_AVX512 | BC_CPU_GFNI | BC_CPU_VPCLMUL | BC_CPU_PCLMUL | BC_CPU_AVX | BC_CPU_AVX2)

BC_CAMELLIA_X86_DRIVERS(gfni_avx512, "gfni-avx512", 400, 500, CAMZ_CPU);
#endif
