/* blockcrypt x86: the AES round-key layout and the AES-NI/VAES round functions shared by the x86 AES drivers and GCM.
 * FIPS-197 (AES, equivalent inverse cipher 5.3.5), Intel AES-NI white paper (AESENC/AESDEC/AESIMC semantics). */
#ifndef BC_AES_X86_H
#define BC_AES_X86_H

#include "x86_util.h"

/* Encryption round keys, in the byte order AESENC takes them from memory. */
struct bc_aes_x86_ek {
	_Alignas(16) uint8_t rk[15][16];
	unsigned rounds;                      /* 10, 12 or 14 */
};
/* Both directions: dk are the equivalent-inverse-cipher keys in order of use
 * (dk[0] = rk[Nr], dk[i] = InvMixColumns(rk[Nr-i]), dk[Nr] = rk[0]). */
struct bc_aes_x86_key {
	struct bc_aes_x86_ek enc;
	_Alignas(16) uint8_t dk[15][16];
};

static inline int bc_aes_x86_keylen_ok(size_t keylen)
{
	return keylen == 16 || keylen == 24 || keylen == 32;
}
/* keylen must be 16, 24 or 32 (check with bc_aes_x86_keylen_ok first).
 * Need BC_CPU_AESNI; defined in aes_aesni.c. */
void bc_aes_x86_expand_enc(struct bc_aes_x86_ek *ek, const uint8_t *key, size_t keylen);
void bc_aes_x86_expand(struct bc_aes_x86_key *k, const uint8_t *key, size_t keylen);

/* xts(aes): key1 encrypts/decrypts the data, key2 only encrypts the tweak. */
struct bc_aes_x86_xts_ctx {
	struct bc_aes_x86_key k1;
	struct bc_aes_x86_ek k2;
};

/* The AES-NI building blocks (aes_aesni.c, aes_modes_aesni.c) that the wider
 * drivers reuse for what is serial by nature and for their tails. */
int bc_aes_x86_ecb_enc(const struct bc_aes_x86_ek *k, uint8_t *dst, const uint8_t *src, size_t nblocks);
int bc_aes_x86_ecb_dec(const struct bc_aes_x86_key *k, uint8_t *dst, const uint8_t *src, size_t nblocks);
/* CBC chain: st = E(st ^ block) per block; dst (may be NULL: CBC-MAC) gets each st. */
int bc_aes_x86_cbc_chain(const struct bc_aes_x86_ek *k, uint8_t st[16], const uint8_t *src, uint8_t *dst,
                          size_t nblocks);
int bc_aes_x86_cbc_dec(const struct bc_aes_x86_key *k, uint8_t iv[16], const uint8_t *src, uint8_t *dst,
                        size_t nblocks);
/* cbc(aes) encryption, serial by nature, so the same for every x86 cbc
 * driver (ctx: a struct bc_aes_x86_key). */
int bc_aes_x86_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
/* CTR over len bytes (any length), writing the next unused counter to ctr. */
int bc_aes_x86_ctr(const struct bc_aes_x86_ek *k, uint8_t ctr[16], const uint8_t *src, uint8_t *dst, size_t len);
/* XCTR over len bytes (any length) from block counter first (1 for a whole
 * message), the IV unchanged (xctr_aes_aesni.c); the wider drivers' tails. */
int bc_aes_x86_xctr(const struct bc_aes_x86_ek *k, const uint8_t iv[16], uint64_t first, const uint8_t *src,
                    uint8_t *dst, size_t len);
/* PSHUFB controls for XTS ciphertext stealing: 16 + s shifts a block down
 * by s bytes, 16 - s up by s (aes_modes_aesni.c). */
extern const uint8_t bc_aes_x86_xts_shift[48];
int bc_aes_x86_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
/* skcipher setkeys: ctx is a struct bc_aes_x86_key, bc_aes_x86_ek (ctr) or bc_aes_x86_xts_ctx. */
int bc_aes_x86_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);
int bc_aes_x86_ctr_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags);

/* ---- 128-bit (AES-NI) ------------------------------------------------------------ */

BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_rk(const uint8_t (*rk)[16], unsigned i)
{
	return _mm_load_si128((const __m128i *)rk[i]);
}
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}
BC_X86_INLINE BC_X86_AES void bc_aes_x86_store(uint8_t *p, __m128i x)
{
	_mm_storeu_si128((__m128i *)p, x);
}

/* Runs F(N) for N = n (1..8) as a compile-time constant: a tail of fewer
 * than eight blocks then keeps its state in registers like the full groups
 * do, instead of going through the stack once per round. */
#define BC_X86_CASES_1_8(n, F) do {                                                   \
		switch (n) {                                                           \
		case 1: F(1); break; case 2: F(2); break; case 3: F(3); break;         \
		case 4: F(4); break; case 5: F(5); break; case 6: F(6); break;         \
		case 7: F(7); break; case 8: F(8); break;                              \
		}                                                                      \
	} while (0)

/* n (1..8) consecutive blocks in and out of registers. */
BC_X86_INLINE BC_X86_AES void bc_aes_x86_load_n(__m128i *x, const uint8_t *p, unsigned n)
{
	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < n; i++)
		x[i] = bc_aes_x86_load(p + 16 * i);
}
BC_X86_INLINE BC_X86_AES void bc_aes_x86_store_n(uint8_t *p, const __m128i *x, unsigned n)
{
	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < n; i++)
		bc_aes_x86_store(p + 16 * i, x[i]);
}

/* n (1..8) blocks. With n = 8 (a constant) the loops unroll: eight
 * independent blocks in flight, each round key loaded once and used eight
 * times, which hides the AESENC latency behind its throughput. */
BC_X86_INLINE BC_X86_AES void bc_aes_x86_enc_n(const struct bc_aes_x86_ek *k, __m128i *x, unsigned n)
{
	unsigned r, i;
	__m128i key = bc_aes_x86_rk(k->rk, 0);
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = _mm_xor_si128(x[i], key);
	for (r = 1; r < k->rounds; r++) {
		key = bc_aes_x86_rk(k->rk, r);
		_Pragma("GCC unroll 8")
		for (i = 0; i < n; i++)
			x[i] = _mm_aesenc_si128(x[i], key);
	}
	key = bc_aes_x86_rk(k->rk, r);
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = _mm_aesenclast_si128(x[i], key);
}
/* The n (1..8) counter blocks x encrypted and XORed into len (<= 16n)
 * bytes from src to dst (ctr, xctr); a final partial block is read and
 * written in pieces (bc_x86_load_part), so no byte past src or dst is
 * touched. */
BC_X86_INLINE BC_X86_AES void bc_aes_x86_ks_xor(const struct bc_aes_x86_ek *k, __m128i *x, const uint8_t *src,
                                                uint8_t *dst, size_t len, const unsigned n)
{
	bc_aes_x86_enc_n(k, x, n);
	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < n; i++) {
		if (len >= 16 * (i + 1)) {
			bc_aes_x86_store(dst + 16 * i, _mm_xor_si128(x[i], bc_aes_x86_load(src + 16 * i)));
		} else {
			bc_x86_store_part(dst + 16 * i, _mm_xor_si128(x[i], bc_x86_load_part(src + 16 * i, len - 16 * i)),
			                  len - 16 * i);
			break;
		}
	}
}
BC_X86_INLINE BC_X86_AES void bc_aes_x86_dec_n(const struct bc_aes_x86_key *k, __m128i *x, unsigned n)
{
	unsigned r, i;
	__m128i key = bc_aes_x86_rk(k->dk, 0);
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = _mm_xor_si128(x[i], key);
	for (r = 1; r < k->enc.rounds; r++) {
		key = bc_aes_x86_rk(k->dk, r);
		_Pragma("GCC unroll 8")
		for (i = 0; i < n; i++)
			x[i] = _mm_aesdec_si128(x[i], key);
	}
	key = bc_aes_x86_rk(k->dk, r);
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++)
		x[i] = _mm_aesdeclast_si128(x[i], key);
}

/* Round r of one block: AESENC with rk[r], or AESDEC with the dk array's. */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_round(const uint8_t (*rk)[16], unsigned r, const int enc, __m128i x)
{
	return enc ? _mm_aesenc_si128(x, bc_aes_x86_rk(rk, r)) : _mm_aesdec_si128(x, bc_aes_x86_rk(rk, r));
}

/* Only the middle rounds 1..Nr-1 of one block (AESENC, or AESDEC with the
 * dk array), for callers that fold the first and last round keys into
 * their own XORs; nr a constant, so the rounds unroll. */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_mid1(const uint8_t (*rk)[16], const unsigned nr, const int enc, __m128i x)
{
	_Pragma("GCC unroll 14")
	for (unsigned r = 1; r < nr; r++)
		x = bc_aes_x86_round(rk, r, enc, x);
	return x;
}

/* One block, the round count read at run time: the nine rounds every key
 * size has, then AES-128's last round straight on (a short message's common
 * case takes no branch), the longer keys' extra rounds out of the way. */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_one(const uint8_t (*rk)[16], const unsigned nr, const int enc, __m128i x)
{
	x = bc_aes_x86_mid1(rk, 10, enc, _mm_xor_si128(x, bc_aes_x86_rk(rk, 0)));
	if (__builtin_expect(nr != 10, 0)) {
		x = bc_aes_x86_round(rk, 11, enc, bc_aes_x86_round(rk, 10, enc, x));
		if (nr != 12)
			x = bc_aes_x86_round(rk, 13, enc, bc_aes_x86_round(rk, 12, enc, x));
	}
	return enc ? _mm_aesenclast_si128(x, bc_aes_x86_rk(rk, nr)) : _mm_aesdeclast_si128(x, bc_aes_x86_rk(rk, nr));
}
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_enc1(const struct bc_aes_x86_ek *k, __m128i x)
{
	return bc_aes_x86_one(k->rk, k->rounds, 1, x);
}
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_dec1(const struct bc_aes_x86_key *k, __m128i x)
{
	return bc_aes_x86_one(k->dk, k->enc.rounds, 0, x);
}

/* ---- xts: one block, and ciphertext stealing (the VAES drivers' too) -------------- */

/* An IV or counter as two 8-byte loads: callers write it in 8-byte
 * stores (dm-crypt's plain64: the IV zeroed, then the sector number
 * stored; ctr's own write-back of the next counter), and the store buffer
 * forwards such a store to an 8-byte load but not to a 16-byte one, which
 * would wait for the stores to reach the cache. A 16-byte store forwards
 * to either half. (MOVQ and MOVHPD: SSE2, also on i386.) */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_load_iv(const uint8_t *iv)
{
	__m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)iv);

	return _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(lo), (const double *)(const void *)(iv + 8)));
}

/* E_K2(iv), the first tweak, but for its last round: the caller adds
 * AESENCLAST with K2_Nr, or folds more into that key. */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_xts_t_open(const uint8_t (*k2)[16], const unsigned nr, const uint8_t *iv)
{
	return bc_aes_x86_mid1(k2, nr, 1, _mm_xor_si128(bc_aes_x86_load_iv(iv), bc_aes_x86_rk(k2, 0)));
}

/* A whole 16-byte message: T = E_K2(iv) with the block's AES right behind
 * it, T still in flight (its last round key carries the data block and
 * K_0 as well, which takes an XOR off the chain): 2 Nr dependent AES
 * instructions and nothing else. rk: k1's encryption or decryption keys. */
BC_X86_INLINE BC_X86_AES void bc_aes_x86_xts16(const uint8_t (*k2)[16], const uint8_t (*rk)[16], const unsigned nr,
                                               const int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst)
{
	__m128i t = bc_aes_x86_xts_t_open(k2, nr, iv), kl;
	__m128i x = _mm_aesenclast_si128(t, _mm_xor_si128(bc_aes_x86_rk(k2, nr),
	                                                  _mm_xor_si128(bc_aes_x86_load(src), bc_aes_x86_rk(rk, 0))));

	t = _mm_aesenclast_si128(t, bc_aes_x86_rk(k2, nr));
	x = bc_aes_x86_mid1(rk, nr, enc, x);
	kl = _mm_xor_si128(t, bc_aes_x86_rk(rk, nr));
	bc_aes_x86_store(dst, enc ? _mm_aesenclast_si128(x, kl) : _mm_aesdeclast_si128(x, kl));
}

/* One block through AES with tweak t (t ^ K_0 and t ^ K_Nr are the first
 * and last round keys, so the whitening costs nothing on the AES chain). */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_xts1(const uint8_t (*rk)[16], const unsigned nr, const int enc, __m128i t,
                                                 __m128i p)
{
	__m128i x = bc_aes_x86_mid1(rk, nr, enc, _mm_xor_si128(p, _mm_xor_si128(t, bc_aes_x86_rk(rk, 0))));
	__m128i kl = _mm_xor_si128(t, bc_aes_x86_rk(rk, nr));

	return enc ? _mm_aesenclast_si128(x, kl) : _mm_aesdeclast_si128(x, kl);
}

/* Ciphertext stealing (IEEE 1619 5.3.2, 5.4.2) of the last whole block (at
 * src/dst, tweak t) and the rest (1..15) bytes after it: encryption
 * encrypts the whole block with t, decryption decrypts it with t * x; the
 * result's head becomes the short final block and its tail fills the short
 * block up for the other tweak's AES, whose result goes to the whole
 * block's place. All in registers: the short block comes in as its rest
 * bytes (in pieces, bc_x86_load_part), read before anything is written (so
 * dst == src works), and the short output goes out as a 16-byte store
 * ending at the message's end whose first bytes the last store then
 * rewrites, so nothing outside src and dst is touched. Only rest, a public
 * length, picks an address (the shift controls); the secret bytes move
 * through PSHUFB and PBLENDVB, and t * x is a mask, not a branch.
 * bc_aes_x86_xts_swap is the part after the whole block's AES (its result
 * x): the short output stored, the block for the second AES returned. */
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_xts_swap(__m128i x, const uint8_t *src, uint8_t *dst, size_t rest)
{
	const __m128i down = bc_aes_x86_load(bc_aes_x86_xts_shift + 32 - rest);
	const __m128i up = bc_aes_x86_load(bc_aes_x86_xts_shift + rest);
	__m128i tail = bc_x86_load_part(src + 16, rest);

	bc_aes_x86_store(dst + rest, _mm_shuffle_epi8(x, up));
	return _mm_blendv_epi8(tail, x, down);
}
BC_X86_INLINE BC_X86_AES __m128i bc_aes_x86_xts_steal1(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                                       __m128i t, const uint8_t *src, uint8_t *dst, size_t rest,
                                                       __m128i *t2)
{
	__m128i next = bc_x86_xts_mul_x(t, bc_x86_xts_mask());
	__m128i x = bc_aes_x86_xts1(rk, nr, enc, enc ? t : next, bc_aes_x86_load(src));

	*t2 = enc ? next : t;
	return bc_aes_x86_xts_swap(x, src, dst, rest);
}
BC_X86_INLINE BC_X86_AES void bc_aes_x86_xts_steal(const uint8_t (*rk)[16], const unsigned nr, const int enc, __m128i t,
                                                   const uint8_t *src, uint8_t *dst, size_t rest)
{
	__m128i t2, x = bc_aes_x86_xts_steal1(rk, nr, enc, t, src, dst, rest, &t2);

	bc_aes_x86_store(dst, bc_aes_x86_xts1(rk, nr, enc, t2, x));
}

#if defined(__x86_64__)
/* ---- 256-bit (VAES: two blocks per ymm register; x86-64 only, where the
 * sixteen ymm registers make it pay) ---------------------------------------------- */

/* xts(aes) with VAES on ymm (aes_modes_vaes.c), a whole message: what
 * xts-aes-vaes-avx512 leaves to it (short messages). */
int bc_aes_vaes_xts_crypt(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
                           size_t len, int enc);

BC_X86_INLINE BC_X86_VAES __m256i bc_aes_x86_rk256(const uint8_t (*rk)[16], unsigned i)
{
	return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)rk[i]));
}
BC_X86_INLINE BC_X86_VAES __m256i bc_aes_x86_load256(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}
BC_X86_INLINE BC_X86_VAES void bc_aes_x86_store256(uint8_t *p, __m256i x)
{
	_mm256_storeu_si256((__m256i *)p, x);
}

/* Only the middle rounds 1..Nr-1 (AESENC or AESDEC with rk, the enc or dk
 * array) on n (1..12) registers, for modes that fold the first and last
 * round-key XORs into their own whitening. With nr and n constants the
 * rounds unroll completely and the states stay in registers. */
BC_X86_INLINE BC_X86_VAES void bc_aes_x86_mid_256(const uint8_t (*rk)[16], const unsigned nr, __m256i *x,
                                                  unsigned n, int enc)
{
	_Pragma("GCC unroll 14")
	for (unsigned r = 1; r < nr; r++) {
		__m256i key = bc_aes_x86_rk256(rk, r);
		_Pragma("GCC unroll 12")
		for (unsigned i = 0; i < n; i++)
			x[i] = enc ? _mm256_aesenc_epi128(x[i], key) : _mm256_aesdec_epi128(x[i], key);
	}
}

/* ---- ecb of 1..15 blocks: one pass, y ymm registers of two blocks and x
 * (0 or 1) xmm register of one, y and x constants. Every load comes before
 * the first store (dst == src works), and nothing is masked: a masked
 * 512-bit store reaches a later load of the same bytes (the next operation
 * on a buffer worked in place) about 8 cycles later than a plain ymm or xmm
 * one, and a zmm one 2 cycles later; with ymm, a short message is as quick
 * along such a chain as the one-block code, and its AES instructions take
 * half the issue slots of xmm ones. ---------------------------------------------------------- */
BC_X86_INLINE BC_X86_VAES void bc_aes_vaes_ecb_short1(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                                      const uint8_t *src, uint8_t *dst, const unsigned y,
                                                      const unsigned x)
{
	__m256i v[7], key = _mm256_setzero_si256();
	__m128i b = _mm_setzero_si128(), k1;
	unsigned i, r;

	/* k1: the odd block's round key, a 128-bit load of its own when there
	 * is no ymm broadcast to take it from (it then folds into the AES
	 * instruction as a memory operand). */
#define BC_AES_VAES_KEYS(R) do {                                                           \
		if (y)                                                                      \
			key = bc_aes_x86_rk256(rk, R);                                      \
		k1 = y ? _mm256_castsi256_si128(key) : bc_aes_x86_rk(rk, R);                \
	} while (0)
	_Pragma("GCC unroll 7")
	for (i = 0; i < y; i++)
		v[i] = bc_aes_x86_load256(src + 32 * i);
	if (x)
		b = bc_aes_x86_load(src + 32 * y);
	BC_AES_VAES_KEYS(0);
	_Pragma("GCC unroll 7")
	for (i = 0; i < y; i++)
		v[i] = _mm256_xor_si256(v[i], key);
	b = _mm_xor_si128(b, k1);
	_Pragma("GCC unroll 14")
	for (r = 1; r < nr; r++) {
		BC_AES_VAES_KEYS(r);
		_Pragma("GCC unroll 7")
		for (i = 0; i < y; i++)
			v[i] = enc ? _mm256_aesenc_epi128(v[i], key) : _mm256_aesdec_epi128(v[i], key);
		if (x)
			b = enc ? _mm_aesenc_si128(b, k1) : _mm_aesdec_si128(b, k1);
	}
	BC_AES_VAES_KEYS(nr);
#undef BC_AES_VAES_KEYS
	_Pragma("GCC unroll 7")
	for (i = 0; i < y; i++)
		bc_aes_x86_store256(dst + 32 * i, enc ? _mm256_aesenclast_epi128(v[i], key) : _mm256_aesdeclast_epi128(v[i], key));
	if (x)
		bc_aes_x86_store(dst + 32 * y, enc ? _mm_aesenclast_si128(b, k1) : _mm_aesdeclast_si128(b, k1));
}

/* len bytes of 1..15 blocks, enc a constant: 1, or 0 (nothing done) for
 * a longer message, which the caller's batches take. One block is the
 * straight line of bc_aes_x86_one; 2..15 are picked with the round count by
 * one indirect jump, each case a straight line with both constant. */
BC_X86_INLINE BC_X86_VAES int bc_aes_vaes_ecb_short(const struct bc_aes_x86_key *k, const int enc,
                                                    const uint8_t *src, uint8_t *dst, size_t len)
{
	const uint8_t (*rk)[16] = enc ? k->enc.rk : k->dk;
	const size_t nb = len / 16;

	if (__builtin_expect(len == 16, 1)) {
		bc_aes_x86_store(dst, bc_aes_x86_one(rk, k->enc.rounds, enc, bc_aes_x86_load(src)));
		return 1;
	}
	if (len - 1 >= 16 * 15)
		return 0;

#define S(NR, Y, X) bc_aes_vaes_ecb_short1(rk, NR, enc, src, dst, Y, X); break
#define ROW(NR) \
	case 16 * NR + 1: S(NR, 0, 1);  case 16 * NR + 2: S(NR, 1, 0);  case 16 * NR + 3: S(NR, 1, 1);  \
	case 16 * NR + 4: S(NR, 2, 0);  case 16 * NR + 5: S(NR, 2, 1);  case 16 * NR + 6: S(NR, 3, 0);  \
	case 16 * NR + 7: S(NR, 3, 1);  case 16 * NR + 8: S(NR, 4, 0);  case 16 * NR + 9: S(NR, 4, 1);  \
	case 16 * NR + 10: S(NR, 5, 0); case 16 * NR + 11: S(NR, 5, 1); case 16 * NR + 12: S(NR, 6, 0); \
	case 16 * NR + 13: S(NR, 6, 1); case 16 * NR + 14: S(NR, 7, 0); case 16 * NR + 15: S(NR, 7, 1);
	switch (16 * k->enc.rounds + nb) {
	ROW(10) ROW(12) ROW(14)
	default: __builtin_unreachable();   /* 10, 12 or 14 rounds; 2..15 blocks */
	}
#undef ROW
#undef S
	return 1;
}
#endif

#endif
