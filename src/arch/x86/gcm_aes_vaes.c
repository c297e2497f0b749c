/* blockcrypt x86: gcm(aes) with VAES and VPCLMULQDQ on 256-bit registers in one pass, 16 blocks in flight (driver gcm-aes-vaes-avx2).
 * NIST SP 800-38D (GCM), FIPS-197 (AES); Linux crypto/gcm.c semantics (any IV length, tags of 4, 8, 12..16 bytes). */
#include "drivers.h"
#include "ghash_x86.h"

#if defined(__x86_64__)

/* m (1..8) registers of counter blocks from ctr2 on, as bytes. When the
 * last byte of the first leaves room for 2m - 1 more (15 groups of 16 in
 * 16), the big-endian blocks are stepped in place: a 32-bit add of 2j << 24
 * lands on that byte and carries nowhere, so one byte swap serves all the
 * registers instead of one each. Otherwise the integer lanes are stepped
 * (inc32's wrap included) and swapped one by one. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void gcm_vaes_ctrs(__m256i *x, __m256i ctr2, unsigned m, int bytewise)
{
	const __m256i bswap = bc_x86_bswap256_mask();

	if (bytewise) {
		__m256i base = _mm256_shuffle_epi8(ctr2, bswap);

		_Pragma("GCC unroll 8")
		for (unsigned j = 0; j < m; j++)
			x[j] = _mm256_add_epi32(base, _mm256_set_epi32((int)(2 * j << 24), 0, 0, 0, (int)(2 * j << 24), 0, 0, 0));
	} else {
		_Pragma("GCC unroll 8")
		for (unsigned j = 0; j < m; j++)
			x[j] = _mm256_shuffle_epi8(_mm256_add_epi32(ctr2, _mm256_set_epi32(0, 0, 0, (int)(2 * j), 0, 0, 0, (int)(2 * j))),
			                           bswap);
	}
}

/* Whether gcm_vaes_ctrs may step a whole group from ctr2 bytewise (asked
 * only of a public counter: see bc_gcm_x86_state). */
BC_X86_INLINE BC_X86_VAES_VPCLMUL int gcm_vaes_bytewise(__m256i ctr2)
{
	return (_mm256_cvtsi256_si32(ctr2) & 0xff) <= 0xff - 15;
}

/* A group's eight registers of counter blocks, whitened; pub: the counter
 * is public, so the bytewise stepping may be chosen from its value (a
 * secret one, from GHASH_H(IV), is never looked at). */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void gcm_vaes_open(const struct bc_gcm_aes_x86_ctx *c, __m256i *x, __m256i ctr2,
                                                     int pub)
{
	__m256i key = bc_aes_x86_rk256(c->aes.rk, 0);

	gcm_vaes_ctrs(x, ctr2, 8, pub && gcm_vaes_bytewise(ctr2));
	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++)
		x[j] = _mm256_xor_si256(x[j], key);
}

/* A group's last round and output: AESENCLAST(x, K_Nr ^ P) is the
 * ciphertext, so the data XOR stays off the end of the AES chain. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void gcm_vaes_close(const struct bc_gcm_aes_x86_ctx *c, const unsigned nr, __m256i *x,
                                                      const uint8_t *src, uint8_t *dst)
{
	__m256i key = bc_aes_x86_rk256(c->aes.rk, nr);

	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++)
		bc_aes_x86_store256(dst + 32 * j,
		                    _mm256_aesenclast_epi128(x[j], _mm256_xor_si256(key, bc_aes_x86_load256(src + 32 * j))));
}

/*
 * The middle AES rounds of a group with the GHASH of 16 blocks woven in,
 * in inline assembly: the compilers' schedulers reorder intrinsics (they
 * bunched the multiplies and spilled products to the stack), and the
 * order matters here. Eight ymm registers of AES state at four cycles of
 * latency and two VAESENC per cycle have no slack, and every other vector
 * instruction competes for the same four pipes, while the carry-less
 * multiplier takes two cycles per VPCLMULQDQ: 24 of them cost as long as
 * AES-128's rounds. So each of a register pair's twelve GHASH instructions
 * sits behind one AESENC (GCM_GH), and the pairs are spread evenly over the
 * rounds, the one that needs the previous group's reduction (acc) last.
 * Pair p is blocks 2p, 2p+1 of the group at g, multiplied by H^(16-2p) and
 * H^(15-2p) (the key's h[2p], and k[2p] 256 bytes on) with Karatsuba;
 * lo, hi, mid collect the three sums.
 */
#define GCM_KEY(r) "vbroadcasti128 16*" #r "(%[rk]), %[key]\n\t"
#define GCM_ENC(i) "vaesenc %[key], %[x" #i "], %[x" #i "]\n\t"
#define GCM_ROUND(r) GCM_KEY(r) GCM_ENC(0) GCM_ENC(1) GCM_ENC(2) GCM_ENC(3) GCM_ENC(4) GCM_ENC(5) GCM_ENC(6) GCM_ENC(7)
#define GCM_GH(r, p, ACC)                                                                         \
	GCM_KEY(r)                                                                                \
	GCM_ENC(0) "vmovdqu 32*" #p "(%[g]), %[d]\n\t"                                           \
	GCM_ENC(1) "vpshufb %[bswap], %[d], %[d]\n\t" ACC                                        \
	GCM_ENC(2) "vpshufd $0x4e, %[d], %[m]\n\t"                                               \
	GCM_ENC(3) "vpclmulqdq $0x00, 32*" #p "(%[h]), %[d], %[t]\n\t"                           \
	GCM_ENC(4) "vpxor %[d], %[m], %[m]\n\t"                                                  \
	"vpxor %[t], %[lo], %[lo]\n\t"                                                            \
	GCM_ENC(5) "vpclmulqdq $0x11, 32*" #p "(%[h]), %[d], %[t]\n\t"                           \
	GCM_ENC(6) "vpclmulqdq $0x00, 32*" #p "+256(%[h]), %[m], %[m]\n\t"                           \
	"vpxor %[t], %[hi], %[hi]\n\t"                                                            \
	GCM_ENC(7) "vpxor %[m], %[mid], %[mid]\n\t"
#define GCM_PAIR(r, p) GCM_GH(r, p, "")
#define GCM_PAIR0(r) GCM_GH(r, 0, "vpxor %[acc], %[d], %[d]\n\t")
#define GCM_MID10                                                                                 \
	GCM_PAIR(1, 1) GCM_PAIR(2, 2) GCM_PAIR(3, 3) GCM_PAIR(4, 4) GCM_PAIR(5, 5) GCM_PAIR(6, 6) \
	GCM_PAIR(7, 7) GCM_PAIR0(8) GCM_ROUND(9)
#define GCM_MID12                                                                                 \
	GCM_PAIR(1, 1) GCM_PAIR(2, 2) GCM_PAIR(3, 3) GCM_ROUND(4) GCM_PAIR(5, 4) GCM_PAIR(6, 5)   \
	GCM_PAIR(7, 6) GCM_ROUND(8) GCM_PAIR(9, 7) GCM_PAIR0(10) GCM_ROUND(11)
#define GCM_MID14                                                                                 \
	GCM_PAIR(1, 1) GCM_PAIR(2, 2) GCM_ROUND(3) GCM_PAIR(4, 3) GCM_PAIR(5, 4) GCM_ROUND(6)     \
	GCM_PAIR(7, 5) GCM_ROUND(8) GCM_PAIR(9, 6) GCM_PAIR(10, 7) GCM_ROUND(11) GCM_PAIR0(12)    \
	GCM_ROUND(13)
#define GCM_MID(SEQ)                                                                              \
	__asm__("vpxor %[lo], %[lo], %[lo]\n\t"                                                  \
	        "vpxor %[hi], %[hi], %[hi]\n\t"                                                  \
	        "vpxor %[mid], %[mid], %[mid]\n\t" SEQ                                           \
	        : [x0] "+x"(x[0]), [x1] "+x"(x[1]), [x2] "+x"(x[2]), [x3] "+x"(x[3]), [x4] "+x"(x[4]), \
	          [x5] "+x"(x[5]), [x6] "+x"(x[6]), [x7] "+x"(x[7]), [lo] "=&x"(s.lo), [hi] "=&x"(s.hi), \
	          [mid] "=&x"(s.mid), [key] "=&x"(key), [d] "=&x"(d), [m] "=&x"(m), [t] "=&x"(t)    \
	        : [rk] "r"(rk), [g] "r"(gsrc), [h] "r"(&c->gh), [acc] "m"(acc256), [bswap] "m"(bswap) \
	        : "memory")

/* A group's 16 counter blocks (8 registers of 2) from ctr2 through all but
 * the last round into x, while the 16 ciphertext blocks at gsrc are hashed
 * into acc with one reduction (returned). ctr2: the group's first two
 * counter blocks, reflected, one per lane. nr (10, 12, 14) a constant. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_woven(const struct bc_gcm_aes_x86_ctx *c, __m128i acc, __m256i *x,
                                                         __m256i ctr2, const uint8_t *gsrc, const unsigned nr, int pub)
{
	const __m256i bswap = bc_x86_bswap256_mask(), acc256 = _mm256_zextsi128_si256(acc);
	const uint8_t (*rk)[16] = c->aes.rk;
	__m256i key, d, m, t;
	struct bc_ghash_x86_sum256 s;

	_Static_assert(offsetof(struct bc_ghash_x86_key, k) == 256, "GCM_GH");
	gcm_vaes_open(c, x, ctr2, pub);
	if (nr == 10)
		GCM_MID(GCM_MID10);
	else if (nr == 12)
		GCM_MID(GCM_MID12);
	else
		GCM_MID(GCM_MID14);
	return bc_ghash_x86_reduce256(&s);
}

/* 16 counter blocks encrypted and XORed onto src into dst, while the 16
 * ciphertext blocks at gsrc (the previous group when encrypting, this one
 * when decrypting) are hashed with one reduction. gsrc is read before dst
 * is written, so decrypting in place is fine. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_group(const struct bc_gcm_aes_x86_ctx *c, __m128i acc, __m256i ctr2,
                                                         const uint8_t *src, uint8_t *dst, const uint8_t *gsrc,
                                                         const unsigned nr, int pub)
{
	__m256i x[8];

	acc = gcm_vaes_woven(c, acc, x, ctr2, gsrc, nr, pub);
	gcm_vaes_close(c, nr, x, src, dst);
	return acc;
}

/* The tail's counter blocks and J0 through AES together: m (1..8)
 * registers of two blocks beside J0, so their latencies overlap. Returns
 * E_K(J0). With m a constant (one call per value) x stays in registers. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_ks(const struct bc_gcm_aes_x86_ctx *c, __m256i ctr2, __m128i j0,
                                                      __m256i *x, unsigned m)
{
	const uint8_t (*rk)[16] = c->aes.rk;
	__m256i key = bc_aes_x86_rk256(rk, 0);
	unsigned r;

	j0 = _mm_xor_si128(j0, _mm256_castsi256_si128(key));
	gcm_vaes_ctrs(x, ctr2, m, 0);
	for (unsigned j = 0; j < m; j++)
		x[j] = _mm256_xor_si256(x[j], key);
	for (r = 1; r < c->aes.rounds; r++) {
		key = bc_aes_x86_rk256(rk, r);
		j0 = _mm_aesenc_si128(j0, _mm256_castsi256_si128(key));
		for (unsigned j = 0; j < m; j++)
			x[j] = _mm256_aesenc_epi128(x[j], key);
	}
	key = bc_aes_x86_rk256(rk, r);
	for (unsigned j = 0; j < m; j++)
		x[j] = _mm256_aesenclast_epi128(x[j], key);
	return _mm_aesenclast_si128(j0, _mm256_castsi256_si128(key));
}

/* dst = src ^ the keystream in x (registers of two blocks) for len (< 256)
 * bytes. A partial block is read and written in pieces, so nothing past
 * src + len or dst + len is touched. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void gcm_vaes_xor(const __m256i *x, const uint8_t *src, uint8_t *dst, size_t len)
{
	unsigned full = (unsigned)len / 16, part = (unsigned)len % 16, i;
	__m128i k;

	for (i = 0; i + 2 <= full; i += 2)
		bc_aes_x86_store256(dst + 16 * i, _mm256_xor_si256(x[i / 2], bc_aes_x86_load256(src + 16 * i)));
	if (i < full || part) {
		k = _mm256_castsi256_si128(x[i / 2]);
		if (i < full) {
			bc_aes_x86_store(dst + 16 * i, _mm_xor_si128(k, bc_aes_x86_load(src + 16 * i)));
			k = _mm256_extracti128_si256(x[i / 2], 1);
		}
		if (part)
			bc_x86_store_part(dst + 16 * full, _mm_xor_si128(k, bc_x86_load_part(src + 16 * full, part)), part);
	}
}

/* The last 0..255 bytes, with E_K(J0) (returned) computed beside them. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_tail(const struct bc_gcm_aes_x86_ctx *c, __m256i ctr2, __m128i j0,
                                                        const uint8_t *src, uint8_t *dst, size_t len)
{
	unsigned m = ((unsigned)(len + 15) / 16 + 1) / 2;
	__m256i x[8];
	__m128i ej0;

	if (m == 0)
		return bc_aes_x86_enc1(&c->aes, j0);
	switch (m) {
	case 1: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 1); break;
	case 2: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 2); break;
	case 3: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 3); break;
	case 4: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 4); break;
	case 5: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 5); break;
	case 6: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 6); break;
	case 7: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 7); break;
	default: ej0 = gcm_vaes_ks(c, ctr2, j0, x, 8); break;
	}
	gcm_vaes_xor(x, src, dst, len);
	bc_wipe(x, sizeof(x));   /* indexed at run time, so in memory: keystream */
	return ej0;
}

/* An encryption's last 0..255 bytes as one more group, the GHASH of the
 * group before (pend) woven into its rounds: with seven or more blocks
 * left, the tail's AES and pend's multiplies then overlap instead of
 * following one another (they cost 25 to 45 ns more when they did). */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_tail_woven(const struct bc_gcm_aes_x86_ctx *c, __m128i acc,
                                                              __m256i ctr2, const uint8_t *pend, const uint8_t *src,
                                                              uint8_t *dst, size_t len, const unsigned nr, int pub)
{
	__m256i x[8], key = bc_aes_x86_rk256(c->aes.rk, nr);

	acc = gcm_vaes_woven(c, acc, x, ctr2, pend, nr, pub);
	for (int j = 0; j < 8; j++)
		x[j] = _mm256_aesenclast_epi128(x[j], key);
	gcm_vaes_xor(x, src, dst, len);
	bc_wipe(x, sizeof(x));   /* indexed at run time, so in memory: keystream */
	return acc;
}

/* The whole groups of 256 bytes at src, through gcm_vaes_group with the
 * key's round count as a constant. When encrypting, each group is hashed
 * during the next one's rounds; the first has no predecessor, and the
 * last is left in *pend for the caller to hash beside the tail's rounds. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m128i gcm_vaes_groups(const struct bc_gcm_aes_x86_ctx *c, __m128i acc,
                                                          __m256i *ctr2, const uint8_t *src, uint8_t *dst,
                                                          size_t groups, int enc, const uint8_t **pend,
                                                          const unsigned nr, int pub)
{
	const __m256i sixteen = _mm256_set_epi32(0, 0, 0, 16, 0, 0, 0, 16);

	if (enc) {
		__m256i x[8];

		gcm_vaes_open(c, x, *ctr2, pub);
		bc_aes_x86_mid_256(c->aes.rk, nr, x, 8, 1);
		gcm_vaes_close(c, nr, x, src, dst);
		for (*ctr2 = _mm256_add_epi32(*ctr2, sixteen); --groups;
		     *ctr2 = _mm256_add_epi32(*ctr2, sixteen), src += 256, dst += 256)
			acc = gcm_vaes_group(c, acc, *ctr2, src + 256, dst + 256, dst, nr, pub);
		*pend = dst;
		return acc;
	}
	for (; groups; groups--, *ctr2 = _mm256_add_epi32(*ctr2, sixteen), src += 256, dst += 256)
		acc = gcm_vaes_group(c, acc, *ctr2, src, dst, src, nr, pub);
	return acc;
}

static BC_X86_VAES_VPCLMUL __m128i gcm_vaes_bulk(const struct bc_gcm_aes_x86_ctx *c, __m128i acc, __m256i *ctr2,
                                                 const uint8_t *src, uint8_t *dst, size_t groups, int enc,
                                                 const uint8_t **pend, int pub)
{
	switch (c->aes.rounds) {
	case 10: return gcm_vaes_groups(c, acc, ctr2, src, dst, groups, enc, pend, 10, pub);
	case 12: return gcm_vaes_groups(c, acc, ctr2, src, dst, groups, enc, pend, 12, pub);
	default: return gcm_vaes_groups(c, acc, ctr2, src, dst, groups, enc, pend, 14, pub);
	}
}

static BC_X86_VAES_VPCLMUL __m128i gcm_vaes_last(const struct bc_gcm_aes_x86_ctx *c, __m128i acc, __m256i ctr2,
                                                 const uint8_t *pend, const uint8_t *src, uint8_t *dst, size_t len,
                                                 int pub)
{
	switch (c->aes.rounds) {
	case 10: return gcm_vaes_tail_woven(c, acc, ctr2, pend, src, dst, len, 10, pub);
	case 12: return gcm_vaes_tail_woven(c, acc, ctr2, pend, src, dst, len, 12, pub);
	default: return gcm_vaes_tail_woven(c, acc, ctr2, pend, src, dst, len, 14, pub);
	}
}

/* The whole data path; returns the final GHASH (lengths included) and
 * E_K(J0) in *ej0. The ciphertext tail is hashed from src before dst is
 * written when decrypting (in place it would be gone), from dst after
 * when encrypting. */
static BC_X86_VAES_VPCLMUL __m128i gcm_vaes_crypt(const struct bc_gcm_aes_x86_ctx *c, const struct bc_gcm_x86_state *st,
                                                  const uint8_t *src, uint8_t *dst, size_t len, size_t adlen, int enc,
                                                  __m128i *ej0)
{
	__m256i ctr2 = _mm256_add_epi32(_mm256_broadcastsi128_si256(st->ctr), _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
	__m128i acc = st->acc;
	const uint8_t *pend = NULL;
	size_t total = len, bulk = len & ~(size_t)255;

	if (enc && len == 16)
		return bc_gcm_aes_x86_enc16(c, st, src, dst, adlen, ej0);
	if (bulk)
		acc = gcm_vaes_bulk(c, acc, &ctr2, src, dst, bulk / 256, enc, &pend, st->ctr_public);
	src += bulk;
	dst += bulk;
	len -= bulk;
	if (!enc)
		acc = bc_gcm_x86_final256(&c->gh, acc, src, len, adlen, total);
	if (pend && len >= 16 * 7) {
		acc = gcm_vaes_last(c, acc, ctr2, pend, src, dst, len, st->ctr_public);
		*ej0 = bc_aes_x86_enc1(&c->aes, st->j0);
		pend = NULL;
	} else {
		*ej0 = len <= 32 ? bc_gcm_aes_x86_tail(c, _mm256_castsi256_si128(ctr2), st->j0, src, dst, len)
		                 : gcm_vaes_tail(c, ctr2, st->j0, src, dst, len);
	}
	if (enc) {
		if (pend)
			acc = bc_ghash_x86_group256(&c->gh, acc, pend, 8);
		acc = bc_gcm_x86_final256(&c->gh, acc, dst, len, adlen, total);
	}
	return acc;
}

static BC_X86_VAES_VPCLMUL void gcm_vaes_encrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                                 size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                                 uint8_t *tag, size_t taglen)
{
	bc_gcm_aes_x86_encrypt(gcm_vaes_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

static BC_X86_VAES_VPCLMUL int gcm_vaes_decrypt(const void *ctx, const uint8_t *iv, size_t ivlen, const uint8_t *ad,
                                                size_t adlen, const uint8_t *src, uint8_t *dst, size_t len,
                                                const uint8_t *tag, size_t taglen)
{
	return bc_gcm_aes_x86_decrypt(gcm_vaes_crypt, ctx, iv, ivlen, ad, adlen, src, dst, len, tag, taglen);
}

/* ---- the incremental form: one message in pieces, through the same loop --------------
 * (struct bc_gcm_vaes_req in ghash_x86.h) */
BC_X86_VAES_VPCLMUL void bc_gcm_vaes_start(const void *ctx, void *req, const uint8_t *iv, size_t ivlen)
{
	const struct bc_gcm_aes_x86_ctx *c = ctx;
	struct bc_gcm_vaes_req *r = req;

	bc_gcm_x86_start(&c->gh, &r->st, iv, ivlen, NULL, 0);
	r->adlen = r->len = 0;
	r->used = 0;
	r->in_text = 0;
}

/* Bytes into the partial block; returns how many were taken. When the
 * block completes, it is hashed. */
static BC_X86_VAES_VPCLMUL size_t gcm_vaes_fill(const struct bc_gcm_aes_x86_ctx *c, struct bc_gcm_vaes_req *r,
                                                const uint8_t *ct, size_t len)
{
	size_t n = 16 - r->used < len ? 16 - r->used : len;

	memcpy(r->part + r->used, ct, n);
	r->used += (unsigned)n;
	if (r->used == 16) {
		r->st.acc = bc_ghash_x86_blocks(&c->gh, r->st.acc, r->part, 1);
		r->used = 0;
	}
	return n;
}

BC_X86_VAES_VPCLMUL void bc_gcm_vaes_ad(const void *ctx, void *req, const uint8_t *ad, size_t len)
{
	const struct bc_gcm_aes_x86_ctx *c = ctx;
	struct bc_gcm_vaes_req *r = req;
	size_t n = r->used ? gcm_vaes_fill(c, r, ad, len) : 0, whole = (len - n) & ~(size_t)15;

	r->adlen += len;
	r->st.acc = bc_ghash_x86_blocks256(&c->gh, r->st.acc, ad + n, whole / 16);
	if (len - n - whole)
		gcm_vaes_fill(c, r, ad + n + whole, len - n - whole);
}

/* The AAD's last partial block, zero-padded, before the first text. */
static BC_X86_VAES_VPCLMUL void gcm_vaes_close_ad(const struct bc_gcm_aes_x86_ctx *c, struct bc_gcm_vaes_req *r)
{
	if (!r->in_text) {
		r->st.acc = bc_ghash_x86_padded(&c->gh, r->st.acc, r->part, r->used);
		r->used = 0;
		r->in_text = 1;
	}
}

BC_X86_VAES_VPCLMUL void bc_gcm_vaes_crypt_piece(const void *ctx, void *req, const uint8_t *src, uint8_t *dst,
                                                     size_t len, int enc)
{
	static const uint8_t zeros[16];
	const struct bc_gcm_aes_x86_ctx *c = ctx;
	struct bc_gcm_vaes_req *r = req;
	__m256i ctr2;
	size_t n, bulk, rest;

	gcm_vaes_close_ad(c, r);
	r->len += len;
	if (r->used) {                   /* the rest of the block the last piece ended in */
		unsigned u = r->used;

		n = 16 - u < len ? 16 - u : len;
		if (!enc)
			gcm_vaes_fill(c, r, src, n);
		bc_xor(dst, src, r->ks + u, n);
		if (enc)
			gcm_vaes_fill(c, r, dst, n);
		src += n;
		dst += n;
		len -= n;
	}
	ctr2 = _mm256_add_epi32(_mm256_broadcastsi128_si256(r->st.ctr), _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
	bulk = len & ~(size_t)255;
	if (bulk) {
		const uint8_t *pend = NULL;

		r->st.acc = gcm_vaes_bulk(c, r->st.acc, &ctr2, src, dst, bulk / 256, enc, &pend, r->st.ctr_public);
		if (pend)
			r->st.acc = bc_ghash_x86_group256(&c->gh, r->st.acc, pend, 8);
		src += bulk;
		dst += bulk;
		len -= bulk;
	}
	rest = len & ~(size_t)15;        /* up to 15 whole blocks */
	if (rest) {
		if (!enc)
			r->st.acc = bc_ghash_x86_blocks256(&c->gh, r->st.acc, src, rest / 16);
		gcm_vaes_tail(c, ctr2, r->st.j0, src, dst, rest);
		if (enc)
			r->st.acc = bc_ghash_x86_blocks256(&c->gh, r->st.acc, dst, rest / 16);
		ctr2 = _mm256_add_epi32(ctr2, _mm256_set_epi32(0, 0, 0, (int)(rest / 16), 0, 0, 0, (int)(rest / 16)));
		src += rest;
		dst += rest;
		len -= rest;
	}
	if (len) {                       /* the head of a new block: its whole keystream kept */
		gcm_vaes_tail(c, ctr2, r->st.j0, zeros, r->ks, 16);
		ctr2 = _mm256_add_epi32(ctr2, _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 1));
		if (!enc)
			gcm_vaes_fill(c, r, src, len);
		bc_xor(dst, src, r->ks, len);
		if (enc)
			gcm_vaes_fill(c, r, dst, len);
	}
	r->st.ctr = _mm256_castsi256_si128(ctr2);
}

BC_X86_VAES_VPCLMUL void bc_gcm_vaes_final(const void *ctx, void *req, uint8_t tag[16])
{
	const struct bc_gcm_aes_x86_ctx *c = ctx;
	struct bc_gcm_vaes_req *r = req;

	gcm_vaes_close_ad(c, r);
	bc_gcm_x86_tag(bc_gcm_x86_final(&c->gh, r->st.acc, r->part, r->used, r->adlen, r->len),
	               bc_aes_x86_enc1(&c->aes, r->st.j0), tag, 16);
	bc_wipe(r, sizeof(*r));
}

const struct bc_aead_alg bc_gcm_aes_vaes_avx2 = {
	.name = "gcm(aes)",
	.driver = "gcm-aes-vaes-avx2",
	.priority = 500,
	.cpu = BC_CPU_VAES | BC_CPU_VPCLMUL | BC_CPU_AVX2 | BC_CPU_AESNI | BC_CPU_PCLMUL,
	.min_keysize = 16,
	.max_keysize = 32,
	.ivsize = 12,
	.maxauthsize = 16,
	.ctxsize = sizeof(struct bc_gcm_aes_x86_ctx),
	.setkey = bc_gcm_aes_x86_setkey,
	.encrypt = gcm_vaes_encrypt,
	.decrypt = gcm_vaes_decrypt,
	.reqsize = sizeof(struct bc_gcm_vaes_req),
	.start = bc_gcm_vaes_start,
	.ad = bc_gcm_vaes_ad,
	.crypt = bc_gcm_vaes_crypt_piece,
	.final = bc_gcm_vaes_final,
};

#endif
