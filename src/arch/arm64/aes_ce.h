/* blockcrypt arm64: the AES-CE key layout and round functions shared by the aes-ce cipher, its modes, MACs and GCM.
 * FIPS-197 (AES; equivalent inverse cipher 5.3.5), Arm ARM AESE/AESD/AESMC/AESIMC. Includers need BC_CPU_ARM_AES. */
#ifndef BC_AES_CE_H
#define BC_AES_CE_H

#include "arm64_modes.h"

/* Round keys are stored right-aligned in 15 slots: round key i of an
 * Nr-round schedule sits in slot 14 - Nr + i, so the last two are always in
 * slots 13 and 14 and only the first rounds depend on the key size. dk holds
 * the equivalent inverse cipher's keys the same way (dk round 0 = rk[Nr],
 * InvMixColumns of rk[Nr-i] in between, rk[0] last). Unused slots are zero. */
struct bc_aes_ce_key {
	_Alignas(16) uint8_t rk[15][16];
	_Alignas(16) uint8_t dk[15][16];
	unsigned rounds;                     /* 10, 12 or 14 */
};

/* xts(aes): key1 for the data, key2 (encryption only) for the tweak. */
struct bc_aes_ce_xts_ctx {
	struct bc_aes_ce_key k1, k2;
};

/* One direction's round keys, loaded once per call; the compiler keeps
 * them in registers. first is round key 0 (slot 14 - Nr, which only a
 * memory load can pick); k[1..14] are the slots, k[0] is not used. */
struct bc_aes_ce_regs {
	uint8x16_t k[15], first;
	unsigned rounds;
};

BC_A64_INLINE void bc_aes_ce_load(struct bc_aes_ce_regs *r, const uint8_t (*rk)[16], unsigned rounds)
{
	BC_A64_UNROLL
	for (int i = 1; i < 15; i++)
		r->k[i] = vld1q_u8(rk[i]);
	r->first = vld1q_u8(rk[14 - rounds]);
	r->rounds = rounds;
}

/* Instantiates stmt once per key size with r->rounds a constant the
 * compiler can see, so loops over blocks test the key size once per call
 * instead of in every block. */
#define BC_AES_CE_PER_KEYSIZE(r, stmt)          \
	do {                                    \
		if ((r)->rounds == 10) {        \
			(r)->rounds = 10;       \
			stmt;                   \
		} else if ((r)->rounds == 12) { \
			(r)->rounds = 12;       \
			stmt;                   \
		} else {                        \
			(r)->rounds = 14;       \
			stmt;                   \
		}                               \
	} while (0)

/* Every round but the final key XOR (slot 14), on n blocks (a constant
 * 1..8, so the loops unroll and the blocks are in flight together), with
 * k0 as round key 0: the CBC-MAC chain folds the previous block's final
 * key into it. The round count picks only how many of the first slots run.
 * enc: AESE and AESMC; otherwise AESD and AESIMC (r the decryption keys). */
BC_A64_INLINE void bc_aes_ce_open(const struct bc_aes_ce_regs *r, uint8x16_t k0, uint8x16_t *x, int n, const int enc)
{
	unsigned nr = r->rounds;

	BC_A64_UNROLL
	for (int s = 0; s < 13; s++) {
		uint8x16_t k = s ? r->k[s] : k0;

		if ((s && s < 3 && nr < 14) || (s && s < 5 && nr < 12))
			continue;
		BC_A64_UNROLL
		for (int i = 0; i < n; i++)
			x[i] = enc ? vaesmcq_u8(vaeseq_u8(x[i], k)) : vaesimcq_u8(vaesdq_u8(x[i], k));
	}
	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = enc ? vaeseq_u8(x[i], r->k[13]) : vaesdq_u8(x[i], r->k[13]);
}

/* All rounds on n blocks (r holds the decryption keys when !enc). */
BC_A64_INLINE void bc_aes_ce_crypt_n(const struct bc_aes_ce_regs *r, uint8x16_t *x, int n, const int enc)
{
	bc_aes_ce_open(r, r->first, x, n, enc);
	BC_A64_UNROLL
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(x[i], r->k[14]);
}

BC_A64_INLINE void bc_aes_ce_enc_n(const struct bc_aes_ce_regs *r, uint8x16_t *x, int n)
{
	bc_aes_ce_crypt_n(r, x, n, 1);
}

BC_A64_INLINE void bc_aes_ce_dec_n(const struct bc_aes_ce_regs *r, uint8x16_t *x, int n)
{
	bc_aes_ce_crypt_n(r, x, n, 0);
}

/* The block functions the shared mode loops take. */
BC_A64_INLINE void bc_aes_ce_enc4(const void *ks, uint8x16_t x[4])
{
	bc_aes_ce_enc_n(ks, x, 4);
}
BC_A64_INLINE uint8x16_t bc_aes_ce_enc1(const void *ks, uint8x16_t x)
{
	bc_aes_ce_enc_n(ks, &x, 1);
	return x;
}
BC_A64_INLINE void bc_aes_ce_dec4(const void *ks, uint8x16_t x[4])
{
	bc_aes_ce_dec_n(ks, x, 4);
}
BC_A64_INLINE uint8x16_t bc_aes_ce_dec1(const void *ks, uint8x16_t x)
{
	bc_aes_ce_dec_n(ks, &x, 1);
	return x;
}

/* Key schedules (aes_ce.c). keylen must be 16, 24 or 32. */
static inline int bc_aes_ce_keylen_ok(size_t keylen)
{
	return keylen == 16 || keylen == 24 || keylen == 32;
}
void bc_aes_ce_expand(struct bc_aes_ce_key *k, const uint8_t *key, size_t keylen);
/* aes-ce's setkey, shared by the skciphers over a struct bc_aes_ce_key. */
int bc_aes_ce_setkey(void *ctx, const uint8_t *key, size_t keylen);
/* The skcipher form of it (aes_modes_ce.c), shared by the modes and xctr-aes-ce. */
int bc_aes_ce_sk_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
/* aes-ce's n-block operations, shared with ecb-aes-ce. */
void bc_aes_ce_ecb_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);
void bc_aes_ce_ecb_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks);

#endif
