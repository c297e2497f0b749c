/* blockcrypt x86: DES and TDES bitsliced on 256-bit registers, 256 blocks a pass (drivers "des-avx2", "des3_ede-avx2").
 * FIPS 46-3, NIST SP 800-67 Rev. 2. Needs AVX2. The core is src/cipher/des.h with four 64-bit lanes a word. */
#include <stdint.h>

typedef uint64_t des_v4 __attribute__((vector_size(32)));
#define DES_BS_WORD des_v4
#define DES_BS_LANES 256
#define DES_BS_FN static __attribute__((target("avx2")))
#define DES_BS_SET(w, q, v) ((w)[q] = (v))
#define DES_BS_GET(w, q) ((w)[q])
#include "../../cipher/des.h"

/* One pass of up to 256 blocks, for the AVX-512 drivers too. */
void bc_des_avx2_pass(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src, size_t n)
{
	des_bs(rk, nkeys, dec, dst, src, n);
}

static void avx2_crypt(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src,
		       size_t nblocks)
{
	/* fewer blocks, and cbc encryption and the MACs (one block at a time), go
	 * to the portable driver's one-block path */
	while (nblocks >= BC_DES_PASS_MIN) {
		size_t n = nblocks < DES_BS_LANES ? nblocks : DES_BS_LANES;

		des_bs(rk, nkeys, dec, dst, src, n);
		src += 8 * n;
		dst += 8 * n;
		nblocks -= n;
	}
	if (nblocks)
		bc_des_crypt(rk, nkeys, dec, dst, src, nblocks);
}

BC_DES_ENTRIES(_avx2, avx2_crypt)

const struct bc_cipher_alg bc_des_avx2 = {
	.name = "des",
	.driver = "des-avx2",
	.priority = 200,
	.cpu = BC_CPU_AVX | BC_CPU_AVX2,
	.blocksize = 8,
	.min_keysize = 8,
	.max_keysize = 8,
	.ctxsize = sizeof(struct des_ctx),
	.setkey = bc_des_setkey,
	.weak_key = bc_des_weak_key,
	.encrypt = des_avx2_encrypt,
	.decrypt = des_avx2_decrypt,
	.mac = bc_des_mac,
};

const struct bc_cipher_alg bc_des3_ede_avx2 = {
	.name = "des3_ede",
	.driver = "des3_ede-avx2",
	.priority = 200,
	.cpu = BC_CPU_AVX | BC_CPU_AVX2,
	.blocksize = 8,
	.min_keysize = 24,
	.max_keysize = 24,
	.ctxsize = sizeof(struct des3_ctx),
	.setkey = bc_des3_setkey,
	.weak_key = bc_des3_weak_key,
	.encrypt = des3_avx2_encrypt,
	.decrypt = des3_avx2_decrypt,
	.mac = bc_des3_mac,
};
