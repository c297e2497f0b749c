/* blockcrypt x86-64: SM3 with the message expansion in AVX and the rounds in BMI2 (driver sm3-avx). CPU: AVX, BMI2.
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 5.3.2 (expansion) and 5.3.3 (compression). */
#include "drivers.h"
#include "../../hash/md32.h"

/* x86-64 only: a round keeps eight state words and three temporaries in
 * general registers, more than i386 has. */
#if defined(__x86_64__)

#define SM3_X86_TARGET __attribute__((target("avx,bmi2")))

/* AVX has no vector rotate and no three-input logic: a rotate is two
 * shifts and an OR, and three-way XOR two XORs. */
#define sm3x_rol(x, n) _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - (n)))
#define sm3x_xor3(a, b, c) _mm_xor_si128(_mm_xor_si128(a, b), c)

#include "sm3_x86.h"

/* Priority below sm3-generic's: on the AMD Zen 5 it was measured on, the
 * rounds are latency-bound and the expansion's AVX instructions delay them
 * more than the portable code's scalar expansion in the rounds' idle slots
 * (9.3 cycles/byte at 8192 B against 8.75; sm3-avx512, with a vector rotate
 * and three-input XOR, halves those instructions and takes 7.1). It stays
 * reachable by name, and tested, for CPUs without AVX-512. */
BC_MD32_SHASH(sm3_avx, "sm3", "sm3-avx", 90, BC_CPU_AVX | BC_CPU_BMI2, bc_sm3_iv, sm3x_compress);

#endif
