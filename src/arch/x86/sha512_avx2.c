/* blockcrypt x86: SHA-512 and SHA-384 with the message schedule of two blocks in AVX2 and the rounds in BMI
 * (drivers sha512-avx2, sha384-avx2). CPU: AVX2, BMI2 (and BMI1's ANDN). FIPS 180-4 section 6.4.2 (sha512_x86.h). */
#include <immintrin.h>

#include "drivers.h"
#include "../../hash/md32.h"

#define BC_X86_AVX2_BMI2 __attribute__((target("avx2,bmi,bmi2")))

/* AVX2 has no 64-bit rotate: two shifts and an OR. */
static inline __attribute__((always_inline)) BC_X86_AVX2_BMI2 __m256i sha512x_ror(__m256i x, int n)
{
	return _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - n));
}

#define sha512x_xor3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)

#include "sha512_x86.h"

BC_SHA512_SHASH(sha512_avx2, sha384_avx2, "sha512-avx2", "sha384-avx2", 300, BC_CPU_AVX2 | BC_CPU_BMI2,
                sha512x_compress);
