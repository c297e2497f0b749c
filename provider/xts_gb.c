/* blockcrypt OpenSSL 3 provider: SM4-XTS with GB/T 17964-2021's tweak multiplication (xts_standard "GB").
 * GB/T 17964-2021 XTS: IEEE 1619's structure and ciphertext stealing, tweak times alpha in GCM's bit order. */
#include <string.h>

#include <openssl/crypto.h>

#include "cipher.h"

#define CHUNK 32   /* blocks per pass through the library's ecb */

/* T = T * alpha with GB/T 17964's (and GCM's) bit order: bit 0 is the most
 * significant bit of byte 0, so multiplying by alpha is a right shift of the
 * big-endian 128-bit value, reduced by x^128 = x^7 + x^2 + x + 1 (0xE1 into
 * byte 0). No branch on the tweak. */
static void gb_mul_alpha(uint8_t t[BCP_BLOCK])
{
	uint8_t carry = t[BCP_BLOCK - 1] & 1;

	for (int i = BCP_BLOCK - 1; i > 0; i--)
		t[i] = (uint8_t)(t[i] >> 1 | t[i - 1] << 7);
	t[0] = (uint8_t)(t[0] >> 1 ^ (0xE1 & (0 - carry)));
}

/* Whole blocks: out = E1(in ^ T) ^ T (or D1), T advancing per block, the
 * XORed blocks going through the library's ecb CHUNK at a time. */
static int gb_blocks(struct bcp_cctx *x, uint8_t t[BCP_BLOCK], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t tw[CHUNK * BCP_BLOCK], buf[CHUNK * BCP_BLOCK];
	int err = 0;

	while (nblocks && !err) {
		size_t n = nblocks < CHUNK ? nblocks : CHUNK;

		for (size_t i = 0; i < n; i++) {
			memcpy(tw + i * BCP_BLOCK, t, BCP_BLOCK);
			gb_mul_alpha(t);
			for (size_t j = 0; j < BCP_BLOCK; j++)
				buf[i * BCP_BLOCK + j] = in[i * BCP_BLOCK + j] ^ tw[i * BCP_BLOCK + j];
		}
		err = x->enc ? bc_skcipher_encrypt(x->gb1, NULL, buf, buf, n * BCP_BLOCK) :
			       bc_skcipher_decrypt(x->gb1, NULL, buf, buf, n * BCP_BLOCK);
		for (size_t j = 0; j < n * BCP_BLOCK; j++)
			out[j] = buf[j] ^ tw[j];
		in += n * BCP_BLOCK;
		out += n * BCP_BLOCK;
		nblocks -= n;
	}
	OPENSSL_cleanse(tw, sizeof(tw));
	OPENSSL_cleanse(buf, sizeof(buf));
	return err;
}

/* One data unit (len >= 16, checked by the caller), stealing as IEEE 1619 5.3.2. */
int bcp_xts_gb(struct bcp_cctx *x, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t t[BCP_BLOCK], t_last[BCP_BLOCK], pp[BCP_BLOCK];
	size_t d = len % BCP_BLOCK, whole = len / BCP_BLOCK - (d != 0);
	int err = bc_skcipher_encrypt(x->gb2, NULL, x->iv, t, BCP_BLOCK);

	if (!err)
		err = gb_blocks(x, t, in, out, whole);
	if (!err && d) {
		const uint8_t *cin = in + whole * BCP_BLOCK;
		uint8_t *cout = out + whole * BCP_BLOCK;

		/* encryption: the full block under T(m-1), then the stolen one under T(m);
		 * decryption takes the two tweaks the other way round */
		memcpy(t_last, t, BCP_BLOCK);
		gb_mul_alpha(t_last);
		err = gb_blocks(x, x->enc ? t : t_last, cin, pp, 1);
		if (!err) {
			uint8_t c_m[BCP_BLOCK];

			memcpy(c_m, pp, d);                       /* the stolen bytes become the short block */
			memcpy(pp, cin + BCP_BLOCK, d);
			err = gb_blocks(x, x->enc ? t_last : t, pp, cout, 1);
			memcpy(cout + BCP_BLOCK, c_m, d);
			OPENSSL_cleanse(c_m, sizeof(c_m));
		}
	}
	OPENSSL_cleanse(t, sizeof(t));
	OPENSSL_cleanse(t_last, sizeof(t_last));
	OPENSSL_cleanse(pp, sizeof(pp));
	return err;
}
