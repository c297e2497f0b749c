/* blockcrypt x86: xctr over AES with AES-NI, eight blocks in flight (xctr-aes-aesni). CPU: AES-NI, SSSE3, SSE4.1.
 * XCTR of the HCTR2 paper (ia.cr/2021/1441, section 3) as Linux crypto/xctr.c: block i = E_K(IV ^ le128(i)), i from 1. */
#include "aes_x86.h"
#include "drivers.h"

/* n (1..8) counter blocks IV ^ le128(c + i): the counter is the low 64
 * bits, which no message is long enough to carry out of. */
BC_X86_INLINE BC_X86_AES void xctr_blocks(const struct bc_aes_x86_ek *k, __m128i iv, uint64_t c, const uint8_t *src,
                                          uint8_t *dst, size_t len, const unsigned n)
{
	const __m128i base = _mm_set_epi64x(0, (long long)c);
	__m128i x[8];

	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < n; i++)
		x[i] = _mm_xor_si128(iv, _mm_add_epi64(base, _mm_set_epi64x(0, i)));
	bc_aes_x86_ks_xor(k, x, src, dst, len, n);
}

BC_X86_AES int bc_aes_x86_xctr(const struct bc_aes_x86_ek *k, const uint8_t iv[16], uint64_t first, const uint8_t *src,
                               uint8_t *dst, size_t len)
{
	const __m128i v = bc_aes_x86_load(iv);

	for (; len >= 128; len -= 128, src += 128, dst += 128, first += 8)
		xctr_blocks(k, v, first, src, dst, 128, 8);
#define TAIL(N) xctr_blocks(k, v, first, src, dst, len, N)
	BC_X86_CASES_1_8((len + 15) / 16, TAIL);
#undef TAIL
	return 0;
}

static int aesni_xctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_aes_x86_xctr(ctx, iv, 1, src, dst, len);
}

const struct bc_skcipher_alg bc_xctr_aes_aesni = {
	.name = "xctr(aes)", .driver = "xctr-aes-aesni", .priority = 400, .cpu = BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = aesni_xctr_crypt, .decrypt = aesni_xctr_crypt,
};
