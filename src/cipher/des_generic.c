/* DES and Triple DES (EDE), portable constant-time C (drivers "des-generic", "des3_ede-generic").
 * Specification: FIPS 46-3 (DES), NIST SP 800-67 Rev. 2 (TDEA); key checks as the Linux kernel's. */

/* The bitsliced core on 64-bit words: 64 blocks a pass. */
#define DES_BS_WORD uint64_t
#define DES_BS_LANES 64
#define DES_BS_FN static
#define DES_BS_SET(w, q, v) ((void)(q), (w) = (v))
#define DES_BS_GET(w, q) ((void)(q), (w))
#include "des.h"

/* ---- Tables of public positions only --------------------------------------------
 * Bits are numbered as in FIPS 46-3: bit 1 is the most significant bit of the
 * first byte. Every table below is indexed by a loop counter, never by data. */
static const uint8_t des_pc1[56] = {
	57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
	10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
	63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
	14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
};
static const uint8_t des_pc2[48] = {
	14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
	23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
	41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
	44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
};
static const uint8_t des_shifts[16] = { 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1 };

static void des_key_schedule(uint64_t rk[16], const uint8_t key[8], uint32_t *c0, uint32_t *d0)
{
	uint64_t cd = permute(bc_load_be64(key), des_pc1, 56, 64);
	uint32_t c = (uint32_t)(cd >> 28), d = (uint32_t)cd & 0x0fffffff;

	*c0 = c;
	*d0 = d;
	for (unsigned r = 0; r < 16; r++) {
		unsigned s = des_shifts[r];

		c = ((c << s) | (c >> (28 - s))) & 0x0fffffff;
		d = ((d << s) | (d >> (28 - s))) & 0x0fffffff;
		rk[r] = permute((uint64_t)c << 28 | d, des_pc2, 48, 56);
	}
	bc_wipe(&cd, sizeof(cd));
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
}

/* All ones when v is 0 or 0x0fffffff, else 0, with no branch. */
static uint32_t ct_all_or_none28(uint32_t v)
{
	uint32_t a = v, b = v ^ 0x0fffffff;

	/* (x - 1) >> 31 is 1 exactly for x == 0 (x < 2^28) */
	return (uint32_t)0 - (((a - 1) >> 31) | ((b - 1) >> 31));
}

/* The kernel's des_ekey verdict: a key is weak when PC-1 leaves both
 * 28-bit halves constant (all zeros or all ones), the four weak keys of
 * FIPS 74 with any parity bits; the semi-weak keys pass. Computed on every
 * key bit without a branch; the verdict becomes public only through
 * bc_memneq, the comparison every key and tag check shares. */
int bc_des_weak_key(const uint8_t *key, size_t keylen)
{
	static const uint32_t none;
	uint64_t rk[16];
	uint32_t c, d, w;
	int weak;

	if (keylen != 8)
		return 0;
	des_key_schedule(rk, key, &c, &d);
	w = ct_all_or_none28(c) & ct_all_or_none28(d);
	weak = bc_memneq(&w, &none, sizeof(w));
	bc_wipe(rk, sizeof(rk));
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	bc_wipe(&w, sizeof(w));
	return weak;
}

/* RFC 2451 / the kernel's des3_ede_verify_key: K1 == K2 or K2 == K3 makes
 * the EDE one single DES, refused when weak keys are forbidden. bc_memneq
 * reads every byte whatever they hold. */
int bc_des3_weak_key(const uint8_t *key, size_t keylen)
{
	int k12, k23;

	if (keylen != 24)
		return 0;
	k12 = !bc_memneq(key, key + 8, 8);
	k23 = !bc_memneq(key + 8, key + 16, 8);   /* compared whatever the first gave */
	return k12 | k23;
}

int bc_des_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct des_ctx *x = ctx;
	uint32_t c, d;

	if (keylen != 8)
		return -EINVAL;
	des_key_schedule(x->rk[0], key, &c, &d);
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	return 0;
}

int bc_des3_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct des3_ctx *x = ctx;
	uint32_t c, d;

	if (keylen != 24)
		return -EINVAL;
	for (int i = 0; i < 3; i++)
		des_key_schedule(x->rk[i], key + 8 * i, &c, &d);
	bc_wipe(&c, sizeof(c));
	bc_wipe(&d, sizeof(d));
	return 0;
}

/* ---- One block at a time: the S-boxes read out of registers ----------------------
 * Bit idx of a 64-bit constant, idx secret: a rotation by a register, which
 * takes the same time whatever the count on every CPU this library runs on.
 * The constant is the truth table rotated left by the bit's place, so one
 * rotation right by idx brings the wanted bit to that place. A 32-bit
 * target would make a 64-bit rotation a branch on bit 5 of the count, so
 * there the half is chosen with a mask instead. */
/* The bit lands at pos + 32 and f is taken from the upper half: a result
 * confined to the lower half lets the compiler narrow the rotation into two
 * shifts. */
static inline uint64_t bit_to(uint64_t t, uint32_t idx, unsigned pos)
{
#if UINTPTR_MAX > 0xffffffffu
	unsigned n = idx & 63;

	return ((t >> n) | (t << (-n & 63))) & ((uint64_t)1 << (pos + 32));
#else
	/* t rotated right by idx, upper 32 bits only: idx's bit 5 picks the halves */
	uint32_t hi = (uint32_t)0 - (idx >> 5), s = idx & 31;
	uint32_t a = ((uint32_t)(t >> 32) & ~hi) | ((uint32_t)t & hi);
	uint32_t b = ((uint32_t)t & ~hi) | ((uint32_t)(t >> 32) & hi);
	uint32_t w = (a >> s) | ((b << ((32 - s) & 31)) & ((uint32_t)0 - (uint32_t)(s != 0)));

	return (uint64_t)(w & ((uint32_t)1 << pos)) << 32;
#endif
}

static inline uint32_t rotl32(uint32_t v, unsigned s)
{
	return (v << (s & 31)) | (v >> ((32 - s) & 31));
}

/* f(R, K) = P(S(E(R) ^ K)): S-box j's input is R's bits 4j .. 4j+5 (bit 0
 * meaning bit 32), the top six bits of R rotated left by 4j - 1. */
#define DES_SBOX_F(j, t0, p0, t1, p1, t2, p2, t3, p3) { \
	uint32_t idx = ((rotl32(r, (4 * (j) + 31) & 31) >> 26) ^ (uint32_t)(k >> (42 - 6 * (j)))) & 63; \
	out |= bit_to(DES_ROTL64C(t0, p0 + 32), idx, p0) | bit_to(DES_ROTL64C(t1, p1 + 32), idx, p1) | \
	       bit_to(DES_ROTL64C(t2, p2 + 32), idx, p2) | bit_to(DES_ROTL64C(t3, p3 + 32), idx, p3); \
}
static inline uint32_t des_f(uint32_t r, uint64_t k)
{
	uint64_t out = 0;

	DES_SBOXES(DES_SBOX_F)
	return (uint32_t)(out >> 32);
}

/* nkeys (1 or 3) DES passes over one block; the EDE middle pass runs the
 * other way. IP and FP between passes cancel, so they are done once. */
static void des_one(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src)
{
	uint64_t x = permute(bc_load_be64(src), des_ip, 64, 64);
	uint32_t l = (uint32_t)(x >> 32), r = (uint32_t)x, t;

	for (unsigned s = 0; s < nkeys; s++) {
		const uint64_t *k = rk[dec ? nkeys - 1 - s : s];
		int back = dec ^ (s == 1);

		for (unsigned i = 0; i < 16; i++) {
			t = l ^ des_f(r, k[back ? 15 - i : i]);
			l = r;
			r = t;
		}
		t = l;
		l = r;
		r = t;
	}
	x = permute((uint64_t)l << 32 | r, des_fp, 64, 64);
	bc_store_be64(dst, x);
	bc_wipe(&x, sizeof(x));
	bc_wipe(&l, sizeof(l));
	bc_wipe(&r, sizeof(r));
	bc_wipe(&t, sizeof(t));
}

/* From this many blocks on, 64 lanes beat one block at a time (measured). */
#define DES_BS_MIN 17

void bc_des_crypt(const uint64_t (*rk)[16], unsigned nkeys, int dec, uint8_t *dst, const uint8_t *src,
		  size_t nblocks)
{
	while (nblocks >= DES_BS_MIN) {
		size_t n = nblocks < 64 ? nblocks : 64;

		des_bs(rk, nkeys, dec, dst, src, n);
		src += 8 * n;
		dst += 8 * n;
		nblocks -= n;
	}
	for (; nblocks; nblocks--, src += 8, dst += 8)
		des_one(rk, nkeys, dec, dst, src);
}

BC_DES_ENTRIES(, bc_des_crypt)

/* The CBC-MAC chain over 8-byte blocks (st[0..7]): serial by nature. */
static void des_chain(const uint64_t (*rk)[16], unsigned nkeys, uint8_t st[16], const uint8_t *src,
		      size_t nblocks)
{
	for (; nblocks; nblocks--, src += 8) {
		bc_xor(st, st, src, 8);
		des_one(rk, nkeys, 0, st, st);
	}
}

void bc_des_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	des_chain(((const struct des_ctx *)ctx)->rk, 1, st, src, nblocks);
}

void bc_des3_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	des_chain(((const struct des3_ctx *)ctx)->rk, 3, st, src, nblocks);
}

const struct bc_cipher_alg bc_des_generic = {
	.name = "des",
	.driver = "des-generic",
	.priority = 100,
	.cpu = 0,
	.blocksize = 8,
	.min_keysize = 8,
	.max_keysize = 8,
	.ctxsize = sizeof(struct des_ctx),
	.setkey = bc_des_setkey,
	.weak_key = bc_des_weak_key,
	.encrypt = des_encrypt,
	.decrypt = des_decrypt,
	.mac = bc_des_mac,
};

const struct bc_cipher_alg bc_des3_ede_generic = {
	.name = "des3_ede",
	.driver = "des3_ede-generic",
	.priority = 100,
	.cpu = 0,
	.blocksize = 8,
	.min_keysize = 24,
	.max_keysize = 24,
	.ctxsize = sizeof(struct des3_ctx),
	.setkey = bc_des3_setkey,
	.weak_key = bc_des3_weak_key,
	.encrypt = des3_encrypt,
	.decrypt = des3_decrypt,
	.mac = bc_des3_mac,
};
