/* blockcrypt tests: the SM4 S-box of the x86 AES-NI drivers (PSHUFB affine maps around AESENCLAST),
 * all 256 inputs, against the S-box computed from its algebraic form. GB/T 32907-2016 section 6.2. */
#include <stdio.h>

#include "common.h"
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#define SM4X_BITS 128
#define SM4X_VAES 0
#define SM4X_GFNI 0
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
		ref[x] = sm4_sbox_ref((uint8_t)x);
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
