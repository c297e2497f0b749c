/* blockcrypt x86: DES and TDES with AVX-512 (drivers "des-avx512", "des3_ede-avx512"): one block's
 * S-boxes eight at a time. FIPS 46-3, NIST SP 800-67 Rev. 2. Needs AVX-512 F (and AVX2 for the passes). */
#include <immintrin.h>

#include "../../cipher/des.h"

#define DES512_FN static inline __attribute__((always_inline, target("avx512f")))

/* Lane j of each vector serves S-box j. Its four truth tables, each rotated
 * left by its bit's place in f plus 32 (as in the portable one-block path),
 * and that place as a mask: VPRORVQ by the lane's secret 6-bit index brings
 * each wanted bit there, a register rotation, the same time for any count. */
#define DES512_T(j, t0, p0, t1, p1, t2, p2, t3, p3) \
	DES_ROTL64C(t0, p0 + 32), DES_ROTL64C(t1, p1 + 32), DES_ROTL64C(t2, p2 + 32), DES_ROTL64C(t3, p3 + 32),
#define DES512_M(j, t0, p0, t1, p1, t2, p2, t3, p3) \
	(uint64_t)1 << (p0 + 32), (uint64_t)1 << (p1 + 32), (uint64_t)1 << (p2 + 32), (uint64_t)1 << (p3 + 32),
static const uint64_t des512_t_by_sbox[32] = { DES_SBOXES(DES512_T) };
static const uint64_t des512_m_by_sbox[32] = { DES_SBOXES(DES512_M) };
/* S-box j's input is the top six bits of R rotated left by 4j - 1: with R in
 * both halves of a 64-bit lane, a right shift by 58 - (4j - 1), then & 63. */
static const uint64_t des512_rshift[8] = { 27, 55, 51, 47, 43, 39, 35, 31 };
/* and its key bits sit at bits 47-6j .. 42-6j of the round key */
static const uint64_t des512_kshift[8] = { 42, 36, 30, 24, 18, 12, 6, 0 };

struct des512 {
	__m512i t[4], m[4], rshift, kshift, six;
};

DES512_FN void des512_consts(struct des512 *c)
{
	for (int b = 0; b < 4; b++) {
		c->t[b] = _mm512_set_epi64((long long)des512_t_by_sbox[28 + b], (long long)des512_t_by_sbox[24 + b],
					   (long long)des512_t_by_sbox[20 + b], (long long)des512_t_by_sbox[16 + b],
					   (long long)des512_t_by_sbox[12 + b], (long long)des512_t_by_sbox[8 + b],
					   (long long)des512_t_by_sbox[4 + b], (long long)des512_t_by_sbox[b]);
		c->m[b] = _mm512_set_epi64((long long)des512_m_by_sbox[28 + b], (long long)des512_m_by_sbox[24 + b],
					   (long long)des512_m_by_sbox[20 + b], (long long)des512_m_by_sbox[16 + b],
					   (long long)des512_m_by_sbox[12 + b], (long long)des512_m_by_sbox[8 + b],
					   (long long)des512_m_by_sbox[4 + b], (long long)des512_m_by_sbox[b]);
	}
	c->rshift = _mm512_loadu_si512(des512_rshift);
	c->kshift = _mm512_loadu_si512(des512_kshift);
	c->six = _mm512_set1_epi64(63);
}

/* f(R, K) in the upper half of lane 0: the eight S-box indices in one
 * shift and one ternary op, four rotations, the bits kept by three bit
 * selects under the masks, and the eight lanes ORed together. */
DES512_FN __m128i des512_f(const struct des512 *c, __m128i r, uint64_t k)
{
	__m512i kv = _mm512_and_si512(_mm512_srlv_epi64(_mm512_set1_epi64((long long)k), c->kshift), c->six);
	__m512i rr = _mm512_broadcastd_epi32(r);   /* R in every half of every lane */
	/* (A ^ B) & C */
	__m512i idx = _mm512_ternarylogic_epi64(_mm512_srlv_epi64(rr, c->rshift), kv, c->six, 0x28);
	__m512i y = _mm512_and_si512(_mm512_rorv_epi64(c->t[3], idx), c->m[3]);
	__m256i h;
	__m128i q;

	/* (A & B) | (~A & C): keep B's bits under the mask A */
	y = _mm512_ternarylogic_epi64(c->m[2], _mm512_rorv_epi64(c->t[2], idx), y, 0xca);
	y = _mm512_ternarylogic_epi64(c->m[1], _mm512_rorv_epi64(c->t[1], idx), y, 0xca);
	y = _mm512_ternarylogic_epi64(c->m[0], _mm512_rorv_epi64(c->t[0], idx), y, 0xca);
	h = _mm256_or_si256(_mm512_castsi512_si256(y), _mm512_extracti64x4_epi64(y, 1));
	q = _mm_or_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
	q = _mm_or_si128(q, _mm_unpackhi_epi64(q, q));
	return _mm_srli_epi64(q, 32);
}

static __attribute__((target("avx512f"))) void des512_one(const uint64_t (*rk)[16], unsigned nkeys, int dec,
							   uint8_t *dst, const uint8_t *src)
{
	struct des512 c;
	uint64_t x = permute(bc_load_be64(src), des_ip, 64, 64);
	__m128i l = _mm_cvtsi32_si128((int)(uint32_t)(x >> 32)), r = _mm_cvtsi32_si128((int)(uint32_t)x), t;

	des512_consts(&c);
	for (unsigned s = 0; s < nkeys; s++) {
		const uint64_t *k = rk[dec ? nkeys - 1 - s : s];
		int back = dec ^ (s == 1);

		for (unsigned i = 0; i < 16; i++) {
			t = _mm_xor_si128(l, des512_f(&c, r, k[back ? 15 - i : i]));
			l = r;
			r = t;
		}
		t = l;
		l = r;
		r = t;
	}
	x = (uint64_t)(uint32_t)_mm_cvtsi128_si32(l) << 32 | (uint32_t)_mm_cvtsi128_si32(r);
	bc_store_be64(dst, permute(x, des_fp, 64, 64));
	bc_wipe(&x, sizeof(x));
}

static void avx512_crypt(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src,
			 size_t nblocks)
{
	while (nblocks >= BC_DES_PASS_MIN) {
		size_t n = nblocks < 256 ? nblocks : 256;

		bc_des_avx2_pass(rk, nkeys, dec, dst, src, n);
		src += 8 * n;
		dst += 8 * n;
		nblocks -= n;
	}
	for (; nblocks; nblocks--, src += 8, dst += 8)
		des512_one(rk, nkeys, dec, dst, src);
}

static void avx512_chain(const uint64_t (*rk)[16], unsigned nkeys, uint8_t st[16], const uint8_t *src,
			 size_t nblocks)
{
	for (; nblocks; nblocks--, src += 8) {
		bc_xor(st, st, src, 8);
		des512_one(rk, nkeys, 0, st, st);
	}
}

BC_DES_ENTRIES(_avx512, avx512_crypt)

static void des_avx512_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	avx512_chain(((const struct des_ctx *)ctx)->rk, 1, st, src, nblocks);
}

static void des3_avx512_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	avx512_chain(((const struct des3_ctx *)ctx)->rk, 3, st, src, nblocks);
}

const struct bc_cipher_alg bc_des_avx512 = {
	.name = "des",
	.driver = "des-avx512",
	.priority = 300,
	.cpu = BC_CPU_AVX512 | BC_CPU_AVX | BC_CPU_AVX2,
	.blocksize = 8,
	.min_keysize = 8,
	.max_keysize = 8,
	.ctxsize = sizeof(struct des_ctx),
	.setkey = bc_des_setkey,
	.weak_key = bc_des_weak_key,
	.encrypt = des_avx512_encrypt,
	.decrypt = des_avx512_decrypt,
	.mac = des_avx512_mac,
};

const struct bc_cipher_alg bc_des3_ede_avx512 = {
	.name = "des3_ede",
	.driver = "des3_ede-avx512",
	.priority = 300,
	.cpu = BC_CPU_AVX512 | BC_CPU_AVX | BC_CPU_AVX2,
	.blocksize = 8,
	.min_keysize = 24,
	.max_keysize = 24,
	.ctxsize = sizeof(struct des3_ctx),
	.setkey = bc_des3_setkey,
	.weak_key = bc_des3_weak_key,
	.encrypt = des3_avx512_encrypt,
	.decrypt = des3_avx512_decrypt,
	.mac = des3_avx512_mac,
};
