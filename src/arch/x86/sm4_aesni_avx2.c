/* blockcrypt x86: SM4 with AES-NI on 256-bit AVX2 registers, AESENCLAST per 128-bit half (drivers "sm4-aesni-avx2", "MODE-sm4-aesni-avx2").
 * GB/T 32907-2016; RFC 8998. The code is sm4_x86.h instantiated for this width. */
#define SM4X_BITS 256
#define SM4X_VAES 0
#define SM4X_GFNI 0
#define SM4X_TARGET "aes,pclmul,avx2"
#include "sm4_x86.h"
#include "drivers.h"

BC_SM4_X86_DRIVERS(aesni_avx2, "aesni-avx2", 350, 450, BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_PCLMUL);
