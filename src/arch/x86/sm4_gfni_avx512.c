/* blockcrypt x86-64: SM4 with GF2P8AFFINEINVQB on 512-bit registers (drivers "sm4-gfni-avx512", "MODE-sm4-gfni-avx512").
 * GB/T 32907-2016; RFC 8998 (GCM with the VPCLMULQDQ GHASH). Needs AVX-512 F and BW, GFNI, VPCLMULQDQ, AES-NI. */
#include "drivers.h"

#if defined(__x86_64__)
/* sm4_x86.h at 16 blocks per register: 128 blocks in flight per pass; the
 * eight-chain MAC is the 256-bit GFNI driver's. */
#define SM4X_BITS 512
#define SM4X_VAES 0
#define SM4X_GFNI 1
#define SM4X_TARGET "gfni,vpclmulqdq,aes,pclmul,avx2,avx512f,avx512bw"
#include "sm4_x86.h"

BC_SM4_X86_DRIVERS(gfni_avx512, "gfni-avx512", 460, 560,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_GFNI | BC_CPU_AVX512,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_GFNI | BC_CPU_PCLMUL | BC_CPU_VPCLMUL |
                   BC_CPU_AVX512);
#endif
