/* blockcrypt arm64: the aes-ce block cipher (key schedule, n-block encrypt/decrypt, CBC-MAC chains). CPU: AES (Crypto Extensions).
 * FIPS-197 (AES key expansion 5.2, equivalent inverse cipher 5.3.5); CBC-MAC as in NIST SP 800-38B. */
#include "aes_ce.h"

/* SubWord without a table: AESE with a zero key on a register holding w in
 * all four columns is SubBytes(ShiftRows(w)), and ShiftRows moves nothing
 * when every column is the same. */
static uint32_t sub_word(uint32_t w)
{
	uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));

	return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))), 0);
}

/* FIPS-197 KeyExpansion on little-endian words (byte 0 is the low byte, so
 * RotWord is a rotation right by 8), then the decryption keys. */
void bc_aes_ce_expand(struct bc_aes_ce_key *k, const uint8_t *key, size_t keylen)
{
	unsigned nk = (unsigned)keylen / 4, nr = nk + 6, total = 4 * (nr + 1), s = 14 - nr, i;
	uint32_t w[60], rcon = 1;

	for (i = 0; i < nk; i++)
		w[i] = bc_load_le32(key + 4 * i);
	for (i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word(t);
			t = (t >> 8 | t << 24) ^ rcon;
			rcon = (rcon << 1) ^ (0x11b & (0 - (rcon >> 7)));
		} else if (nk == 8 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	memset(k, 0, sizeof(*k));
	for (i = 0; i < total; i++)
		bc_store_le32(k->rk[s + i / 4] + 4 * (i % 4), w[i]);
	/* AESIMC, an instruction, gives the decryption keys: no table */
	vst1q_u8(k->dk[s], vld1q_u8(k->rk[14]));
	for (i = 1; i < nr; i++)
		vst1q_u8(k->dk[s + i], vaesimcq_u8(vld1q_u8(k->rk[14 - i])));
	vst1q_u8(k->dk[14], vld1q_u8(k->rk[s]));
	k->rounds = nr;
	bc_wipe(w, sizeof(w));
}

int bc_aes_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (!bc_aes_ce_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_ce_expand(ctx, key, keylen);
	return 0;
}

void bc_aes_ce_ecb_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_a64_ecb(&r, bc_aes_ce_enc4, bc_aes_ce_enc1, src, dst, nblocks));
}

void bc_aes_ce_ecb_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->dk, k->rounds);
	BC_AES_CE_PER_KEYSIZE(&r, bc_a64_ecb(&r, bc_aes_ce_dec4, bc_aes_ce_dec1, src, dst, nblocks));
}

/* L (a constant) CBC-MAC chains side by side. Each keeps y = st ^ rk[Nr]:
 * the final key XOR of one block then merges into the first round key of
 * the next (k0 = rk[0] ^ rk[Nr]), and the message XOR is the only step
 * between two blocks' rounds. */
static inline __attribute__((always_inline)) void mac_lanes(const struct bc_aes_ce_regs *r, int L,
							    uint8_t (*st)[16], const uint8_t *const src[],
							    size_t nblocks)
{
	const uint8x16_t k0 = veorq_u8(r->first, r->k[14]);
	uint8x16_t y[8];

	BC_A64_UNROLL
	for (int l = 0; l < L; l++)
		y[l] = veorq_u8(vld1q_u8(st[l]), r->k[14]);
	for (size_t off = 0; off < 16 * nblocks; off += 16) {
		BC_A64_UNROLL
		for (int l = 0; l < L; l++)
			y[l] = veorq_u8(y[l], vld1q_u8(src[l] + off));
		bc_aes_ce_open(r, k0, y, L, 1);
	}
	BC_A64_UNROLL
	for (int l = 0; l < L; l++)
		vst1q_u8(st[l], veorq_u8(y[l], r->k[14]));
}

/* One chain, four blocks loaded per iteration; y and the result are
 * st ^ rk[Nr] as in mac_lanes. */
static inline __attribute__((always_inline)) uint8x16_t mac_chain(const struct bc_aes_ce_regs *r, uint8x16_t k0,
								  uint8x16_t y, const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= 4; nblocks -= 4, src += 64) {
		uint8x16_t m[4] = { vld1q_u8(src), vld1q_u8(src + 16), vld1q_u8(src + 32), vld1q_u8(src + 48) };

		BC_A64_UNROLL
		for (int i = 0; i < 4; i++) {
			y = veorq_u8(y, m[i]);
			bc_aes_ce_open(r, k0, &y, 1, 1);
		}
	}
	for (; nblocks; nblocks--, src += 16) {
		y = veorq_u8(y, vld1q_u8(src));
		bc_aes_ce_open(r, k0, &y, 1, 1);
	}
	return y;
}

/* One chain. */
static void aes_ce_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;
	uint8x16_t k0, y;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	k0 = veorq_u8(r.first, r.k[14]);
	y = veorq_u8(vld1q_u8(st), r.k[14]);
	BC_AES_CE_PER_KEYSIZE(&r, y = mac_chain(&r, k0, y, src, nblocks));
	vst1q_u8(st, veorq_u8(y, r.k[14]));
}

/* Up to 8 chains: as many as possible interleaved, in groups of 8, 4, 2, 1. */
static void aes_ce_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
			    size_t nblocks)
{
	const struct bc_aes_ce_key *k = ctx;
	struct bc_aes_ce_regs r;

	bc_aes_ce_load(&r, k->rk, k->rounds);
	/* the wide runs get a copy per key size, the narrow ones one */
#define AES_CE_LANES(L)                                                                    \
	do {                                                                               \
		if ((L) >= 4)                                                              \
			BC_AES_CE_PER_KEYSIZE(&r, mac_lanes(&r, (L), st, src, nblocks));   \
		else                                                                       \
			mac_lanes(&r, (L), st, src, nblocks);                              \
	} while (0)
	BC_A64_MAC_RUNS(n, st, src, AES_CE_LANES);
#undef AES_CE_LANES
}

const struct bc_cipher_alg bc_aes_ce = {
	.name = "aes",
	.driver = "aes-ce",
	.priority = 300,
	.cpu = BC_CPU_ARM_AES,
	.min_keysize = 16,
	.max_keysize = 32,
	.ctxsize = sizeof(struct bc_aes_ce_key),
	.setkey = bc_aes_ce_setkey,
	.encrypt = bc_aes_ce_ecb_encrypt,
	.decrypt = bc_aes_ce_ecb_decrypt,
	.mac = aes_ce_mac,
	.mac_many = aes_ce_mac_many,
};
