/* blockcrypt arm64: the sm4-ce block cipher (key schedule with SM4EKEY, n-block SM4E, CBC-MAC chains). CPU: SM4.
 * GB/T 32907-2016 (SM4 key expansion 7.3, FK and CK constants); CBC-MAC as in NIST SP 800-38B. */
#include "sm4_ce.h"

/* K0..K3 = MK ^ FK, then SM4EKEY derives four round keys at a time from
 * the previous four and four CK constants; CK byte j of word i is
 * (4i + j) * 7 mod 256 (GB/T 32907 7.3). SM4EKEY is an instruction, so
 * no table is indexed by key bytes. */
void bc_sm4_ce_expand(struct bc_sm4_ce_key *k, const uint8_t key[16])
{
	static const uint32_t fk[4] = { 0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc };
	uint32_t ck[32];
	uint32x4_t v = veorq_u32(bc_sm4_ce_words(vld1q_u8(key)), vld1q_u32(fk));

	for (unsigned i = 0; i < 32; i++) {
		uint8_t b[4];

		for (unsigned j = 0; j < 4; j++)
			b[j] = (uint8_t)((4 * i + j) * 7);
		ck[i] = bc_load_be32(b);
	}
	for (int i = 0; i < 8; i++) {
		uint32x4_t d;

		v = vsm4ekeyq_u32(v, vld1q_u32(ck + 4 * i));
		vst1q_u32(k->rk + 4 * i, v);
		d = vrev64q_u32(v);
		vst1q_u32(k->dk + 28 - 4 * i, vextq_u32(d, d, 2));
	}
}

int bc_sm4_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16)
		return -EINVAL;
	bc_sm4_ce_expand(ctx, key);
	return 0;
}

void bc_sm4_ce_ecb_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->rk);
	bc_a64_ecb(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, src, dst, nblocks);
}

void bc_sm4_ce_ecb_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->dk);
	bc_a64_ecb(&r, bc_sm4_ce_crypt4, bc_sm4_ce_crypt1, src, dst, nblocks);
}

/* L (a constant) chains side by side. The chaining value stays in the
 * word domain SM4E works in, so between two blocks there is only the XOR
 * with the next (byte-swapped, off the critical path) message block. */
static inline __attribute__((always_inline)) void mac_lanes(const struct bc_sm4_ce_regs *r, int L,
							    uint8_t (*st)[16], const uint8_t *const src[],
							    size_t nblocks)
{
	uint32x4_t y[8];

	BC_A64_UNROLL
	for (int l = 0; l < L; l++)
		y[l] = bc_sm4_ce_words(vld1q_u8(st[l]));
	for (size_t off = 0; off < 16 * nblocks; off += 16) {
		BC_A64_UNROLL
		for (int l = 0; l < L; l++)
			y[l] = veorq_u32(y[l], bc_sm4_ce_words(vld1q_u8(src[l] + off)));
		bc_sm4_ce_rounds_n(r, y, L);
	}
	BC_A64_UNROLL
	for (int l = 0; l < L; l++)
		vst1q_u8(st[l], bc_sm4_ce_bytes(y[l]));
}

/* One chain; its update loop takes four blocks per iteration (one load of
 * 64 bytes, four chained encryptions). */
static void sm4_ce_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;
	uint32x4_t y;

	bc_sm4_ce_load(&r, k->rk);
	y = bc_sm4_ce_words(vld1q_u8(st));
	for (; nblocks >= 4; nblocks -= 4, src += 64) {
		uint8x16x4_t m = vld1q_u8_x4(src);

		y = bc_sm4_ce_rounds(&r, veorq_u32(y, bc_sm4_ce_words(m.val[0])));
		y = bc_sm4_ce_rounds(&r, veorq_u32(y, bc_sm4_ce_words(m.val[1])));
		y = bc_sm4_ce_rounds(&r, veorq_u32(y, bc_sm4_ce_words(m.val[2])));
		y = bc_sm4_ce_rounds(&r, veorq_u32(y, bc_sm4_ce_words(m.val[3])));
	}
	for (; nblocks; nblocks--, src += 16)
		y = bc_sm4_ce_rounds(&r, veorq_u32(y, bc_sm4_ce_words(vld1q_u8(src))));
	vst1q_u8(st, bc_sm4_ce_bytes(y));
}

static void sm4_ce_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
			    size_t nblocks)
{
	const struct bc_sm4_ce_key *k = ctx;
	struct bc_sm4_ce_regs r;

	bc_sm4_ce_load(&r, k->rk);
#define SM4_CE_LANES(L) mac_lanes(&r, (L), st, src, nblocks)
	BC_A64_MAC_RUNS(n, st, src, SM4_CE_LANES);
#undef SM4_CE_LANES
}

const struct bc_cipher_alg bc_sm4_ce = {
	.name = "sm4",
	.driver = "sm4-ce",
	.priority = 300,
	.cpu = BC_CPU_ARM_SM4,
	.min_keysize = 16,
	.max_keysize = 16,
	.ctxsize = sizeof(struct bc_sm4_ce_key),
	.setkey = bc_sm4_ce_setkey,
	.encrypt = bc_sm4_ce_ecb_encrypt,
	.decrypt = bc_sm4_ce_ecb_decrypt,
	.mac = sm4_ce_mac,
	.mac_many = sm4_ce_mac_many,
};
