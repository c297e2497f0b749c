/* blockcrypt x86: small inline vector helpers shared by the x86 drivers (AES, SM4, GCM).
 * IEEE 1619-2018 (XTS tweak multiplication by x^k), NIST SP 800-38A (CTR counter blocks). */
#ifndef BC_X86_UTIL_H
#define BC_X86_UTIL_H

#include <immintrin.h>

#include "internal.h"

/* Per-function instruction sets, so one binary runs on every x86 CPU and the
 * registry's BC_CPU_* check decides what executes. The 128-bit set matches
 * BC_CPU_AESNI; the 256-bit ones BC_CPU_VAES|BC_CPU_AVX2 (|BC_CPU_VPCLMUL). */
#define BC_X86_SSE  __attribute__((target("sse4.1,ssse3")))
#define BC_X86_AES  __attribute__((target("aes,sse4.1,ssse3")))
#define BC_X86_AVX2 __attribute__((target("avx2")))
#define BC_X86_VAES __attribute__((target("vaes,aes,avx2")))
#define BC_X86_VPCLMUL __attribute__((target("vpclmulqdq,pclmul,avx2")))
#define BC_X86_VAES_VPCLMUL __attribute__((target("vaes,vpclmulqdq,aes,pclmul,avx2")))
/* Helpers are always inlined: a vector value passed to a real call would
 * change the i386 ABI, and the whole point of them is to cost nothing. */
#define BC_X86_INLINE static inline __attribute__((always_inline))

/* Makes p opaque to the optimizer: used once per loop iteration on the
 * round-key pointer, so that keys are read from the context where they are
 * used (as memory operands) instead of being hoisted out of the loop into
 * more registers than there are, whose spill slots would leave copies of the
 * key on the stack after the call. Emits no instruction. */
#define BC_X86_OPAQUE(p) __asm__ volatile("" : "+r"(p))

/* ---- byte order ---------------------------------------------------------------- */

/* Reverses the 16 bytes of each 128-bit lane: big-endian counter <-> integer. */
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_bswap128_mask(void)
{
	return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
BC_X86_INLINE BC_X86_AVX2 __m256i bc_x86_bswap256_mask(void)
{
	return _mm256_broadcastsi128_si256(bc_x86_bswap128_mask());
}

/* ---- XTS tweaks (IEEE 1619 little-endian GF(2^128), x^128 = x^7 + x^2 + x + 1) ------
 * Single doubling: the bits shifted out of each 64-bit half become all-ones
 * masks by an arithmetic shift; the mask register {0x87, 0, 1, 0} turns the
 * top bit into the reduction and the bit-63 carry into bit 64: no branch on
 * the tweak, which is secret (E_K2(iv)). Keep the mask
 * in a register across a loop (bc_x86_xts_mask once, then pass it). */
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_xts_mask(void)
{
	return _mm_set_epi32(0, 1, 0, 0x87);
}
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_xts_mul_x(__m128i t, __m128i mask)
{
	__m128i c = _mm_srai_epi32(_mm_shuffle_epi32(t, _MM_SHUFFLE(2, 1, 0, 3)), 31);
	return _mm_xor_si128(_mm_slli_epi64(t, 1), _mm_and_si128(c, mask));
}

/* The reduction constant 0x87 in the low half of each 128-bit lane, for
 * VPCLMULQDQ (bc_x86_xts_mul_xk_256). */
BC_X86_INLINE BC_X86_AVX2 __m256i bc_x86_xts_poly256(void)
{
	return _mm256_set_epi64x(0, 0x87, 0, 0x87);
}

/* Multiplication by x^k (1 <= k <= 56) per 128-bit lane, for tweaks that
 * must not wait on a chain of doublings: each 64-bit half shifted by k, the
 * bits the low half loses carried into the high half, those the high half
 * loses multiplied by 0x87 (VPCLMULQDQ, BC_CPU_VPCLMUL) into the low half. */
BC_X86_INLINE BC_X86_VPCLMUL __m256i bc_x86_xts_mul_xk_256(__m256i t, unsigned k, __m256i poly)
{
	__m256i out = _mm256_srli_epi64(t, (int)(64 - k));

	return _mm256_xor_si256(_mm256_xor_si256(_mm256_slli_epi64(t, (int)k), _mm256_slli_si256(out, 8)),
	                        _mm256_clmulepi64_epi128(out, poly, 0x01));
}

/* A message's tweak for block j >= 0 from the first one (x^56 at a time). */
BC_X86_INLINE BC_X86_VPCLMUL __m128i bc_x86_xts_tweak_at(__m128i t, size_t j)
{
	const __m256i poly = bc_x86_xts_poly256();
	__m256i v = _mm256_zextsi128_si256(t);

	for (; j > 56; j -= 56)
		v = bc_x86_xts_mul_xk_256(v, 56, poly);
	if (j)
		v = bc_x86_xts_mul_xk_256(v, (unsigned)j, poly);
	return _mm256_castsi256_si128(v);
}

/* ---- partial blocks --------------------------------------------------------------
 * 1..15 bytes moved between memory and the low bytes of an xmm register in
 * 8-, 4-, 2- and 1-byte pieces chosen by the (public) length, so no byte past
 * p + n is touched and no stack copy is made: a copy would leave data on the
 * stack and its byte-wise reload would stall on store forwarding. */
static inline uint64_t bc_x86_load_upto7(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	uint32_t w4;
	uint16_t w2;
	size_t o = 0;

	if (n & 4) {
		memcpy(&w4, p, 4);
		v = w4;
		o = 4;
	}
	if (n & 2) {
		memcpy(&w2, p + o, 2);
		v |= (uint64_t)w2 << (8 * o);
		o += 2;
	}
	if (n & 1)
		v |= (uint64_t)p[o] << (8 * o);
	return v;
}
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_load_part(const uint8_t *p, size_t n)
{
	uint64_t lo, hi = 0;

	if (n & 8) {
		memcpy(&lo, p, 8);
		hi = bc_x86_load_upto7(p + 8, n & 7);
	} else {
		lo = bc_x86_load_upto7(p, n);
	}
	return _mm_set_epi64x((long long)hi, (long long)lo);
}
BC_X86_INLINE BC_X86_SSE void bc_x86_store_part(uint8_t *p, __m128i v, size_t n)
{
	uint64_t w;
	uint32_t w4;
	uint16_t w2;

	if (n & 8) {
		_mm_storel_epi64((__m128i *)(void *)p, v);
		v = _mm_srli_si128(v, 8);
		p += 8;
	}
	w = (uint64_t)(uint32_t)_mm_cvtsi128_si32(v) | (uint64_t)(uint32_t)_mm_extract_epi32(v, 1) << 32;
	if (n & 4) {
		w4 = (uint32_t)w;
		memcpy(p, &w4, 4);
		w >>= 32;
		p += 4;
	}
	if (n & 2) {
		w2 = (uint16_t)w;
		memcpy(p, &w2, 2);
		w >>= 16;
		p += 2;
	}
	if (n & 1)
		*p = (uint8_t)w;
}

/* ---- CTR counters (the whole 16-byte block is one big-endian 128-bit integer) -------
 * The counter is public, so a driver keeps it as two uint64_t (works on i386
 * too) and branches on whether a batch would carry out of the low half: no
 * carry (almost always) -> integer lanes base + i, one byte swap each; carry
 * -> bc_x86_ctr_block per block. */
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_ctr_le(uint64_t hi, uint64_t lo)
{
	return _mm_set_epi64x((long long)hi, (long long)lo);
}
/* Counter block number (hi:lo) + i, big-endian, with the full 128-bit carry. */
BC_X86_INLINE BC_X86_SSE __m128i bc_x86_ctr_block(uint64_t hi, uint64_t lo, uint64_t i)
{
	uint64_t l = lo + i;
	return _mm_shuffle_epi8(bc_x86_ctr_le(hi + (l < lo), l), bc_x86_bswap128_mask());
}
/* Reads the 16-byte IV as (hi, lo); writes (hi:lo) + n back. Two 8-byte
 * byte-swapped accesses each (the bytewise bc_store_be64 became a chain of
 * shifts and byte inserts on every call, most of a one-block CTR's cost
 * outside its AES). */
static inline void bc_x86_ctr_load(const uint8_t iv[16], uint64_t *hi, uint64_t *lo)
{
	memcpy(hi, iv, 8);
	memcpy(lo, iv + 8, 8);
	*hi = __builtin_bswap64(*hi);
	*lo = __builtin_bswap64(*lo);
}
static inline void bc_x86_ctr_store(uint8_t iv[16], uint64_t hi, uint64_t lo, uint64_t n)
{
	uint64_t l = lo + n, h = __builtin_bswap64(hi + (l < lo));

	l = __builtin_bswap64(l);
	memcpy(iv, &h, 8);
	memcpy(iv + 8, &l, 8);
}

#endif
