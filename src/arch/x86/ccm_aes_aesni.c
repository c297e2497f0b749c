/* blockcrypt x86: ccm(aes) with AES-NI in one pass, the CTR blocks in the idle slots of the CBC-MAC chain (driver ccm-aes-aesni).
 * NIST SP 800-38C / RFC 3610 (CCM), FIPS-197 (AES); Linux crypto/ccm.c semantics (16-byte IV, iv[0] = L - 1). CPU: AES-NI. */
#include "drivers.h"
#include "aes_x86.h"
#include "../../mode/mode.h"

/* The CBC-MAC is one serial chain: each block's Nr AES rounds wait for the
 * previous block's, so the AES unit, which could start two rounds a cycle,
 * starts one every AESENC latency. The counter blocks are independent of
 * the chain, so each chain step carries the encryption of one counter block
 * beside it, round for round: the text is encrypted in slots that would
 * otherwise stay empty, and CCM costs about what its CBC-MAC alone does.
 *
 * The chain is kept as y = st ^ M ^ K_0, the input of the next step's
 * rounds 1..Nr-1: the step's last round takes K_Nr ^ K_0 ^ M' as its key,
 * which whitens the next block in with no XOR on the chain, and the last
 * step takes K_Nr ^ S0, which gives the tag. The keystream runs one block
 * ahead, so a decryption has each plaintext block (which the MAC needs)
 * before its chain step starts. */

BC_X86_INLINE BC_X86_AES __m128i ccm_byte_index(void)
{
	return _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/* Bytes 0..n-1 all ones, the rest zero (n 0..16, public). */
BC_X86_INLINE BC_X86_AES __m128i ccm_head_mask(size_t n)
{
	return _mm_cmpgt_epi8(_mm_set1_epi8((char)n), ccm_byte_index());
}

/* The rounds 1..Nr-1 of the chain step and of one counter block side by side. */
BC_X86_INLINE BC_X86_AES void ccm_rounds2(const uint8_t (*rk)[16], const unsigned nr, __m128i *y, __m128i *c)
{
	_Pragma("GCC unroll 14")
	for (unsigned r = 1; r < nr; r++) {
		__m128i key = bc_aes_x86_rk(rk, r);

		*y = _mm_aesenc_si128(*y, key);
		*c = _mm_aesenc_si128(*c, key);
	}
}

/* Absorbs one whole block m into the chain (no counter block beside it). */
BC_X86_INLINE BC_X86_AES __m128i ccm_absorb(const uint8_t (*rk)[16], const unsigned nr, __m128i kx, __m128i y, __m128i m)
{
	return _mm_aesenclast_si128(bc_aes_x86_mid1(rk, nr, 1, y), _mm_xor_si128(kx, m));
}

/* The formatted associated data (SP 800-38C A.2.2): the length in 2, 6 or 10
 * bytes, the data, zeros to the block boundary; every block into the chain.
 * The first block is built in a register (the length's bytes, the data's
 * first bytes shifted up behind them): assembled on the stack, its 16-byte
 * load would wait for the byte stores to reach the cache. */
BC_X86_INLINE BC_X86_AES __m128i ccm_ad(const uint8_t (*rk)[16], const unsigned nr, __m128i kx, __m128i y,
                                        const uint8_t *ad, size_t adlen)
{
	uint64_t lo, hi = 0;
	size_t hlen, n;
	__m128i h;

	if (!adlen)
		return y;
	if (adlen < 0xff00) {
		lo = (adlen >> 8) | (adlen & 0xff) << 8;
		hlen = 2;
	} else if ((uint64_t)adlen >> 32 == 0) {
		lo = 0xfeff | (uint64_t)__builtin_bswap32((uint32_t)adlen) << 16;
		hlen = 6;
	} else {
		lo = 0xffff | __builtin_bswap64((uint64_t)adlen) << 16;
		hi = __builtin_bswap64((uint64_t)adlen) >> 48;
		hlen = 10;
	}
	/* the length's bytes, little-endian in (hi, lo) */
	h = _mm_set_epi64x((long long)hi, (long long)lo);
	n = adlen < BC_BLOCK - hlen ? adlen : BC_BLOCK - hlen;
	h = _mm_or_si128(h, _mm_shuffle_epi8(bc_x86_load_part(ad, n), bc_aes_x86_load(bc_aes_x86_xts_shift + 16 - hlen)));
	y = ccm_absorb(rk, nr, kx, y, h);
	ad += n;
	adlen -= n;
	for (; adlen >= BC_BLOCK; ad += BC_BLOCK, adlen -= BC_BLOCK) {
		BC_X86_OPAQUE(rk);
		y = ccm_absorb(rk, nr, kx, y, bc_aes_x86_load(ad));
	}
	if (adlen)
		y = ccm_absorb(rk, nr, kx, y, bc_x86_load_part(ad, adlen));
	return y;
}

/* One message, nr and enc constants; returns the untruncated tag. The IV was
 * checked (bc_ccm_check): L = iv[0] + 1 in 2..8 and len < 2^(8L), so the
 * counter, at most 2^(8L - 4) + 1, lives in the low 64 bits and never carries. */
BC_X86_INLINE BC_X86_AES __m128i ccm_aesni(const struct bc_aes_x86_ek *k, const unsigned nr, const int enc,
                                           const uint8_t *iv, const uint8_t *ad, size_t adlen, const uint8_t *src,
                                           uint8_t *dst, size_t len, size_t taglen)
{
	const uint8_t (*rk)[16] = k->rk;
	const __m128i bswap = bc_x86_bswap128_mask(), one = _mm_set_epi64x(0, 1);
	const unsigned l = iv[0] + 1u;
	const __m128i k0 = bc_aes_x86_rk(rk, 0), knr = bc_aes_x86_rk(rk, nr), kx = _mm_xor_si128(k0, knr);
	__m128i v = bc_aes_x86_load_iv(iv), upto = ccm_head_mask(16 - l), y, a, s0, ks, ctr;
	size_t i, nb = len / BC_BLOCK, rest = len % BC_BLOCK;

	/* B0 = flags || nonce || [len]_L (len < 2^(8L): its big-endian 64 bits
	 * have zeros where the nonce is); A0 = iv with the counter field zeroed. */
	a = _mm_and_si128(v, upto);
	y = _mm_andnot_si128(ccm_head_mask(1), a);
	y = _mm_or_si128(y, _mm_shuffle_epi8(_mm_set_epi64x(0, (long long)len), bswap));
	y = _mm_insert_epi8(y, (int)((adlen ? 0x40 : 0) | (taglen - 2) / 2 << 3 | (l - 1)), 0);
	y = _mm_xor_si128(y, k0);
	/* S0 = E(A0) and the first keystream block E(A1), both off the chain. */
	ctr = _mm_add_epi64(_mm_shuffle_epi8(a, bswap), one);
	s0 = _mm_xor_si128(a, k0);
	ks = _mm_xor_si128(_mm_shuffle_epi8(ctr, bswap), k0);
	ccm_rounds2(rk, nr, &s0, &ks);
	s0 = _mm_aesenclast_si128(s0, knr);
	ks = _mm_aesenclast_si128(ks, knr);

	y = ccm_ad(rk, nr, kx, y, ad, adlen);
	for (i = 0; i < nb; i++) {
		__m128i in = bc_aes_x86_load(src + BC_BLOCK * i), p = enc ? in : _mm_xor_si128(in, ks), c;

		bc_aes_x86_store(dst + BC_BLOCK * i, _mm_xor_si128(in, ks));
		BC_X86_OPAQUE(rk);
		ctr = _mm_add_epi64(ctr, one);
		c = _mm_xor_si128(_mm_shuffle_epi8(ctr, bswap), k0);
		ccm_rounds2(rk, nr, &y, &c);
		y = _mm_aesenclast_si128(y, _mm_xor_si128(kx, p));
		ks = _mm_aesenclast_si128(c, knr);
	}
	if (rest) {
		__m128i in = bc_x86_load_part(src + BC_BLOCK * nb, rest), p;

		p = enc ? in : _mm_and_si128(_mm_xor_si128(in, ks), ccm_head_mask(rest));
		bc_x86_store_part(dst + BC_BLOCK * nb, _mm_xor_si128(in, ks), rest);
		y = ccm_absorb(rk, nr, kx, y, p);
	}
	return _mm_aesenclast_si128(bc_aes_x86_mid1(rk, nr, 1, y), _mm_xor_si128(knr, s0));
}

/* gcc keeps copies of round keys in this pass's frame and red zone (the chain and the
 * counter block want more than 16 xmm registers): the entries burn the stack after it. */
static BC_X86_AES __m128i ccm_aesni_any(const struct bc_aes_x86_ek *k, const int enc, const uint8_t *iv,
                                        const uint8_t *ad, size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                        size_t taglen)
{
	switch (k->rounds) {
	case 10: return ccm_aesni(k, 10, enc, iv, ad, adlen, src, dst, len, taglen);
	case 12: return ccm_aesni(k, 12, enc, iv, ad, adlen, src, dst, len, taglen);
	default: return ccm_aesni(k, 14, enc, iv, ad, adlen, src, dst, len, taglen);
	}
}

static BC_X86_AES int ccm_aesni_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (!bc_aes_x86_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_x86_expand_enc(ctx, key, keylen);
	return 0;
}

static BC_X86_AES void ccm_aesni_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                         size_t adlen, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag,
                                         size_t taglen)
{
	__m128i t = ccm_aesni_any(ctx, 1, iv, ad, adlen, src, dst, len, taglen);

	(void)ivlen;
	bc_burn_stack();
	if (taglen == BC_BLOCK)
		bc_aes_x86_store(tag, t);
	else
		bc_x86_store_part(tag, t, taglen);
}

/* The plaintext is written as it is decrypted (the MAC is over it); a tag
 * that does not verify zero-fills dst before the call returns. */
static BC_X86_AES int ccm_aesni_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                        size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                        const uint8_t *tag, size_t taglen)
{
	uint8_t full[BC_BLOCK];
	int err = 0;

	(void)ivlen;
	bc_aes_x86_store(full, ccm_aesni_any(ctx, 0, iv, ad, adlen, src, dst, len, taglen));
	bc_burn_stack();
	if (bc_memneq(full, tag, taglen)) {
		memset(dst, 0, len);
		err = -EBADMSG;
	}
	bc_wipe(full, sizeof(full));
	return err;
}

const struct bc_aead_alg bc_ccm_aes_aesni = {
	.name = "ccm(aes)",
	.driver = "ccm-aes-aesni",
	.priority = 500,
	.cpu = BC_CPU_AESNI,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 16,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct bc_aes_x86_ek),
	.setkey = ccm_aesni_setkey,
	.encrypt = ccm_aesni_encrypt,
	.decrypt = ccm_aesni_decrypt,
	.setauthsize = bc_ccm_setauthsize,
	.check = bc_ccm_check,
};
