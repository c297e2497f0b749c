/* blockcrypt arm64: the ecb, cbc, ctr and xts loops shared by the AES-CE, SM4-CE and NEON-only AES drivers.
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE Std 1619-2018 / SP 800-38E (XTS with ciphertext stealing). Needs NEON only. */
#ifndef BC_ARM64_MODES_H
#define BC_ARM64_MODES_H

#include <arm_neon.h>

#include "drivers.h"

/* The loops below take the cipher as two functions of a key state: four
 * blocks at once and one block. Everything is inlined into each driver with
 * its own block functions, so the pointers are constants, the inner loops
 * contain no calls, and the key state (a local the caller loaded once per
 * call) stays in registers. */
#define BC_A64_INLINE static inline __attribute__((always_inline))
#define BC_A64_UNROLL _Pragma("GCC unroll 16")

typedef void bc_a64_blk4_fn(const void *ks, uint8x16_t x[4]);
typedef uint8x16_t bc_a64_blk1_fn(const void *ks, uint8x16_t x);

/* bc_shash_digest_many's up to 8 MAC chains as runs of 8, 4, 2 and 1
 * interleaved lanes: LANES(k) runs k chains from st and src, which this
 * advances past them (n counts down to 0). */
#define BC_A64_MAC_RUNS(n, st, src, LANES)                                        \
	do {                                                                      \
		while (n) {                                                       \
			unsigned l_ = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;   \
			if (l_ == 8)                                              \
				LANES(8);                                         \
			else if (l_ == 4)                                         \
				LANES(4);                                         \
			else if (l_ == 2)                                         \
				LANES(2);                                         \
			else                                                      \
				LANES(1);                                         \
			st += l_;                                                 \
			src += l_;                                                \
			n -= l_;                                                  \
		}                                                                 \
	} while (0)

BC_A64_INLINE uint8x16_t bc_a64_ld(const uint8_t *p)
{
	return vld1q_u8(p);
}
BC_A64_INLINE void bc_a64_st(uint8_t *p, uint8x16_t x)
{
	vst1q_u8(p, x);
}

BC_A64_INLINE void bc_a64_ecb(const void *ks, bc_a64_blk4_fn *f4, bc_a64_blk1_fn *f1, const uint8_t *src,
			      uint8_t *dst, size_t nblocks)
{
	for (; nblocks >= 4; nblocks -= 4, src += 64, dst += 64) {
		uint8x16_t x[4] = { bc_a64_ld(src), bc_a64_ld(src + 16), bc_a64_ld(src + 32), bc_a64_ld(src + 48) };

		f4(ks, x);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			bc_a64_st(dst + 16 * i, x[i]);
	}
	for (; nblocks; nblocks--, src += 16, dst += 16)
		bc_a64_st(dst, f1(ks, bc_a64_ld(src)));
}

/* CBC encryption is one serial chain. */
BC_A64_INLINE void bc_a64_cbc_enc(const void *ks, bc_a64_blk1_fn *f1, uint8_t iv[16], const uint8_t *src,
				  uint8_t *dst, size_t nblocks)
{
	uint8x16_t st = bc_a64_ld(iv);

	for (; nblocks; nblocks--, src += 16, dst += 16) {
		st = f1(ks, veorq_u8(st, bc_a64_ld(src)));
		bc_a64_st(dst, st);
	}
	bc_a64_st(iv, st);
}

/* CBC decryption runs four blocks in flight; every ciphertext block is in a
 * register before its plaintext is stored, so dst may be src. */
BC_A64_INLINE void bc_a64_cbc_dec(const void *ks, bc_a64_blk4_fn *f4, bc_a64_blk1_fn *f1, uint8_t iv[16],
				  const uint8_t *src, uint8_t *dst, size_t nblocks)
{
	uint8x16_t prev = bc_a64_ld(iv);

	for (; nblocks >= 4; nblocks -= 4, src += 64, dst += 64) {
		uint8x16_t c[4] = { bc_a64_ld(src), bc_a64_ld(src + 16), bc_a64_ld(src + 32), bc_a64_ld(src + 48) };
		uint8x16_t x[4] = { c[0], c[1], c[2], c[3] };

		f4(ks, x);
		bc_a64_st(dst, veorq_u8(x[0], prev));
		BC_A64_UNROLL
		for (int i = 1; i < 4; i++)
			bc_a64_st(dst + 16 * i, veorq_u8(x[i], c[i - 1]));
		prev = c[3];
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		uint8x16_t c = bc_a64_ld(src);

		bc_a64_st(dst, veorq_u8(f1(ks, c), prev));
		prev = c;
	}
	bc_a64_st(iv, prev);
}

/* ---- ctr: the 16-byte IV is one 128-bit big-endian counter ---- */

/* Counter block number i after (hi, lo), with the carry into the high half. */
BC_A64_INLINE uint8x16_t bc_a64_ctr_block(uint64_t hi, uint64_t lo, uint64_t i)
{
	uint64_t l = lo + i, h = hi + (l < lo);

	return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(__builtin_bswap64(h)), vcreate_u64(__builtin_bswap64(l))));
}

/* XORs the keystream block ks onto the last len (< 16) bytes through a
 * stack buffer, so nothing past either buffer is read or written. */
BC_A64_INLINE void bc_a64_xor_partial(uint8_t *dst, const uint8_t *src, uint8x16_t ks, size_t len)
{
	uint8_t b[16];

	memcpy(b, src, len);
	bc_a64_st(b, veorq_u8(bc_a64_ld(b), ks));
	memcpy(dst, b, len);
	bc_wipe(b, sizeof(b));
}

/* XORs one keystream block onto the next min(len, 16) bytes and returns
 * how many that was (ctr and xctr tails). */
BC_A64_INLINE size_t bc_a64_ks_xor(uint8_t *dst, const uint8_t *src, uint8x16_t ks, size_t len)
{
	if (len < 16) {
		bc_a64_xor_partial(dst, src, ks, len);
		return len;
	}
	bc_a64_st(dst, veorq_u8(ks, bc_a64_ld(src)));
	return 16;
}

/* Groups of four whose counters do not wrap the low 64 bits (the common
 * case: the counter is public, so the test may branch) share the high half
 * and need one byte swap and one lane insert per block. */
BC_A64_INLINE void bc_a64_ctr(const void *ks, bc_a64_blk4_fn *f4, bc_a64_blk1_fn *f1, uint8_t ctr[16],
			      const uint8_t *src, uint8_t *dst, size_t len)
{
	uint64_t hi = bc_load_be64(ctr), lo = bc_load_be64(ctr + 8);

	for (; len >= 64; len -= 64, src += 64, dst += 64, hi += lo + 4 < lo, lo += 4) {
		uint8x16_t x[4];

		if (lo <= UINT64_MAX - 3) {
			uint64x2_t h = vcombine_u64(vcreate_u64(__builtin_bswap64(hi)), vcreate_u64(0));

			BC_A64_UNROLL
			for (int i = 0; i < 4; i++)
				x[i] = vreinterpretq_u8_u64(vsetq_lane_u64(__builtin_bswap64(lo + (uint64_t)i), h, 1));
		} else {
			BC_A64_UNROLL
			for (int i = 0; i < 4; i++)
				x[i] = bc_a64_ctr_block(hi, lo, (uint64_t)i);
		}
		f4(ks, x);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			bc_a64_st(dst + 16 * i, veorq_u8(x[i], bc_a64_ld(src + 16 * i)));
	}
	for (size_t n; len; len -= n, src += n, dst += n, hi += lo + 1 < lo, lo++)
		n = bc_a64_ks_xor(dst, src, f1(ks, bc_a64_ctr_block(hi, lo, 0)), len);
	bc_store_be64(ctr, hi);
	bc_store_be64(ctr + 8, lo);
}

/* ---- xts ---- */

/* The reduction mask for doubling a tweak, {1, 0x87} as two 64-bit lanes:
 * composed in three register moves (two MOVI and a UZP1) instead of a
 * literal-pool load, which compilers turn a constant vector into. The
 * volatile form is for loops that rebuild it each iteration: the compiler
 * may not hoist it into a register it would then spill. */
#define BC_A64_XTS_MASK_ASM "movi %0.2s, #1\n\tmovi %1.2s, #0x87\n\tuzp1 %0.4s, %0.4s, %1.4s"
BC_A64_INLINE uint64x2_t bc_a64_xts_mask(void)
{
	uint64x2_t m, t;

	__asm__(BC_A64_XTS_MASK_ASM : "=&w"(m), "=&w"(t));
	return m;
}
BC_A64_INLINE uint64x2_t bc_a64_xts_mask_fresh(void)
{
	uint64x2_t m, t;

	__asm__ volatile(BC_A64_XTS_MASK_ASM : "=&w"(m), "=&w"(t));
	return m;
}

/* T * x in GF(2^128), little-endian (IEEE 1619): each lane doubles, and the
 * bit carried out of each lane comes back, as 0x87 into the low lane or 1
 * into the high one, through the sign-extended mask swapped across lanes. */
BC_A64_INLINE uint8x16_t bc_a64_xts_next(uint8x16_t t, uint64x2_t mask)
{
	uint64x2_t v = vreinterpretq_u64_u8(t);
	uint64x2_t c = vandq_u64(vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(v), 63)), mask);

	c = vextq_u64(c, c, 1);
	return vreinterpretq_u8_u64(veorq_u64(vaddq_u64(v, v), c));
}

/* XTS over len >= 16 bytes with the data key's block functions (encrypt or
 * decrypt) and the first tweak T = E_K2(iv) already computed. Four blocks
 * are in flight; a tail of len % 16 bytes is stolen from the last full
 * block (IEEE 1619 5.3.2), decryption taking the last two tweaks in
 * reverse order. The mask stays in a register for the whole call unless
 * remask (a constant) asks for it to be rebuilt in every iteration. */
BC_A64_INLINE void bc_a64_xts(const void *ks, bc_a64_blk4_fn *f4, bc_a64_blk1_fn *f1, int dec, int remask,
			      uint8x16_t T, const uint8_t *src, uint8_t *dst, size_t len)
{
	uint64x2_t mask = bc_a64_xts_mask();
	size_t tail = len % 16, nblocks = len / 16 - (tail != 0);
	uint8x16_t T2;
	uint8_t cc[16], pp[16];

	for (; nblocks >= 4; nblocks -= 4, src += 64, dst += 64) {
		uint8x16_t t[4], x[4];

		if (remask)
			mask = bc_a64_xts_mask_fresh();
		t[0] = T;
		BC_A64_UNROLL
		for (int i = 1; i < 4; i++)
			t[i] = bc_a64_xts_next(t[i - 1], mask);
		T = bc_a64_xts_next(t[3], mask);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			x[i] = veorq_u8(bc_a64_ld(src + 16 * i), t[i]);
		f4(ks, x);
		BC_A64_UNROLL
		for (int i = 0; i < 4; i++)
			bc_a64_st(dst + 16 * i, veorq_u8(x[i], t[i]));
	}
	for (; nblocks; nblocks--, src += 16, dst += 16) {
		bc_a64_st(dst, veorq_u8(f1(ks, veorq_u8(bc_a64_ld(src), T)), T));
		T = bc_a64_xts_next(T, mask);
	}
	if (!tail)
		return;
	/* T = T(m-1), T2 = T(m); the stolen block uses the other one. The
	 * copies' sizes come from the public length alone. */
	T2 = bc_a64_xts_next(T, mask);
	bc_a64_st(cc, veorq_u8(f1(ks, veorq_u8(bc_a64_ld(src), dec ? T2 : T)), dec ? T2 : T));
	memcpy(pp, src + 16, tail);            /* read the tail before dst is written */
	memcpy(pp + tail, cc + tail, 16 - tail);
	memcpy(dst + 16, cc, tail);
	T = dec ? T : T2;
	bc_a64_st(dst, veorq_u8(f1(ks, veorq_u8(bc_a64_ld(pp), T)), T));
	bc_wipe(cc, sizeof(cc));
	bc_wipe(pp, sizeof(pp));
}

#endif
