/* blockcrypt x86: SM4 with VAESENCLAST on whole 256-bit registers (drivers "sm4-vaes-avx2", "MODE-sm4-vaes-avx2").
 * GB/T 32907-2016; RFC 8998 (GCM with the VPCLMULQDQ GHASH). The code is sm4_x86.h instantiated for this width. */
#define SM4X_BITS 256
#define SM4X_VAES 1
#define SM4X_GFNI 0
#define SM4X_TARGET "vaes,vpclmulqdq,aes,pclmul,avx2"
#include "sm4_x86.h"
#include "drivers.h"

BC_SM4_X86_DRIVERS(vaes_avx2, "vaes-avx2", 400, 500, BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_VAES,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_VAES | BC_CPU_PCLMUL | BC_CPU_VPCLMUL);
