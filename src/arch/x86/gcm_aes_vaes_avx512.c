/* blockcrypt x86-64: gcm(aes) with VAES and VPCLMULQDQ on 512-bit registers in one pass, 64 blocks in flight (driver gcm-aes-vaes-avx512).
 * NIST SP 800-38D (GCM), FIPS-197 (AES); Linux crypto/gcm.c semantics. Needs AVX-512 F and BW, VAES, VPCLMULQDQ. */
#include "drivers.h"
#include "ghash_x86.h"

#if defined(__x86_64__)

/*
 * gcm-aes-vaes-avx2's design on zmm: a stride is sixteen registers of four
 * counter blocks (1024 bytes), and while its AES rounds run, the 64
 * ciphertext blocks of the stride before (encryption) or of this one
 * (decryption) are hashed with one reduction, which needs H^64..H^1: the
 * shared context keeps 16 powers, so this driver's context adds the other
 * 48. What is left after the last stride (up to 63 blocks and a partial
 * one) goes through the same registers, masked, and is hashed from them,
 * the length block joined into its group: no tail runs on narrower code.
 */
#define BC_X86_GCM512 __attribute__((target("vaes,vpclmulqdq,aes,pclmul,avx2,avx512f,avx512bw")))
#define Z_REGS 16                      /* registers of four blocks per stride */
#define Z_POWERS (4 * Z_REGS)
#define Z_STRIDE (16 * Z_POWERS)

/* h[i] = H^(64-i) x^-1 reflected, k[i] its Karatsuba term (as in struct
 * bc_ghash_x86_key), then four zero entries: a register whose last blocks
 * lie past a group's end reads them, its zero blocks times zero. */
struct gcm512_ctx {
	struct bc_gcm_aes_x86_ctx c;
	__m128i h[Z_POWERS + 4];
	__m128i k[Z_POWERS + 4];
};

static BC_X86_GCM512 int gcm512_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct gcm512_ctx *g = ctx;
	int err = bc_gcm_aes_x86_setkey(&g->c, key, keylen);
	__m128i p;

	if (err)
		return err;
	memset(g->h, 0, sizeof(g->h));
	memset(g->k, 0, sizeof(g->k));
	for (unsigned i = 0; i < BC_GHASH_X86_POWERS; i++) {
		g->h[Z_POWERS - BC_GHASH_X86_POWERS + i] = g->c.gh.h[i];
		g->k[Z_POWERS - BC_GHASH_X86_POWERS + i] = g->c.gh.k[i];
	}
	/* (H^j x^-1) times H through the reduction is H^(j+1) x^-1 */
	p = g->c.gh.h[0];
	for (unsigned j = BC_GHASH_X86_POWERS + 1; j <= Z_POWERS; j++) {
		p = bc_ghash_x86_mul1(&g->c.gh, p);
		g->h[Z_POWERS - j] = p;
		g->k[Z_POWERS - j] = _mm_xor_si128(_mm_unpacklo_epi64(p, p), _mm_unpackhi_epi64(p, p));
	}
	return 0;
}

BC_X86_INLINE BC_X86_GCM512 __m512i z_rk(const uint8_t (*rk)[16], unsigned r)
{
	return _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)rk[r]));
}

BC_X86_INLINE BC_X86_GCM512 __m512i z_bswap(void)
{
	return _mm512_broadcast_i32x4(bc_x86_bswap128_mask());
}

/* m (1..16) registers of counter blocks, from ctr4 (four reflected counter
 * blocks, one per lane) on, as bytes; bytewise as in gcm-aes-vaes-avx2:
 * when the first block's last byte leaves room for 63 more, the byte
 * swapped blocks are stepped in place and one swap serves all registers. */
BC_X86_INLINE BC_X86_GCM512 void z_ctrs(__m512i *x, __m512i ctr4, unsigned m, int bytewise)
{
	const __m512i bswap = z_bswap();

	if (bytewise) {
		__m512i base = _mm512_shuffle_epi8(ctr4, bswap);

		_Pragma("GCC unroll 16")
		for (unsigned j = 0; j < m; j++)
			x[j] = _mm512_add_epi32(base, _mm512_maskz_set1_epi32(0x8888, (int)(4 * j << 24)));
	} else {
		_Pragma("GCC unroll 16")
		for (unsigned j = 0; j < m; j++)
			x[j] = _mm512_shuffle_epi8(_mm512_add_epi32(ctr4, _mm512_maskz_set1_epi32(0x1111, (int)(4 * j))),
			                           bswap);
	}
}

/* A stride's registers of counter blocks, whitened; pub: the counter
 * is public (see bc_gcm_x86_state), so the stepping may depend on it (a
 * secret one is never looked at). */
BC_X86_INLINE BC_X86_GCM512 void z_open(const uint8_t (*rk)[16], __m512i *x, __m512i ctr4, int pub)
{
	__m512i key = z_rk(rk, 0);

	z_ctrs(x, ctr4, Z_REGS, pub && (_mm_cvtsi128_si32(_mm512_castsi512_si128(ctr4)) & 0xff) <= 0xff - 63);
	_Pragma("GCC unroll 16")
	for (int j = 0; j < Z_REGS; j++)
		x[j] = _mm512_xor_si512(x[j], key);
}

/* The last round and output: AESENCLAST(x, K_Nr ^ P) is the ciphertext. */
BC_X86_INLINE BC_X86_GCM512 void z_close(const uint8_t (*rk)[16], const unsigned nr, __m512i *x, const uint8_t *src,
                                         uint8_t *dst)
{
	__m512i key = z_rk(rk, nr);

	_Pragma("GCC unroll 16")
	for (int j = 0; j < Z_REGS; j++)
		_mm512_storeu_si512(dst + 64 * j,
		                    _mm512_aesenclast_epi128(x[j], _mm512_xor_si512(key, _mm512_loadu_si512(src + 64 * j))));
}

/*
 * The middle AES rounds of a stride with the GHASH of 64 blocks woven in,
 * in inline assembly for the reason gcm_aes_vaes.c gives (the order is the
 * point). Sixteen registers of AES state: a round's 32 VAESENC take eight
 * cycles of the two AES pipes, twice their latency, so the carry-less
 * multiplies, which share those pipes, fill the slack instead of
 * stretching the chain (with eight registers a stride took as long as the
 * AES latency plus the multiplies; measured, 0.175 cycles/byte against
 * the figure below). Two registers' GHASH (twelve instructions each) sit
 * behind one round's VAESENC (Z_2), the one that needs the previous
 * reduction (acc) last. Register p holds blocks 4p..4p+3 of the stride at
 * g, times H^(64-4p)..H^(61-4p): h[4p..4p+3] and, 1088 bytes on, k[4p..].
 */
#define Z_KEY(r) "vbroadcasti32x4 16*" #r "(%[rk]), %%zmm28\n\t"
#define Z_ENC(i) "vaesenc %%zmm28, %[x" #i "], %[x" #i "]\n\t"
#define Z_PLAIN Z_ENC(0) Z_ENC(1) Z_ENC(2) Z_ENC(3) Z_ENC(4) Z_ENC(5) Z_ENC(6) Z_ENC(7)
/* one register's GHASH behind eight VAESENC (zmm29..31: data, middle, product) */
#define Z_GH(p, ACC)                                                                              \
	Z_ENC(0) "vmovdqu64 64*" #p "(%[g]), %%zmm29\n\t"                                        \
	Z_ENC(1) "vpshufb %[bswap], %%zmm29, %%zmm29\n\t" ACC                                    \
	Z_ENC(2) "vpshufd $0x4e, %%zmm29, %%zmm30\n\t"                                           \
	Z_ENC(3) "vpclmulqdq $0x00, 64*" #p "(%[h]), %%zmm29, %%zmm31\n\t"                       \
	Z_ENC(4) "vpxorq %%zmm29, %%zmm30, %%zmm30\n\t"                                          \
	"vpxorq %%zmm31, %[lo], %[lo]\n\t"                                                        \
	Z_ENC(5) "vpclmulqdq $0x11, 64*" #p "(%[h]), %%zmm29, %%zmm31\n\t"                       \
	Z_ENC(6) "vpclmulqdq $0x00, 64*" #p "+1088(%[h]), %%zmm30, %%zmm30\n\t"                  \
	"vpxorq %%zmm31, %[hi], %[hi]\n\t"                                                        \
	Z_ENC(7) "vpxorq %%zmm30, %[mid], %[mid]\n\t"
#define Z_ACC "vpxorq %[acc], %%zmm29, %%zmm29\n\t"
/* Round r on the eight registers from b, with BODY (Z_PLAIN or a Z_GH):
 * half a round per statement, as an asm statement takes at most 30
 * operands (sixteen in-out registers count 32). */
#define Z_HALF(b, r, BODY)                                                                        \
	__asm__(Z_KEY(r) BODY                                                                     \
	        : [x0] "+v"(x[b]), [x1] "+v"(x[b + 1]), [x2] "+v"(x[b + 2]), [x3] "+v"(x[b + 3]),     \
	          [x4] "+v"(x[b + 4]), [x5] "+v"(x[b + 5]), [x6] "+v"(x[b + 6]), [x7] "+v"(x[b + 7]), \
	          [lo] "+v"(lo), [hi] "+v"(hi), [mid] "+v"(mid)                                       \
	        : [rk] "r"(rk), [g] "r"(gsrc), [h] "r"(g->h), [acc] "m"(acc512), [bswap] "v"(bswap)   \
	        : "xmm28", "xmm29", "xmm30", "xmm31", "memory")
#define Z_R(r) Z_HALF(0, r, Z_PLAIN); Z_HALF(8, r, Z_PLAIN)
#define Z_2(r, p, q) Z_HALF(0, r, Z_GH(p, "")); Z_HALF(8, r, Z_GH(q, ""))
#define Z_2ACC(r, p) Z_HALF(0, r, Z_GH(p, "")); Z_HALF(8, r, Z_GH(0, Z_ACC))
#define Z_MID10                                                                                   \
	Z_2(1, 1, 2); Z_2(2, 3, 4); Z_2(3, 5, 6); Z_2(4, 7, 8); Z_2(5, 9, 10); Z_2(6, 11, 12);       \
	Z_2(7, 13, 14); Z_2ACC(8, 15); Z_R(9)
#define Z_MID12                                                                                   \
	Z_2(1, 1, 2); Z_2(2, 3, 4); Z_2(3, 5, 6); Z_R(4); Z_2(5, 7, 8); Z_2(6, 9, 10); Z_2(7, 11, 12); \
	Z_R(8); Z_2(9, 13, 14); Z_2ACC(10, 15); Z_R(11)
#define Z_MID14                                                                                   \
	Z_2(1, 1, 2); Z_2(2, 3, 4); Z_R(3); Z_2(4, 5, 6); Z_2(5, 7, 8); Z_R(6); Z_2(7, 9, 10); Z_R(8); \
	Z_2(9, 11, 12); Z_2(10, 13, 14); Z_R(11); Z_2ACC(12, 15); Z_R(13)

/* The four lanes of the three sums folded, then the one reduction. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_reduce(__m512i lo, __m512i hi, __m512i mid)
{
	__m256i l = _mm256_xor_si256(_mm512_castsi512_si256(lo), _mm512_extracti64x4_epi64(lo, 1));
	__m256i h = _mm256_xor_si256(_mm512_castsi512_si256(hi), _mm512_extracti64x4_epi64(hi, 1));
	__m256i m = _mm256_xor_si256(_mm512_castsi512_si256(mid), _mm512_extracti64x4_epi64(mid, 1));
	struct bc_ghash_x86_sum256 s = { l, h, m };

	return bc_ghash_x86_reduce256(&s);
}

/* A stride's counter blocks from ctr4 through all but the last round into
 * x, while the 64 ciphertext blocks at gsrc are hashed into acc (returned).
 * nr a constant. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_woven(const struct gcm512_ctx *g, __m128i acc, __m512i *x, __m512i ctr4,
                                            const uint8_t *gsrc, const unsigned nr, int pub)
{
	const __m512i bswap = z_bswap(), acc512 = _mm512_zextsi128_si512(acc);
	const uint8_t (*rk)[16] = g->c.aes.rk;
	__m512i lo = _mm512_setzero_si512(), hi = lo, mid = lo;

	_Static_assert(offsetof(struct gcm512_ctx, k) - offsetof(struct gcm512_ctx, h) == 1088, "Z_GH");
	z_open(rk, x, ctr4, pub);
	if (nr == 10) {
		Z_MID10;
	} else if (nr == 12) {
		Z_MID12;
	} else {
		Z_MID14;
	}
	return z_reduce(lo, hi, mid);
}

/* 64 counter blocks encrypted and XORed onto src into dst, while the 64
 * ciphertext blocks at gsrc are hashed into acc (read before dst is
 * written: decrypting in place is fine). */
BC_X86_INLINE BC_X86_GCM512 __m128i z_stride(const struct gcm512_ctx *g, __m128i acc, __m512i ctr4, const uint8_t *src,
                                             uint8_t *dst, const uint8_t *gsrc, const unsigned nr, int pub)
{
	__m512i x[Z_REGS];

	acc = z_woven(g, acc, x, ctr4, gsrc, nr, pub);
	z_close(g->c.aes.rk, nr, x, src, dst);
	return acc;
}

/* acc folded with n (1..64) reflected blocks in v[0..(n+3)/4-1] (zeros after
 * the n-th), one reduction: block i times H^(n-i). */
BC_X86_INLINE BC_X86_GCM512 __m128i z_ghash(const struct gcm512_ctx *g, __m128i acc, const __m512i *v, unsigned n)
{
	__m512i lo = _mm512_setzero_si512(), hi = lo, mid = lo;

	for (unsigned j = 0; j < (n + 3) / 4; j++) {
		__m512i d = j ? v[j] : _mm512_xor_si512(v[0], _mm512_zextsi128_si512(acc));
		__m512i h = _mm512_loadu_si512(&g->h[Z_POWERS - n + 4 * j]);
		__m512i k = _mm512_loadu_si512(&g->k[Z_POWERS - n + 4 * j]);

		lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(d, h, 0x00));
		hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(d, h, 0x11));
		mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128(_mm512_xor_si512(d, _mm512_shuffle_epi32(d, 0x4e)), k,
		                                                     0x00));
	}
	return z_reduce(lo, hi, mid);
}

/* acc folded with the 64 ciphertext blocks at c, one reduction. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_ghash_at(const struct gcm512_ctx *g, __m128i acc, const uint8_t *c)
{
	__m512i v[Z_REGS];

	_Pragma("GCC unroll 16")
	for (int j = 0; j < Z_REGS; j++)
		v[j] = _mm512_shuffle_epi8(_mm512_loadu_si512(c + 64 * j), z_bswap());
	return z_ghash(g, acc, v, Z_POWERS);
}

/* The bytes of register j that len (public) covers. */
BC_X86_INLINE BC_X86_GCM512 __mmask64 z_bytes(size_t len, unsigned j)
{
	return len >= 64 * (size_t)(j + 1) ? ~(__mmask64)0 : len > 64 * (size_t)j ? ((__mmask64)1 << (len - 64 * j)) - 1 : 0;
}

/* Register j of a tail of len bytes in regs = (len + 63) / 64 registers:
 * masked only when it is the last and not whole. A masked store is not
 * forwarded to a later load of its bytes (the next operation on a buffer
 * worked in place): on Intel cores that load waits for the store to reach
 * the cache. */
BC_X86_INLINE BC_X86_GCM512 int z_whole(size_t len, unsigned j, unsigned regs)
{
	return j + 1 < regs || len % 64 == 0;
}

/* acc folded with the nb (0..64) reflected blocks in v (zeros after them;
 * room for one register more) and the length block put after them: one
 * group, or two when they fill all 64 powers. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_ghash_last(const struct gcm512_ctx *g, __m128i acc, __m512i *v, unsigned nb,
                                                 __m128i lens)
{
	v[nb / 4] = _mm512_mask_broadcast_i32x4(v[nb / 4], (__mmask16)(0xf << (4 * (nb % 4))), lens);
	if (nb + 1 <= Z_POWERS)
		return z_ghash(g, acc, v, nb + 1);
	return z_ghash(g, z_ghash(g, acc, v, 4), v + 1, nb - 3);
}

/* The last round of registers a..b-1 (key: K_Nr), stored to dst, and
 * reflected into v. */
BC_X86_INLINE BC_X86_GCM512 void z_tail_out(__m512i key, const __m512i *x, const __m512i *p, uint8_t *dst, __m512i *v,
                                            size_t len, const unsigned regs, const unsigned a, const unsigned b,
                                            __m512i bswap)
{
	_Pragma("GCC unroll 16")
	for (unsigned j = a; j < b; j++) {
		__m512i c = _mm512_aesenclast_epi128(x[j], _mm512_xor_si512(key, p[j]));

		if (z_whole(len, j, regs)) {
			_mm512_storeu_si512(dst + 64 * j, c);
		} else {
			c = _mm512_maskz_mov_epi8(z_bytes(len, j), c);
			_mm512_mask_storeu_epi8(dst + 64 * j, z_bytes(len, j), c);
		}
		v[j] = _mm512_shuffle_epi8(c, bswap);
	}
}

/* All but the last round of registers a..b-1 of counter blocks x, and with
 * j0 (not NULL) J0 beside them, all its rounds: E_K(J0) returned in it, its
 * latency overlapping theirs. */
BC_X86_INLINE BC_X86_GCM512 void z_rounds(const uint8_t (*rk)[16], const unsigned nr, __m512i *x, const unsigned a,
                                          const unsigned b, __m128i *j0)
{
	__m512i key = z_rk(rk, 0);
	__m128i t = j0 ? _mm_xor_si128(*j0, _mm512_castsi512_si128(key)) : _mm_setzero_si128();

	_Pragma("GCC unroll 16")
	for (unsigned j = a; j < b; j++)
		x[j] = _mm512_xor_si512(x[j], key);
	for (unsigned r = 1; r < nr; r++) {
		key = z_rk(rk, r);
		if (j0)
			t = _mm_aesenc_si128(t, _mm512_castsi512_si128(key));
		_Pragma("GCC unroll 16")
		for (unsigned j = a; j < b; j++)
			x[j] = _mm512_aesenc_epi128(x[j], key);
	}
	if (j0)
		*j0 = _mm_aesenclast_si128(t, _mm512_castsi512_si128(z_rk(rk, nr)));
}

/* Registers a..b-1 of the tail (regs registers, len bytes) from their
 * counter blocks x through AES, XORed onto the text p into dst and,
 * reflected, into v for GHASH; with j0 (not NULL), J0 beside them, E_K(J0)
 * returned in it. */
BC_X86_INLINE BC_X86_GCM512 void z_tail_aes(const uint8_t (*rk)[16], const unsigned nr, __m512i *x, const __m512i *p,
                                            uint8_t *dst, __m512i *v, size_t len, const unsigned regs,
                                            const unsigned a, const unsigned b, __m128i *j0)
{
	z_rounds(rk, nr, x, a, b, j0);
	z_tail_out(z_rk(rk, nr), x, p, dst, v, len, regs, a, b, z_bswap());
}

/*
 * The last 0..1023 bytes (regs = (len + 63) / 64 registers, a constant per
 * call site) with E_K(J0), the GHASH of the stride before them when
 * encrypting (pend, or NULL), and their own GHASH with the length block:
 * the ciphertext comes from the registers (masked loads and stores, zeros
 * past len). Decryption hashes the ciphertext as loaded, before the AES in
 * program order so the two overlap (and before anything is written: in
 * place). With more than half a stride left and a stride to hash, the
 * tail is a stride of its own, the hashing woven into its rounds; a shorter
 * one runs on its registers alone, J0 beside them, the stride hashed apart.
 */
BC_X86_INLINE BC_X86_GCM512 __m128i z_tail(const struct gcm512_ctx *g, __m128i acc, __m512i ctr4,
                                           const struct bc_gcm_x86_state *st, const uint8_t *src, uint8_t *dst,
                                           size_t len, __m128i lens, int enc, const uint8_t *pend, __m128i *ej0,
                                           const unsigned regs)
{
	const uint8_t (*rk)[16] = g->c.aes.rk;
	const unsigned nr = g->c.aes.rounds, nb = (unsigned)(len + 15) / 16;
	const __m512i bswap = z_bswap();
	__m512i x[Z_REGS + 1], p[Z_REGS], v[Z_REGS + 1];
	__m128i j0 = st->j0;

	_Pragma("GCC unroll 16")
	for (unsigned j = 0; j < regs; j++)
		p[j] = z_whole(len, j, regs) ? _mm512_loadu_si512(src + 64 * j)
		                             : _mm512_maskz_loadu_epi8(z_bytes(len, j), src + 64 * j);
	if (!enc) {
		_Pragma("GCC unroll 16")
		for (unsigned j = 0; j < regs; j++)
			v[j] = _mm512_shuffle_epi8(p[j], bswap);
		v[regs] = _mm512_setzero_si512();
		acc = z_ghash_last(g, acc, v, nb, lens);
	}
	if (pend && regs > Z_REGS / 2) {
		acc = z_woven(g, acc, x, ctr4, pend, nr, st->ctr_public);
		*ej0 = bc_aes_x86_enc1(&g->c.aes, j0);
	} else {
		/* the first half first: its ciphertext (and the stride before)
		 * is hashed while the second half's rounds run */
		z_ctrs(x, ctr4, regs, 0);
		if (regs > 2) {
			z_tail_aes(rk, nr, x, p, dst, v, len, regs, 0, regs / 2, NULL);
			if (pend)
				acc = z_ghash_at(g, acc, pend);
			z_tail_aes(rk, nr, x, p, dst, v, len, regs, regs / 2, regs, &j0);
		} else {
			if (pend)
				acc = z_ghash_at(g, acc, pend);
			z_tail_aes(rk, nr, x, p, dst, v, len, regs, 0, regs, &j0);
		}
		*ej0 = j0;
		if (enc) {
			v[regs] = _mm512_setzero_si512();
			return z_ghash_last(g, acc, v, nb, lens);
		}
		return acc;
	}
	z_tail_out(z_rk(rk, nr), x, p, dst, v, len, regs, 0, regs, bswap);
	if (enc) {
		v[regs] = _mm512_setzero_si512();
		acc = z_ghash_last(g, acc, v, nb, lens);
	}
	/* x and p are indexed by constants only and stay in registers (a wipe
	 * would force them to memory); v, in memory, holds only ciphertext. */
	return acc;
}

/* The tail after the strides, in a function of its own: inlined into the
 * strides' loop, its sixteen instances made the register allocation of the
 * loop worse (measured: 0.183 cycles/byte at 8192 B instead of 0.163).
 * Its VZEROUPPER is explicit: gcc emits none on the way out of a function
 * that takes a 512-bit argument (ctr4), and legacy-SSE code after it (the
 * caller's, e.g. a 16-byte MOVAPS writing the next nonce) then pays a state
 * transition: measured on an Intel Xeon (Emerald Rapids), 512-byte
 * encryptions took 240 ns instead of 70. */
static __attribute__((noinline)) BC_X86_GCM512 __m128i z_last(const struct gcm512_ctx *g, __m128i acc, __m512i ctr4,
                                                              const struct bc_gcm_x86_state *st, const uint8_t *src,
                                                              uint8_t *dst, size_t left, __m128i lens, int enc,
                                                              const uint8_t *pend, __m128i *ej0)
{
	__m128i s;

	switch ((left + 63) / 64) {
	case 0:
		if (pend)
			acc = z_ghash_at(g, acc, pend);
		*ej0 = bc_aes_x86_enc1(&g->c.aes, st->j0);
		s = bc_ghash_x86_group(&g->c.gh, acc, &lens, 1);
		break;
	case 1: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 1); break;
	case 2: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 2); break;
	case 3: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 3); break;
	case 4: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 4); break;
	case 5: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 5); break;
	case 6: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 6); break;
	case 7: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 7); break;
	case 8: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 8); break;
	case 9: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 9); break;
	case 10: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 10); break;
	case 11: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 11); break;
	case 12: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 12); break;
	case 13: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 13); break;
	case 14: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 14); break;
	case 15: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 15); break;
	default: s = z_tail(g, acc, ctr4, st, src, dst, left, lens, enc, pend, ej0, 16); break;
	}
	_mm256_zeroupper();
	return s;
}

/* The four counter blocks from ctr (reflected) on, one per lane. */
BC_X86_INLINE BC_X86_GCM512 __m512i z_ctr4(__m128i ctr)
{
	return _mm512_add_epi32(_mm512_broadcast_i32x4(ctr), _mm512_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0));
}

/* n (at least 1) whole strides from src to dst, ctr4 stepped past them.
 * Encryption hashes each stride during the next one's rounds (the first
 * has no predecessor) and leaves the last in *pend for the caller; nr a
 * constant. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_strides(const struct gcm512_ctx *g, __m128i acc, __m512i *ctr4,
                                              const uint8_t *src, uint8_t *dst, size_t n, int enc,
                                              const uint8_t **pend, const unsigned nr, int pub)
{
	const uint8_t (*rk)[16] = g->c.aes.rk;
	const __m512i step = _mm512_maskz_set1_epi32(0x1111, Z_POWERS);

	if (enc) {
		__m512i x[Z_REGS];

		z_open(rk, x, *ctr4, pub);
		_Pragma("GCC unroll 14")
		for (unsigned r = 1; r < nr; r++) {
			__m512i key = z_rk(rk, r);
			_Pragma("GCC unroll 16")
			for (int j = 0; j < Z_REGS; j++)
				x[j] = _mm512_aesenc_epi128(x[j], key);
		}
		z_close(rk, nr, x, src, dst);
		*ctr4 = _mm512_add_epi32(*ctr4, step);
		*pend = dst;
		src += Z_STRIDE;
		dst += Z_STRIDE;
		n--;
	}
	for (; n; n--, src += Z_STRIDE, dst += Z_STRIDE) {
		acc = z_stride(g, acc, *ctr4, src, dst, enc ? *pend : src, nr, pub);
		*ctr4 = _mm512_add_epi32(*ctr4, step);
		if (enc)
			*pend = dst;
	}
	return acc;
}

/* The whole strides, then the tail. nr a constant. */
BC_X86_INLINE BC_X86_GCM512 __m128i z_crypt(const struct gcm512_ctx *g, const struct bc_gcm_x86_state *st,
                                            const uint8_t *src, uint8_t *dst, size_t len, size_t adlen, int enc,
                                            __m128i *ej0, const unsigned nr)
{
	__m512i ctr4 = z_ctr4(st->ctr);
	__m128i acc = st->acc, lens = bc_ghash_x86_lengths(adlen, len);
	const uint8_t *pend = NULL;
	size_t n = len / Z_STRIDE;

	if (n)
		acc = z_strides(g, acc, &ctr4, src, dst, n, enc, &pend, nr, st->ctr_public);
	return z_last(g, acc, ctr4, st, src + n * Z_STRIDE, dst + n * Z_STRIDE, len - n * Z_STRIDE, lens, enc, pend,
	              ej0);
}

/* The data path, one instance per key length; short messages (one or two
 * blocks) on the 128-bit code, where a lone block's latency is all. */
static BC_X86_GCM512 __m128i gcm512_crypt(const struct bc_gcm_aes_x86_ctx *c, const struct bc_gcm_x86_state *st,
                                          const uint8_t *src, uint8_t *dst, size_t len, size_t adlen, int enc,
                                          __m128i *ej0)
{
	const struct gcm512_ctx *g = (const struct gcm512_ctx *)(const void *)c;
	__m128i acc;

	if (enc && len == 16)
		return bc_gcm_aes_x86_enc16(c, st, src, dst, adlen, ej0);
	if (len <= 32) {
		if (!enc)
			acc = bc_gcm_x86_final(&c->gh, st->acc, src, len, adlen, len);
		*ej0 = bc_gcm_aes_x86_tail(c, st->ctr, st->j0, src, dst, len);
		return enc ? bc_gcm_x86_final(&c->gh, st->acc, dst, len, adlen, len) : acc;
	}
	switch (c->aes.rounds) {
	case 10: return z_crypt(g, st, src, dst, len, adlen, enc, ej0, 10);
	case 12: return z_crypt(g, st, src, dst, len, adlen, enc, ej0, 12);
	default: return z_crypt(g, st, src, dst, len, adlen, enc, ej0, 14);
	}
}

static BC_X86_GCM512 void gcm512_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                         size_t adlen, const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag,
                                         size_t taglen)
{
	bc_gcm_aes_x86_encrypt(gcm512_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

static BC_X86_GCM512 int gcm512_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                        size_t adlen, const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag,
                                        size_t taglen)
{
	return bc_gcm_aes_x86_decrypt(gcm512_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

/* ---- the incremental form: one message in pieces ----------------------------------
 * gcm-aes-vaes-avx2's state (struct bc_gcm_vaes_req) and its code for the
 * bytes up to the end of the block the last piece ended in (it also closes
 * the AAD) and for pieces of up to 32 bytes; the rest of a piece runs here:
 * its whole strides, then what is left (under 1 KiB) on the registers of
 * z_piece_tail. An encryption's last stride is hashed before the piece
 * returns, as dst is the caller's again then. */

/*
 * A piece's last 1..1023 bytes (regs = (len + 63) / 64 registers, a constant
 * per call site) after its strides, as z_tail does a message's, with the
 * GHASH of the stride before them when encrypting (pend, or NULL), but
 * without the length block and J0: the whole blocks are hashed, and a
 * partial block's keystream and ciphertext wait in r for the next piece
 * (ks, part, used). Past len, the masked loads give zeros, so the last
 * round's output there is keystream.
 */
BC_X86_INLINE BC_X86_GCM512 __m128i z_piece_tail(const struct gcm512_ctx *g, __m128i acc, __m512i ctr4, int pub,
                                                 struct bc_gcm_vaes_req *r, const uint8_t *src, uint8_t *dst,
                                                 size_t len, int enc, const uint8_t *pend, const unsigned regs)
{
	const uint8_t (*rk)[16] = g->c.aes.rk;
	const unsigned nr = g->c.aes.rounds, nb = (unsigned)len / 16, part = (unsigned)len % 16;
	const __m512i bswap = z_bswap();
	__m512i x[Z_REGS], p[Z_REGS], v[Z_REGS], key, ks = _mm512_setzero_si512(), ct = ks;

	_Pragma("GCC unroll 16")
	for (unsigned j = 0; j < regs; j++)
		p[j] = _mm512_maskz_loadu_epi8(z_bytes(len, j), src + 64 * j);
	if (!enc && nb) {
		_Pragma("GCC unroll 16")
		for (unsigned j = 0; j < regs; j++)
			v[j] = _mm512_shuffle_epi8(_mm512_maskz_mov_epi8(z_bytes(16 * (size_t)nb, j), p[j]), bswap);
		acc = z_ghash(g, acc, v, nb);
	}
	if (pend && regs > Z_REGS / 2) {
		acc = z_woven(g, acc, x, ctr4, pend, nr, pub);
	} else {
		if (pend)
			acc = z_ghash_at(g, acc, pend);
		z_ctrs(x, ctr4, regs, 0);
		z_rounds(rk, nr, x, 0, regs, NULL);
	}
	key = z_rk(rk, nr);
	_Pragma("GCC unroll 16")
	for (unsigned j = 0; j < regs; j++) {
		__mmask64 mj = z_bytes(len, j);
		__m512i o = _mm512_aesenclast_epi128(x[j], _mm512_xor_si512(key, p[j])), c = _mm512_maskz_mov_epi8(mj, o);

		_mm512_mask_storeu_epi8(dst + 64 * j, mj, c);
		if (enc)
			v[j] = _mm512_shuffle_epi8(_mm512_maskz_mov_epi8(z_bytes(16 * (size_t)nb, j), o), bswap);
		if (part && j == nb / 4) {      /* the register of the partial block */
			ks = _mm512_xor_si512(o, p[j]);
			ct = enc ? c : p[j];
		}
	}
	if (enc && nb)
		acc = z_ghash(g, acc, v, nb);
	if (part) {
		__mmask8 lane = (__mmask8)(3u << (2 * (nb % 4)));

		_mm_storeu_si128((__m128i *)r->ks, _mm512_castsi512_si128(_mm512_maskz_compress_epi64(lane, ks)));
		_mm_storeu_si128((__m128i *)r->part, _mm512_castsi512_si128(_mm512_maskz_compress_epi64(lane, ct)));
		r->used = part;
	}
	/* x, p and ks are indexed by constants only and stay in registers; v,
	 * in memory, holds only ciphertext. */
	return acc;
}

/* A piece of over 32 bytes from a block boundary: returns the GHASH
 * accumulator; ctr4 is stepped past its whole strides. */
static BC_X86_GCM512 __m128i z_piece(const struct gcm512_ctx *g, struct bc_gcm_vaes_req *r, __m128i acc,
                                     __m512i *ctr4, const uint8_t *src, uint8_t *dst, size_t len, int enc)
{
	const uint8_t *pend = NULL;
	size_t n = len / Z_STRIDE, left = len % Z_STRIDE;
	int pub = r->st.ctr_public;

	if (n) {
		switch (g->c.aes.rounds) {
		case 10: acc = z_strides(g, acc, ctr4, src, dst, n, enc, &pend, 10, pub); break;
		case 12: acc = z_strides(g, acc, ctr4, src, dst, n, enc, &pend, 12, pub); break;
		default: acc = z_strides(g, acc, ctr4, src, dst, n, enc, &pend, 14, pub); break;
		}
		src += n * Z_STRIDE;
		dst += n * Z_STRIDE;
	}
#define PT(m) z_piece_tail(g, acc, *ctr4, pub, r, src, dst, left, enc, pend, m)
	switch ((left + 63) / 64) {
	case 0: return pend ? z_ghash_at(g, acc, pend) : acc;
	case 1: return PT(1);
	case 2: return PT(2);
	case 3: return PT(3);
	case 4: return PT(4);
	case 5: return PT(5);
	case 6: return PT(6);
	case 7: return PT(7);
	case 8: return PT(8);
	case 9: return PT(9);
	case 10: return PT(10);
	case 11: return PT(11);
	case 12: return PT(12);
	case 13: return PT(13);
	case 14: return PT(14);
	case 15: return PT(15);
	default: return PT(16);
	}
#undef PT
}

static BC_X86_GCM512 void gcm512_crypt_piece(const void *ctx, void *req, const uint8_t *src, uint8_t *dst, size_t len,
                                             int enc)
{
	const struct gcm512_ctx *g = ctx;
	struct bc_gcm_vaes_req *r = req;
	size_t head = r->in_text && r->used ? 16 - r->used : 0;
	__m512i ctr4;

	head = head < len ? head : len;
	if (len - head <= 32) {
		bc_gcm_vaes_crypt_piece(ctx, req, src, dst, len, enc);
		return;
	}
	bc_gcm_vaes_crypt_piece(ctx, req, src, dst, head, enc);
	len -= head;
	ctr4 = z_ctr4(r->st.ctr);
	r->st.acc = z_piece(g, r, r->st.acc, &ctr4, src + head, dst + head, len, enc);
	r->st.ctr = _mm_add_epi32(_mm512_castsi512_si128(ctr4),
	                          _mm_set_epi32(0, 0, 0, (int)((len % Z_STRIDE + 15) / 16)));
	r->len += len;
}

const struct bc_aead_alg bc_gcm_aes_vaes_avx512 = {
	.name = "gcm(aes)",
	.driver = "gcm-aes-vaes-avx512",
	.priority = 600,
	.cpu = BC_CPU_AVX512 | BC_CPU_VAES | BC_CPU_VPCLMUL | BC_CPU_AVX2 | BC_CPU_AESNI | BC_CPU_PCLMUL,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 12,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct gcm512_ctx),
	.setkey = gcm512_setkey,
	.encrypt = gcm512_encrypt,
	.decrypt = gcm512_decrypt,
	/* the 256-bit driver's incremental form, on this context's first member, but whole strides here */
	.reqsize = sizeof(struct bc_gcm_vaes_req),
	.start = bc_gcm_vaes_start,
	.ad = bc_gcm_vaes_ad,
	.crypt = gcm512_crypt_piece,
	.final = bc_gcm_vaes_final,
};

#endif
