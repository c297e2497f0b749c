/* blockcrypt OpenSSL 3 provider: SM4-XTS with GB/T 17964-2021's tweak multiplication (xts_standard "GB").
 * GB/T 17964-2021 XTS: IEEE 1619's structure and ciphertext stealing, tweak times alpha in GCM's bit order. */
#include <string.h>

#include <openssl/crypto.h>

#include "cipher.h"

#define CHUNK 64   /* blocks per pass through the library's ecb (2 KiB of stack each for tweaks and data) */

/* The tweak as a big-endian 128-bit value (hi, lo). */
struct tweak {
	uint64_t hi, lo;
};

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* T = T * alpha with GB/T 17964's (and GCM's) bit order: bit 0 is the most
 * significant bit of byte 0, so multiplying by alpha is a right shift of the
 * big-endian 128-bit value, reduced by x^128 = x^7 + x^2 + x + 1 (0xE1 into
 * the top byte). No branch on the tweak. */
static void gb_mul_alpha(struct tweak *t)
{
	uint64_t carry = t->lo & 1;

	t->lo = t->lo >> 1 | t->hi << 63;
	t->hi = t->hi >> 1 ^ ((uint64_t)0xE1 << 56 & (0 - carry));
}

static void xor16(uint8_t *dst, const uint8_t *a, const uint8_t *b)
{
	uint64_t x[2], y[2];

	memcpy(x, a, 16);
	memcpy(y, b, 16);
	x[0] ^= y[0];
	x[1] ^= y[1];
	memcpy(dst, x, 16);
}

/* Whole blocks: out = E1(in ^ T) ^ T (or D1), T advancing per block, the
 * XORed blocks going through the library's ecb CHUNK at a time. */
static int gb_blocks(struct bcp_cctx *x, struct tweak *t, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t tw[CHUNK * BCP_BLOCK], buf[CHUNK * BCP_BLOCK];
	size_t used = (nblocks < CHUNK ? nblocks : CHUNK) * BCP_BLOCK;   /* what the wipe must cover */
	int err = 0;

	while (nblocks && !err) {
		size_t n = nblocks < CHUNK ? nblocks : CHUNK;

		for (size_t i = 0; i < n; i++) {
			store_be64(tw + i * BCP_BLOCK, t->hi);
			store_be64(tw + i * BCP_BLOCK + 8, t->lo);
			gb_mul_alpha(t);
			xor16(buf + i * BCP_BLOCK, in + i * BCP_BLOCK, tw + i * BCP_BLOCK);
		}
		err = x->enc ? bc_skcipher_encrypt(x->gb1, NULL, buf, buf, n * BCP_BLOCK) :
			       bc_skcipher_decrypt(x->gb1, NULL, buf, buf, n * BCP_BLOCK);
		for (size_t i = 0; i < n; i++)
			xor16(out + i * BCP_BLOCK, buf + i * BCP_BLOCK, tw + i * BCP_BLOCK);
		in += n * BCP_BLOCK;
		out += n * BCP_BLOCK;
		nblocks -= n;
	}
	OPENSSL_cleanse(tw, used);
	OPENSSL_cleanse(buf, used);
	return err;
}

/* One data unit (len >= 16, checked by the caller), stealing as IEEE 1619 5.3.2. */
int bcp_xts_gb(struct bcp_cctx *x, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t t0[BCP_BLOCK], pp[BCP_BLOCK];
	size_t d = len % BCP_BLOCK, whole = len / BCP_BLOCK - (d != 0);
	int err = bc_skcipher_encrypt(x->gb2, NULL, x->iv, t0, BCP_BLOCK);
	struct tweak t = { load_be64(t0), load_be64(t0 + 8) }, t_last;

	if (!err)
		err = gb_blocks(x, &t, in, out, whole);
	if (!err && d) {
		const uint8_t *cin = in + whole * BCP_BLOCK;
		uint8_t *cout = out + whole * BCP_BLOCK;

		/* encryption: the full block under T(m-1), then the stolen one under T(m);
		 * decryption takes the two tweaks the other way round */
		t_last = t;
		gb_mul_alpha(&t_last);
		err = gb_blocks(x, x->enc ? &t : &t_last, cin, pp, 1);
		if (!err) {
			uint8_t c_m[BCP_BLOCK];

			memcpy(c_m, pp, d);                       /* the stolen bytes become the short block */
			memcpy(pp, cin + BCP_BLOCK, d);
			err = gb_blocks(x, x->enc ? &t_last : &t, pp, cout, 1);
			memcpy(cout + BCP_BLOCK, c_m, d);
			OPENSSL_cleanse(c_m, sizeof(c_m));
		}
	}
	OPENSSL_cleanse(t0, sizeof(t0));
	OPENSSL_cleanse(&t, sizeof(t));
	OPENSSL_cleanse(&t_last, sizeof(t_last));
	OPENSSL_cleanse(pp, sizeof(pp));
	return err;
}
