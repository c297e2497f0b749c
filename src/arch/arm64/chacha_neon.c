/* blockcrypt arm64: ChaCha20, XChaCha20 and XChaCha12 on NEON, 4 blocks per pass and a one-block path (drivers chacha20-neon,
 * xchacha20-neon, xchacha12-neon). RFC 8439 section 2. CPU: NEON (Advanced SIMD, part of every arm64 CPU). */
#include "arm64_modes.h"

#define CHX_V uint32x4_t
#define CHX_N 4
#define chx_set1(w) vdupq_n_u32(w)
#define chx_add vaddq_u32
#define chx_xor veorq_u32
#define chx_unpack32(lo, a, b) (lo ? vzip1q_u32(a, b) : vzip2q_u32(a, b))
#define chx_unpack64(lo, a, b)                                                                                   \
	vreinterpretq_u32_u64(lo ? vzip1q_u64(vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b))                \
				 : vzip2q_u64(vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b)))
#define chx_lanes() ((uint32x4_t){ 0, 1, 2, 3 })
/* 16 swaps the halfwords (REV32); 8 moves bytes (one TBL); 12 and 7 are a
 * shift left and a shift right inserting into it (SHL, SRI). n is a
 * literal, so the choice folds away. */
#define chx_rol(v, n)                                                                                            \
	((n) == 16 ? vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))                                \
	 : (n) == 8 ? vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(v), rol8_idx()))                       \
	 : vsriq_n_u32(vshlq_n_u32(v, n), v, 32 - (n)))

BC_A64_INLINE uint8x16_t rol8_idx(void)
{
	return (uint8x16_t){ 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14 };
}

static void chacha_neon_blocks(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds);
#define CHX_TAIL_MAX (3 * BC_CHACHA_BLOCK)
#define chx_tail chacha_neon_blocks

#include "../../cipher/chacha_lanes.h"

/* After chx_transpose4, x[4g + j] is words 4g..4g+3 of block j: a block is
 * x[j], x[4 + j], x[8 + j], x[12 + j], 16 bytes each, the last partial
 * one through bc_a64_ks_xor (the length is public). */
CHX_INLINE void chx_store(uint32x4_t x[16], uint8_t *dst, const uint8_t *src, size_t n)
{
	chx_transpose4(x);
	for (size_t j = 0, off = 0; j < 4; j++)
		for (size_t g = 0; g < 4 && off < n; g++, off += 16)
			bc_a64_ks_xor(dst + off, src + off, vreinterpretq_u8_u32(x[4 * g + j]), n - off);
}

/* One block as its four rows: a column round on the rows, then the
 * diagonals brought into columns by rotating rows 1, 2, 3 by one, two and
 * three words (EXT), and back. */
BC_A64_INLINE void one_block_rounds(uint32x4_t x[4], int nrounds)
{
	for (int r = 0; r < nrounds; r += 2) {
		CHX_QR(x[0], x[1], x[2], x[3]);
		x[1] = vextq_u32(x[1], x[1], 1);
		x[2] = vextq_u32(x[2], x[2], 2);
		x[3] = vextq_u32(x[3], x[3], 3);
		CHX_QR(x[0], x[1], x[2], x[3]);
		x[1] = vextq_u32(x[1], x[1], 3);
		x[2] = vextq_u32(x[2], x[2], 2);
		x[3] = vextq_u32(x[3], x[3], 1);
	}
}

/* Block by block: the chacha_lanes tail (up to three blocks) after the
 * passes of four. All in registers, so there is no stack to burn. */
static void chacha_neon_blocks(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds)
{
	uint32x4_t s[4] = { vld1q_u32(st), vld1q_u32(st + 4), vld1q_u32(st + 8), vld1q_u32(st + 12) };
	const uint32x4_t one = { 1, 0, 0, 0 };

	while (len) {
		uint32x4_t x[4] = { s[0], s[1], s[2], s[3] };

		one_block_rounds(x, nrounds);
		for (size_t i = 0, n; i < 4 && len; i++, src += n, dst += n, len -= n)
			n = bc_a64_ks_xor(dst, src, vreinterpretq_u8_u32(vaddq_u32(x[i], s[i])), len);
		s[3] = vaddq_u32(s[3], one);
	}
	st[12] = vgetq_lane_u32(s[3], 0);
}

/* XChaCha's subkey: the rounds of one block without the final addition,
 * rows 0 and 3 of the result. */
static void hchacha_neon(uint32_t out[8], const uint32_t key[8], const uint8_t nonce[16], int nrounds)
{
	uint32_t st[16];
	uint32x4_t x[4];

	bc_chacha_state(st, key, nonce);
	for (int i = 0; i < 4; i++)
		x[i] = vld1q_u32(st + 4 * i);
	one_block_rounds(x, nrounds);
	vst1q_u32(out, x[0]);
	vst1q_u32(out + 4, x[3]);
	bc_wipe(st, sizeof(st));
}

BC_CHACHA_DRIVERS(neon, "neon", 300, 0, hchacha_neon, chx_stream_xor);
