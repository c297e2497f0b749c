/* blockcrypt: the ChaCha rounds over many blocks at once, one state word of every block per vector register, shared by
 * src/arch/x86/chacha_ssse3.c (4 blocks), chacha_avx2.c (8), chacha_avx512.c (16) and src/arch/arm64/chacha_neon.c (4). RFC 8439 section 2.3. */
#ifndef BC_CHACHA_LANES_H
#define BC_CHACHA_LANES_H

/* The including file defines, for its vector type CHX_V of CHX_N 32-bit lanes:
 * CHX_TARGET (the instruction sets, where they need a target attribute),
 * chx_set1, chx_add, chx_xor, chx_rol(v, n) with n one of 16, 12, 8, 7,
 * chx_lanes() (0, 1, ..., CHX_N - 1), chx_unpack32/64(lo, a, b) (the low or
 * high interleave of dwords or qwords), and CHX_TAIL_MAX and chx_tail (the
 * bytes short of a whole pass that a cheaper keystream function takes),
 * and optionally CHX_ROUNDS(x, nrounds), the double rounds in its own code,
 * before it includes this; after it, chx_store(x, dst, src, n): the 16 word
 * vectors turned into CHX_N blocks and xored into the first n bytes of src. */
#include "chacha.h"

#define CHX_QR(a, b, c, d)                                                                                       \
	do {                                                                                                     \
		a = chx_add(a, b); d = chx_rol(chx_xor(d, a), 16);                                               \
		c = chx_add(c, d); b = chx_rol(chx_xor(b, c), 12);                                               \
		a = chx_add(a, b); d = chx_rol(chx_xor(d, a), 8);                                                \
		c = chx_add(c, d); b = chx_rol(chx_xor(b, c), 7);                                                \
	} while (0)

#ifdef CHX_TARGET
#define CHX_ATTR __attribute__((target(CHX_TARGET)))
#else
#define CHX_ATTR
#endif
#define CHX_INLINE static inline CHX_ATTR __attribute__((always_inline))

/* The first steps of turning word vectors into blocks: dwords, then qwords
 * within 128-bit lanes, give x[4g + j] holding words 4g..4g+3 of block 4k + j
 * in lane k; what remains is to gather 128-bit lanes (chx_store). */
CHX_INLINE void chx_transpose4(CHX_V x[16])
{
	for (int g = 0; g < 4; g++) {
		CHX_V t0 = chx_unpack32(1, x[4 * g], x[4 * g + 1]), t1 = chx_unpack32(0, x[4 * g], x[4 * g + 1]);
		CHX_V t2 = chx_unpack32(1, x[4 * g + 2], x[4 * g + 3]), t3 = chx_unpack32(0, x[4 * g + 2], x[4 * g + 3]);

		x[4 * g] = chx_unpack64(1, t0, t2);
		x[4 * g + 1] = chx_unpack64(0, t0, t2);
		x[4 * g + 2] = chx_unpack64(1, t1, t3);
		x[4 * g + 3] = chx_unpack64(0, t1, t3);
	}
}

CHX_INLINE void chx_store(CHX_V x[16], uint8_t *dst, const uint8_t *src, size_t n);

/* Each pass makes CHX_N blocks from the counters st[12] + 0 .. CHX_N - 1,
 * each wrapping at 2^32 alone as the kernel's; a short last pass writes
 * only its bytes. Out of line, so that the caller can burn the stack its
 * spilled state words used. */
static CHX_ATTR __attribute__((noinline)) void chx_xor_many(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len,
							    int nrounds)
{
	while (len) {
		size_t n = len < CHX_N * BC_CHACHA_BLOCK ? len : CHX_N * BC_CHACHA_BLOCK;
		CHX_V x[16];

		for (int i = 0; i < 16; i++)
			x[i] = chx_set1(st[i]);
		x[12] = chx_add(x[12], chx_lanes());
#ifdef CHX_ROUNDS
		CHX_ROUNDS(x, nrounds);
#else
		for (int r = 0; r < nrounds; r += 2) {
			CHX_QR(x[0], x[4], x[8], x[12]);
			CHX_QR(x[1], x[5], x[9], x[13]);
			CHX_QR(x[2], x[6], x[10], x[14]);
			CHX_QR(x[3], x[7], x[11], x[15]);
			CHX_QR(x[0], x[5], x[10], x[15]);
			CHX_QR(x[1], x[6], x[11], x[12]);
			CHX_QR(x[2], x[7], x[8], x[13]);
			CHX_QR(x[3], x[4], x[9], x[14]);
		}
#endif
		for (int i = 0; i < 16; i++)
			x[i] = chx_add(x[i], chx_set1(st[i]));
		x[12] = chx_add(x[12], chx_lanes());
		chx_store(x, dst, src, n);
		st[12] += (uint32_t)((n + BC_CHACHA_BLOCK - 1) / BC_CHACHA_BLOCK);
		src += n;
		dst += n;
		len -= n;
	}
}

/* Whole passes, and a last one when it is short by more than CHX_TAIL_MAX
 * bytes; a shorter remainder goes to chx_tail, which costs less for it
 * than a pass and the stack burn after it (on x86 the row-wise one-block
 * code of chacha_ssse3.c: a single block alone in a pass of lanes costs
 * 10 to 12 cycles/byte). */
static void chx_stream_xor(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds)
{
	size_t tail = len % (CHX_N * BC_CHACHA_BLOCK);

	if (tail > CHX_TAIL_MAX)
		tail = 0;
	if (len > tail) {
		chx_xor_many(st, dst, src, len - tail, nrounds);
		bc_burn_stack();
	}
	if (tail)
		chx_tail(st, dst + len - tail, src + len - tail, tail, nrounds);
}

#endif
