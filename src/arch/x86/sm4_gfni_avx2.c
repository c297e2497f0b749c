/* blockcrypt x86: SM4 with GF2P8AFFINEINVQB on 256-bit registers (drivers "sm4-gfni-avx2", "MODE-sm4-gfni-avx2").
 * GB/T 32907-2016; RFC 8998 (GCM with the VPCLMULQDQ GHASH). The code is sm4_x86.h instantiated for this width. */
#define SM4X_BITS 256
#define SM4X_VAES 0
#define SM4X_GFNI 1
#define SM4X_TARGET "gfni,vpclmulqdq,aes,pclmul,avx2"
#include "sm4_x86.h"
#include "drivers.h"

/* AES-NI for the shared key schedule (every GFNI CPU with AVX2 has it). */
BC_SM4_X86_DRIVERS(gfni_avx2, "gfni-avx2", 450, 550, BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_GFNI,
                   BC_CPU_AESNI | BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_GFNI | BC_CPU_PCLMUL | BC_CPU_VPCLMUL);

/* The eight-chain MAC, also for sm4-gfni-avx512 (eight chains fill half a group of zmm). */
__attribute__((target(SM4X_TARGET)))
void bc_sm4_gfni_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[], size_t nblocks)
{
	sm4x_mac_many(ctx, n, st, src, nblocks);
}
