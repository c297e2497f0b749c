/* blockcrypt arm64: the dedicated cmac, xcbc and cbcmac drivers over aes-ce and sm4-ce. CPU: AES or SM4 (per driver).
 * NIST SP 800-38B / RFC 4493 (CMAC), RFC 3566 (XCBC-MAC), the Linux kernel's zero-padded cbcmac. */
#include "aes_ce.h"
#include "sm4_ce.h"
#include "../../mode/mode.h"

/* The MAC templates' own operations (src/mode/mac.c) bound to one cipher:
 * the buffering and final-block rules stay in one place, while every block
 * goes through the cipher's CBC-MAC chain (round keys held in registers,
 * four blocks loaded per iteration) and digest_many through its interleaved
 * chains. */
#define MAC_CE(kind, alg, cipher_, cpu_, keymin, keymax, key_t)                                         \
	{                                                                                                \
		.name = #kind "(" alg ")", .driver = #kind "-" alg "-ce", .priority = 400, .cpu = cpu_,  \
		.min_keysize = keymin, .max_keysize = keymax, .digestsize = BC_BLOCK,                    \
		.blocksize = BC_BLOCK, .ctxsize = BC_MAC_HDR + sizeof(key_t),                            \
		.descsize = BC_MAC_DESCSIZE, .init_tfm = bc_mac_init_tfm, .setkey = bc_##kind##_setkey,  \
		.init = bc_mac_init, .update = bc_mac_update, .final = bc_mac_final,                     \
		.digest_many = bc_mac_digest_many, .cipher = &(cipher_),                                 \
	}

const struct bc_shash_alg bc_cmac_aes_ce =
	MAC_CE(cmac, "aes", bc_aes_ce, BC_CPU_ARM_AES, 16, 32, struct bc_aes_ce_key);
const struct bc_shash_alg bc_xcbc_aes_ce =
	MAC_CE(xcbc, "aes", bc_aes_ce, BC_CPU_ARM_AES, 16, 32, struct bc_aes_ce_key);
const struct bc_shash_alg bc_cbcmac_aes_ce =
	MAC_CE(cbcmac, "aes", bc_aes_ce, BC_CPU_ARM_AES, 16, 32, struct bc_aes_ce_key);
const struct bc_shash_alg bc_cmac_sm4_ce =
	MAC_CE(cmac, "sm4", bc_sm4_ce, BC_CPU_ARM_SM4, 16, 16, struct bc_sm4_ce_key);
const struct bc_shash_alg bc_xcbc_sm4_ce =
	MAC_CE(xcbc, "sm4", bc_sm4_ce, BC_CPU_ARM_SM4, 16, 16, struct bc_sm4_ce_key);
const struct bc_shash_alg bc_cbcmac_sm4_ce =
	MAC_CE(cbcmac, "sm4", bc_sm4_ce, BC_CPU_ARM_SM4, 16, 16, struct bc_sm4_ce_key);
