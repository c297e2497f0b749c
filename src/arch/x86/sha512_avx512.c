/* blockcrypt x86: SHA-512 and SHA-384 with the message schedule of two blocks in AVX-512VL and the rounds in BMI
 * (drivers sha512-avx512, sha384-avx512). CPU: AVX-512 F and VL, BMI2 (and BMI1's ANDN). FIPS 180-4 section 6.4.2. */
#include <immintrin.h>

#include "drivers.h"
#include "../../hash/md32.h"

/* x86-64 only: on i386 the 64-bit rounds have too few general registers. */
#if defined(__x86_64__)

#define BC_X86_AVX2_BMI2 __attribute__((target("avx2,avx512f,avx512vl,bmi,bmi2")))

/* VPRORQ and VPTERNLOGQ on ymm: a sigma in 4 instructions, not 9, which
 * leaves the rounds more of the ports they share with the vector unit
 * (4.8 cycles/byte at 8192 B, against 5.0 for sha512-avx2). */
#define sha512x_ror(x, n) _mm256_ror_epi64(x, n)
#define sha512x_xor3(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0x96)

#include "sha512_x86.h"

BC_SHA512_SHASH(sha512_avx512, sha384_avx512, "sha512-avx512", "sha384-avx512", 310, BC_CPU_AVX512 | BC_CPU_BMI2,
                sha512x_compress);

#endif
