/* blockcrypt x86-64: Serpent on 512-bit registers, 32 blocks in flight (drivers "serpent-avx512", "MODE-serpent-avx512").
 * Anderson, Biham, Knudsen, "Serpent: A Proposal for the AES". Needs AVX-512 F, BW and VL (VPTERNLOGD, VPROLD). */
#include "drivers.h"

#if defined(__x86_64__)
/* Each S-box output bit is three VPTERNLOGD (two functions of x0, x1, x2,
 * joined by x3), every rotation one VPROLD, every three-way XOR one VPTERNLOGD. */
#define SPX_BITS 512
#define SPX_TARGET "avx2,avx512f,avx512bw,avx512vl"
#include "serpent_x86.h"

BC_SERPENT_X86_DRIVERS(avx512, "avx512", 300, 500, BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_AVX512);
#endif
