/* blockcrypt tests: the SM4 S-box of the x86 AES-NI drivers (PSHUFB affine maps around AESENCLAST),
 * all 256 inputs, against the S-box computed from its algebraic form. GB/T 32907-2016 section 6.2. */
#include <stdio.h>

#include "common.h"
#include "internal.h"

/* The S-box from first principles: S(x) = A inv(A x + c) + c, with inv the
 * inverse in GF(2^8) modulo x^8+x^7+x^6+x^5+x^4+x^2+1, A the circulant bit
 * matrix whose row i is 0xa7 rotated left by i, c = 0xd3 (the affine
 * structure published for SM4's S-box; the first row of the standard's table
 * is checked below so the formula itself is pinned to the standard). */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	unsigned r = 0;

	for (int i = 0; i < 8; i++)
		if (b >> i & 1)
			r ^= (unsigned)a << i;
	for (int i = 14; i >= 8; i--)
		if (r >> i & 1)
			r ^= 0x1f5u << (i - 8);
	return (uint8_t)r;
}

static uint8_t affine(uint8_t x)
{
	uint8_t y = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t row = (uint8_t)(0xa7 << i | 0xa7 >> (8 - i));

		y |= (uint8_t)(__builtin_parity(row & x) << i);
	}
	return y ^ 0xd3;
}

static uint8_t sbox_ref(uint8_t x)
{
	uint8_t z = affine(x), inv = 0;

	for (unsigned v = 1; v < 256 && z; v++)
		if (gf_mul(z, (uint8_t)v) == 1)
			inv = (uint8_t)v;
	return affine(inv);
}

#if defined(__x86_64__) || defined(__i386__)
#define SM4X_BITS 128
#define SM4X_VAES 0
#define SM4X_TARGET "aes,pclmul,avx"
#pragma GCC diagnostic ignored "-Wunused-function"   /* the header's drivers are not instantiated here */
#include "../src/arch/x86/sm4_x86.h"

/* Every byte of the register holds x, so ShiftRows (the order the S-box
 * leaves its bytes in) changes nothing and every byte must be S(x). */
__attribute__((target(SM4X_TARGET))) static void check_x86(const uint8_t ref[256])
{
	for (unsigned x = 0; x < 256; x++) {
		uint8_t out[16];

		_mm_storeu_si128((__m128i *)out, sm4x_sbox(_mm_set1_epi8((char)x)));
		for (int i = 0; i < 16; i++)
			CHECK(out[i] == ref[x], "sm4x_sbox(%02x) byte %d = %02x, want %02x", x, i, out[i], ref[x]);
	}
}
#endif

int main(void)
{
	static const uint8_t first_row[16] = { 0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7,
					       0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05 };
	uint8_t ref[256];
	int seen[256] = { 0 };

	test_init();
	for (unsigned x = 0; x < 256; x++) {
		ref[x] = sbox_ref((uint8_t)x);
		seen[ref[x]]++;
	}
	for (unsigned x = 0; x < 16; x++)
		CHECK(ref[x] == first_row[x], "reference S(%02x) = %02x, the standard says %02x", x, ref[x], first_row[x]);
	for (unsigned v = 0; v < 256; v++)
		CHECK(seen[v] == 1, "reference S-box is not a permutation at %02x", v);
#if defined(__x86_64__) || defined(__i386__)
	if ((bc_cpu_features() & (BC_CPU_AESNI | BC_CPU_AVX)) == (BC_CPU_AESNI | BC_CPU_AVX))
		check_x86(ref);
	else
		printf("SKIPPED: test_sm4_sbox: x86 S-box: no AES-NI with AVX here\n");
#endif
	return test_summary("test_sm4_sbox");
}
