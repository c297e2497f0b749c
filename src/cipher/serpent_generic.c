/* Serpent block cipher, portable constant-time C in its bitslice form (driver "serpent-generic").
 * Specification: Anderson, Biham, Knudsen, "Serpent: A Proposal for the AES" (1998); key and block byte order as Linux's serpent. */

#define SERPENT_W uint32_t
#define SERPENT_FN static inline __attribute__((always_inline))
#include "serpent.h"

static inline uint32_t rol32(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

/* w[i] = (w[i-8] ^ w[i-5] ^ w[i-3] ^ w[i-1] ^ phi ^ i) <<< 11 over the key
 * padded to 256 bits, then K_i = S_{(3 - i) mod 8}(w[4i..4i+3]) by the
 * circuits: the key decides no branch and no address. */
int bc_serpent_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct serpent_ctx *ctx = vctx;
	uint8_t kb[32] = { 0 };
	uint32_t w[8], x[1][4];

	if (keylen > 32)
		return -EINVAL;
	if (keylen)
		memcpy(kb, key, keylen);
	if (keylen < 32)
		kb[keylen] = 1;
	for (int i = 0; i < 8; i++)
		w[i] = bc_load_le32(kb + 4 * i);
	for (unsigned i = 0; i < 33; i++) {
		for (unsigned j = 0; j < 4; j++) {
			unsigned n = 4 * i + j;
			uint32_t t = w[n & 7] ^ w[(n + 3) & 7] ^ w[(n + 5) & 7] ^ w[(n + 7) & 7] ^ SERPENT_PHI ^ n;

			w[n & 7] = rol32(t, 11);
			x[0][j] = w[n & 7];
		}
		switch ((3 - i) & 7) {
		case 0: SERPENT_SBOX(SERPENT_S0, x, 1); break;
		case 1: SERPENT_SBOX(SERPENT_S1, x, 1); break;
		case 2: SERPENT_SBOX(SERPENT_S2, x, 1); break;
		case 3: SERPENT_SBOX(SERPENT_S3, x, 1); break;
		case 4: SERPENT_SBOX(SERPENT_S4, x, 1); break;
		case 5: SERPENT_SBOX(SERPENT_S5, x, 1); break;
		case 6: SERPENT_SBOX(SERPENT_S6, x, 1); break;
		default: SERPENT_SBOX(SERPENT_S7, x, 1); break;
		}
		memcpy(ctx->k[i], x[0], sizeof(x[0]));
	}
	bc_wipe(kb, sizeof(kb));
	bc_wipe(w, sizeof(w));
	bc_wipe(x, sizeof(x));
	return 0;
}

static void load_block(uint32_t x[1][4], const uint8_t *src)
{
	for (int i = 0; i < 4; i++)
		x[0][i] = bc_load_le32(src + 4 * i);
}

static void store_block(uint8_t *dst, const uint32_t x[1][4])
{
	for (int i = 0; i < 4; i++)
		bc_store_le32(dst + 4 * i, x[0][i]);
}

static void serpent_crypt(const struct serpent_ctx *ctx, int dec, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	uint32_t x[1][4];

	for (size_t b = 0; b < nblocks; b++) {
		load_block(x, src + 16 * b);
		if (dec)
			serpent_dec_rounds(ctx->k, x, 1);
		else
			serpent_enc_rounds(ctx->k, x, 1);
		store_block(dst + 16 * b, x);
	}
	bc_wipe(x, sizeof(x));
}

void bc_serpent_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	serpent_crypt(ctx, 0, dst, src, nblocks);
}

void bc_serpent_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	serpent_crypt(ctx, 1, dst, src, nblocks);
}

void bc_serpent_mac(const void *vctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct serpent_ctx *ctx = vctx;
	uint32_t x[1][4];

	load_block(x, st);
	for (size_t b = 0; b < nblocks; b++) {
		for (int i = 0; i < 4; i++)
			x[0][i] ^= bc_load_le32(src + 16 * b + 4 * i);
		serpent_enc_rounds(ctx->k, x, 1);
	}
	store_block(st, x);
	bc_wipe(x, sizeof(x));
}

const struct bc_cipher_alg bc_serpent_generic = {
	.name = "serpent",
	.driver = "serpent-generic",
	.priority = 100,
	.cpu = 0,
	.min_keysize = 0,
	.max_keysize = 32,
	.ctxsize = sizeof(struct serpent_ctx),
	.setkey = bc_serpent_setkey,
	.encrypt = bc_serpent_encrypt,
	.decrypt = bc_serpent_decrypt,
	.mac = bc_serpent_mac,
};
