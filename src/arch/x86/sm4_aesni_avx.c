/* blockcrypt x86: SM4 with AES-NI on 128-bit AVX registers (drivers "sm4-aesni-avx", "MODE-sm4-aesni-avx"),
 * plus the key schedule all SM4 x86 drivers share and the AES-NI drivers' one-block paths. GB/T 32907-2016; RFC 8998. */
#define SM4X_BITS 128
#define SM4X_VAES 0
#define SM4X_GFNI 0
#define SM4X_TARGET "aes,pclmul,avx"
#include "sm4_x86.h"
#include "drivers.h"

/* The one-block paths of sm4_x86.h, also for the 256-bit AES-NI drivers
 * (a lone block fits 128 bits). */
__attribute__((target(SM4X_TARGET)))
void bc_sm4_x86_crypt1(const uint32_t kpre[32], uint8_t dst[16], const uint8_t src[16])
{
	sm4x_crypt1(kpre, dst, src);
}

__attribute__((target(SM4X_TARGET)))
void bc_sm4_x86_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	sm4x_mac(ctx, st, src, nblocks);
}

__attribute__((target(SM4X_TARGET)))
int bc_sm4_x86_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return sm4x_cbc_encrypt(ctx, iv, src, dst, len);
}

/* ---- key schedule ----------------------------------------------------------------------
 * K_{i+4} = K_i ^ L'(tau(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i)), L'(B) = B ^ B<<<13 ^ B<<<23;
 * tau is the same register S-box (on a word in every lane), so no table here either:
 * PSHUFB's secret nibbles index a register, not memory, and x[] takes the round number. */
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
		/* rk_i = x[i & 3], stored through pre() */
		t = (uint32_t)_mm_cvtsi128_si32(sm4x_nib(SM4V_C(SM4X_PRE_LO), SM4V_C(SM4X_PRE_HI),
		                                         _mm_set1_epi32((int)x[i & 3])));
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
	sm4x_crypt1(k->k.enc_pre, h, h);
	bc_ghash_x86_setkey(&k->gh, h);
	bc_wipe(h, sizeof(h));
	return 0;
}

BC_SM4_X86_DRIVERS(aesni_avx, "aesni-avx", 300, 400, BC_CPU_AESNI | BC_CPU_AVX,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_PCLMUL);
