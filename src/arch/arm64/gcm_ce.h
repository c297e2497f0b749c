/* blockcrypt arm64: the one-pass GCM shared by gcm-aes-ce and gcm-sm4-ce: CTR and GHASH on each group of 4 blocks.
 * NIST SP 800-38D (any IV length, inc32 counter, tags of 4, 8, 12..16 bytes); Linux crypto/gcm.c semantics. */
#ifndef BC_GCM_CE_H
#define BC_GCM_CE_H

#include "ghash_ce.h"

/* Counter block J0 with its low word replaced by c (inc32 arithmetic). */
BC_A64_INLINE uint8x16_t bc_gcm_ce_ctr(uint32x4_t j0, uint32_t c)
{
	return vreinterpretq_u8_u32(vsetq_lane_u32(__builtin_bswap32(c), j0, 3));
}

/* The whole of GCM over a cipher given as block functions of a key state
 * ks (loaded by the caller, so its round keys and the powers of H stay in
 * registers for the call). Each group of 4 blocks is loaded once: the
 * counters go through the cipher, the keystream is XORed on, and the
 * ciphertext (the output when encrypting, the input when decrypting) is
 * hashed from the same registers. Writes the full 16-byte tag. */
BC_A64_INLINE void bc_gcm_ce_crypt(const void *ks, bc_a64_blk4_fn *f4, bc_a64_blk1_fn *f1,
				   const struct bc_ghash_ce_key *gk, int dec, const uint8_t *iv, size_t ivlen,
				   const uint8_t *ad, size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
				   uint8_t tag[16])
{
	struct bc_ghash_ce_regs g;
	uint64x2_t acc = vdupq_n_u64(0);
	uint8_t b[16] = { 0 };
	uint32x4_t j0;
	uint32_t c;
	size_t total = len;

	bc_ghash_ce_load(&g, gk);
	if (ivlen == 12) {
		memcpy(b, iv, 12);
		bc_store_be32(b + 12, 1);
	} else {
		/* J0 = GHASH(IV || 0-pad || [0]64 || [len(IV)]64) */
		acc = bc_ghash_ce_padded(&g, acc, iv, ivlen);
		bc_store_be64(b + 8, (uint64_t)ivlen * 8);
		acc = bc_ghash_ce_mul1(&g, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(b))));
		vst1q_u8(b, bc_ghash_ce_out(acc));
		acc = vdupq_n_u64(0);
	}
	j0 = vreinterpretq_u32_u8(vld1q_u8(b));
	/* from a non-96-bit IV, c is secret (GHASH_H(IV)): it is only ever added to */
	c = bc_load_be32(b + 12);
	acc = bc_ghash_ce_padded(&g, acc, ad, adlen);

	for (; len >= 64; len -= 64, src += 64, dst += 64, c += 4) {
		uint8x16_t x[4], in[4];
		uint64x2_t h[4];

		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			x[i] = bc_gcm_ce_ctr(j0, c + 1 + (uint32_t)i);
		f4(ks, x);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++) {
			in[i] = vld1q_u8(src + 16 * i);
			x[i] = veorq_u8(x[i], in[i]);
			h[i] = bc_ghash_ce_in(dec ? in[i] : x[i]);
			vst1q_u8(dst + 16 * i, x[i]);
		}
		acc = bc_ghash_ce_mul4(&g, acc, h);
	}
	for (; len >= 16; len -= 16, src += 16, dst += 16) {
		uint8x16_t in = vld1q_u8(src), x = veorq_u8(f1(ks, bc_gcm_ce_ctr(j0, ++c)), in);

		acc = bc_ghash_ce_mul1(&g, veorq_u64(acc, bc_ghash_ce_in(dec ? in : x)));
		vst1q_u8(dst, x);
	}
	if (len) {
		/* Through a zero-padded buffer, so nothing past src + len or
		 * dst + len is touched and GHASH sees the padded ciphertext. */
		uint8x16_t k = f1(ks, bc_gcm_ce_ctr(j0, ++c));

		memset(b, 0, 16);
		memcpy(b, src, len);
		if (dec)
			acc = bc_ghash_ce_mul1(&g, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(b))));
		vst1q_u8(b, veorq_u8(vld1q_u8(b), k));
		memcpy(dst, b, len);
		if (!dec) {
			memset(b + len, 0, 16 - len);
			acc = bc_ghash_ce_mul1(&g, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(b))));
		}
	}
	bc_store_be64(b, (uint64_t)adlen * 8);
	bc_store_be64(b + 8, (uint64_t)total * 8);
	acc = bc_ghash_ce_mul1(&g, veorq_u64(acc, bc_ghash_ce_in(vld1q_u8(b))));
	vst1q_u8(tag, veorq_u8(bc_ghash_ce_out(acc), f1(ks, vreinterpretq_u8_u32(j0))));
	bc_wipe(b, sizeof(b));
}

/* The aead entry points around it: the tag truncated, or checked in
 * constant time with dst zero-filled on a mismatch (a branch on the
 * verdict, which is public). */
BC_A64_INLINE void bc_gcm_ce_finish_enc(uint8_t full[16], uint8_t *tag, size_t taglen)
{
	memcpy(tag, full, taglen);
	bc_wipe(full, 16);   /* a truncated tag's hidden part */
}
BC_A64_INLINE int bc_gcm_ce_finish_dec(uint8_t full[16], const uint8_t *tag, size_t taglen, uint8_t *dst, size_t len)
{
	int bad = bc_memneq(full, tag, taglen);

	bc_wipe(full, 16);
	if (bad) {
		memset(dst, 0, len);
		return -EBADMSG;
	}
	return 0;
}

#endif
