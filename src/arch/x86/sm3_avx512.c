/* blockcrypt x86-64: SM3 with the message expansion in AVX-512VL and the rounds in BMI2 (driver sm3-avx512).
 * CPU: AVX-512 F, BW and VL, BMI2. GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 5.3.2 and 5.3.3. */
#include "drivers.h"
#include "../../hash/md32.h"

/* x86-64 only, as sm3-avx: the rounds need more general registers than i386 has. */
#if defined(__x86_64__)

#define SM3_X86_TARGET __attribute__((target("avx2,avx512f,avx512vl,bmi2")))

/* A 4-word expansion step takes 36 vector instructions in AVX, 18 with
 * VPROLD and VPTERNLOGD on xmm. On Zen 5 the rounds are latency-bound and
 * the expansion competes with them for dispatch: 7.1 cycles/byte at 8192 B
 * here, against 9.3 for sm3-avx and 8.75 for sm3-generic (the rounds'
 * latency floor is 6.75). */
#define sm3x_rol(x, n) _mm_rol_epi32(x, n)
#define sm3x_xor3(a, b, c) _mm_ternarylogic_epi32(a, b, c, 0x96)

#include "sm3_x86.h"

BC_MD32_SHASH(sm3_avx512, "sm3", "sm3-avx512", 200, BC_CPU_AVX512 | BC_CPU_BMI2, bc_sm3_iv, sm3x_compress);

#endif
