/* blockcrypt x86: gcm(aes) with AES-NI and PCLMULQDQ in one pass, 8 blocks in flight (driver gcm-aes-aesni).
 * NIST SP 800-38D (GCM), FIPS-197 (AES); Linux crypto/gcm.c semantics (any IV length, tags of 4, 8, 12..16 bytes). */
#include "drivers.h"
#include "ghash_x86.h"

BC_X86_GCM_AES int bc_gcm_aes_x86_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct bc_gcm_aes_x86_ctx *c = ctx;
	uint8_t h[16];

	if (!bc_aes_x86_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_x86_expand_enc(&c->aes, key, keylen);
	_mm_storeu_si128((__m128i *)h, bc_aes_x86_enc1(&c->aes, _mm_setzero_si128()));
	bc_ghash_x86_setkey(&c->gh, h);
	bc_wipe(h, sizeof(h));
	return 0;
}

/* 8 counter blocks encrypted and XORed onto src into dst, while the 8
 * ciphertext blocks at gsrc (already known: the previous group when
 * encrypting, this one when decrypting) are hashed, one per AES round, so
 * the multiplier and the AES unit work side by side. gsrc is read before
 * dst is written, so decrypting in place is fine. */
BC_X86_INLINE BC_X86_GCM_AES __m128i gcm_aesni_group(const struct bc_gcm_aes_x86_ctx *c, __m128i acc, __m128i ctr,
                                                     const uint8_t *src, uint8_t *dst, const uint8_t *gsrc)
{
	const __m128i bswap = bc_x86_bswap128_mask();
	const uint8_t (*rk)[16] = c->aes.rk;
	__m128i x[8], key = bc_aes_x86_rk(rk, 0);
	struct bc_ghash_x86_sum s;
	unsigned r;

	_Pragma("GCC unroll 8")
	for (int i = 0; i < 8; i++)
		x[i] = _mm_xor_si128(bc_gcm_x86_ctr(ctr, i), key);
	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < 8; i++) {
		__m128i g = _mm_shuffle_epi8(bc_aes_x86_load(gsrc + 16 * i), bswap);

		key = bc_aes_x86_rk(rk, i + 1);
		_Pragma("GCC unroll 8")
		for (int j = 0; j < 8; j++)
			x[j] = _mm_aesenc_si128(x[j], key);
		if (i == 0)
			g = _mm_xor_si128(g, acc);
		bc_ghash_x86_mul(&s, &c->gh, BC_GHASH_X86_POWERS - 8 + i, g, i == 0);
	}
	acc = bc_ghash_x86_reduce(&s);
	for (r = 9; r < c->aes.rounds; r++) {
		key = bc_aes_x86_rk(rk, r);
		_Pragma("GCC unroll 8")
		for (int j = 0; j < 8; j++)
			x[j] = _mm_aesenc_si128(x[j], key);
	}
	key = bc_aes_x86_rk(rk, r);
	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++)
		bc_aes_x86_store(dst + 16 * j, _mm_xor_si128(_mm_aesenclast_si128(x[j], key), bc_aes_x86_load(src + 16 * j)));
	return acc;
}

/* The whole data path; returns the final GHASH (lengths included) and
 * E_K(J0) in *ej0. The ciphertext tail is hashed from src before dst is
 * written when decrypting (in place it would be gone), from dst after
 * when encrypting. */
static BC_X86_GCM_AES __m128i gcm_aesni_crypt(const struct bc_gcm_aes_x86_ctx *c, const struct bc_gcm_x86_state *st,
                                              const uint8_t *src, uint8_t *dst, size_t len, size_t adlen, int enc,
                                              __m128i *ej0)
{
	const __m128i eight = _mm_set_epi32(0, 0, 0, 8);
	__m128i acc = st->acc, ctr = st->ctr;
	const uint8_t *pend = NULL;
	size_t total = len;

	if (enc && len == 16)
		return bc_gcm_aes_x86_enc16(c, st, src, dst, adlen, ej0);
	if (enc && len >= 128) {
		/* Encryption hashes each group during the next one's rounds; the
		 * first has no predecessor, the last (pend) is hashed at the end. */
		__m128i x[8];

		/* unrolled, so the keystream stays in registers (no stack copy) */
		_Pragma("GCC unroll 8")
		for (int i = 0; i < 8; i++)
			x[i] = bc_gcm_x86_ctr(ctr, i);
		bc_aes_x86_enc_n(&c->aes, x, 8);
		_Pragma("GCC unroll 8")
		for (int i = 0; i < 8; i++)
			bc_aes_x86_store(dst + 16 * i, _mm_xor_si128(x[i], bc_aes_x86_load(src + 16 * i)));
		for (pend = dst, ctr = _mm_add_epi32(ctr, eight), src += 128, dst += 128, len -= 128; len >= 128;
		     pend = dst, ctr = _mm_add_epi32(ctr, eight), src += 128, dst += 128, len -= 128)
			acc = gcm_aesni_group(c, acc, ctr, src, dst, pend);
	}
	for (; len >= 128; ctr = _mm_add_epi32(ctr, eight), src += 128, dst += 128, len -= 128)
		acc = gcm_aesni_group(c, acc, ctr, src, dst, src);
	if (!enc)
		acc = bc_gcm_x86_final(&c->gh, acc, src, len, adlen, total);
	*ej0 = bc_gcm_aes_x86_tail(c, ctr, st->j0, src, dst, len);
	if (enc) {
		if (pend)
			acc = bc_ghash_x86_blocks(&c->gh, acc, pend, 8);
		acc = bc_gcm_x86_final(&c->gh, acc, dst, len, adlen, total);
	}
	return acc;
}

static BC_X86_GCM_AES void gcm_aesni_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                             size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                             uint8_t *tag, size_t taglen)
{
	bc_gcm_aes_x86_encrypt(gcm_aesni_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

static BC_X86_GCM_AES int gcm_aesni_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                            size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                            const uint8_t *tag, size_t taglen)
{
	return bc_gcm_aes_x86_decrypt(gcm_aesni_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

const struct bc_aead_alg bc_gcm_aes_aesni = {
	.name = "gcm(aes)",
	.driver = "gcm-aes-aesni",
	.priority = 400,
	.cpu = BC_CPU_AESNI | BC_CPU_PCLMUL,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 12,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct bc_gcm_aes_x86_ctx),
	.setkey = bc_gcm_aes_x86_setkey,
	.encrypt = gcm_aesni_encrypt,
	.decrypt = gcm_aesni_decrypt,
};
