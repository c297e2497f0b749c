/* blockcrypt: ChaCha20, XChaCha20 and XChaCha12 in portable C (drivers chacha20-generic, xchacha20-generic, xchacha12-generic).
 * RFC 8439 section 2 (ChaCha20), draft-irtf-cfrg-xchacha-03 (HChaCha, XChaCha); the IVs of Linux crypto/chacha_generic.c. */
#include "../cipher/chacha.h"

/* Additions, XORs and rotations by constants only: constant time by
 * construction, whatever the key. */
#define ROTL32(v, n) ((uint32_t)((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d)                                                                                       \
	do {                                                                                                 \
		a += b; d ^= a; d = ROTL32(d, 16);                                                           \
		c += d; b ^= c; b = ROTL32(b, 12);                                                           \
		a += b; d ^= a; d = ROTL32(d, 8);                                                            \
		c += d; b ^= c; b = ROTL32(b, 7);                                                            \
	} while (0)

/* "expand 32-byte k" */
static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };

static void rounds(uint32_t x[16], int nrounds)
{
	for (int i = 0; i < nrounds; i += 2) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
}

int bc_chacha_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_chacha_ctx *c = ctx;

	(void)flags;
	if (keylen != BC_CHACHA_KEY)
		return -EINVAL;
	for (int i = 0; i < 8; i++)
		c->key[i] = bc_load_le32(key + 4 * i);
	return 0;
}

void bc_chacha_state(uint32_t st[16], const uint32_t key[8], const uint8_t iv[16])
{
	memcpy(st, sigma, sizeof(sigma));
	memcpy(st + 4, key, 8 * sizeof(uint32_t));
	for (int i = 0; i < 4; i++)
		st[12 + i] = bc_load_le32(iv + 4 * i);
}

void bc_hchacha(uint32_t out[8], const uint32_t key[8], const uint8_t nonce[16], int nrounds)
{
	uint32_t x[16];

	bc_chacha_state(x, key, nonce);
	rounds(x, nrounds);
	memcpy(out, x, 4 * sizeof(uint32_t));
	memcpy(out + 4, x + 12, 4 * sizeof(uint32_t));
	bc_wipe(x, sizeof(x));
}

void bc_chacha_block(const uint32_t st[16], uint8_t out[BC_CHACHA_BLOCK], int nrounds)
{
	uint32_t x[16];

	memcpy(x, st, sizeof(x));
	rounds(x, nrounds);
	for (int i = 0; i < 16; i++)
		bc_store_le32(out + 4 * i, x[i] + st[i]);
	bc_wipe(x, sizeof(x));
}

void bc_chacha_xor_generic(uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t len, int nrounds)
{
	uint8_t ks[BC_CHACHA_BLOCK];

	while (len) {
		size_t n = len < BC_CHACHA_BLOCK ? len : BC_CHACHA_BLOCK;

		bc_chacha_block(st, ks, nrounds);
		st[12]++;
		bc_xor(dst, src, ks, n);
		src += n;
		dst += n;
		len -= n;
	}
	bc_wipe(ks, sizeof(ks));
}

int bc_chacha20_crypt(const void *ctx, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len,
		      bc_chacha_xor_fn *xor_fn)
{
	const struct bc_chacha_ctx *c = ctx;
	uint32_t st[16];

	bc_chacha_state(st, c->key, iv);
	xor_fn(st, dst, src, len, 20);
	bc_wipe(st, sizeof(st));
	return 0;
}

/* The subkey from HChaCha over the nonce's first 16 bytes; then ChaCha with
 * the state words 12..15 = stream position (8 bytes), nonce bytes 16..23. */
int bc_xchacha_crypt(const void *ctx, const uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len, int nrounds,
		     bc_hchacha_fn *hchacha_fn, bc_chacha_xor_fn *xor_fn)
{
	const struct bc_chacha_ctx *c = ctx;
	uint32_t subkey[8], st[16];
	uint8_t tail[16];

	hchacha_fn(subkey, c->key, iv, nrounds);
	memcpy(tail, iv + 24, 8);
	memcpy(tail + 8, iv + 16, 8);
	bc_chacha_state(st, subkey, tail);
	xor_fn(st, dst, src, len, nrounds);
	bc_wipe(subkey, sizeof(subkey));
	bc_wipe(st, sizeof(st));
	return 0;
}

BC_CHACHA_DRIVERS(generic, "generic", 100, 0, bc_hchacha, bc_chacha_xor_generic);
