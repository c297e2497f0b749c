/* blockcrypt x86-64: ecb, cbc, ctr and xts over AES with VAES on 512-bit registers, 32 blocks in flight (ecb-aes-vaes-avx512, ...).
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 / NIST SP 800-38E (XTS with ciphertext stealing), FIPS-197. Needs AVX-512 F and BW, VAES, VPCLMULQDQ. */
#include "aes_vaes_avx512.h"
#include "drivers.h"

#if defined(__x86_64__)

#define Z_MIN 16                      /* cbc: fewer blocks go to the AES-NI code */

/*
 * Why a third width: a core with a full 512-bit VAES unit (AMD Zen 5; Intel
 * since Ice Lake) issues VAESENC on zmm as often as on ymm, so four blocks
 * per instruction double what the ymm drivers can reach (measured here: two
 * per cycle at either width, 8 blocks per cycle with zmm against 4). On a
 * core that splits zmm in two (Zen 4) it costs nothing either.
 */

/* Which 64-bit halves of register i (of four blocks) hold one of `blocks`
 * blocks (blocks is public). */
BC_X86_INLINE BC_X86_AVX512 __mmask8 z_mask(size_t blocks, unsigned i)
{
	return blocks >= 4 * (i + 1) ? 0xff : blocks > 4 * i ? (__mmask8)((1u << (2 * (blocks - 4 * i))) - 1) : 0;
}

/* Whether register i of a batch of regs moves masked: masked 0, none; 1,
 * all (some may lie wholly past the blocks); 2, only the last of the
 * (blocks + 3) / 4, and only when it is not whole: a masked store is not
 * forwarded to a later load of its bytes (the next operation on a buffer
 * worked in place), which on Intel cores waits for it to reach the cache. */
BC_X86_INLINE BC_X86_AVX512 int z_masked(const int masked, unsigned i, unsigned regs, size_t blocks)
{
	return masked == 1 || (masked == 2 && i + 1 == regs && blocks % 4);
}

BC_X86_INLINE BC_X86_AVX512 __m512i z_load(const uint8_t *p, const int masked, __mmask8 m)
{
	return masked ? _mm512_maskz_loadu_epi64(m, p) : _mm512_loadu_si512(p);
}

BC_X86_INLINE BC_X86_AVX512 void z_store(uint8_t *p, const int masked, __mmask8 m, __m512i x)
{
	if (masked)
		_mm512_mask_storeu_epi64(p, m, x);
	else
		_mm512_storeu_si512(p, x);
}

/* ---- one batch of blocks, for ecb, cbc decryption and xts -------------------------------
 * Registers 0..regs-1 of four blocks from src through AES to dst; with
 * masked (z_masked), only the first `blocks` blocks are read and written. mode (a
 * constant): Z_ECB; Z_CBC, block j XORed after AES with ciphertext block
 * j-1, read with one load straddling two registers' blocks (the first
 * register's from the chaining value *prev and its own blocks), *prev then
 * the batch's last block; Z_XTS, the tweaks tw XORed before and after.
 * Every load of a batch comes before its first store, so dst == src works.
 * The keys are read from the context in each batch, never held past it (no
 * spilled copies on the stack). */
enum { Z_ECB, Z_CBC, Z_XTS };

BC_X86_INLINE BC_X86_AVX512 void z_batch(const uint8_t (*rk)[16], const unsigned nr, const int enc, const int mode,
                                         __m128i *prev, const __m512i *tw, const uint8_t *src, uint8_t *dst,
                                         const unsigned regs, const int masked, size_t blocks)
{
	__m512i x[Z_REGS], p[Z_REGS], key;
	unsigned i, r;

	BC_X86_OPAQUE(rk);
	key = z_rk(rk, 0);
	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		x[i] = z_load(src + 64 * i, z_masked(masked, i, regs, blocks), z_mask(blocks, i));
		if (mode == Z_CBC)
			p[i] = i ? z_load(src + 64 * i - 16, z_masked(masked, i, regs, blocks), z_mask(blocks, i))
			         : _mm512_alignr_epi64(x[0], _mm512_broadcast_i32x4(*prev), 6);
		if (mode == Z_XTS)
			p[i] = tw[i];
		x[i] = mode == Z_XTS ? _mm512_ternarylogic_epi64(x[i], p[i], key, 0x96) : _mm512_xor_si512(x[i], key);
	}
	if (mode == Z_CBC)
		*prev = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * (blocks - 1)));
	_Pragma("GCC unroll 14")
	for (r = 1; r < nr; r++) {
		key = z_rk(rk, r);
		_Pragma("GCC unroll 8")
		for (i = 0; i < regs; i++)
			x[i] = enc ? _mm512_aesenc_epi128(x[i], key) : _mm512_aesdec_epi128(x[i], key);
	}
	key = z_rk(rk, nr);
	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		__m512i kl = mode == Z_ECB ? key : _mm512_xor_si512(key, p[i]);

		z_store(dst + 64 * i, z_masked(masked, i, regs, blocks), z_mask(blocks, i),
		        enc ? _mm512_aesenclast_epi128(x[i], kl) : _mm512_aesdeclast_epi128(x[i], kl));
	}
}

/* ---- ecb and cbc decryption: batches of 32 blocks, then what is left in
 * one masked batch of four or eight registers ------------------------------------------- */
/* nb >= 1 blocks; iv (cbc) is the chaining value in and out. */
BC_X86_INLINE BC_X86_AVX512 void zdec(const uint8_t (*rk)[16], const unsigned nr, const int enc, const int cbc,
                                      uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t nb)
{
	__m128i prev = cbc ? _mm_loadu_si128((const __m128i *)(void *)iv) : _mm_setzero_si128();

	for (; nb >= Z_BLOCKS; nb -= Z_BLOCKS, src += 16 * Z_BLOCKS, dst += 16 * Z_BLOCKS)
		z_batch(rk, nr, enc, cbc ? Z_CBC : Z_ECB, &prev, NULL, src, dst, Z_REGS, 0, Z_BLOCKS);
	if (nb > Z_BLOCKS / 2)
		z_batch(rk, nr, enc, cbc ? Z_CBC : Z_ECB, &prev, NULL, src, dst, Z_REGS, 1, nb);
	else if (nb)
		z_batch(rk, nr, enc, cbc ? Z_CBC : Z_ECB, &prev, NULL, src, dst, Z_REGS / 2, 1, nb);
	if (cbc)
		_mm_storeu_si128((__m128i *)(void *)iv, prev);
}

/* enc, cbc: constants; short cbc messages to the AES-NI code (ecb's go to
 * the ymm code before they get here). */
BC_X86_INLINE BC_X86_AVX512 int zecb_cbc(const struct bc_aes_x86_key *k, const int enc, const int cbc, uint8_t *iv,
                                          const uint8_t *src, uint8_t *dst, size_t len)
{
	const uint8_t (*rk)[16] = enc ? k->enc.rk : k->dk;

	if (cbc && len < 16 * Z_MIN)
		return bc_aes_x86_cbc_dec(k, iv, src, dst, len / 16);
	switch (k->enc.rounds) {
	case 10: zdec(rk, 10, enc, cbc, iv, src, dst, len / 16); break;
	case 12: zdec(rk, 12, enc, cbc, iv, src, dst, len / 16); break;
	default: zdec(rk, 14, enc, cbc, iv, src, dst, len / 16); break;
	}
	return 0;
}

/* Up to 15 blocks: the ymm code's one pass, inline and unmasked (what a
 * buffer worked in place gets back from the store buffer soonest); the
 * batches are out of line, so a short message sets up no frame for them. */
static __attribute__((noinline)) BC_X86_AVX512 int zecb_long(const struct bc_aes_x86_key *k, const int enc,
                                                              const uint8_t *src, uint8_t *dst, size_t len)
{
	if (enc)
		return zecb_cbc(k, 1, 0, NULL, src, dst, len);
	return zecb_cbc(k, 0, 0, NULL, src, dst, len);
}

static BC_X86_AVX512 int zecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	if (!bc_aes_vaes_ecb_short(ctx, 1, src, dst, len))
		return zecb_long(ctx, 1, src, dst, len);
	return 0;
}

static BC_X86_AVX512 int zecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	if (!bc_aes_vaes_ecb_short(ctx, 0, src, dst, len))
		return zecb_long(ctx, 0, src, dst, len);
	return 0;
}

static BC_X86_AVX512 int zcbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return zecb_cbc(ctx, 0, 1, iv, src, dst, len);
}

/* ---- ctr ------------------------------------------------------------------------------
 * Batches of 32 counter blocks, then what is left (any number of bytes) in
 * one batch of four or eight registers with byte-masked loads and stores.
 * Short messages take their own one-pass code (zctr_short, below). */

/* The counter blocks (hi:lo) + 0..4 regs - 1, four per register; be is
 * block (hi:lo) as it lies in memory, which the blocks are stepped from in
 * the vector unit (no GPR-to-vector moves on a short message's path). The
 * counter is public; the branch only decides whether the low 64 bits wrap. */
BC_X86_INLINE BC_X86_AVX512 void zctr_blocks(__m512i *x, __m128i be, uint64_t hi, uint64_t lo, const unsigned regs)
{
	unsigned i;

	if (lo <= UINT64_MAX - (4 * regs - 1)) {
		const __m512i bswap = _mm512_broadcast_i32x4(bc_x86_bswap128_mask()), four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
		__m512i v = _mm512_add_epi64(_mm512_shuffle_epi8(_mm512_broadcast_i32x4(be), bswap),
		                             _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
		_Pragma("GCC unroll 8")
		for (i = 0; i < regs; i++) {
			x[i] = _mm512_shuffle_epi8(v, bswap);
			v = _mm512_add_epi64(v, four);
		}
	} else {
		for (i = 0; i < regs; i++) {
			__m512i r = _mm512_castsi128_si512(bc_x86_ctr_block(hi, lo, 4 * i));

			r = _mm512_inserti32x4(r, bc_x86_ctr_block(hi, lo, 4 * i + 1), 1);
			r = _mm512_inserti32x4(r, bc_x86_ctr_block(hi, lo, 4 * i + 2), 2);
			x[i] = _mm512_inserti32x4(r, bc_x86_ctr_block(hi, lo, 4 * i + 3), 3);
		}
	}
}

/* One batch of regs registers from counter (hi:lo); with masked, only the
 * first `bytes` bytes are read and written. */
BC_X86_INLINE BC_X86_AVX512 void zctr_batch(const uint8_t (*rk)[16], const unsigned nr, __m128i be, uint64_t hi,
                                            uint64_t lo,
                                            const uint8_t *src, uint8_t *dst, const unsigned regs,
                                            const int masked, size_t bytes)
{
	__m512i x[Z_REGS];

	zctr_blocks(x, be, hi, lo, regs);
	zctr_aes(rk, nr, x, src, dst, regs, masked ? Z_EACH : Z_ALL, bytes);
}

BC_X86_INLINE BC_X86_AVX512 void zctr(const struct bc_aes_x86_ek *k, const unsigned nr, uint8_t *iv,
                                      const uint8_t *src, uint8_t *dst, size_t len)
{
	__m128i be = bc_aes_x86_load_iv(iv);
	uint64_t hi, lo, h, l;
	const uint64_t nb = (len + 15) / 16;

	bc_x86_ctr_load(iv, &hi, &lo);
	for (h = hi, l = lo; len >= 16 * Z_BLOCKS; len -= 16 * Z_BLOCKS, src += 16 * Z_BLOCKS, dst += 16 * Z_BLOCKS) {
		zctr_batch(k->rk, nr, be, h, l, src, dst, Z_REGS, 0, 16 * Z_BLOCKS);
		l += Z_BLOCKS;
		h += l < Z_BLOCKS;
		be = bc_x86_ctr_block(h, l, 0);
	}
	if (len > 8 * Z_BLOCKS)
		zctr_batch(k->rk, nr, be, h, l, src, dst, Z_REGS, 1, len);
	else if (len)
		zctr_batch(k->rk, nr, be, h, l, src, dst, Z_REGS / 2, 1, len);
	bc_x86_ctr_store(iv, hi, lo, nb);
}

/* Out of line, so that its frame (realigned for the zmm arrays, six saved
 * registers: about 20 cycles on Zen 5) is not set up for a short message. */
static __attribute__((noinline)) BC_X86_AVX512 int zctr_long(const struct bc_aes_x86_ek *k, uint8_t *iv,
                                                              const uint8_t *src, uint8_t *dst, size_t len)
{
	switch (k->rounds) {
	case 10: zctr(k, 10, iv, src, dst, len); break;
	case 12: zctr(k, 12, iv, src, dst, len); break;
	default: zctr(k, 14, iv, src, dst, len); break;
	}
	return 0;
}

/* ---- ctr, short messages (ZCTR_SHORT_MIN..ZCTR_SHORT_MAX bytes): one pass of
 * regs (1..8) registers, only the last one's loads and stores masked, and
 * nothing on the way from the IV to the AES but a broadcast and an add: with
 * the counter's low byte far enough from a carry (a public fact, checked by
 * the caller), counter block j is the IV with j added to its last byte, so
 * the blocks are stepped in memory order without the byte swaps. What costs
 * time in a short operation is that path, and an IV the caller has just
 * written byte by byte, which no load can take from the store buffer, makes
 * it longer still: every cycle on it counts (~10 per operation against the
 * swapped and masked batches of zctr). */
#define ZCTR_SHORT_MIN 33             /* up to 32 bytes the one- or two-block AES-NI code is quicker */
#define ZCTR_SHORT_MAX (64 * Z_REGS)

BC_X86_INLINE BC_X86_AVX512 void zctr_short(const uint8_t (*rk)[16], const unsigned nr, __m128i be, const uint8_t *src,
                                            uint8_t *dst, size_t len, const unsigned regs)
{
	__m512i x[Z_REGS], c = _mm512_broadcast_i32x4(be);
	unsigned i;

	_Pragma("GCC unroll 8")
	for (i = 0; i < regs; i++) {
		const long long j = 4 * (long long)i;

		x[i] = _mm512_add_epi64(c, _mm512_set_epi64((j + 3) << 56, 0, (j + 2) << 56, 0, (j + 1) << 56, 0, j << 56, 0));
	}
	zctr_aes(rk, nr, x, src, dst, regs, Z_LAST, len);
}

BC_X86_INLINE BC_X86_AVX512 void zctr_short_nr(const uint8_t (*rk)[16], const unsigned nr, __m128i be,
                                               const uint8_t *src, uint8_t *dst, size_t len)
{
#define SHORT(N) zctr_short(rk, nr, be, src, dst, len, N)
	BC_X86_CASES_1_8((len + 63) / 64, SHORT);
#undef SHORT
}

/* Messages up to 32 bytes to the AES-NI code, up to ZCTR_SHORT_MAX in one
 * pass when the counter's low byte does not carry in it, the rest in
 * batches (out of line). */
static BC_X86_AVX512 int zctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_ek *k = ctx;
	uint64_t hi, lo, nb = (len + 15) / 16;
	__m128i be;

	if (len < ZCTR_SHORT_MIN)
		return bc_aes_x86_ctr(k, iv, src, dst, len);
	be = bc_aes_x86_load_iv(iv);
	bc_x86_ctr_load(iv, &hi, &lo);
	if (len > ZCTR_SHORT_MAX || (lo & 0xff) > 0x100 - nb)
		return zctr_long(k, iv, src, dst, len);
	bc_x86_ctr_store(iv, hi, lo, nb);
	switch (k->rounds) {
	case 10: zctr_short_nr(k->rk, 10, be, src, dst, len); break;
	case 12: zctr_short_nr(k->rk, 12, be, src, dst, len); break;
	default: zctr_short_nr(k->rk, 14, be, src, dst, len); break;
	}
	return 0;
}

/* ---- xts ------------------------------------------------------------------------------
 * Batches of 512 bytes, eight registers of four blocks with their tweaks in
 * eight more; the last batch takes what is left with masked loads and
 * stores (nothing outside the buffers is read or written). Ciphertext
 * stealing is bc_aes_x86_xts_steal's, inline; messages of under XTS512_MIN
 * blocks go to the ymm driver's code (bc_aes_vaes_xts_crypt).
 */
/* Decryption's stealing runs first, its two dependent AES latencies under
 * the batches, when its tweak is at most this many blocks away (x^56 per
 * step); else last, with the tweak the batches leave. Encryption's runs
 * last, on the ciphertext of the batches' last block. */
#define XTS512_STEAL_EARLY_MAX 448
/* Shorter messages (in blocks) go to the ymm driver whole: a mostly empty
 * zmm batch costs as much as a full one. */
#define XTS512_MIN 16

/* Each 128-bit lane (a tweak) times x^k, 0 <= k <= 56, k per 64-bit lane:
 * the halves shifted by k, the bits the low half loses carried into the
 * high half, those the high half loses multiplied by 0x87 (VPCLMULQDQ) into
 * the low half. (bc_x86_xts_mul_xk_256 on four lanes, with variable counts.) */
BC_X86_INLINE BC_X86_AVX512 __m512i xts512_mul_xk(__m512i t, __m512i k)
{
	const __m512i poly = _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87);
	__m512i out = _mm512_srlv_epi64(t, _mm512_sub_epi64(_mm512_set1_epi64(64), k));

	return _mm512_ternarylogic_epi64(_mm512_sllv_epi64(t, k), _mm512_bslli_epi128(out, 8),
	                                 _mm512_clmulepi64_epi128(out, poly, 0x01), 0x96);
}

/* Each 128-bit lane times x^32 (the batches step by four blocks a lane):
 * the lane shifted by 4 bytes, the 4 bytes it loses multiplied by 0x87
 * into its low half. Byte shifts and VPCLMULQDQ only: on Intel cores the
 * 64-bit shifts of xts512_mul_xk issue on the port the 512-bit AES
 * instructions need. */
BC_X86_INLINE BC_X86_AVX512 __m512i xts512_mul_x32(__m512i t)
{
	const __m512i poly = _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87);

	return _mm512_xor_si512(_mm512_bslli_epi128(t, 4), _mm512_clmulepi64_epi128(_mm512_bsrli_epi128(t, 12), poly, 0x00));
}

/* What is left after the whole batches: 1..32 blocks in one masked batch of
 * regs = (left + 3) / 4 registers (a constant per call site). */
BC_X86_INLINE BC_X86_AVX512 void xts512_left(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                             const __m512i *tw, const uint8_t *src, uint8_t *dst, size_t left)
{
#define LEFT(N) z_batch(rk, nr, enc, Z_XTS, NULL, tw, src, dst, N, 2, left)
	BC_X86_CASES_1_8((left + 3) / 4, LEFT);
#undef LEFT
}

/* Blocks 0..n-1 (n >= 1) from src to dst, block 0's tweak t (in every
 * lane): whole batches, then what is left in one batch of as many
 * registers as it fills. With want, returns the tweak of block n, else t.
 * rk: the encryption or the decryption keys. */
BC_X86_INLINE BC_X86_AVX512 __m128i xts512_blocks(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                                  __m512i t, const uint8_t *src, uint8_t *dst, size_t n,
                                                  const int want)
{
	__m512i tw[Z_REGS];
	size_t left = n;
	unsigned i;

	/* register i: lanes T x^(4i)..T x^(4i+3), each straight from T, so
	 * that all eight are ready together */
	_Pragma("GCC unroll 8")
	for (i = 0; i < Z_REGS; i++)
		tw[i] = xts512_mul_xk(t, _mm512_add_epi64(_mm512_set1_epi64(4 * i), _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0)));
	while (left >= Z_BLOCKS) {
		z_batch(rk, nr, enc, Z_XTS, NULL, tw, src, dst, Z_REGS, 0, Z_BLOCKS);
		left -= Z_BLOCKS;
		src += 16 * Z_BLOCKS;
		dst += 16 * Z_BLOCKS;
		if (!left && !want)
			return _mm512_castsi512_si128(t);
		/* each register 32 blocks on: x^32 (spelled out: as a loop, gcc
		 * kept the tweaks in memory) */
		tw[0] = xts512_mul_x32(tw[0]);
		tw[1] = xts512_mul_x32(tw[1]);
		tw[2] = xts512_mul_x32(tw[2]);
		tw[3] = xts512_mul_x32(tw[3]);
		tw[4] = xts512_mul_x32(tw[4]);
		tw[5] = xts512_mul_x32(tw[5]);
		tw[6] = xts512_mul_x32(tw[6]);
		tw[7] = xts512_mul_x32(tw[7]);
	}
	if (left)
		xts512_left(rk, nr, enc, tw, src, dst, left);
	return want ? bc_x86_xts_tweak_at(_mm512_castsi512_si128(tw[0]), left) : _mm512_castsi512_si128(t);
}

/* The first tweak E_K2(iv) in every lane, computed there: no shuffle
 * between it and the tweaks of the batches. The IV comes in as two 8-byte
 * broadcasts (see bc_aes_x86_load_iv). */
BC_X86_INLINE BC_X86_AVX512 __m512i xts512_t(const uint8_t (*k2)[16], const unsigned nr, const uint8_t *iv)
{
	__m512i t = _mm512_mask_blend_epi64(0xaa, _mm512_set1_epi64((long long)bc_load_le64(iv)),
	                                    _mm512_set1_epi64((long long)bc_load_le64(iv + 8)));

	t = _mm512_xor_si512(t, z_rk(k2, 0));
	_Pragma("GCC unroll 14")
	for (unsigned r = 1; r < nr; r++)
		t = _mm512_aesenc_epi128(t, z_rk(k2, r));
	return _mm512_aesenclast_epi128(t, z_rk(k2, nr));
}

BC_X86_INLINE BC_X86_AVX512 void xts512(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv, const uint8_t *src,
                                        uint8_t *dst, size_t len, const int enc, const unsigned nr)
{
	/* the whole blocks here; with stealing the last one goes with the rest */
	size_t rest = len % 16, n = len / 16 - (rest != 0);
	const int early = rest && n <= XTS512_STEAL_EARLY_MAX;
	const uint8_t (*rk)[16] = enc ? c->k1.enc.rk : c->k1.dk;
	__m512i tz = xts512_t(c->k2.rk, nr, iv);
	__m128i t;

	if (enc) {
		/* every whole block in the batches, the last one's ciphertext
		 * then read back for the stealing: one AES after them, not two */
		t = xts512_blocks(rk, nr, enc, tz, src, dst, len / 16, rest != 0);
		if (rest)
			bc_aes_x86_store(dst + 16 * n, bc_aes_x86_xts1(rk, nr, enc, t, bc_aes_x86_xts_swap(
			                 bc_aes_x86_load(dst + 16 * n), src + 16 * n, dst + 16 * n, rest)));
		return;
	}
	/* blocks n, n+1 are disjoint from the rest: dst == src works */
	if (early)
		bc_aes_x86_xts_steal(rk, nr, enc, bc_x86_xts_tweak_at(_mm512_castsi512_si128(tz), n), src + 16 * n,
		                     dst + 16 * n, rest);
	t = xts512_blocks(rk, nr, enc, tz, src, dst, n, rest && !early);
	if (rest && !early)
		bc_aes_x86_xts_steal(rk, nr, enc, t, src + 16 * n, dst + 16 * n, rest);
}

static BC_X86_AVX512 int xts512_crypt(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv, const uint8_t *src,
                                       uint8_t *dst, size_t len, int enc)
{
	switch (2 * c->k1.enc.rounds + (unsigned)enc) {
	case 20: xts512(c, iv, src, dst, len, 0, 10); break;
	case 21: xts512(c, iv, src, dst, len, 1, 10); break;
	case 24: xts512(c, iv, src, dst, len, 0, 12); break;
	case 25: xts512(c, iv, src, dst, len, 1, 12); break;
	case 28: xts512(c, iv, src, dst, len, 0, 14); break;
	default: xts512(c, iv, src, dst, len, 1, 14); break;
	}
	return 0;
}

/* Short messages straight to the ymm code (a tail call: a 16-byte
 * operation's cost is its two dependent AES latencies plus the call path). */
static int xts512_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (len < 16 * XTS512_MIN)
		return bc_aes_vaes_xts_crypt(ctx, iv, src, dst, len, 1);
	return xts512_crypt(ctx, iv, src, dst, len, 1);
}

static int xts512_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (len < 16 * XTS512_MIN)
		return bc_aes_vaes_xts_crypt(ctx, iv, src, dst, len, 0);
	return xts512_crypt(ctx, iv, src, dst, len, 0);
}

const struct bc_skcipher_alg bc_ecb_aes_vaes_avx512 = {
	.name = "ecb(aes)", .driver = "ecb-aes-vaes-avx512", .priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = zecb_encrypt, .decrypt = zecb_decrypt,
};

const struct bc_skcipher_alg bc_cbc_aes_vaes_avx512 = {
	.name = "cbc(aes)", .driver = "cbc-aes-vaes-avx512", .priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = bc_aes_x86_cbc_encrypt, .decrypt = zcbc_decrypt,
};

const struct bc_skcipher_alg bc_ctr_aes_vaes_avx512 = {
	.name = "ctr(aes)", .driver = "ctr-aes-vaes-avx512", .priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = zctr_crypt, .decrypt = zctr_crypt,
};

const struct bc_skcipher_alg bc_xts_aes_vaes_avx512 = {
	.name = "xts(aes)", .driver = "xts-aes-vaes-avx512", .priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_VPCLMUL | BC_CPU_AESNI,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_xts_ctx), .setkey = bc_aes_x86_xts_setkey,
	.encrypt = xts512_encrypt, .decrypt = xts512_decrypt,
};

#endif
