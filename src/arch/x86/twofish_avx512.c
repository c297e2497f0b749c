/* blockcrypt x86-64: Twofish on 512-bit registers, 64 blocks a pass (drivers "twofish-avx512", "MODE-twofish-avx512").
 * Schneier et al., "Twofish: A 128-Bit Block Cipher" (1998); SP 800-38A (cbc, ctr), IEEE 1619-2018 (xts).
 * Needs AVX-512 F, BW and VBMI (VPERMI2B), and GFNI (GF2P8AFFINEQB on zmm). */
#include "../../cipher/twofish.h"
#include "x86_util.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define TF512_TARGET "avx512f,avx512bw,avx512vbmi,gfni,avx2"
#define TF512_FN static inline __attribute__((always_inline, target(TF512_TARGET)))
#define TF512_API static __attribute__((noinline, target(TF512_TARGET)))

#define TF512_BLOCKS 64
#define TF512_BYTES (16 * TF512_BLOCKS)

/* The key-dependent S-boxes s_0..s_3 as 256-byte tables, computed at setkey
 * by the bitsliced circuit. A lookup takes each table whole into VPERMI2B
 * (four 64-byte registers, two lookups of 128 entries and a blend on bit 7),
 * so a secret byte selects within registers, never a memory address. */
struct tf512_ctx {
	_Alignas(64) uint8_t tab[4][256];   /* 64-byte rows for aligned loads; the context is 64-aligned */
	uint32_t k[40];
};

struct tf512_xts_ctx {
	struct tf512_ctx data, tweak;
};

static void tf512_expand(struct tf512_ctx *c, const uint8_t *key, size_t keylen)
{
	struct tf_key k;

	tf_setkey(&k, key, keylen);
	tf_sbox_tables(&k, c->tab);
	memcpy(c->k, k.k, sizeof(c->k));
	bc_wipe(&k, sizeof(k));
}

static int tf512_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	tf512_expand(ctx, key, keylen);
	return 0;
}

/* ---- layouts ----------------------------------------------------------------------------
 * Words: x[w][q] holds word w of 16 blocks of group q. Bytes: for the S-boxes
 * and MDS, the 64 words of x[w] become four registers, register j holding
 * byte j of every word: an in-lane 4x4 byte transpose and a 4x4 dword
 * transpose across the four registers (each its own inverse). */
TF512_FN void tf512_t4x4(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
	__m512i t0 = _mm512_unpacklo_epi32(*a, *b), t1 = _mm512_unpackhi_epi32(*a, *b);
	__m512i t2 = _mm512_unpacklo_epi32(*c, *d), t3 = _mm512_unpackhi_epi32(*c, *d);

	*a = _mm512_unpacklo_epi64(t0, t2);
	*b = _mm512_unpackhi_epi64(t0, t2);
	*c = _mm512_unpacklo_epi64(t1, t3);
	*d = _mm512_unpackhi_epi64(t1, t3);
}

TF512_FN __m512i tf512_bytet(void)
{
	return _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
}

TF512_FN void tf512_to_bytes(__m512i v[4], __m512i bt)
{
	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++)
		v[i] = _mm512_shuffle_epi8(v[i], bt);
	tf512_t4x4(&v[0], &v[1], &v[2], &v[3]);
}

TF512_FN void tf512_to_words(__m512i v[4], __m512i bt)
{
	tf512_t4x4(&v[0], &v[1], &v[2], &v[3]);
	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++)
		v[i] = _mm512_shuffle_epi8(v[i], bt);
}

/* s_j on 64 bytes */
TF512_FN __m512i tf512_s(const uint8_t *tab, __m512i x)
{
	const __m512i *t = (const __m512i *)(const void *)tab;
	__m512i lo = _mm512_permutex2var_epi8(_mm512_load_si512(t), x, _mm512_load_si512(t + 1));
	__m512i hi = _mm512_permutex2var_epi8(_mm512_load_si512(t + 2), x, _mm512_load_si512(t + 3));

	return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

/* Multiplication by 0x5b and 0xef mod x^8 + x^6 + x^5 + x^3 + 1 as GF(2)
 * matrices (byte 7 - i: the input bits of output bit i). */
#define TF512_M5B 0x050b162953a24182ll
#define TF512_MEF 0x070f1f3972e3c183ll
#define TF512_XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)

/* z = MDS (s_0(y0), s_1(y1), s_2(y2), s_3(y3)), byte-sliced; the matrix's
 * equal entries share one multiplication by linearity. */
TF512_FN void tf512_g(const struct tf512_ctx *c, __m512i z[4], __m512i y0, __m512i y1, __m512i y2, __m512i y3)
{
	const __m512i m5 = _mm512_set1_epi64(TF512_M5B), me = _mm512_set1_epi64(TF512_MEF);
	__m512i s0 = tf512_s(c->tab[0], y0), s1 = tf512_s(c->tab[1], y1);
	__m512i s2 = tf512_s(c->tab[2], y2), s3 = tf512_s(c->tab[3], y3);

#define TF512_MUL(x, m) _mm512_gf2p8affine_epi64_epi8((x), (m), 0)
	z[0] = TF512_XOR3(s0, TF512_MUL(s1, me), TF512_MUL(_mm512_xor_si512(s2, s3), m5));
	z[1] = TF512_XOR3(TF512_MUL(s0, m5), TF512_MUL(_mm512_xor_si512(s1, s2), me), s3);
	z[2] = TF512_XOR3(TF512_MUL(_mm512_xor_si512(s0, s3), me), TF512_MUL(s1, m5), s2);
	z[3] = TF512_XOR3(TF512_MUL(_mm512_xor_si512(s0, s2), me), s1, TF512_MUL(s3, m5));
#undef TF512_MUL
}

/* (F0, F1) of round r from R0 = a, R1 = b, as words. */
TF512_FN void tf512_f(const struct tf512_ctx *c, unsigned r, const __m512i a[4], const __m512i b[4],
		      __m512i f0[4], __m512i f1[4])
{
	const __m512i bt = tf512_bytet();
	const __m512i k0 = _mm512_set1_epi32((int)c->k[2 * r + 8]), k1 = _mm512_set1_epi32((int)c->k[2 * r + 9]);
	__m512i u[4], v[4], t0[4], t1[4];

	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++) {
		u[i] = a[i];
		v[i] = b[i];
	}
	tf512_to_bytes(u, bt);
	tf512_to_bytes(v, bt);
	tf512_g(c, t0, u[0], u[1], u[2], u[3]);
	tf512_g(c, t1, v[3], v[0], v[1], v[2]);          /* g(ROL(R1, 8)) */
	tf512_to_words(t0, bt);
	tf512_to_words(t1, bt);
	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++) {
		__m512i s = _mm512_add_epi32(t0[i], t1[i]);
		f0[i] = _mm512_add_epi32(s, k0);
		f1[i] = _mm512_add_epi32(_mm512_add_epi32(s, t1[i]), k1);
	}
}

/* 64 blocks from src to dst (which may be equal). The rounds alternate the
 * pair of words they read, as in the portable driver; the ciphertext's
 * words are (x2, x3, x0, x1), so decryption loads them that way. */
TF512_FN void tf512_load(__m512i x[4][4], const uint8_t *src, unsigned o)
{
	_Pragma("GCC unroll 4")
	for (int q = 0; q < 4; q++) {
		__m512i v[4];
		_Pragma("GCC unroll 4")
		for (int i = 0; i < 4; i++)
			v[i] = _mm512_loadu_si512(src + 256 * q + 64 * i);
		tf512_t4x4(&v[0], &v[1], &v[2], &v[3]);
		_Pragma("GCC unroll 4")
		for (int w = 0; w < 4; w++)
			x[(w + 2 * o) & 3][q] = v[w];
	}
}

TF512_FN void tf512_store(uint8_t *dst, __m512i x[4][4], unsigned o)
{
	_Pragma("GCC unroll 4")
	for (int q = 0; q < 4; q++) {
		__m512i v[4];
		_Pragma("GCC unroll 4")
		for (int w = 0; w < 4; w++)
			v[w] = x[(w + 2 * o) & 3][q];
		tf512_t4x4(&v[0], &v[1], &v[2], &v[3]);
		_Pragma("GCC unroll 4")
		for (int i = 0; i < 4; i++)
			_mm512_storeu_si512(dst + 256 * q + 64 * i, v[i]);
	}
}

TF512_FN void tf512_xork(__m512i x[4], uint32_t k)
{
	const __m512i kv = _mm512_set1_epi32((int)k);

	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++)
		x[i] = _mm512_xor_si512(x[i], kv);
}

/* Round r: (R2, R3) = (ROR(R2 ^ F0, 1), ROL(R3, 1) ^ F1) from (R0, R1) = (a, b); and its inverse. */
TF512_FN void tf512_round_enc(const struct tf512_ctx *c, unsigned r, const __m512i a[4], const __m512i b[4],
			      __m512i x2[4], __m512i x3[4])
{
	__m512i f0[4], f1[4];

	tf512_f(c, r, a, b, f0, f1);
	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++) {
		x2[i] = _mm512_ror_epi32(_mm512_xor_si512(x2[i], f0[i]), 1);
		x3[i] = _mm512_xor_si512(_mm512_rol_epi32(x3[i], 1), f1[i]);
	}
}

TF512_FN void tf512_round_dec(const struct tf512_ctx *c, unsigned r, const __m512i a[4], const __m512i b[4],
			      __m512i x2[4], __m512i x3[4])
{
	__m512i f0[4], f1[4];

	tf512_f(c, r, a, b, f0, f1);
	_Pragma("GCC unroll 4")
	for (int i = 0; i < 4; i++) {
		x2[i] = _mm512_xor_si512(_mm512_rol_epi32(x2[i], 1), f0[i]);
		x3[i] = _mm512_ror_epi32(_mm512_xor_si512(x3[i], f1[i]), 1);
	}
}

TF512_API void tf512_enc64(const struct tf512_ctx *c, uint8_t *dst, const uint8_t *src)
{
	__m512i x[4][4];

	tf512_load(x, src, 0);
	_Pragma("GCC unroll 4")
	for (int w = 0; w < 4; w++)
		tf512_xork(x[w], c->k[w]);
	for (unsigned r = 0; r < 16; r += 2) {
		tf512_round_enc(c, r, x[0], x[1], x[2], x[3]);
		tf512_round_enc(c, r + 1, x[2], x[3], x[0], x[1]);
	}
	tf512_xork(x[2], c->k[4]);
	tf512_xork(x[3], c->k[5]);
	tf512_xork(x[0], c->k[6]);
	tf512_xork(x[1], c->k[7]);
	tf512_store(dst, x, 1);
}

TF512_API void tf512_dec64(const struct tf512_ctx *c, uint8_t *dst, const uint8_t *src)
{
	__m512i x[4][4];

	tf512_load(x, src, 1);
	tf512_xork(x[2], c->k[4]);
	tf512_xork(x[3], c->k[5]);
	tf512_xork(x[0], c->k[6]);
	tf512_xork(x[1], c->k[7]);
	for (unsigned r = 16; r > 0; r -= 2) {
		tf512_round_dec(c, r - 1, x[2], x[3], x[0], x[1]);
		tf512_round_dec(c, r - 2, x[0], x[1], x[2], x[3]);
	}
	_Pragma("GCC unroll 4")
	for (int w = 0; w < 4; w++)
		tf512_xork(x[w], c->k[w]);
	tf512_store(dst, x, 0);
}

/* n (1..64) blocks: a short pass goes through buf, zero-padded. */
static void tf512_pass(const struct tf512_ctx *c, int enc, uint8_t *dst, const uint8_t *src, size_t n,
		       uint8_t buf[TF512_BYTES])
{
	if (n == TF512_BLOCKS) {
		(enc ? tf512_enc64 : tf512_dec64)(c, dst, src);
		return;
	}
	memcpy(buf, src, 16 * n);
	memset(buf + 16 * n, 0, TF512_BYTES - 16 * n);
	(enc ? tf512_enc64 : tf512_dec64)(c, buf, buf);
	memcpy(dst, buf, 16 * n);
}

static void tf512_crypt(const struct tf512_ctx *c, int enc, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	_Alignas(64) uint8_t buf[TF512_BYTES];

	while (nblocks) {
		size_t n = nblocks < TF512_BLOCKS ? nblocks : TF512_BLOCKS;
		tf512_pass(c, enc, dst, src, n, buf);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	bc_wipe(buf, sizeof(buf));
	bc_burn_stack();
}

static void tf512_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	tf512_crypt(ctx, 1, dst, src, nblocks);
}

static void tf512_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	tf512_crypt(ctx, 0, dst, src, nblocks);
}

/* Serial chains (cbc encryption, the MACs): one block a pass. */
static void tf512_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	_Alignas(64) uint8_t buf[TF512_BYTES];

	for (size_t i = 0; i < nblocks; i++) {
		bc_xor(st, st, src + 16 * i, 16);
		tf512_pass(ctx, 1, st, st, 1, buf);
	}
	bc_wipe(buf, sizeof(buf));
	bc_burn_stack();
}

static void tf512_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
			   size_t nblocks)
{
	_Alignas(64) uint8_t buf[TF512_BYTES];

	for (size_t i = 0; i < nblocks; i++) {
		for (unsigned c = 0; c < n; c++)
			bc_xor(st[c], st[c], src[c] + 16 * i, 16);
		tf512_pass(ctx, 1, st[0], st[0], n, buf);
	}
	bc_wipe(buf, sizeof(buf));
	bc_burn_stack();
}

/* ---- modes ------------------------------------------------------------------------------ */
static int tf512_sk_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	(void)flags;
	return tf512_setkey(ctx, key, keylen);
}

static int tf512_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	tf512_crypt(ctx, 1, dst, src, len / 16);
	return 0;
}

static int tf512_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	tf512_crypt(ctx, 0, dst, src, len / 16);
	return 0;
}

static int tf512_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	_Alignas(64) uint8_t buf[TF512_BYTES];

	for (size_t i = 0; i < len; i += 16) {
		bc_xor(iv, iv, src + i, 16);
		tf512_pass(ctx, 1, iv, iv, 1, buf);
		memcpy(dst + i, iv, 16);
	}
	bc_wipe(buf, sizeof(buf));
	bc_burn_stack();
	return 0;
}

/* A pass decrypts into buf; the blocks are then XORed with their
 * predecessors from the last to the first, so that dst == src still finds
 * every ciphertext block it needs. */
static int tf512_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	_Alignas(64) uint8_t buf[TF512_BYTES], pad[TF512_BYTES];
	uint8_t next[16];

	while (len) {
		size_t n = len < TF512_BYTES ? len : TF512_BYTES;
		tf512_pass(ctx, 0, buf, src, n / 16, pad);
		memcpy(next, src + n - 16, 16);
		for (size_t i = n - 16; i; i -= 16)
			bc_xor(dst + i, buf + i, src + i - 16, 16);
		bc_xor(dst, buf, iv, 16);
		memcpy(iv, next, 16);
		src += n;
		dst += n;
		len -= n;
	}
	bc_wipe(buf, sizeof(buf));
	bc_wipe(pad, sizeof(pad));
	bc_burn_stack();
	return 0;
}

/* 64 counter blocks from the 128-bit counter (hi, lo) (public: the IV), four
 * a register as 64-bit lanes (lo, hi) with the carry of each low half, then
 * every 16 bytes reversed into big-endian blocks. */
TF512_API void tf512_counters(uint8_t ks[TF512_BYTES], uint64_t hi, uint64_t lo)
{
	const __m512i rev = _mm512_broadcast_i32x4(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
	const __m512i lo0 = _mm512_set1_epi64((long long)lo), hi0 = _mm512_set1_epi64((long long)hi);
	__m512i step = _mm512_setr_epi64(0, 0, 1, 0, 2, 0, 3, 0);

	for (int i = 0; i < TF512_BLOCKS / 4; i++) {
		__m512i v = _mm512_mask_blend_epi64(0xaa, _mm512_add_epi64(lo0, step), hi0);
		/* a low half that wrapped below lo carries into its high half */
		__mmask8 wrap = (__mmask8)(_mm512_cmplt_epu64_mask(v, lo0) & 0x55) << 1;
		v = _mm512_mask_add_epi64(v, wrap, v, _mm512_set1_epi64(1));
		_mm512_storeu_si512(ks + 64 * i, _mm512_shuffle_epi8(v, rev));
		step = _mm512_add_epi64(step, _mm512_setr_epi64(4, 0, 4, 0, 4, 0, 4, 0));
	}
}

/* Counter blocks of a pass from the 128-bit big-endian IV, which is then
 * written back past the last one used (a partial block uses one up). */
static int tf512_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	_Alignas(64) uint8_t ks[TF512_BYTES], pad[TF512_BYTES];
	uint64_t hi = bc_load_be64(iv), lo = bc_load_be64(iv + 8);

	while (len) {
		size_t n = len < TF512_BYTES ? len : TF512_BYTES, nb = (n + 15) / 16;
		tf512_counters(ks, hi, lo);
		hi += lo + nb < lo;
		lo += nb;
		tf512_pass(ctx, 1, ks, ks, nb, pad);
		bc_xor(dst, src, ks, n);
		src += n;
		dst += n;
		len -= n;
	}
	bc_store_be64(iv, hi);
	bc_store_be64(iv + 8, lo);
	bc_wipe(ks, sizeof(ks));
	bc_wipe(pad, sizeof(pad));
	bc_burn_stack();
	return 0;
}

static int tf512_xts_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned flags)
{
	struct tf512_xts_ctx *c = ctx;
	size_t half = keylen / 2;

	if ((keylen & 1) || (half != 16 && half != 24 && half != 32))
		return -EINVAL;
	if (!(flags & BC_ALLOW_WEAK_KEYS) && !bc_memneq(key, key + half, half))
		return -EINVAL;
	tf512_expand(&c->data, key, half);
	tf512_expand(&c->tweak, key + half, half);
	return 0;
}

/* T times x in GF(2^128), little-endian (IEEE 1619), without a branch on T */
static inline void tf512_xts_next(uint64_t t[2])
{
	uint64_t c = t[1] >> 63;

	t[1] = t[1] << 1 | t[0] >> 63;
	t[0] = t[0] << 1 ^ ((UINT64_C(0) - c) & 0x87);
}

/* The n tweaks T, T x, ... of a pass, a doubling each in an xmm register; t advances past them. */
TF512_API void tf512_tweaks(uint8_t tw[TF512_BYTES], uint64_t t[2], size_t n)
{
	const __m128i mask = bc_x86_xts_mask();
	__m128i v = _mm_set_epi64x((long long)t[1], (long long)t[0]);

	for (size_t i = 0; i < n; i++) {
		_mm_storeu_si128((__m128i *)(void *)(tw + 16 * i), v);
		v = bc_x86_xts_mul_x(v, mask);
	}
	t[0] = (uint64_t)_mm_cvtsi128_si64(v);
	t[1] = (uint64_t)_mm_extract_epi64(v, 1);
}

/* nblocks whole blocks under the tweaks T, T x, ...; t advances past them. */
static void tf512_xts_blocks(const struct tf512_ctx *c, int enc, uint64_t t[2], uint8_t *dst, const uint8_t *src,
			     size_t nblocks, uint8_t tw[TF512_BYTES], uint8_t buf[TF512_BYTES])
{
	while (nblocks) {
		size_t n = nblocks < TF512_BLOCKS ? nblocks : TF512_BLOCKS;
		tf512_tweaks(tw, t, n);
		bc_xor(dst, src, tw, 16 * n);
		tf512_pass(c, enc, dst, dst, n, buf);
		bc_xor(dst, dst, tw, 16 * n);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
}

/* Ciphertext stealing as the xts template does it (IEEE 1619 5.3.2): the
 * last full block and the tail together, decryption taking tweak m before
 * tweak m - 1. */
static void tf512_xts(const struct tf512_xts_ctx *c, int enc, const uint8_t *iv, const uint8_t *src, uint8_t *dst,
		      size_t len)
{
	_Alignas(64) uint8_t tw[TF512_BYTES], buf[TF512_BYTES];
	uint8_t cc[16], pp[16];
	uint64_t t[2], t2[2];
	size_t tail = len % 16, full = len / 16;

	tf512_pass(&c->tweak, 1, cc, iv, 1, buf);
	t[0] = bc_load_le64(cc);
	t[1] = bc_load_le64(cc + 8);
	if (!tail) {
		tf512_xts_blocks(&c->data, enc, t, dst, src, full, tw, buf);
	} else {
		tf512_xts_blocks(&c->data, enc, t, dst, src, full - 1, tw, buf);
		src += 16 * (full - 1);
		dst += 16 * (full - 1);
		memcpy(t2, t, sizeof(t2));
		tf512_xts_next(t2);                                   /* t = T(m-1), t2 = T(m) */
		tf512_xts_blocks(&c->data, enc, enc ? t : t2, cc, src, 1, tw, buf);
		memcpy(pp, src + 16, tail);
		memcpy(pp + tail, cc + tail, 16 - tail);
		memcpy(dst + 16, cc, tail);
		tf512_xts_blocks(&c->data, enc, enc ? t2 : t, dst, pp, 1, tw, buf);
		bc_wipe(t2, sizeof(t2));
		bc_wipe(pp, sizeof(pp));
	}
	bc_wipe(t, sizeof(t));
	bc_wipe(cc, sizeof(cc));
	bc_wipe(tw, sizeof(tw));
	bc_wipe(buf, sizeof(buf));
	bc_burn_stack();
}

static int tf512_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	tf512_xts(ctx, 1, iv, src, dst, len);
	return 0;
}

static int tf512_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	tf512_xts(ctx, 0, iv, src, dst, len);
	return 0;
}

#define TF512_CPU (BC_CPU_AVX | BC_CPU_AVX2 | BC_CPU_GFNI | BC_CPU_AVX512 | BC_CPU_AVX512VBMI)

const struct bc_cipher_alg bc_twofish_avx512 = {
	.name = "twofish", .driver = "twofish-avx512", .priority = 400, .cpu = TF512_CPU,
	.min_keysize = 16, .max_keysize = 32, .ctxsize = sizeof(struct tf512_ctx),
	.setkey = tf512_setkey, .encrypt = tf512_encrypt, .decrypt = tf512_decrypt,
	.mac = tf512_mac, .mac_many = tf512_mac_many,
};

const struct bc_skcipher_alg bc_ecb_twofish_avx512 = {
	.name = "ecb(twofish)", .driver = "ecb-twofish-avx512", .priority = 500, .cpu = TF512_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct tf512_ctx), .setkey = tf512_sk_setkey,
	.encrypt = tf512_ecb_encrypt, .decrypt = tf512_ecb_decrypt,
};

const struct bc_skcipher_alg bc_cbc_twofish_avx512 = {
	.name = "cbc(twofish)", .driver = "cbc-twofish-avx512", .priority = 500, .cpu = TF512_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct tf512_ctx), .setkey = tf512_sk_setkey,
	.encrypt = tf512_cbc_encrypt, .decrypt = tf512_cbc_decrypt,
};

const struct bc_skcipher_alg bc_ctr_twofish_avx512 = {
	.name = "ctr(twofish)", .driver = "ctr-twofish-avx512", .priority = 500, .cpu = TF512_CPU,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct tf512_ctx), .setkey = tf512_sk_setkey,
	.encrypt = tf512_ctr_crypt, .decrypt = tf512_ctr_crypt,
};

const struct bc_skcipher_alg bc_xts_twofish_avx512 = {
	.name = "xts(twofish)", .driver = "xts-twofish-avx512", .priority = 500, .cpu = TF512_CPU,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct tf512_xts_ctx), .setkey = tf512_xts_setkey,
	.encrypt = tf512_xts_encrypt, .decrypt = tf512_xts_decrypt,
};
#endif
