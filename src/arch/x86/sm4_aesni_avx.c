/* blockcrypt x86: SM4 with AES-NI on 128-bit AVX registers (drivers "sm4-aesni-avx", "MODE-sm4-aesni-avx"),
 * plus the key schedule and the serial one-block paths all SM4 x86 drivers share. GB/T 32907-2016; RFC 8998. */
#define SM4X_BITS 128
#define SM4X_VAES 0
#define SM4X_TARGET "aes,pclmul,avx"
#include "sm4_x86.h"
#include "drivers.h"

/* ---- one block, latency first ------------------------------------------------------
 * A lone block keeps each of its four words in all four lanes of a register,
 * so ShiftRows moves nothing; the round is the M-domain one of sm4_x86.h,
 * with the lookups run side by side (V3 through rotated nibble indices)
 * and the XORs ordered for the shortest chain. */

/* Keeps the compiler from re-associating XORs across v: the order written is
 * the one that keeps the round's chain short. */
#define SM4X_KEEP(v) __asm__("" : "+x"(v))

/* kpre: the round keys through pre() */
SM4X_FN __m128i sm4x_block1(const uint32_t *kpre, __m128i blk)
{
	const __m128i m = SM4X_NIBBLES;
	__m128i v = sm4x_nib(SM4V_C(SM4X_M_LO), SM4V_C(SM4X_PRE_HI), _mm_shuffle_epi8(blk, SM4V_C(SM4X_BSWAP32)));
	__m128i x0 = _mm_shuffle_epi32(v, 0x00), x1 = _mm_shuffle_epi32(v, 0x55);
	__m128i x2 = _mm_shuffle_epi32(v, 0xaa), x3 = _mm_shuffle_epi32(v, 0xff);
	__m128i y = _mm_xor_si128(_mm_xor_si128(x1, x2), _mm_xor_si128(x3, _mm_set1_epi32((int)kpre[0])));

	for (int i = 0; i < 32; i++) {
		/* d, c: everything of the next round's input but this round's output
		 * (after the last round nothing follows: no key) */
		__m128i d = _mm_xor_si128(x2, x3), c;

		if (i < 31)
			d = _mm_xor_si128(d, _mm_set1_epi32((int)kpre[i + 1]));
		c = _mm_xor_si128(x0, d);
		__m128i a = _mm_aesenclast_si128(y, _mm_setzero_si128());

		SM4X_KEEP(c);
		__m128i lo = _mm_and_si128(a, m), hi = _mm_and_si128(_mm_srli_epi32(a, 4), m);
		__m128i e = _mm_xor_si128(_mm_xor_si128(c, _mm_shuffle_epi8(SM4V_C(SM4X_V0_LO), lo)),
		                          _mm_shuffle_epi8(SM4V_C(SM4X_V0_HI), hi));
		__m128i v3 = _mm_xor_si128(_mm_shuffle_epi8(SM4V_C(SM4X_V3_LO), _mm_shuffle_epi8(lo, SM4V_C(SM4X_R24))),
		                           _mm_shuffle_epi8(SM4V_C(SM4X_V3_HI), _mm_shuffle_epi8(hi, SM4V_C(SM4X_R24))));
		__m128i v1 = _mm_xor_si128(_mm_shuffle_epi8(SM4V_C(SM4X_V1_LO), lo), _mm_shuffle_epi8(SM4V_C(SM4X_V1_HI), hi));

		e = _mm_xor_si128(e, v3);
		SM4X_KEEP(e);
		y = _mm_xor_si128(e, _mm_xor_si128(_mm_shuffle_epi8(v1, SM4V_C(SM4X_R8)), _mm_shuffle_epi8(v1, SM4V_C(SM4X_R16))));
		/* y = M(x0 ^ T) ^ d, so the new word is y ^ d */
		x0 = x1;
		x1 = x2;
		x2 = x3;
		x3 = _mm_xor_si128(y, d);
	}
	v = _mm_unpacklo_epi64(_mm_unpacklo_epi32(x3, x2), _mm_unpacklo_epi32(x1, x0));
	v = sm4x_nib(SM4V_C(SM4X_MI_LO), SM4V_C(SM4X_MI_HI), v);
	return _mm_shuffle_epi8(v, SM4V_C(SM4X_BSWAP32));
}

__attribute__((target(SM4X_TARGET)))
void bc_sm4_x86_crypt1(const uint32_t kpre[32], uint8_t dst[16], const uint8_t src[16])
{
	_mm_storeu_si128((__m128i *)(void *)dst, sm4x_block1(kpre, _mm_loadu_si128((const __m128i *)(const void *)src)));
}

/* The CBC chain: st = E(st ^ block) for each block, every st also written to
 * dst unless dst is NULL (the CBC-MAC of cmac, xcbc and cbcmac). */
SM4X_FN void sm4x_chain(const uint32_t *kpre, uint8_t st[16], const uint8_t *src, uint8_t *dst, size_t nblocks)
{
	__m128i s = _mm_loadu_si128((const __m128i *)(void *)st);

	for (size_t i = 0; i < nblocks; i++) {
		s = sm4x_block1(kpre, _mm_xor_si128(s, _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * i))));
		if (dst)
			_mm_storeu_si128((__m128i *)(void *)(dst + 16 * i), s);
	}
	_mm_storeu_si128((__m128i *)(void *)st, s);
}

__attribute__((target(SM4X_TARGET)))
void bc_sm4_x86_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	sm4x_chain(((const struct bc_sm4_x86_key *)ctx)->enc_pre, st, src, NULL, nblocks);
}

__attribute__((target(SM4X_TARGET)))
void bc_sm4_x86_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	sm4x_chain(((const struct bc_sm4_x86_key *)ctx)->enc_pre, iv, src, dst, len / 16);
}

/* ---- key schedule ----------------------------------------------------------------------
 * K_{i+4} = K_i ^ L'(tau(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i)), L'(B) = B ^ B<<<13 ^ B<<<23;
 * tau is the same register S-box (on a word in every lane), so no table here either. */
static inline uint32_t sm4x_rotl(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

__attribute__((target(SM4X_TARGET)))
static void sm4x_expand(struct bc_sm4_x86_key *k, const uint8_t key[16])
{
	static const uint32_t fk[4] = { 0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc };
	uint32_t x[4], t;

	for (int i = 0; i < 4; i++)
		x[i] = bc_load_be32(key + 4 * i) ^ fk[i];
	for (unsigned i = 0; i < 32; i++) {
		uint32_t ck = 0;

		/* CK_i byte j = (4i + j) * 7 mod 256 */
		for (unsigned j = 0; j < 4; j++)
			ck = ck << 8 | (((4 * i + j) * 7) & 0xff);
		t = x[(i + 1) & 3] ^ x[(i + 2) & 3] ^ x[(i + 3) & 3] ^ ck;
		t = (uint32_t)_mm_cvtsi128_si32(sm4x_sbox(_mm_set1_epi32((int)t)));
		x[i & 3] ^= t ^ sm4x_rotl(t, 13) ^ sm4x_rotl(t, 23);
		k->enc[i] = x[i & 3];
		k->dec[31 - i] = x[i & 3];
	}
	for (unsigned i = 0; i < 32; i++) {
		t = (uint32_t)_mm_cvtsi128_si32(sm4x_nib(SM4V_C(SM4X_PRE_LO), SM4V_C(SM4X_PRE_HI),
		                                         _mm_set1_epi32((int)k->enc[i])));
		k->enc_pre[i] = t;
		k->dec_pre[31 - i] = t;
	}
	bc_wipe(x, sizeof(x));
	bc_wipe(&t, sizeof(t));
}

int bc_sm4_x86_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	sm4x_expand(ctx, key);
	return 0;
}

int bc_sm4_x86_skcipher_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return bc_sm4_x86_setkey(ctx, key, keylen);
}

/* key = key1 || key2 (data, tweak); equal halves are refused unless allowed
 * (IEEE 1619-2018 5.1, NIST SP 800-38E). */
int bc_sm4_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_sm4_x86_xts_key *k = ctx;

	if (keylen != 32)
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + 16, 16))
		return -EINVAL;
	sm4x_expand(&k->k1, key);
	sm4x_expand(&k->k2, key + 16);
	return 0;
}

/* The hash subkey H = E_K(0^128) (SP 800-38D 6.4). */
__attribute__((target(SM4X_TARGET)))
int bc_sm4_x86_gcm_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct bc_sm4_x86_gcm_key *k = ctx;
	uint8_t h[16] = { 0 };

	if (keylen != 16)
		return -EINVAL;
	sm4x_expand(&k->k, key);
	bc_sm4_x86_crypt1(k->k.enc_pre, h, h);
	bc_ghash_x86_setkey(&k->gh, h);
	bc_wipe(h, sizeof(h));
	return 0;
}

BC_SM4_X86_DRIVERS(aesni_avx, "aesni-avx", 300, 400, BC_CPU_AESNI | BC_CPU_AVX,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_PCLMUL);
