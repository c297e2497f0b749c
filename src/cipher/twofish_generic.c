/* Twofish block cipher, portable constant-time bitsliced C (driver "twofish-generic"), and its key schedule.
 * Schneier, Kelsey, Whiting, Wagner, Hall, Ferguson, "Twofish: A 128-Bit Block Cipher" (AES submission, 1998). */

#include "twofish.h"

/* ---- key schedule -------------------------------------------------------------------- */

/* a * c in GF(2^8) modulo poly (low 8 bits given), c public, a secret: no branch. */
static inline uint8_t tf_gfmul(uint8_t a, uint8_t c, uint8_t poly)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++) {
		r ^= (uint8_t)(0u - ((c >> i) & 1u)) & a;
		a = (uint8_t)(a << 1 ^ ((0u - (a >> 7)) & poly));
	}
	return r;
}

static inline uint32_t tf_rotl(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

/* Byte j of word w of lane l into the key planes: all ones in the lanes of `lanes`. */
static void tf_word_planes(uint64_t l[4][8], uint32_t w, uint64_t lanes)
{
	for (int j = 0; j < 4; j++)
		for (int b = 0; b < 8; b++)
			l[j][b] |= (UINT64_C(0) - ((w >> (8 * j + b)) & 1u)) & lanes;
}

int tf_setkey(struct tf_key *key, const uint8_t *in, size_t keylen)
{
	/* RS over GF(2^8) mod x^8 + x^6 + x^3 + x^2 + 1 (paper, section 4.3) */
	static const uint8_t rs[4][8] = {
		{ 0x01, 0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e },
		{ 0xa4, 0x56, 0x82, 0xf3, 0x1e, 0xc6, 0x68, 0xe5 },
		{ 0x02, 0xa1, 0xfc, 0xc1, 0x47, 0xae, 0x3d, 0x19 },
		{ 0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e, 0x03 },
	};
	tf_keyplanes me;
	uint64_t x[64], z[64];
	unsigned nk;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	nk = (unsigned)keylen / 8;
	memset(key, 0, sizeof(*key));
	memset(me, 0, sizeof(me));
	key->nk = nk;
	for (unsigned i = 0; i < nk; i++) {
		uint32_t s = 0;
		for (unsigned r = 0; r < 4; r++) {
			uint8_t v = 0;
			for (unsigned c = 0; c < 8; c++)
				v ^= tf_gfmul(in[8 * i + c], rs[r][c], 0x4d);
			s |= (uint32_t)v << 8 * r;
		}
		tf_word_planes(key->s[nk - 1 - i], s, ~UINT64_C(0));
		/* lane 2i + 1 computes h((2i + 1) rho, Mo), lane 2i h(2i rho, Me) */
		tf_word_planes(me[i], bc_load_le32(in + 8 * i), UINT64_C(0x5555555555555555));
		tf_word_planes(me[i], bc_load_le32(in + 8 * i + 4), UINT64_C(0xaaaaaaaaaaaaaaaa));
		s = 0;
		bc_wipe(&s, sizeof(s));
	}
	/* the inputs 0, rho, ..., 39 rho in lanes 0..39: bit b of every byte is bit b of the lane */
	for (unsigned i = 0; i < 32; i++) {
		x[i] = 0;
		for (unsigned l = 0; l < 40; l++)
			x[i] |= (uint64_t)((l >> (i & 7)) & 1u) << l;
	}
	tf_h(z, x, me, nk);
	memset(z + 32, 0, 32 * sizeof(z[0]));
	tf_transpose64(z);
	for (unsigned i = 0; i < 20; i++) {
		uint32_t a = (uint32_t)z[2 * i], b = tf_rotl((uint32_t)z[2 * i + 1], 8);
		key->k[2 * i] = a + b;
		key->k[2 * i + 1] = tf_rotl(a + 2 * b, 9);
	}
	bc_wipe(me, sizeof(me));
	bc_wipe(z, sizeof(z));
	return 0;
}

void tf_sbox_tables(const struct tf_key *key, uint8_t tab[4][256])
{
	uint64_t y[4][8], t[64];

	for (unsigned p = 0; p < 4; p++) {
		/* lane l: the byte 64p + l in every position */
		for (unsigned b = 0; b < 8; b++) {
			uint64_t v = 0;
			for (unsigned l = 0; l < 64; l++)
				v |= (uint64_t)(((64 * p + l) >> b) & 1u) << l;
			for (unsigned j = 0; j < 4; j++)
				y[j][b] = v;
		}
		tf_sboxes(y, key->s, key->nk);
		for (unsigned j = 0; j < 4; j++) {
			memcpy(t, y[j], sizeof(y[j]));
			memset(t + 8, 0, 56 * sizeof(t[0]));
			tf_transpose64(t);
			for (unsigned l = 0; l < 64; l++)
				tab[j][64 * p + l] = (uint8_t)t[l];
		}
	}
	bc_wipe(y, sizeof(y));
	bc_wipe(t, sizeof(t));
}

/* ---- the bitsliced cipher --------------------------------------------------------------
 * 64 blocks at once: x[w][i] holds bit i of word w of every block (block n
 * in bit n). A word rotation is a renaming of planes; the additions mod 2^32
 * ripple a carry plane through the 32 bit planes. */
#define TF_LANES 64

/* s = a + b mod 2^32 on planes */
static inline void tf_add(uint64_t s[32], const uint64_t a[32], const uint64_t b[32])
{
	uint64_t c = 0;

	for (int i = 0; i < 32; i++) {
		uint64_t t = a[i] ^ b[i];
		s[i] = t ^ c;
		c = (a[i] & b[i]) | (c & t);
	}
}

/* s = a + k mod 2^32, k (a round key word) the same in every lane */
static inline void tf_addk(uint64_t s[32], const uint64_t a[32], uint32_t k)
{
	uint64_t c = 0;

	for (int i = 0; i < 32; i++) {
		uint64_t km = UINT64_C(0) - ((k >> i) & 1u), t = a[i] ^ km;
		s[i] = t ^ c;
		c = (a[i] & km) | (c & t);
	}
}

static inline void tf_xork(uint64_t x[32], uint32_t k)
{
	for (int i = 0; i < 32; i++)
		x[i] ^= UINT64_C(0) - ((k >> i) & 1u);
}

/* (F0, F1) of round r from R0 = a and R1 = b (paper, section 4.1):
 * T0 = g(R0), T1 = g(ROL(R1, 8)), F0 = T0 + T1 + K_{2r+8}, F1 = T0 + 2 T1 + K_{2r+9} */
static inline void tf_f(const struct tf_key *key, unsigned r, const uint64_t a[32], const uint64_t b[32],
			uint64_t f0[32], uint64_t f1[32])
{
	uint64_t t0[32], t1[32], u[32];

	tf_h(t0, a, key->s, key->nk);
	for (int i = 0; i < 32; i++)
		u[i] = b[(i + 24) & 31];
	tf_h(t1, u, key->s, key->nk);
	tf_add(u, t0, t1);
	tf_addk(f0, u, key->k[2 * r + 8]);
	u[0] = 0;
	for (int i = 1; i < 32; i++)
		u[i] = t1[i - 1];
	tf_add(t1, t0, u);
	tf_addk(f1, t1, key->k[2 * r + 9]);
}

/* x = ROR(x ^ f, 1) and x = ROL(x, 1) ^ f: each undoes the other with the same f */
static inline void tf_xor_ror1(uint64_t x[32], const uint64_t f[32])
{
	uint64_t lo = x[0] ^ f[0];

	for (int i = 0; i < 31; i++)
		x[i] = x[i + 1] ^ f[i + 1];
	x[31] = lo;
}

static inline void tf_rol1_xor(uint64_t x[32], const uint64_t f[32])
{
	uint64_t hi = x[31];

	for (int i = 31; i > 0; i--)
		x[i] = x[i - 1] ^ f[i];
	x[0] = hi ^ f[0];
}

/* After round r the words that were R2, R3 hold the new R0, R1: the rounds
 * alternate the pair they read, so nothing is swapped. Encryption starts
 * from x[0..3] = P ^ K0..3 and ends with C = (x2, x3, x0, x1) ^ K4..7;
 * decryption runs the same in reverse. */
static void tf_bs_encrypt(const struct tf_key *key, uint64_t x[4][32])
{
	uint64_t f0[32], f1[32];

	for (int w = 0; w < 4; w++)
		tf_xork(x[w], key->k[w]);
	for (unsigned r = 0; r < 16; r++) {
		unsigned a = (r & 1) * 2, c = 2 - a;
		tf_f(key, r, x[a], x[a + 1], f0, f1);
		tf_xor_ror1(x[c], f0);
		tf_rol1_xor(x[c + 1], f1);
	}
	tf_xork(x[2], key->k[4]);
	tf_xork(x[3], key->k[5]);
	tf_xork(x[0], key->k[6]);
	tf_xork(x[1], key->k[7]);
	bc_wipe(f0, sizeof(f0));
	bc_wipe(f1, sizeof(f1));
}

static void tf_bs_decrypt(const struct tf_key *key, uint64_t x[4][32])
{
	uint64_t f0[32], f1[32];

	tf_xork(x[2], key->k[4]);
	tf_xork(x[3], key->k[5]);
	tf_xork(x[0], key->k[6]);
	tf_xork(x[1], key->k[7]);
	for (unsigned r = 16; r-- > 0;) {
		unsigned a = (r & 1) * 2, c = 2 - a;
		tf_f(key, r, x[a], x[a + 1], f0, f1);
		tf_rol1_xor(x[c], f0);
		tf_xor_ror1(x[c + 1], f1);
	}
	for (int w = 0; w < 4; w++)
		tf_xork(x[w], key->k[w]);
	bc_wipe(f0, sizeof(f0));
	bc_wipe(f1, sizeof(f1));
}

/* Blocks to planes: x viewed as two 64-row matrices, the first holding words
 * 2o and 2o + 1 of every block, the second the other two; o = 1 puts a
 * ciphertext where the last round left it. */
static void tf_load(uint64_t x[4][32], const uint8_t *src, size_t n, unsigned o)
{
	uint64_t *m = &x[0][0];

	for (size_t b = 0; b < TF_LANES; b++) {
		uint64_t lo = 0, hi = 0;
		if (b < n) {
			lo = bc_load_le64(src + 16 * b + 8 * o);
			hi = bc_load_le64(src + 16 * b + 8 - 8 * o);
		}
		m[b] = lo;
		m[TF_LANES + b] = hi;
	}
	tf_transpose64(m);
	tf_transpose64(m + TF_LANES);
}

static void tf_store(uint8_t *dst, uint64_t x[4][32], size_t n, unsigned o)
{
	uint64_t *m = &x[0][0];

	tf_transpose64(m);
	tf_transpose64(m + TF_LANES);
	for (size_t b = 0; b < n; b++) {
		bc_store_le64(dst + 16 * b + 8 * o, m[b]);
		bc_store_le64(dst + 16 * b + 8 - 8 * o, m[TF_LANES + b]);
	}
}

struct tf_ctx {
	struct tf_key key;
};

static int twofish_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct tf_ctx *ctx = vctx;

	return tf_setkey(&ctx->key, key, keylen);
}

static void tf_crypt(const struct tf_key *key, int enc, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	uint64_t x[4][32];

	while (nblocks) {
		size_t n = nblocks < TF_LANES ? nblocks : TF_LANES;
		tf_load(x, src, n, !enc);
		if (enc)
			tf_bs_encrypt(key, x);
		else
			tf_bs_decrypt(key, x);
		tf_store(dst, x, n, (unsigned)enc);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	bc_wipe(x, sizeof(x));
}

static void twofish_encrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct tf_ctx *ctx = vctx;

	tf_crypt(&ctx->key, 1, dst, src, nblocks);
}

static void twofish_decrypt(const void *vctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct tf_ctx *ctx = vctx;

	tf_crypt(&ctx->key, 0, dst, src, nblocks);
}

static void twofish_mac(const void *vctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct tf_ctx *ctx = vctx;

	for (size_t i = 0; i < nblocks; i++) {
		bc_xor(st, st, src + 16 * i, 16);
		tf_crypt(&ctx->key, 1, st, st, 1);
	}
}

/* Up to 8 chains share each pass: block i of every chain in one call. */
static void twofish_mac_many(const void *vctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
			     size_t nblocks)
{
	const struct tf_ctx *ctx = vctx;

	for (size_t i = 0; i < nblocks; i++) {
		for (unsigned c = 0; c < n; c++)
			bc_xor(st[c], st[c], src[c] + 16 * i, 16);
		tf_crypt(&ctx->key, 1, st[0], st[0], n);
	}
}

const struct bc_cipher_alg bc_twofish_generic = {
	.name = "twofish",
	.driver = "twofish-generic",
	.priority = 100,
	.cpu = 0,
	.min_keysize = 16,
	.max_keysize = 32,
	.ctxsize = sizeof(struct tf_ctx),
	.setkey = twofish_setkey,
	.encrypt = twofish_encrypt,
	.decrypt = twofish_decrypt,
	.mac = twofish_mac,
	.mac_many = twofish_mac_many,
};
