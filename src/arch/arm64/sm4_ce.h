/* blockcrypt arm64: the SM4-CE key layout and round function shared by the sm4-ce cipher, its modes and GCM.
 * GB/T 32907-2016 (SM4), Arm ARM SM4E/SM4EKEY. Includers need BC_CPU_ARM_SM4 (flags +sm4). */
#ifndef BC_SM4_CE_H
#define BC_SM4_CE_H

#include "arm64_modes.h"

/* The 32 round keys in the order SM4E takes them, four per register, and
 * the same reversed for decryption. */
struct bc_sm4_ce_key {
	_Alignas(16) uint32_t rk[32];
	_Alignas(16) uint32_t dk[32];
};

struct bc_sm4_ce_xts_ctx {
	struct bc_sm4_ce_key k1, k2;
};

/* One direction's round keys, loaded once per call into 8 registers. */
struct bc_sm4_ce_regs {
	uint32x4_t k[8];
};

BC_A64_INLINE void bc_sm4_ce_load(struct bc_sm4_ce_regs *r, const uint32_t *rk)
{
	BC_A64_UNROLL
	for (int i = 0; i < 8; i++)
		r->k[i] = vld1q_u32(rk + 4 * i);
}

/* SM4 works on big-endian words: a block's words go into the lanes as
 * integers (REV32), SM4E runs four rounds per instruction, and the output
 * is the last four words in reverse order, back to bytes. */
BC_A64_INLINE uint32x4_t bc_sm4_ce_words(uint8x16_t x)
{
	return vreinterpretq_u32_u8(vrev32q_u8(x));
}
/* The 32 rounds on n (a constant) lanes of words, interleaved, each lane
 * ending as its last four words in reverse order (SM4's R): ready for the
 * next block's XOR (a CBC-MAC chain stays in this domain) or for
 * bc_sm4_ce_bytes. */
BC_A64_INLINE void bc_sm4_ce_rounds_n(const struct bc_sm4_ce_regs *r, uint32x4_t *w, int n)
{
	BC_A64_UNROLL
	for (int k = 0; k < 8; k++) {
		BC_A64_UNROLL
		for (int i = 0; i < n; i++)
			w[i] = vsm4eq_u32(w[i], r->k[k]);
	}
	BC_A64_UNROLL
	for (int i = 0; i < n; i++) {
		w[i] = vrev64q_u32(w[i]);
		w[i] = vextq_u32(w[i], w[i], 2);
	}
}
BC_A64_INLINE uint32x4_t bc_sm4_ce_rounds(const struct bc_sm4_ce_regs *r, uint32x4_t w)
{
	bc_sm4_ce_rounds_n(r, &w, 1);
	return w;
}
BC_A64_INLINE uint8x16_t bc_sm4_ce_bytes(uint32x4_t w)
{
	return vrev32q_u8(vreinterpretq_u8_u32(w));
}

/* n (a constant) blocks in flight. */
BC_A64_INLINE void bc_sm4_ce_crypt_n(const struct bc_sm4_ce_regs *r, uint8x16_t *x, int n)
{
	uint32x4_t w[8];

	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		w[i] = bc_sm4_ce_words(x[i]);
	bc_sm4_ce_rounds_n(r, w, n);
	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = bc_sm4_ce_bytes(w[i]);
}

/* The block functions the shared mode loops take (encryption or
 * decryption depending on which keys were loaded). */
BC_A64_INLINE void bc_sm4_ce_crypt4(const void *ks, uint8x16_t x[4])
{
	bc_sm4_ce_crypt_n(ks, x, 4);
}
BC_A64_INLINE uint8x16_t bc_sm4_ce_crypt1(const void *ks, uint8x16_t x)
{
	bc_sm4_ce_crypt_n(ks, &x, 1);
	return x;
}

/* sm4_ce.c: the key schedule (key is 16 bytes), sm4-ce's setkey and n-block operation. */
void bc_sm4_ce_expand(struct bc_sm4_ce_key *k, const uint8_t key[16]);
int bc_sm4_ce_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_sm4_ce_ecb_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
void bc_sm4_ce_ecb_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);

#endif
