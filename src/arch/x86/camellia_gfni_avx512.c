/* blockcrypt x86-64: Camellia with GF2P8AFFINEINVQB on 512-bit registers, 64 blocks byte-sliced a pass (drivers "camellia-gfni-avx512", "MODE-camellia-gfni-avx512").
 * RFC 3713 (Camellia); NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 (XTS). Needs AVX-512 F and BW, GFNI, VPCLMULQDQ. */
#include "drivers.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "../../cipher/camellia.h"
#include "x86_util.h"

#define CAMZ_TARGET "gfni,vpclmulqdq,pclmul,avx512f,avx512bw,avx2,avx,sse4.1,ssse3"
#define CAMZ_FN static inline __attribute__((always_inline, target(CAMZ_TARGET)))
#define CAMZ_API static __attribute__((target(CAMZ_TARGET)))
/* every loop over the sliced registers unrolled, so that they stay in registers */
#define CAMZ_UNROLL _Pragma("GCC unroll 16")

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

#define CAMZ_BLOCKS 64
#define CAMZ_PASS (16 * CAMZ_BLOCKS)

/*
 * The subkeys folded into the rounds. Each half is kept XORed with the
 * subkey of the next round that reads it, so no round XORs its own key before
 * the S-boxes: a round's update of the other half carries, in the XOR that
 * ends P, that half's old offset and its new one (the next subkey it feeds)
 * together. Around the FL layers and at the ends the halves are brought back
 * to their plain values (fix, post) and the whitening keys join the first and
 * last XORs. camz_program computes all of it from the pass-ordered schedule;
 * every value is 8 bytes, byte 0 the most significant (the RFC's first byte),
 * each byte repeated over a 32-bit word so that the XORs read it with an
 * embedded {1to16} broadcast (a byte broadcast from memory costs a shuffle).
 */
struct camz_sched {
	uint32_t in[2][8];        /* L ^= kw1 ^ k1, R ^= kw2 */
	uint32_t rk[24][8];       /* per round: old ^ new offset of the half it updates */
	uint32_t fix[3][8];       /* before FL: R back to plain */
	uint32_t ke[3][2][8];     /* the FL and FL^-1 subkeys */
	uint32_t post[3][8];      /* after FL: L offset by the next group's first subkey */
	uint32_t out[8];          /* R's offset and kw3 (L already carries kw4) */
};
struct camz_key {
	struct camz_sched enc, dec;
	unsigned groups;
};
struct camz_xts_key {
	struct camz_key k1;   /* data */
	struct camz_key k2;   /* tweak */
};

/* ---- byte slicing --------------------------------------------------------------------
 * Sixteen registers of four blocks each become sixteen registers x[i] holding
 * byte i of all 64 blocks (each block keeps one byte position in one 128-bit
 * lane). Per 128-bit lane the 16x16 byte matrix is transposed in three steps,
 * each its own inverse: a 4x4 transposition of 32-bit words within each group
 * of four registers, a 4x4 transposition of the bytes within each word
 * position (PSHUFB), and a 4x4 transposition of words across the groups;
 * register 4q + p then holds byte 4p + q, a renaming. */
CAMZ_FN void camz_t4(__m512i *r0, __m512i *r1, __m512i *r2, __m512i *r3)
{
	__m512i t0 = _mm512_unpacklo_epi32(*r0, *r1), t1 = _mm512_unpackhi_epi32(*r0, *r1);
	__m512i t2 = _mm512_unpacklo_epi32(*r2, *r3), t3 = _mm512_unpackhi_epi32(*r2, *r3);

	*r0 = _mm512_unpacklo_epi64(t0, t2);
	*r1 = _mm512_unpackhi_epi64(t0, t2);
	*r2 = _mm512_unpacklo_epi64(t1, t3);
	*r3 = _mm512_unpackhi_epi64(t1, t3);
}

CAMZ_FN void camz_slice_steps(__m512i a[16], int inverse)
{
	const __m512i sh = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));

	CAMZ_UNROLL
	for (int s = 0; s < 3; s++) {
		int step = inverse ? 2 - s : s;

		if (step == 0)
			CAMZ_UNROLL
			for (int g = 0; g < 4; g++)
				camz_t4(&a[4 * g], &a[4 * g + 1], &a[4 * g + 2], &a[4 * g + 3]);
		else if (step == 1)
			CAMZ_UNROLL
			for (int r = 0; r < 16; r++)
				a[r] = _mm512_shuffle_epi8(a[r], sh);
		else
			CAMZ_UNROLL
			for (int p = 0; p < 4; p++)
				camz_t4(&a[p], &a[4 + p], &a[8 + p], &a[12 + p]);
	}
}

/* ---- the rounds ------------------------------------------------------------------------ */
#define CAMZ_B(k) _mm512_set1_epi32((int)(k))
#define CAMZ_SBOX(x, pre, post, c) \
	_mm512_gf2p8affineinv_epi64_epi8(_mm512_gf2p8affine_epi64_epi8((x), _mm512_set1_epi64(pre), CAMZ_PREC), \
	                                 _mm512_set1_epi64(post), (c))
#define CAMZ_XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define CAMZ_XOR_OR(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x1e)   /* a ^ (b | c) */

/* d ^= F(x) ^ k, x already offset by the round's subkey: S-boxes s1 s2 s3 s4 s2 s3
 * s4 s1, then P as U ^= V >>> 16; V ^= U; U ^= V >>> 8; V ^= U >>> 16, result
 * V || U (see camellia_generic.c), each byte a register, so the rotations are
 * renamings: with u = the first step, w = the third (from u alone) and
 * t = V's last value, d ^= t || w with k in the same three-way XOR. */
CAMZ_FN void camz_f(__m512i d[8], const __m512i x[8], const uint32_t k[8])
{
	__m512i z0 = CAMZ_SBOX(x[0], CAMZ_PRE, CAMZ_POST1, 0x6e);
	__m512i z1 = CAMZ_SBOX(x[1], CAMZ_PRE, CAMZ_POST2, 0xdc);
	__m512i z2 = CAMZ_SBOX(x[2], CAMZ_PRE, CAMZ_POST3, 0x37);
	__m512i z3 = CAMZ_SBOX(x[3], CAMZ_PRE4, CAMZ_POST1, 0x6e);
	__m512i z4 = CAMZ_SBOX(x[4], CAMZ_PRE, CAMZ_POST2, 0xdc);
	__m512i z5 = CAMZ_SBOX(x[5], CAMZ_PRE, CAMZ_POST3, 0x37);
	__m512i z6 = CAMZ_SBOX(x[6], CAMZ_PRE4, CAMZ_POST1, 0x6e);
	__m512i z7 = CAMZ_SBOX(x[7], CAMZ_PRE, CAMZ_POST1, 0x6e);
	__m512i u0 = _mm512_xor_si512(z0, z6), u1 = _mm512_xor_si512(z1, z7);
	__m512i u2 = _mm512_xor_si512(z2, z4), u3 = _mm512_xor_si512(z3, z5);
	/* w_i = u_i ^ v_{i+1}, v_j = z_{4+j} ^ u_j; t_i = v_i ^ w_{i+2}: the even
	 * w and t first and each consumed at once, fewer values live */
	__m512i w0 = CAMZ_XOR3(u0, u1, z5), w2 = CAMZ_XOR3(u2, u3, z7);

	d[0] = CAMZ_XOR3(d[0], CAMZ_XOR3(z4, u0, w2), CAMZ_B(k[0]));
	d[2] = CAMZ_XOR3(d[2], CAMZ_XOR3(z6, u2, w0), CAMZ_B(k[2]));
	d[4] = CAMZ_XOR3(d[4], w0, CAMZ_B(k[4]));
	d[6] = CAMZ_XOR3(d[6], w2, CAMZ_B(k[6]));

	__m512i w1 = CAMZ_XOR3(u1, u2, z6), w3 = CAMZ_XOR3(u3, u0, z4);

	d[1] = CAMZ_XOR3(d[1], CAMZ_XOR3(z5, u1, w3), CAMZ_B(k[1]));
	d[3] = CAMZ_XOR3(d[3], CAMZ_XOR3(z7, u3, w1), CAMZ_B(k[3]));
	d[5] = CAMZ_XOR3(d[5], w1, CAMZ_B(k[5]));
	d[7] = CAMZ_XOR3(d[7], w3, CAMZ_B(k[7]));
}

/* XR ^= (XL & kL) <<< 1 on a big-endian 32-bit word of byte registers: each
 * byte doubled (VPADDB), ORed with the top bit of the next byte (an affine
 * map moving bit 7 to bit 0). */
CAMZ_FN void camz_fl_r(__m512i x[8], const uint32_t k[8])
{
	__m512i a[4];

	CAMZ_UNROLL
	for (int i = 0; i < 4; i++)
		a[i] = _mm512_and_epi32(x[i], CAMZ_B(k[i]));
	CAMZ_UNROLL
	for (int i = 0; i < 4; i++)
		x[4 + i] = CAMZ_XOR_OR(x[4 + i], _mm512_add_epi8(a[i], a[i]),
		                       _mm512_gf2p8affine_epi64_epi8(a[(i + 1) & 3], _mm512_set1_epi64(CAMZ_SHR7), 0));
}

/* XL ^= XR | kR */
CAMZ_FN void camz_fl_l(__m512i x[8], const uint32_t k[8])
{
	CAMZ_UNROLL
	for (int i = 0; i < 4; i++)
		x[i] = CAMZ_XOR_OR(x[i], x[4 + i], CAMZ_B(k[4 + i]));
}

/* XOR of 8 key bytes into a half */
CAMZ_FN void camz_xor8(__m512i x[8], const uint32_t k[8])
{
	CAMZ_UNROLL
	for (int i = 0; i < 8; i++)
		x[i] = _mm512_xor_epi32(x[i], CAMZ_B(k[i]));
}

/* Up to 64 blocks in b[] (block 4r + L in lane L of b[r]) through the cipher
 * (s: the encryption or decryption program), groups a constant so that every
 * loop unrolls and the 16 state registers stay in registers. */
CAMZ_FN void camz_body(const struct camz_sched *s, const unsigned groups, __m512i b[16])
{
	__m512i x[16];
	const uint32_t (*rk)[8] = s->rk;

	camz_slice_steps(b, 0);
	CAMZ_UNROLL
	for (int q = 0; q < 4; q++)
		CAMZ_UNROLL
		for (int p = 0; p < 4; p++)
			x[4 * p + q] = b[4 * q + p];
	camz_xor8(x, s->in[0]);
	camz_xor8(x + 8, s->in[1]);
	CAMZ_UNROLL
	for (unsigned g = 0; g < groups; g++) {
		CAMZ_UNROLL
		for (int r = 0; r < 3; r++, rk += 2) {
			camz_f(x + 8, x, rk[0]);
			camz_f(x, x + 8, rk[1]);
		}
		if (g + 1 < groups) {
			camz_xor8(x + 8, s->fix[g]);
			camz_fl_r(x, s->ke[g][0]);       /* FL */
			camz_fl_l(x, s->ke[g][0]);
			camz_fl_l(x + 8, s->ke[g][1]);   /* FL^-1 */
			camz_fl_r(x + 8, s->ke[g][1]);
			camz_xor8(x, s->post[g]);
		}
	}
	camz_xor8(x + 8, s->out);
	/* the output block is (D2 ^ kw3) || (D1 ^ kw4) */
	CAMZ_UNROLL
	for (int q = 0; q < 4; q++)
		CAMZ_UNROLL
		for (int p = 0; p < 4; p++)
			b[4 * q + p] = x[4 * (p ^ 2) + q];
	camz_slice_steps(b, 1);
}

/* Out of line: every mode calls this one body. */
static __attribute__((noinline, target(CAMZ_TARGET)))
void camz_pass(const struct camz_sched *s, unsigned groups, __m512i b[16])
{
	if (groups == 3)
		camz_body(s, 3, b);
	else
		camz_body(s, 4, b);
}

/* ---- loads and stores of up to a pass: byte masks, nothing touched past len ---- */
CAMZ_FN __mmask64 camz_mask(size_t len, int r)
{
	size_t off = 64 * (size_t)r, n = len > off ? len - off : 0;

	return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}

CAMZ_FN void camz_load(__m512i b[16], const uint8_t *src, size_t len)
{
	for (int r = 0; r < 16; r++)
		b[r] = _mm512_maskz_loadu_epi8(camz_mask(len, r), src + 64 * r);
}

CAMZ_FN void camz_store(uint8_t *dst, const __m512i b[16], size_t len)
{
	for (int r = 0; r < 16; r++)
		_mm512_mask_storeu_epi8(dst + 64 * r, camz_mask(len, r), b[r]);
}

/* One block, dst = E(src) or D(src); dst may be src. */
CAMZ_FN void camz_one(const struct camz_sched *sk, unsigned groups, uint8_t *dst, const uint8_t *src)
{
	__m512i b[16];

	camz_load(b, src, 16);
	camz_pass(sk, groups, b);
	camz_store(dst, b, 16);
	bc_wipe(b, sizeof(b));
}

/* ---- ECB (and the cipher's multi-block encrypt/decrypt) ------------------------------ */
CAMZ_API void camz_ecb(const struct camz_key *k, int dec, uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct camz_sched *sk = dec ? &k->dec : &k->enc;
	__m512i b[16];

	for (; len; ) {
		size_t m = len < CAMZ_PASS ? len : CAMZ_PASS;

		camz_load(b, src, m);
		camz_pass(sk, k->groups, b);
		camz_store(dst, b, m);
		src += m;
		dst += m;
		len -= m;
	}
	bc_wipe(b, sizeof(b));
}

static void camz_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	camz_ecb(ctx, 0, dst, src, 16 * nblocks);
}

static void camz_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	camz_ecb(ctx, 1, dst, src, 16 * nblocks);
}

static int camz_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	camz_ecb(ctx, 0, dst, src, len);
	return 0;
}

static int camz_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	camz_ecb(ctx, 1, dst, src, len);
	return 0;
}

/* ---- CBC: encryption (and the MACs) serial, one block a pass; decryption parallel ---- */
CAMZ_API void camz_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct camz_key *k = ctx;
	__m512i b[16];

	for (; nblocks; nblocks--, src += 16) {
		__m128i s = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)st),
		                          _mm_loadu_si128((const __m128i *)(const void *)src));

		for (int r = 0; r < 16; r++)
			b[r] = _mm512_setzero_si512();
		b[0] = _mm512_zextsi128_si512(s);
		camz_pass(&k->enc, k->groups, b);
		_mm_storeu_si128((__m128i *)(void *)st, _mm512_castsi512_si128(b[0]));
	}
	bc_wipe(b, sizeof(b));
}

CAMZ_API int camz_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	for (size_t i = 0; i < len; i += 16) {
		camz_mac(ctx, iv, src + i, 1);
		memcpy(dst + i, iv, 16);
	}
	return 0;
}

/* Each block's predecessor comes from the ciphertext registers themselves
 * (shifted by one block), read before anything is written, so dst == src works. */
CAMZ_API int camz_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camz_key *k = ctx;
	__m128i prev = _mm_loadu_si128((const __m128i *)(void *)iv);
	__m512i b[16], p[16];

	for (size_t left = len; left; ) {
		size_t m = left < CAMZ_PASS ? left : CAMZ_PASS;
		__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(src + m - 16));

		camz_load(b, src, m);
		for (int r = 0; r < 16; r++)
			p[r] = _mm512_alignr_epi64(b[r], r ? b[r - 1] : _mm512_broadcast_i32x4(prev), 6);
		camz_pass(&k->dec, k->groups, b);
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
CAMZ_API int camz_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct camz_key *k = ctx;
	const __m512i bswap = _mm512_broadcast_i32x4(bc_x86_bswap128_mask());
	/* lane L of register r: counter + 4r + L, as a little-endian 128-bit number */
	const __m512i lanes = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0), four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
	const __m512i one_hi = _mm512_set_epi64(1, 0, 1, 0, 1, 0, 1, 0);
	uint64_t hi, lo, n = 0;
	__m512i b[16];

	bc_x86_ctr_load(iv, &hi, &lo);
	for (size_t left = len; left; ) {
		size_t m = left < CAMZ_PASS ? left : CAMZ_PASS;
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
		camz_pass(&k->enc, k->groups, b);
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
CAMZ_FN void camz_tweaks(__m512i tw[17], __m128i t, __m128i mask)
{
	__m128i t1 = bc_x86_xts_mul_x(t, mask), t2 = bc_x86_xts_mul_x(t1, mask), t3 = bc_x86_xts_mul_x(t2, mask);

	tw[0] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(t1, t)), _mm256_set_m128i(t3, t2), 1);
	tw[1] = CAMZ_MUL_XN(tw[0], 4);
	tw[2] = CAMZ_MUL_XN(tw[0], 8);
	tw[3] = CAMZ_MUL_XN(tw[0], 12);
	CAMZ_UNROLL
	for (int r = 0; r < 4; r++) {
		tw[4 + r] = CAMZ_MUL_XN(tw[r], 16);
		tw[8 + r] = CAMZ_MUL_XN(tw[r], 32);
		tw[12 + r] = CAMZ_MUL_XN(tw[r], 48);
	}
	tw[16] = CAMZ_MUL_XN(tw[12], 16);
}

/* One block: dst = E(src ^ t) ^ t (or D). */
CAMZ_FN void camz_xts_one(const struct camz_key *k, int enc, uint8_t *dst, const uint8_t *src, __m128i t)
{
	uint8_t x[16];

	_mm_storeu_si128((__m128i *)(void *)x, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)src), t));
	camz_one(enc ? &k->enc : &k->dec, k->groups, x, x);
	_mm_storeu_si128((__m128i *)(void *)dst, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(void *)x), t));
	bc_wipe(x, sizeof(x));
}

/*
 * len = 16m + r, m >= 1. With r = 0 all m blocks go through the passes.
 * Otherwise (IEEE 1619 5.3.2, 5.4.2) the passes take blocks 0..m-2, and block
 * m-1 and the partial block m are stolen: encryption makes CC from block m-1
 * with T_{m-1}, outputs its first r bytes as the partial block and encrypts
 * P_m || CC[r..] with T_m as block m-1; decryption undoes block m-1 with T_m
 * first, then the rebuilt block with T_{m-1}. r comes from the public length.
 */
CAMZ_FN void camz_xts(const struct camz_xts_key *key, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
                      size_t len)
{
	const struct camz_key *k = &key->k1;
	const struct camz_sched *sk = enc ? &k->enc : &k->dec;
	const __m128i mask = bc_x86_xts_mask();
	const size_t r = len % 16, bulk = r ? len - r - 16 : len;
	__m512i b[16], tw[17];
	uint8_t t[16];
	__m128i tv;

	camz_one(&key->k2.enc, key->k2.groups, t, iv);
	tv = _mm_loadu_si128((const __m128i *)(void *)t);
	for (size_t left = bulk; left; ) {
		size_t m = left < CAMZ_PASS ? left : CAMZ_PASS;

		camz_tweaks(tw, tv, mask);
		camz_load(b, src, m);
		for (int i = 0; i < 16; i++)
			b[i] = _mm512_xor_si512(b[i], tw[i]);
		camz_pass(sk, k->groups, b);
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
	if (r) {
		__m128i tb = bc_x86_xts_mul_x(tv, mask);
		uint8_t part[16];

		camz_xts_one(k, enc, dst, src, enc ? tv : tb);
		/* dst holds CC (or PP): the stolen block takes the r bytes of block m
		 * and the rest of it, and goes into block m-1's place */
		memcpy(part, src + 16, r);
		memcpy(part + r, dst + r, 16 - r);
		memcpy(dst + 16, dst, r);
		camz_xts_one(k, enc, dst, part, enc ? tb : tv);
		bc_wipe(part, sizeof(part));
	}
	/* the tweaks come from E_K2(iv): key-derived */
	bc_wipe(b, sizeof(b));
	bc_wipe(tw, sizeof(tw));
	bc_wipe(t, sizeof(t));
}

CAMZ_API int camz_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	camz_xts(ctx, 1, iv, src, dst, len);
	return 0;
}

CAMZ_API int camz_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	camz_xts(ctx, 0, iv, src, dst, len);
	return 0;
}

/* ---- keys ------------------------------------------------------------------------------ */
/* 8 subkey bytes (v big-endian), each over a 32-bit word */
static void camz_put(uint32_t w[8], uint64_t v)
{
	for (int i = 0; i < 8; i++)
		w[i] = (uint32_t)(v >> (56 - 8 * i) & 0xff) * 0x01010101u;
}

/* The program of a pass-ordered schedule sk of n subkeys (see struct camz_sched):
 * off[h] is the offset half h (0 = L, 1 = R) carries after each step. */
static void camz_program(struct camz_sched *s, const uint64_t *sk, int n)
{
	const int groups = n == 26 ? 3 : 4;
	uint64_t off[2];

	camz_put(s->in[0], sk[0] ^ sk[2]);
	camz_put(s->in[1], sk[1]);
	off[0] = sk[2];
	off[1] = 0;
	for (int g = 0; g < groups; g++) {
		const uint64_t *k = sk + 2 + 8 * g;   /* k1..k6 of the group, then ke, ke */

		for (int r = 0; r < 6; r++) {
			int u = !(r & 1);   /* even rounds update R, odd ones L */
			uint64_t want = r < 5 ? k[r + 1] : g + 1 < groups ? 0 : sk[n - 1];

			camz_put(s->rk[6 * g + r], off[u] ^ want);
			off[u] = want;
		}
		if (g + 1 < groups) {
			camz_put(s->fix[g], off[1]);
			off[1] = 0;
			camz_put(s->ke[g][0], k[6]);
			camz_put(s->ke[g][1], k[7]);
			camz_put(s->post[g], k[8]);
			off[0] = k[8];
		}
	}
	camz_put(s->out, off[1] ^ sk[n - 2]);
	bc_wipe(off, sizeof(off));
}

static int camz_expand(struct camz_key *k, const uint8_t *key, size_t keylen)
{
	uint64_t sk[BC_CAMELLIA_SUBKEYS], dk[BC_CAMELLIA_SUBKEYS];
	int n = bc_camellia_schedule(sk, key, keylen);

	if (n < 0)
		return n;
	bc_camellia_reverse(dk, sk, n);
	camz_program(&k->enc, sk, n);
	camz_program(&k->dec, dk, n);
	k->groups = n == 26 ? 3 : 4;
	bc_wipe(sk, sizeof(sk));
	bc_wipe(dk, sizeof(dk));
	return 0;
}

static int camz_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return camz_expand(ctx, key, keylen);
}

static int camz_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return camz_expand(ctx, key, keylen);
}

/* key = key1 || key2 (data, tweak); equal halves are refused unless allowed */
static int camz_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct camz_xts_key *k = ctx;
	size_t h = keylen / 2;

	if (keylen != 32 && keylen != 48 && keylen != 64)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + h, h))
		return -EINVAL;
	camz_expand(&k->k1, key, h);
	camz_expand(&k->k2, key + h, h);
	return 0;
}

#define CAMZ_CPU (BC_CPU_AVX512 | BC_CPU_GFNI | BC_CPU_VPCLMUL | BC_CPU_PCLMUL | BC_CPU_AVX | BC_CPU_AVX2)

const struct bc_cipher_alg bc_camellia_gfni_avx512 = {
	.name = "camellia", .driver = "camellia-gfni-avx512", .priority = 400, .cpu = CAMZ_CPU,
	.min_keysize = 16, .max_keysize = 32, .ctxsize = sizeof(struct camz_key),
	.setkey = camz_setkey, .encrypt = camz_encrypt, .decrypt = camz_decrypt, .mac = camz_mac,
};
const struct bc_skcipher_alg bc_ecb_camellia_gfni_avx512 = {
	.name = "ecb(camellia)", .driver = "ecb-camellia-gfni-avx512", .priority = 500, .cpu = CAMZ_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct camz_key), .setkey = camz_skcipher_setkey,
	.encrypt = camz_ecb_encrypt, .decrypt = camz_ecb_decrypt,
};
const struct bc_skcipher_alg bc_cbc_camellia_gfni_avx512 = {
	.name = "cbc(camellia)", .driver = "cbc-camellia-gfni-avx512", .priority = 500, .cpu = CAMZ_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct camz_key), .setkey = camz_skcipher_setkey,
	.encrypt = camz_cbc_encrypt, .decrypt = camz_cbc_decrypt,
};
const struct bc_skcipher_alg bc_ctr_camellia_gfni_avx512 = {
	.name = "ctr(camellia)", .driver = "ctr-camellia-gfni-avx512", .priority = 500, .cpu = CAMZ_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct camz_key), .setkey = camz_skcipher_setkey,
	.encrypt = camz_ctr_crypt, .decrypt = camz_ctr_crypt,
};
const struct bc_skcipher_alg bc_xts_camellia_gfni_avx512 = {
	.name = "xts(camellia)", .driver = "xts-camellia-gfni-avx512", .priority = 500, .cpu = CAMZ_CPU,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct camz_xts_key), .setkey = camz_xts_setkey,
	.encrypt = camz_xts_encrypt, .decrypt = camz_xts_decrypt,
};
#endif
