/* blockcrypt x86: GHASH with PCLMULQDQ / VPCLMULQDQ, the key layout and the inline routines the GHASH and GCM drivers share.
 * NIST SP 800-38D sections 6.3, 6.4 and 7 (GHASH, J0, the length block); reflected-operand reduction after Gueron-Kounavis (Intel, 2014). */
#ifndef BC_GHASH_X86_H
#define BC_GHASH_X86_H

#include "aes_x86.h"
#include "x86_util.h"
#include "../../hash/ghash.h"

/*
 * Representation. A block is byte-reversed on load, so the coefficient of
 * x^0 is bit 127 of the 128-bit integer and x^127 is bit 0 ("reflected").
 * The carry-less product of two reflected values a, b is the field product
 * reflected into 256 bits but one bit short; the key powers are therefore
 * stored premultiplied by x^-1 (a left shift by one in this order), which
 * makes every clmul product the exact 256-bit reflection of A*B and lets
 * one reduction serve any number of products added together.
 *
 * Reduction of a reflected 256-bit value: its high 128 bits hold x^0..x^127,
 * its low 128 bits (L1:L0) hold x^128..x^255. Multiples of the reflected
 * polynomial y^128 + Q, Q = 1 + y^64 * c with c = 0xc200000000000000
 * (x^128 = x^7 + x^2 + x + 1 read backwards), are added to zero the low half
 * in two 64-bit steps, one carry-less multiply by c each: a Montgomery
 * reduction by y^128, which is what the x^-1 factor above pays for.
 *
 * Aggregation: for a group of n blocks X_0..X_{n-1} (the accumulator XORed
 * into X_0), acc' = sum X_i * H^(n-i), reduced once. The products use
 * Karatsuba: lo*lo, hi*hi and (lo^hi)*(lo^hi), the last with a
 * precomputed lo^hi of each key power.
 */

/* The 128-bit GHASH set (the 256-bit one is x86_util.h's BC_X86_VPCLMUL); the GCM drivers add AES. */
#define BC_X86_PCLMUL  __attribute__((target("pclmul,sse4.1,ssse3")))

#define BC_GHASH_X86_POWERS 16

/* h[i] = H^(16-i) * x^-1 reflected, descending, so a group of n blocks
 * multiplies by h[16-n .. 15] in order and a 256-bit load of h[j], h[j+1]
 * pairs two consecutive blocks. k[i]: lo(h[i]) ^ hi(h[i]) in both halves.
 * The only table: indexed by a block's position (public), never by data. */
struct bc_ghash_x86_key {
	__m128i h[BC_GHASH_X86_POWERS];
	__m128i k[BC_GHASH_X86_POWERS];
};

/* The three Karatsuba sums of a group, before its one reduction. */
struct bc_ghash_x86_sum {
	__m128i lo, hi, mid;
};
struct bc_ghash_x86_sum256 {
	__m256i lo, hi, mid;
};

/* c of the reduction, in the low 64 bits. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_poly(void)
{
	return _mm_set_epi32(0, 0, (int)0xc2000000, 0);
}

/* Two-step Montgomery reduction of hi:lo (reflected 256 bits) to 128 bits. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_reduce2(__m128i lo, __m128i hi)
{
	__m128i p = bc_ghash_x86_poly();
	__m128i w = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, p, 0x00));

	w = _mm_xor_si128(_mm_shuffle_epi32(w, 0x4e), _mm_clmulepi64_si128(w, p, 0x00));
	return _mm_xor_si128(hi, w);
}

/* Karatsuba's middle term becomes the 64 bits straddling lo and hi. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_reduce(const struct bc_ghash_x86_sum *s)
{
	__m128i mid = _mm_xor_si128(s->mid, _mm_xor_si128(s->lo, s->hi));

	return bc_ghash_x86_reduce2(_mm_xor_si128(s->lo, _mm_slli_si128(mid, 8)),
	                            _mm_xor_si128(s->hi, _mm_srli_si128(mid, 8)));
}

/* s (=|+=) x * h[i], x reflected; first chooses assignment, for the group's
 * first block, so no zeroing is needed. */
BC_X86_INLINE BC_X86_PCLMUL void bc_ghash_x86_mul(struct bc_ghash_x86_sum *s, const struct bc_ghash_x86_key *key,
                                                  unsigned i, __m128i x, int first)
{
	__m128i h = _mm_load_si128(&key->h[i]);
	__m128i m = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
	__m128i lo = _mm_clmulepi64_si128(x, h, 0x00);
	__m128i hi = _mm_clmulepi64_si128(x, h, 0x11);
	__m128i mid = _mm_clmulepi64_si128(m, _mm_load_si128(&key->k[i]), 0x00);

	if (first) {
		s->lo = lo; s->hi = hi; s->mid = mid;
	} else {
		s->lo = _mm_xor_si128(s->lo, lo);
		s->hi = _mm_xor_si128(s->hi, hi);
		s->mid = _mm_xor_si128(s->mid, mid);
	}
}

/* The same for two blocks in the lanes of x, times h[i] and h[i+1]. */
BC_X86_INLINE BC_X86_VPCLMUL void bc_ghash_x86_mul2(struct bc_ghash_x86_sum256 *s, const struct bc_ghash_x86_key *key,
                                                    unsigned i, __m256i x, int first)
{
	__m256i h = _mm256_loadu_si256((const __m256i *)&key->h[i]);
	__m256i m = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e));
	__m256i lo = _mm256_clmulepi64_epi128(x, h, 0x00);
	__m256i hi = _mm256_clmulepi64_epi128(x, h, 0x11);
	__m256i mid = _mm256_clmulepi64_epi128(m, _mm256_loadu_si256((const __m256i *)&key->k[i]), 0x00);

	if (first) {
		s->lo = lo; s->hi = hi; s->mid = mid;
	} else {
		s->lo = _mm256_xor_si256(s->lo, lo);
		s->hi = _mm256_xor_si256(s->hi, hi);
		s->mid = _mm256_xor_si256(s->mid, mid);
	}
}

/* Folds the two lanes, then reduces: the lanes are halves of one sum. */
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_ghash_x86_reduce256(const struct bc_ghash_x86_sum256 *s)
{
	struct bc_ghash_x86_sum f = {
		_mm_xor_si128(_mm256_castsi256_si128(s->lo), _mm256_extracti128_si256(s->lo, 1)),
		_mm_xor_si128(_mm256_castsi256_si128(s->hi), _mm256_extracti128_si256(s->hi, 1)),
		_mm_xor_si128(_mm256_castsi256_si128(s->mid), _mm256_extracti128_si256(s->mid, 1)),
	};
	return bc_ghash_x86_reduce(&f);
}

/* acc * H, acc reflected. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_mul1(const struct bc_ghash_x86_key *key, __m128i acc)
{
	struct bc_ghash_x86_sum s;

	bc_ghash_x86_mul(&s, key, BC_GHASH_X86_POWERS - 1, acc, 1);
	return bc_ghash_x86_reduce(&s);
}

/* One group of n (1..16) reflected blocks g[] folded into acc. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_group(const struct bc_ghash_x86_key *key, __m128i acc,
                                                       const __m128i *g, unsigned n)
{
	struct bc_ghash_x86_sum s;

	bc_ghash_x86_mul(&s, key, BC_GHASH_X86_POWERS - n, _mm_xor_si128(g[0], acc), 1);
	for (unsigned i = 1; i < n; i++)
		bc_ghash_x86_mul(&s, key, BC_GHASH_X86_POWERS - n + i, g[i], 0);
	return bc_ghash_x86_reduce(&s);
}

/* A block as the multiply takes it: GHASH's bytes reversed (swap), or
 * POLYVAL's as they are. RFC 8452 appendix A has POLYVAL(H, X) =
 * ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)), ByteReverse(X))), and the
 * reflected load of ByteReverse(X) is X itself: with that key
 * (bc_polyval_x86_setkey) POLYVAL is this GHASH without its byte swaps.
 * swap is a constant in every caller. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_in(__m128i x, const int swap)
{
	return swap ? _mm_shuffle_epi8(x, bc_x86_bswap128_mask()) : x;
}
BC_X86_INLINE BC_X86_VPCLMUL __m256i bc_ghash_x86_in256(__m256i x, const int swap)
{
	return swap ? _mm256_shuffle_epi8(x, bc_x86_bswap256_mask()) : x;
}

/* GHASH (swap) or POLYVAL over whole blocks with the 128-bit unit: 4
 * blocks per reduction, then the 1..3 left as one group. acc reflected.
 * (8 per reduction measured the same here: the multiplier's throughput,
 * not the chain through the reduction, is the limit.) */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_gf128_x86_blocks(const struct bc_ghash_x86_key *key, __m128i acc,
                                                        const uint8_t *src, size_t nblocks, const int swap)
{
	while (nblocks) {
		unsigned n = nblocks >= 4 ? 4 : (unsigned)nblocks;
		__m128i g[4];

		for (unsigned i = 0; i < n; i++)
			g[i] = bc_ghash_x86_in(_mm_loadu_si128((const __m128i *)(src + 16 * i)), swap);
		acc = bc_ghash_x86_group(key, acc, g, n);
		src += 16 * n;
		nblocks -= n;
	}
	return acc;
}
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_blocks(const struct bc_ghash_x86_key *key, __m128i acc,
                                                        const uint8_t *src, size_t nblocks)
{
	return bc_gf128_x86_blocks(key, acc, src, nblocks, 1);
}

/* 2 * pairs (1..8) blocks with the 256-bit unit and one reduction. */
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_gf128_x86_group256(const struct bc_ghash_x86_key *key, __m128i acc,
                                                           const uint8_t *src, unsigned pairs, const int swap)
{
	struct bc_ghash_x86_sum256 s;

	for (unsigned i = 0; i < pairs; i++) {
		__m256i x = bc_ghash_x86_in256(_mm256_loadu_si256((const __m256i *)(src + 32 * i)), swap);

		if (i == 0)
			x = _mm256_xor_si256(x, _mm256_zextsi128_si256(acc));
		bc_ghash_x86_mul2(&s, key, BC_GHASH_X86_POWERS - 2 * pairs + 2 * i, x, i == 0);
	}
	return bc_ghash_x86_reduce256(&s);
}
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_ghash_x86_group256(const struct bc_ghash_x86_key *key, __m128i acc,
                                                           const uint8_t *src, unsigned pairs)
{
	return bc_gf128_x86_group256(key, acc, src, pairs, 1);
}

/* GHASH (swap) or POLYVAL over whole blocks with the 256-bit unit: 8
 * blocks (4 lane pairs) per reduction; a remainder of 1..7 blocks goes
 * through the 128-bit unit. */
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_gf128_x86_blocks256(const struct bc_ghash_x86_key *key, __m128i acc,
                                                            const uint8_t *src, size_t nblocks, const int swap)
{
	for (; nblocks >= 8; nblocks -= 8, src += 128)
		acc = bc_gf128_x86_group256(key, acc, src, 4, swap);
	return bc_gf128_x86_blocks(key, acc, src, nblocks, swap);
}
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_ghash_x86_blocks256(const struct bc_ghash_x86_key *key, __m128i acc,
                                                            const uint8_t *src, size_t nblocks)
{
	return bc_gf128_x86_blocks256(key, acc, src, nblocks, 1);
}

/* The 512-bit unit: four blocks per multiply, 16 (the key's powers) per
 * reduction. Needs BC_CPU_VPCLMUL and BC_CPU_AVX512 (BW for the swap). */
#define BC_X86_VPCLMUL512 __attribute__((target("vpclmulqdq,pclmul,avx2,avx512f,avx512bw")))

/* 4 * quads (1..4) blocks, times h[16 - 4 quads ..] in order, with one
 * reduction: the four lanes are quarters of one sum. */
BC_X86_INLINE BC_X86_VPCLMUL512 __m128i bc_gf128_x86_group512(const struct bc_ghash_x86_key *key, __m128i acc,
                                                              const uint8_t *src, unsigned quads, const int swap)
{
	const __m512i bswap = _mm512_broadcast_i32x4(bc_x86_bswap128_mask());
	__m512i lo = _mm512_setzero_si512(), hi = lo, mid = lo;
	__m256i l2, h2, m2;

	for (unsigned i = 0; i < quads; i++) {
		unsigned j = BC_GHASH_X86_POWERS - 4 * quads + 4 * i;
		__m512i x = _mm512_loadu_si512(src + 64 * i);
		__m512i h = _mm512_loadu_si512(&key->h[j]), k = _mm512_loadu_si512(&key->k[j]);

		if (swap)
			x = _mm512_shuffle_epi8(x, bswap);
		if (i == 0)
			x = _mm512_xor_si512(x, _mm512_zextsi128_si512(acc));
		lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, h, 0x00));
		hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, h, 0x11));
		mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128(
			_mm512_xor_si512(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4e)), k, 0x00));
	}
	l2 = _mm256_xor_si256(_mm512_castsi512_si256(lo), _mm512_extracti64x4_epi64(lo, 1));
	h2 = _mm256_xor_si256(_mm512_castsi512_si256(hi), _mm512_extracti64x4_epi64(hi, 1));
	m2 = _mm256_xor_si256(_mm512_castsi512_si256(mid), _mm512_extracti64x4_epi64(mid, 1));
	return bc_ghash_x86_reduce256(&(struct bc_ghash_x86_sum256){ l2, h2, m2 });
}

/* Whole blocks: 16 per reduction, a remainder through the 256-bit unit. */
BC_X86_INLINE BC_X86_VPCLMUL512 __m128i bc_gf128_x86_blocks512(const struct bc_ghash_x86_key *key, __m128i acc,
                                                               const uint8_t *src, size_t nblocks, const int swap)
{
	for (; nblocks >= 16; nblocks -= 16, src += 256)
		acc = bc_gf128_x86_group512(key, acc, src, 4, swap);
	return bc_gf128_x86_blocks256(key, acc, src, nblocks, swap);
}

/* x * x^-1 in the reflected order: shift left by one; the bit leaving at
 * the top (x^0) comes back as x^-1 = x^127 + x^6 + x + 1, selected by a mask
 * made with an arithmetic shift, not a branch (H is secret). */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_div_x(__m128i v)
{
	__m128i top = _mm_shuffle_epi32(_mm_srai_epi32(v, 31), 0xff);
	__m128i sh = _mm_or_si128(_mm_slli_epi64(v, 1), _mm_srli_epi64(_mm_slli_si128(v, 8), 63));

	return _mm_xor_si128(sh, _mm_and_si128(top, _mm_set_epi32((int)0xc2000000, 0, 0, 1)));
}

/* h: the hash subkey E_K(0^128) as bytes. H^2..H^16 by repeated products:
 * (H^j x^-1)(H x^-1) through the reduction is H^(j+1) x^-1. */
BC_X86_INLINE BC_X86_PCLMUL void bc_ghash_x86_setkey(struct bc_ghash_x86_key *key, const uint8_t h[16])
{
	__m128i h1 = bc_ghash_x86_div_x(_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)h), bc_x86_bswap128_mask()));
	__m128i p = h1;

	for (unsigned j = 1; j <= BC_GHASH_X86_POWERS; j++) {
		unsigned i = BC_GHASH_X86_POWERS - j;

		key->h[i] = p;
		key->k[i] = _mm_xor_si128(_mm_unpacklo_epi64(p, p), _mm_unpackhi_epi64(p, p));
		if (j < BC_GHASH_X86_POWERS)
			p = bc_ghash_x86_mul1(key, p);
	}
}

/* GHASH over len bytes zero-padded to whole blocks (SP 800-38D 7.1: the
 * IV, the AAD and the ciphertext are each padded this way). */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_padded(const struct bc_ghash_x86_key *key, __m128i acc,
                                                        const uint8_t *src, size_t len)
{
	acc = bc_ghash_x86_blocks(key, acc, src, len / 16);
	if (len % 16) {
		__m128i g = _mm_shuffle_epi8(bc_x86_load_part(src + (len & ~(size_t)15), len % 16),
		                             bc_x86_bswap128_mask());

		acc = bc_ghash_x86_group(key, acc, &g, 1);
	}
	return acc;
}

/* The block [a]_64 || [b]_64 of bit counts, reflected: the 128-bit integer
 * a:b, so no byte swap. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_lengths(uint64_t a, uint64_t b)
{
	return _mm_set_epi64x((long long)(a << 3), (long long)(b << 3));
}

/* The pre-counter block J0 (SP 800-38D 7.1 step 2), reflected, so its low
 * 32 bits are the counter and inc32 is a 32-bit lane add. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_gcm_x86_j0(const struct bc_ghash_x86_key *key, const uint8_t *iv, size_t ivlen)
{
	/* IV || 0^31 || 1 built in a register: bytes stored to the stack and
	 * reloaded as one block would stall the store forwarding, and this
	 * sits at the head of a short message's critical path. */
	if (ivlen == 12) {
		__m128i b = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)iv), (int)bc_load_le32(iv + 8), 2);

		return _mm_shuffle_epi8(_mm_insert_epi32(b, 0x01000000, 3), bc_x86_bswap128_mask());
	}
	return bc_ghash_x86_mul1(key, _mm_xor_si128(bc_ghash_x86_padded(key, _mm_setzero_si128(), iv, ivlen),
	                                            bc_ghash_x86_lengths(0, ivlen)));
}

/* One GCM message in flight: the GHASH accumulator and the first counter
 * block, both reflected (the counter is the low 32-bit lane: inc32 is a
 * lane add, which wraps exactly as SP 800-38D 6.2 asks), and J0 as bytes,
 * which a driver encrypts beside its last counter blocks: a short message
 * then waits for one AES latency, not two. ctr_public: J0 came from a
 * 96-bit IV; otherwise it is GHASH_H(IV), secret, and no branch or
 * address may depend on the counter. */
struct bc_gcm_x86_state {
	__m128i acc, ctr, j0;
	int ctr_public;
};

/* Counter block ctr + i (inc32 applied i times) as bytes, ready for the cipher. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_gcm_x86_ctr(__m128i ctr, int i)
{
	return _mm_shuffle_epi8(_mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, i)), bc_x86_bswap128_mask());
}

/* Everything before the data (7.1 steps 1-4 without the cipher): J0, the
 * first counter block inc32(J0), the AAD hashed. */
BC_X86_INLINE BC_X86_PCLMUL void bc_gcm_x86_start(const struct bc_ghash_x86_key *key, struct bc_gcm_x86_state *st,
                                                  const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen)
{
	__m128i j0 = bc_gcm_x86_j0(key, iv, ivlen);

	st->ctr = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));
	st->j0 = _mm_shuffle_epi8(j0, bc_x86_bswap128_mask());
	st->acc = bc_ghash_x86_padded(key, _mm_setzero_si128(), ad, adlen);
	st->ctr_public = ivlen == 12;
}

/* The end of GHASH (7.1 step 5): the last n (< 256) bytes of ciphertext,
 * zero-padded, and the length block, as reflected blocks in g (room for
 * 17); returns their count. ct is read only up to ct + n. */
BC_X86_INLINE BC_X86_PCLMUL unsigned bc_gcm_x86_last_blocks(__m128i *g, const uint8_t *ct, size_t n, uint64_t adlen,
                                                            uint64_t len)
{
	const __m128i bswap = bc_x86_bswap128_mask();
	unsigned nb = 0;

	for (; nb < n / 16; nb++)
		g[nb] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(ct + 16 * nb)), bswap);
	if (n % 16) {
		g[nb] = _mm_shuffle_epi8(bc_x86_load_part(ct + 16 * nb, n % 16), bswap);
		nb++;
	}
	g[nb++] = bc_ghash_x86_lengths(adlen, len);
	return nb;
}

/* Those blocks aggregated into one group (two when they are 17), so the
 * length block costs no reduction of its own and a short message has one
 * multiply chain. Returns the final GHASH, reflected. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_gcm_x86_final(const struct bc_ghash_x86_key *key, __m128i acc, const uint8_t *ct,
                                                     size_t n, uint64_t adlen, uint64_t len)
{
	__m128i g[BC_GHASH_X86_POWERS + 1];
	unsigned nb = bc_gcm_x86_last_blocks(g, ct, n, adlen, len);
	unsigned first = nb > BC_GHASH_X86_POWERS ? nb - BC_GHASH_X86_POWERS : 0;

	if (first)
		acc = bc_ghash_x86_group(key, acc, g, first);
	return bc_ghash_x86_group(key, acc, g + first, nb - first);
}

/* The same with the 256-bit unit, two blocks per multiply: a tail of 7 to
 * 15 blocks after the last full group then costs half the multiplies. An
 * odd count gets a zero block in front (zero times the extra power adds
 * nothing), so the blocks pair up and keep their powers. */
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_gcm_x86_final256(const struct bc_ghash_x86_key *key, __m128i acc,
                                                         const uint8_t *ct, size_t n, uint64_t adlen, uint64_t len)
{
	__m128i g[BC_GHASH_X86_POWERS + 2];
	unsigned nb = bc_gcm_x86_last_blocks(g + 1, ct, n, adlen, len);
	unsigned first = nb > BC_GHASH_X86_POWERS ? nb - BC_GHASH_X86_POWERS : 0, m = nb - first;
	__m128i *b = g + 1 + first - (m & 1);
	struct bc_ghash_x86_sum256 s;

	if (first)
		acc = bc_ghash_x86_group(key, acc, g + 1, first);
	g[1 + first] = _mm_xor_si128(g[1 + first], acc);
	if (m & 1)
		b[0] = _mm_setzero_si128();
	m += m & 1;   /* at least 2: the length block is always there */
	bc_ghash_x86_mul2(&s, key, BC_GHASH_X86_POWERS - m, _mm256_loadu_si256((const __m256i *)b), 1);
	for (unsigned i = 1; i < m / 2; i++)
		bc_ghash_x86_mul2(&s, key, BC_GHASH_X86_POWERS - m + 2 * i, _mm256_loadu_si256((const __m256i *)(b + 2 * i)),
		                  0);
	return bc_ghash_x86_reduce256(&s);
}

/* The tag S = GHASH XOR E_K(J0) (7.1 step 6), taglen bytes of it. A
 * truncated tag goes through the stack, whose copy of the rest is wiped. */
BC_X86_INLINE BC_X86_PCLMUL void bc_gcm_x86_tag(__m128i s, __m128i ej0, uint8_t *tag, size_t taglen)
{
	__m128i t = _mm_xor_si128(_mm_shuffle_epi8(s, bc_x86_bswap128_mask()), ej0);
	uint8_t b[16];

	if (taglen == 16) {
		_mm_storeu_si128((__m128i *)tag, t);
		return;
	}
	_mm_storeu_si128((__m128i *)b, t);
	memcpy(tag, b, taglen);
	bc_wipe(b, sizeof(b));
}

/* Decryption's verdict (7.2): the expected tag compared in constant time
 * (bc_memneq reads every byte, so where the tags differ does not show);
 * on a mismatch the plaintext already written is zeroed (no unauthenticated
 * plaintext leaves) and -EBADMSG returned: a branch on the verdict, which
 * is public. */
BC_X86_INLINE BC_X86_PCLMUL int bc_gcm_x86_verify(__m128i s, __m128i ej0, const uint8_t *tag, size_t taglen,
                                                  uint8_t *dst, size_t len)
{
	uint8_t t[16];
	int bad;

	bc_gcm_x86_tag(s, ej0, t, 16);
	bad = bc_memneq(t, tag, taglen);
	bc_wipe(t, sizeof(t));
	if (bad) {
		bc_wipe(dst, len);
		return -EBADMSG;
	}
	return 0;
}

/* ---- the "ghash" shash (ghash_pclmul.c, ghash_vpclmul.c) ----------------------
 * The state is src/hash/ghash.h's struct bc_ghash_desc, shared with the
 * portable and the PMULL drivers (a partial block XORed into acc at once and
 * multiplied when it completes, or at final as if zero-padded, so split
 * updates equal one); these drivers only reflect acc around their products. */

/* Shared by both drivers, defined in ghash_pclmul.c. */
int  bc_ghash_x86_shash_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_ghash_x86_shash_init(const void *ctx, void *desc);
void bc_ghash_x86_shash_final(const void *ctx, void *desc, uint8_t *out);
/* The "polyval" shash's (polyval_clmulni.c, polyval_vpclmul.c): the same
 * state, in POLYVAL's byte order. */
int  bc_polyval_x86_shash_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_polyval_x86_shash_final(const void *ctx, void *desc, uint8_t *out);

/* The shash table of an x86 ghash or polyval driver: the same key, state and init for all. */
#define BC_GF128_X86_SHASH(NAME, DRIVER, PRIO, CPU, SETKEY, UPDATE, FINAL) {                            \
		.name = NAME, .driver = DRIVER, .priority = PRIO, .cpu = CPU, .min_keysize = 16,         \
		.max_keysize = 16, .digestsize = 16, .blocksize = 16,                                    \
		.ctxsize = sizeof(struct bc_ghash_x86_key), .descsize = sizeof(struct bc_ghash_desc),    \
		.setkey = SETKEY, .init = bc_ghash_x86_shash_init, .update = UPDATE, .final = FINAL,     \
	}

/* Completes a pending partial block from data (advancing it); returns the
 * accumulator, reflected. If d->pending is still set, data ran out inside
 * the block; else whole blocks are the driver's, the rest goes to
 * bc_ghash_x86_desc_tail. swap: GHASH's byte order, else POLYVAL's. */
BC_X86_INLINE BC_X86_PCLMUL __m128i bc_ghash_x86_desc_head(const struct bc_ghash_x86_key *key, struct bc_ghash_desc *d,
                                                           const uint8_t **data, size_t *len, const int swap)
{
	int completed = bc_ghash_fill_pending(d, data, len);
	__m128i acc = bc_ghash_x86_in(_mm_loadu_si128((const __m128i *)d->acc), swap);

	return completed ? bc_ghash_x86_mul1(key, acc) : acc;
}

/* Stores acc and starts a partial block with the last len % 16 bytes of
 * data (len: what was left after the head). No partial block for
 * len == 0, when a pending one may still be unfinished. */
BC_X86_INLINE BC_X86_PCLMUL void bc_ghash_x86_desc_tail(struct bc_ghash_desc *d, __m128i acc, const uint8_t *data,
                                                        size_t len, const int swap)
{
	_mm_storeu_si128((__m128i *)d->acc, bc_ghash_x86_in(acc, swap));
	if (len)
		bc_ghash_start_pending(d, data + (len & ~(size_t)15), len & 15);
}

/* The digest: a pending partial block multiplied as if zero-padded. */
BC_X86_INLINE BC_X86_PCLMUL void bc_ghash_x86_desc_final(const struct bc_ghash_x86_key *key, struct bc_ghash_desc *d,
                                                         uint8_t *out, const int swap)
{
	__m128i acc = bc_ghash_x86_in(_mm_loadu_si128((const __m128i *)d->acc), swap);

	if (d->pending)
		acc = bc_ghash_x86_mul1(key, acc);
	_mm_storeu_si128((__m128i *)out, bc_ghash_x86_in(acc, swap));
	bc_wipe(d, sizeof(*d));
}

/* ---- fused gcm(aes) (gcm_aes_aesni.c, gcm_aes_vaes.c) ------------------------ */
#define BC_X86_GCM_AES  __attribute__((target("aes,pclmul,sse4.1,ssse3")))

struct bc_gcm_aes_x86_ctx {
	struct bc_aes_x86_ek aes;
	struct bc_ghash_x86_key gh;
};

/* Defined in gcm_aes_aesni.c: AES-128/192/256, H = E_K(0^128) and its powers. */
int bc_gcm_aes_x86_setkey(void *ctx, const uint8_t *key, size_t keylen);

/* The incremental form of gcm-aes-vaes-avx2 (gcm_aes_vaes.c), which
 * gcm-aes-vaes-avx512 shares: its context begins with the same struct
 * bc_gcm_aes_x86_ctx. Whole 256-byte groups of each piece go through gcm_vaes_bulk, the rest of
 * its whole blocks through gcm_vaes_tail; the keystream block a piece ends
 * inside and that block's ciphertext wait in the state for the next piece,
 * as does a partial block of AAD. acc and ctr are kept reflected, as the
 * one-shot path keeps them. */
struct bc_gcm_vaes_req {
	struct bc_gcm_x86_state st;      /* acc, ctr (the next counter block), J0 as bytes */
	uint8_t ks[16];                  /* keystream of the block the last piece ended in */
	uint8_t part[16];                /* that block's ciphertext so far (or the AAD's partial block) */
	uint64_t adlen, len;
	unsigned used;                   /* bytes of part in use */
	int in_text;
};

void bc_gcm_vaes_start(const void *ctx, void *req, const uint8_t *iv, size_t ivlen);
void bc_gcm_vaes_ad(const void *ctx, void *req, const uint8_t *ad, size_t len);
void bc_gcm_vaes_crypt_piece(const void *ctx, void *req, const uint8_t *src, uint8_t *dst, size_t len, int enc);
void bc_gcm_vaes_final(const void *ctx, void *req, uint8_t tag[16]);

/* The tail's counter blocks and J0 through AES together: n (a constant:
 * 1, 2, 4 or 8) blocks beside J0, so their latencies overlap. Returns E_K(J0). */
BC_X86_INLINE BC_X86_GCM_AES __m128i bc_gcm_aes_x86_ks(const struct bc_gcm_aes_x86_ctx *c, __m128i ctr, __m128i j0,
                                                       __m128i *x, unsigned n)
{
	const uint8_t (*rk)[16] = c->aes.rk;
	__m128i key = bc_aes_x86_rk(rk, 0);
	unsigned r;

	j0 = _mm_xor_si128(j0, key);
	for (unsigned i = 0; i < n; i++)
		x[i] = _mm_xor_si128(bc_gcm_x86_ctr(ctr, (int)i), key);
	for (r = 1; r < c->aes.rounds; r++) {
		key = bc_aes_x86_rk(rk, r);
		j0 = _mm_aesenc_si128(j0, key);
		for (unsigned i = 0; i < n; i++)
			x[i] = _mm_aesenc_si128(x[i], key);
	}
	key = bc_aes_x86_rk(rk, r);
	for (unsigned i = 0; i < n; i++)
		x[i] = _mm_aesenclast_si128(x[i], key);
	return _mm_aesenclast_si128(j0, key);
}

/* Encryption of exactly one block, the commonest short message: its
 * ciphertext goes into GHASH (with the length block, one group) straight
 * from the register instead of back through dst, a store and a reload on
 * the path to the tag. Returns the final GHASH and E_K(J0) in *ej0. (Only
 * for one block: handing the general tail's blocks over in an array, whose
 * length varies, keeps them in memory just the same; measured, that made
 * a 16-byte encryption 60 cycles instead of 45.) */
BC_X86_INLINE BC_X86_GCM_AES __m128i bc_gcm_aes_x86_enc16(const struct bc_gcm_aes_x86_ctx *c,
                                                          const struct bc_gcm_x86_state *st, const uint8_t *src,
                                                          uint8_t *dst, uint64_t adlen, __m128i *ej0)
{
	__m128i x, g[2];

	*ej0 = bc_gcm_aes_x86_ks(c, st->ctr, st->j0, &x, 1);
	x = _mm_xor_si128(x, bc_aes_x86_load(src));
	bc_aes_x86_store(dst, x);
	g[0] = _mm_shuffle_epi8(x, bc_x86_bswap128_mask());
	g[1] = bc_ghash_x86_lengths(adlen, 16);
	return bc_ghash_x86_group(&c->gh, st->acc, g, 2);
}

/* A driver's whole data path: returns the final GHASH (lengths included)
 * and E_K(J0) in *ej0. */
typedef __m128i bc_gcm_aes_x86_crypt_fn(const struct bc_gcm_aes_x86_ctx *c, const struct bc_gcm_x86_state *st,
                                        const uint8_t *src, uint8_t *dst, size_t len, size_t adlen, int enc,
                                        __m128i *ej0);

/* The aead operations around a data path (inlined into each driver's, so
 * the call to crypt is direct): the state set up, the data path, the state
 * (J0 and the AAD's hash) wiped; then the tag made or checked. */
BC_X86_INLINE BC_X86_GCM_AES __m128i bc_gcm_aes_x86_run(bc_gcm_aes_x86_crypt_fn *crypt, const void *ctx,
                                                        const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                                        size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                                        int enc, __m128i *ej0)
{
	const struct bc_gcm_aes_x86_ctx *c = ctx;
	struct bc_gcm_x86_state st;
	__m128i s;

	bc_gcm_x86_start(&c->gh, &st, iv, ivlen, ad, adlen);
	s = crypt(c, &st, src, dst, len, adlen, enc, ej0);
	bc_wipe(&st, sizeof(st));
	return s;
}

BC_X86_INLINE BC_X86_GCM_AES void bc_gcm_aes_x86_encrypt(bc_gcm_aes_x86_crypt_fn *crypt, const void *ctx,
                                                         const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                                         size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                                         uint8_t *tag, size_t taglen)
{
	__m128i ej0, s = bc_gcm_aes_x86_run(crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, 1, &ej0);

	bc_gcm_x86_tag(s, ej0, tag, taglen);
}

BC_X86_INLINE BC_X86_GCM_AES int bc_gcm_aes_x86_decrypt(bc_gcm_aes_x86_crypt_fn *crypt, const void *ctx,
                                                        const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                                        size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                                        const uint8_t *tag, size_t taglen)
{
	__m128i ej0, s = bc_gcm_aes_x86_run(crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, 0, &ej0);

	return bc_gcm_x86_verify(s, ej0, tag, taglen, dst, len);
}

/* The last 0..127 bytes of gcm-aes-aesni, with E_K(J0) (returned)
 * computed beside them; also gcm-aes-vaes-avx2's for 1 or 2 blocks, where
 * 128-bit registers are quicker. A partial block is read and written in
 * pieces, so nothing past src + len or dst + len is touched. */
BC_X86_INLINE BC_X86_GCM_AES __m128i bc_gcm_aes_x86_tail(const struct bc_gcm_aes_x86_ctx *c, __m128i ctr, __m128i j0,
                                                         const uint8_t *src, uint8_t *dst, size_t len)
{
	unsigned n = (unsigned)(len + 15) / 16, full = (unsigned)len / 16, part = (unsigned)len % 16;
	__m128i x[8], ej0;

	if (n == 0)
		return bc_aes_x86_enc1(&c->aes, j0);
	if (n == 1)
		ej0 = bc_gcm_aes_x86_ks(c, ctr, j0, x, 1);
	else if (n == 2)
		ej0 = bc_gcm_aes_x86_ks(c, ctr, j0, x, 2);
	else if (n <= 4)
		ej0 = bc_gcm_aes_x86_ks(c, ctr, j0, x, 4);
	else
		ej0 = bc_gcm_aes_x86_ks(c, ctr, j0, x, 8);
	for (unsigned i = 0; i < full; i++)
		bc_aes_x86_store(dst + 16 * i, _mm_xor_si128(x[i], bc_aes_x86_load(src + 16 * i)));
	if (part)
		bc_x86_store_part(dst + 16 * full, _mm_xor_si128(x[full], bc_x86_load_part(src + 16 * full, part)), part);
	bc_wipe(x, sizeof(x));   /* indexed at run time, so in memory: keystream */
	return ej0;
}

#endif
