/* blockcrypt x86: ecb, cbc, ctr and xts over AES with AES-NI, eight blocks in flight (ecb-aes-aesni, ...).
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 / NIST SP 800-38E (XTS with ciphertext stealing). */
#include "aes_x86.h"
#include "drivers.h"

/* ---- shared setkeys --------------------------------------------------------------- */

int bc_aes_x86_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	if (!bc_aes_x86_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_x86_expand(ctx, key, keylen);
	return 0;
}

int bc_aes_x86_ctr_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	if (!bc_aes_x86_keylen_ok(keylen))
		return -EINVAL;
	bc_aes_x86_expand_enc(ctx, key, keylen);
	return 0;
}

/* key = key1 || key2; equal halves make XTS degenerate (SP 800-38E), so they
 * are refused unless the caller asked for the kernel's weak-key leniency. */
int bc_aes_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct bc_aes_x86_xts_ctx *c = ctx;
	size_t half = keylen / 2;

	if ((keylen & 1) || !bc_aes_x86_keylen_ok(half))
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	bc_aes_x86_expand(&c->k1, key, half);
	bc_aes_x86_expand_enc(&c->k2, key + half, half);
	return 0;
}

/* ---- ecb ----------------------------------------------------------------------------- */

static int aesni_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;

	(void)iv;
	return bc_aes_x86_ecb_enc(&k->enc, dst, src, len / 16);
}

static int aesni_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	return bc_aes_x86_ecb_dec(ctx, dst, src, len / 16);
}

/* ---- cbc ----------------------------------------------------------------------------- */

int bc_aes_x86_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;

	return bc_aes_x86_cbc_chain(&k->enc, iv, src, dst, len / 16);
}

/* Every ciphertext block of a group is loaded before anything is stored,
 * so dst == src works; the previous ciphertext block rides along in a register. */
BC_X86_INLINE BC_X86_AES void aesni_cbc_dec_blocks(const struct bc_aes_x86_key *k, __m128i *prev, const uint8_t *src,
                                                   uint8_t *dst, const unsigned n)
{
	__m128i c[8], x[8];
	unsigned i;

	bc_aes_x86_load_n(c, src, n);
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = c[i];
	bc_aes_x86_dec_n(k, x, n);
	x[0] = _mm_xor_si128(x[0], *prev);
	_Pragma("GCC unroll 8")
	for (i = 1; i < n; i++)
		x[i] = _mm_xor_si128(x[i], c[i - 1]);
	bc_aes_x86_store_n(dst, x, n);
	*prev = c[n - 1];
}

BC_X86_AES int bc_aes_x86_cbc_dec(const struct bc_aes_x86_key *k, uint8_t iv[16], const uint8_t *src, uint8_t *dst,
                                   size_t nblocks)
{
	__m128i prev = bc_aes_x86_load(iv);

	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128)
		aesni_cbc_dec_blocks(k, &prev, src, dst, 8);
#define TAIL(N) aesni_cbc_dec_blocks(k, &prev, src, dst, N)
	BC_X86_CASES_1_8(nblocks, TAIL);
#undef TAIL
	bc_aes_x86_store(iv, prev);
	return 0;
}

static int aesni_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_aes_x86_cbc_dec(ctx, iv, src, dst, len / 16);
}

/* ---- ctr ----------------------------------------------------------------------------- */

/* n (1..8) blocks of keystream from counters (hi:lo) + 0..n-1, XORed into
 * len (<= 16n) bytes (bc_aes_x86_ks_xor). be is counter
 * block (hi:lo) as it lies in memory: the first block is encrypted straight
 * from it, and the others are stepped from it in the vector unit, so a
 * short message's AES does not wait for the GPR loads and the move to xmm.
 * The counter is public: the branch only decides whether the low 64 bits
 * can wrap inside this group. */
BC_X86_INLINE BC_X86_AES void aesni_ctr_blocks(const struct bc_aes_x86_ek *k, __m128i be, uint64_t hi, uint64_t lo,
                                               const uint8_t *src, uint8_t *dst, size_t len, const unsigned n)
{
	__m128i x[8];
	unsigned i;

	if (lo <= UINT64_MAX - 7) {
		const __m128i bswap = bc_x86_bswap128_mask(), v = _mm_shuffle_epi8(be, bswap);

		x[0] = be;
		_Pragma("GCC unroll 8")
		for (i = 1; i < n; i++)
			x[i] = _mm_shuffle_epi8(_mm_add_epi64(v, _mm_set_epi64x(0, i)), bswap);
	} else {
		_Pragma("GCC unroll 8")
		for (i = 0; i < n; i++)
			x[i] = bc_x86_ctr_block(hi, lo, i);
	}
	bc_aes_x86_ks_xor(k, x, src, dst, len, n);
}

BC_X86_AES int bc_aes_x86_ctr(const struct bc_aes_x86_ek *k, uint8_t ctr[16], const uint8_t *src, uint8_t *dst,
                               size_t len)
{
	__m128i be = bc_aes_x86_load_iv(ctr);
	uint64_t hi, lo;

	bc_x86_ctr_load(ctr, &hi, &lo);
	bc_x86_ctr_store(ctr, hi, lo, (len + 15) / 16);
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		aesni_ctr_blocks(k, be, hi, lo, src, dst, 128, 8);
		lo += 8;
		hi += lo < 8;
		be = bc_x86_ctr_block(hi, lo, 0);
	}
#define TAIL(N) aesni_ctr_blocks(k, be, hi, lo, src, dst, len, N)
	BC_X86_CASES_1_8((len + 15) / 16, TAIL);
#undef TAIL
	return 0;
}

static int aesni_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_aes_x86_ctr(ctx, iv, src, dst, len);
}

/* ---- xts ----------------------------------------------------------------------------- */

/* n (1..8) blocks in flight: t and t*x^i, one doubling after another with
 * the 0x87 reduction mask in a register; t moves on to t*x^n for the next
 * group. With steal_dec (decryption of a message with a partial final
 * block, and this group holding its last whole block), that last block
 * takes the tweak after its own (t*x^n), as IEEE 1619 5.4.2 wants, and t is
 * left at its own tweak for the stealing step. Eight tweaks and eight
 * blocks do not fit in 16 registers beside the mask: the tweaks wait out the
 * rounds in tw, the caller's buffer that it wipes, not in spill slots. */
BC_X86_INLINE BC_X86_AES void aesni_xts_blocks(const struct bc_aes_x86_xts_ctx *c, __m128i *t, __m128i mask,
                                               __m128i *tw, const uint8_t *src, uint8_t *dst, const unsigned n,
                                               int enc, int steal_dec)
{
	__m128i x[8];
	unsigned i;

	tw[0] = *t;
	_Pragma("GCC unroll 8")
	for (i = 1; i < n; i++)
		tw[i] = bc_x86_xts_mul_x(tw[i - 1], mask);
	*t = bc_x86_xts_mul_x(tw[n - 1], mask);
	if (steal_dec) {
		__m128i own = tw[n - 1];

		tw[n - 1] = *t;
		*t = own;
	}
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = _mm_xor_si128(bc_aes_x86_load(src + 16 * i), tw[i]);
	if (enc)
		bc_aes_x86_enc_n(&c->k1.enc, x, n);
	else
		bc_aes_x86_dec_n(&c->k1, x, n);
	BC_X86_OPAQUE(tw);   /* read the tweaks back from the buffer */
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		bc_aes_x86_store(dst + 16 * i, _mm_xor_si128(x[i], tw[i]));
}

/* PSHUFB controls for byte shifts by a public amount s (0..16): 16 + s
 * shifts a block down by s bytes, 16 - s up by s; 0x80 bytes give zeroes,
 * and their top bit also serves as a PBLENDVB selector. */
const uint8_t bc_aes_x86_xts_shift[48] = {
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

/* Ciphertext stealing (IEEE 1619 5.3.2, 5.4.2) for a final partial block of
 * rest (1..15) bytes at src/dst + 16, once the last whole block has gone
 * through the groups above (into dst): with the tweak after it for
 * encryption, with its own for decryption (steal_dec), so that only one
 * dependent AES remains here. Its output's head becomes the short final
 * block; the short source tail plus the output's remaining bytes go through
 * AES with t into the last whole position. Encryption and decryption are
 * the same moves, all in registers: the tail comes in as end, the 16 bytes
 * that end the source (read before anything is written, which keeps
 * dst == src working and spares a load that would wait for the stores just
 * made), and goes out the same way (the bytes that overlap the last whole
 * block are rewritten just after), so nothing outside src and dst is touched.
 * As in bc_aes_x86_xts_steal1, only the public rest picks an address. */
BC_X86_INLINE BC_X86_AES void aesni_xts_steal(const struct bc_aes_x86_xts_ctx *c, __m128i t, __m128i end,
                                              uint8_t *dst, size_t rest, int enc)
{
	const __m128i down = bc_aes_x86_load(bc_aes_x86_xts_shift + 32 - rest),
	              up = bc_aes_x86_load(bc_aes_x86_xts_shift + rest);
	__m128i head = bc_aes_x86_load(dst), x;

	x = _mm_blendv_epi8(_mm_shuffle_epi8(end, down), head, down);
	bc_aes_x86_store(dst + rest, _mm_shuffle_epi8(head, up));
	x = _mm_xor_si128(x, t);
	x = enc ? bc_aes_x86_enc1(&c->k1.enc, x) : bc_aes_x86_dec1(&c->k1, x);
	bc_aes_x86_store(dst, _mm_xor_si128(x, t));
}

/* The last group always holds 1..8 blocks, so it is the one to know
 * whether a stealing step follows. */
BC_X86_INLINE BC_X86_AES void aesni_xts(const struct bc_aes_x86_xts_ctx *c, __m128i t, const uint8_t *src,
                                        uint8_t *dst, size_t len, int enc)
{
	const __m128i mask = bc_x86_xts_mask(), end = bc_aes_x86_load(src + len - 16);
	size_t rest = len % 16, whole = len / 16, used = whole < 8 ? whole : 8;
	int steal_dec = rest && !enc;
	__m128i tw[8];

	for (; whole > 8; whole -= 8, src += 128, dst += 128)
		aesni_xts_blocks(c, &t, mask, tw, src, dst, 8, enc, 0);
#define TAIL(N) aesni_xts_blocks(c, &t, mask, tw, src, dst, N, enc, steal_dec)
	BC_X86_CASES_1_8(whole, TAIL);
#undef TAIL
	if (rest)
		aesni_xts_steal(c, t, end, dst + 16 * (whole - 1), rest, enc);
	bc_wipe(tw, 16 * used);
}

static BC_X86_AES int aesni_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_xts_ctx *c = ctx;

	aesni_xts(c, bc_aes_x86_enc1(&c->k2, bc_aes_x86_load_iv(iv)), src, dst, len, 1);
	return 0;
}

static BC_X86_AES int aesni_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_xts_ctx *c = ctx;

	aesni_xts(c, bc_aes_x86_enc1(&c->k2, bc_aes_x86_load_iv(iv)), src, dst, len, 0);
	return 0;
}

/* ---- driver tables ----------------------------------------------------------------------- */

const struct bc_skcipher_alg bc_ecb_aes_aesni = {
	.name = "ecb(aes)", .driver = "ecb-aes-aesni", .priority = 400, .cpu = BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = aesni_ecb_encrypt, .decrypt = aesni_ecb_decrypt,
};

const struct bc_skcipher_alg bc_cbc_aes_aesni = {
	.name = "cbc(aes)", .driver = "cbc-aes-aesni", .priority = 400, .cpu = BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = bc_aes_x86_cbc_encrypt, .decrypt = aesni_cbc_decrypt,
};

const struct bc_skcipher_alg bc_ctr_aes_aesni = {
	.name = "ctr(aes)", .driver = "ctr-aes-aesni", .priority = 400, .cpu = BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = aesni_ctr_crypt, .decrypt = aesni_ctr_crypt,
};

const struct bc_skcipher_alg bc_xts_aes_aesni = {
	.name = "xts(aes)", .driver = "xts-aes-aesni", .priority = 400, .cpu = BC_CPU_AESNI,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_xts_ctx), .setkey = bc_aes_x86_xts_setkey,
	.encrypt = aesni_xts_encrypt, .decrypt = aesni_xts_decrypt,
};
