/* blockcrypt tests: the GFNI form of the SM4 round (GF2P8AFFINEINVQB matrices in the M domain, sm4_x86.h),
 * every byte value in every byte position, against L(S(.)) from the algebraic S-box. GB/T 32907-2016 6.2. */
#include <stdio.h>

#include "common.h"
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#define SM4X_BITS 256
#define SM4X_VAES 0
#define SM4X_GFNI 1
#define SM4X_TARGET "gfni,vpclmulqdq,aes,pclmul,avx2"
#pragma GCC diagnostic ignored "-Wunused-function"   /* the header's drivers are not instantiated here */
#include "../src/arch/x86/sm4_x86.h"

static uint32_t rotl(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

/* The round function T = L(S(.)) of the standard, on a word. */
static uint32_t t_ref(const uint8_t sbox[256], uint32_t a)
{
	uint32_t b = 0;

	for (int i = 0; i < 32; i += 8)
		b |= (uint32_t)sbox[a >> i & 0xff] << i;
	return b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24);
}

/* x0 ^ T(a) through the driver's round: a enters as pre(a) = M a ^ pre(0)
 * (pre(0) is the first entry of pre()'s low nibble table), x0 as M x0, and
 * the result comes back through M^-1. */
__attribute__((target(SM4X_TARGET))) static uint32_t round_gfni(uint32_t x0, uint32_t a)
{
	static const uint8_t pre_lo[16] = { SM4X_PRE_LO };
	uint32_t out[8];
	__m256i y = _mm256_xor_si256(sm4x_m(_mm256_set1_epi32((int)a)), _mm256_set1_epi8((char)pre_lo[0]));

	_mm256_storeu_si256((__m256i *)out, sm4x_mi(sm4x_round1(sm4x_m(_mm256_set1_epi32((int)x0)), y)));
	for (int i = 1; i < 8; i++)
		CHECK(out[i] == out[0], "lane %d differs", i);
	return out[0];
}

static void check_gfni(const uint8_t sbox[256])
{
	/* each byte value alone in each position (the rest zero), x0 both zero and not */
	for (unsigned pos = 0; pos < 32; pos += 8)
		for (uint32_t v = 0; v < 256; v++) {
			uint32_t a = v << pos, x0 = v * 0x01010101u ^ 0x5a3c96e1u;

			set_context("byte %02x at bit %u", (unsigned)v, pos);
			CHECK(round_gfni(0, a) == t_ref(sbox, a), "T(%08x): %08x, want %08x", a, round_gfni(0, a),
			      t_ref(sbox, a));
			CHECK(round_gfni(x0, a) == (x0 ^ t_ref(sbox, a)), "x0 ^ T(%08x) wrong", a);
		}
	/* and whole random words */
	rng_seed(6);
	for (int i = 0; i < 4096; i++) {
		uint32_t a = (uint32_t)rng_u64(), x0 = (uint32_t)rng_u64();

		set_context("word %08x", a);
		CHECK(round_gfni(x0, a) == (x0 ^ t_ref(sbox, a)), "x0 ^ T(%08x) wrong", a);
	}
}
#endif

int main(void)
{
	test_init();
#if defined(__x86_64__) || defined(__i386__)
	uint8_t sbox[256];

	for (unsigned x = 0; x < 256; x++)
		sbox[x] = sm4_sbox_ref((uint8_t)x);
	if ((bc_cpu_features() & (BC_CPU_GFNI | BC_CPU_AVX2)) == (BC_CPU_GFNI | BC_CPU_AVX2))
		check_gfni(sbox);
	else
		printf("SKIPPED: test_sm4_gfni: no GFNI with AVX2 here\n");
#else
	printf("SKIPPED: test_sm4_gfni: GFNI is an x86 extension\n");
#endif
	return test_summary("test_sm4_gfni");
}
