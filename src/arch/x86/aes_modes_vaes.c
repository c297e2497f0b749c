/* blockcrypt x86-64: ecb, cbc, ctr, xctr and xts over AES with VAES+AVX2, 24 blocks in flight (ecb-aes-vaes-avx2, ...).
 * NIST SP 800-38A (ECB, CBC, CTR), HCTR2 (ia.cr/2021/1441: XCTR), IEEE 1619-2018 / NIST SP 800-38E (XTS with ciphertext stealing). */
#include "aes_x86.h"
#include "drivers.h"

/* x86-64 only: with eight ymm registers i386 could not keep sixteen blocks,
 * their tweaks and a round key in flight, so it keeps the AES-NI drivers. */
#if defined(__x86_64__)

/* The ecb, cbc and ctr loops take 24 blocks (12 ymm registers of two
 * blocks) at a time: with eight registers the AES chains (four cycles of
 * latency, two instructions per cycle) would have no slack, and every
 * cycle another instruction took from an AES pipe would be lost. What is
 * left goes to the AES-NI code, eight blocks at a time, except for ctr,
 * which takes its last 128..383 bytes in one pass of its own. xts does
 * everything itself (below). */
#define VAES_REGS 12
#define VAES_BATCH (32 * VAES_REGS)

/* ---- ecb ----------------------------------------------------------------------------- */

/* rk: the encryption or the decryption round keys; nr a constant. */
BC_X86_INLINE BC_X86_VAES void vaes_ecb(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                        const uint8_t *src, uint8_t *dst, size_t nb)
{
	for (; nb; nb--, src += VAES_BATCH, dst += VAES_BATCH) {
		__m256i x[VAES_REGS];
		unsigned i;

		BC_X86_OPAQUE(rk);
		_Pragma("GCC unroll 12")
		for (i = 0; i < VAES_REGS; i++)
			x[i] = _mm256_xor_si256(bc_aes_x86_load256(src + 32 * i), bc_aes_x86_rk256(rk, 0));
		bc_aes_x86_mid_256(rk, nr, x, VAES_REGS, enc);
		_Pragma("GCC unroll 12")
		for (i = 0; i < VAES_REGS; i++)
			bc_aes_x86_store256(dst + 32 * i, enc ? _mm256_aesenclast_epi128(x[i], bc_aes_x86_rk256(rk, nr))
			                                      : _mm256_aesdeclast_epi128(x[i], bc_aes_x86_rk256(rk, nr)));
	}
}

static BC_X86_VAES int vaes_ecb_crypt(const struct bc_aes_x86_key *k, const uint8_t *src, uint8_t *dst, size_t len,
                                       int enc)
{
	const uint8_t (*rk)[16] = enc ? k->enc.rk : k->dk;
	size_t nb = len / VAES_BATCH;

	switch (2 * k->enc.rounds + (unsigned)enc) {
	case 20: vaes_ecb(rk, 10, 0, src, dst, nb); break;
	case 21: vaes_ecb(rk, 10, 1, src, dst, nb); break;
	case 24: vaes_ecb(rk, 12, 0, src, dst, nb); break;
	case 25: vaes_ecb(rk, 12, 1, src, dst, nb); break;
	case 28: vaes_ecb(rk, 14, 0, src, dst, nb); break;
	default: vaes_ecb(rk, 14, 1, src, dst, nb); break;
	}
	src += VAES_BATCH * nb;
	dst += VAES_BATCH * nb;
	if (enc)
		return bc_aes_x86_ecb_enc(&k->enc, dst, src, len % VAES_BATCH / 16);
	return bc_aes_x86_ecb_dec(k, dst, src, len % VAES_BATCH / 16);
}

/* Up to 15 blocks in one pass, inline: nothing between the call and one block's AES
 * but one test, and one indirect jump before 2..15 blocks'; longer messages in batches. */
static BC_X86_VAES int vaes_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	if (!bc_aes_vaes_ecb_short(ctx, 1, src, dst, len))
		return vaes_ecb_crypt(ctx, src, dst, len, 1);
	return 0;
}

static BC_X86_VAES int vaes_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	(void)iv;
	if (!bc_aes_vaes_ecb_short(ctx, 0, src, dst, len))
		return vaes_ecb_crypt(ctx, src, dst, len, 0);
	return 0;
}

/* ---- cbc ----------------------------------------------------------------------------- */

/* Register i decrypts blocks 2i, 2i+1 and XORs with ciphertext blocks
 * 2i-1, 2i: one unaligned load straddling them, except for i = 0 whose low
 * half is the chaining value; that XOR is folded into the last round's key.
 * For dst == src, each such load happens before the store that would
 * overwrite its lower half, and the batch's last ciphertext block is kept
 * before any store. */
BC_X86_INLINE BC_X86_VAES int vaes_cbc_dec(const struct bc_aes_x86_key *k, uint8_t iv[16], const uint8_t *src,
                                            uint8_t *dst, size_t len, const unsigned nr)
{
	const uint8_t (*rk)[16] = k->dk;
	__m128i prev = bc_aes_x86_load(iv), last;
	__m256i x[VAES_REGS], p, q;
	unsigned i;

	for (; len >= VAES_BATCH; len -= VAES_BATCH, src += VAES_BATCH, dst += VAES_BATCH) {
		BC_X86_OPAQUE(rk);
		_Pragma("GCC unroll 12")
		for (i = 0; i < VAES_REGS; i++)
			x[i] = _mm256_xor_si256(bc_aes_x86_load256(src + 32 * i), bc_aes_x86_rk256(rk, 0));
		last = bc_aes_x86_load(src + VAES_BATCH - 16);
		p = _mm256_inserti128_si256(_mm256_castsi128_si256(prev), bc_aes_x86_load(src), 1);
		bc_aes_x86_mid_256(rk, nr, x, VAES_REGS, 0);
		_Pragma("GCC unroll 12")
		for (i = 0; i < VAES_REGS; i++) {
			q = i < VAES_REGS - 1 ? bc_aes_x86_load256(src + 32 * i + 16) : p;
			bc_aes_x86_store256(dst + 32 * i,
			                    _mm256_aesdeclast_epi128(x[i], _mm256_xor_si256(p, bc_aes_x86_rk256(rk, nr))));
			p = q;
		}
		prev = last;
	}
	bc_aes_x86_store(iv, prev);
	return bc_aes_x86_cbc_dec(k, iv, src, dst, len / 16);
}

static BC_X86_VAES int vaes_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;

	switch (k->enc.rounds) {
	case 10: return vaes_cbc_dec(k, iv, src, dst, len, 10);
	case 12: return vaes_cbc_dec(k, iv, src, dst, len, 12);
	default: return vaes_cbc_dec(k, iv, src, dst, len, 14);
	}
}

/* ---- ctr ----------------------------------------------------------------------------- */

/* The batch's counter blocks (hi:lo) + 0..2 VAES_REGS - 1, two per register.
 * The counter is public; the branch only decides whether the low 64 bits
 * wrap in the batch. */
BC_X86_INLINE BC_X86_VAES void vaes_ctr_blocks(__m256i x[VAES_REGS], uint64_t hi, uint64_t lo)
{
	unsigned i;

	if (lo <= UINT64_MAX - (2 * VAES_REGS - 1)) {
		__m256i v = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);
		__m256i two = _mm256_set_epi64x(0, 2, 0, 2), bswap = bc_x86_bswap256_mask();
		_Pragma("GCC unroll 12")
		for (i = 0; i < VAES_REGS; i++) {
			x[i] = _mm256_shuffle_epi8(v, bswap);
			v = _mm256_add_epi64(v, two);
		}
	} else {
		for (i = 0; i < VAES_REGS; i++)
			x[i] = _mm256_set_m128i(bc_x86_ctr_block(hi, lo, 2 * i + 1), bc_x86_ctr_block(hi, lo, 2 * i));
	}
}

/* The counter of a pass: ctr's big-endian 128-bit hi:lo; xctr's block
 * number lo, XORed little-endian into the IV iv (hi unused), which no
 * message is long enough to carry out of. */
struct vaes_counter {
	uint64_t hi, lo;
	__m256i iv;
};

/* xctr's counter blocks IV ^ le128(c + 0..2 VAES_REGS - 1), two per register. */
BC_X86_INLINE BC_X86_VAES void vaes_xctr_blocks(__m256i x[VAES_REGS], __m256i iv, uint64_t c)
{
	__m256i v = _mm256_set_epi64x(0, (long long)(c + 1), 0, (long long)c), two = _mm256_set_epi64x(0, 2, 0, 2);

	_Pragma("GCC unroll 12")
	for (unsigned i = 0; i < VAES_REGS; i++) {
		x[i] = _mm256_xor_si256(iv, v);
		v = _mm256_add_epi64(v, two);
	}
}

/* n (a constant: 12, 8 or 4) registers of counter blocks (xctr, a
 * constant, says which kind) through AES, whitening included, XORed onto
 * src into dst, the counter advanced past them. The source is XORed into
 * the last round key (AESENCLAST(x, K_Nr ^ P) is the ciphertext), off the
 * end of the AES chain. */
BC_X86_INLINE BC_X86_VAES void vaes_ctr_regs(const struct bc_aes_x86_ek *k, const unsigned nr, const int xctr,
                                             struct vaes_counter *c, const uint8_t *src, uint8_t *dst,
                                             const unsigned n)
{
	const uint8_t (*rk)[16] = k->rk;
	__m256i x[VAES_REGS], key;

	BC_X86_OPAQUE(rk);
	if (xctr)
		vaes_xctr_blocks(x, c->iv, c->lo);
	else
		vaes_ctr_blocks(x, c->hi, c->lo);
	key = bc_aes_x86_rk256(rk, 0);
	_Pragma("GCC unroll 12")
	for (unsigned i = 0; i < n; i++)
		x[i] = _mm256_xor_si256(x[i], key);
	bc_aes_x86_mid_256(rk, nr, x, n, 1);
	key = bc_aes_x86_rk256(rk, nr);
	_Pragma("GCC unroll 12")
	for (unsigned i = 0; i < n; i++)
		bc_aes_x86_store256(dst + 32 * i, _mm256_aesenclast_epi128(
		                                      x[i], _mm256_xor_si256(key, bc_aes_x86_load256(src + 32 * i))));
	c->lo += 2 * n;
	if (!xctr)
		c->hi += c->lo < 2 * n;
}

/* The batches, then what is left as one pass of 8 registers and one of 4
 * where they fit (independent of each other, so their AES latencies
 * overlap): how many bytes were done; the last 0..127 are the AES-NI
 * code's. */
BC_X86_INLINE BC_X86_VAES size_t vaes_ctr_bulk(const struct bc_aes_x86_ek *k, const unsigned nr, const int xctr,
                                              struct vaes_counter *c, const uint8_t *src, uint8_t *dst, size_t len)
{
	size_t done = 0;

	for (; len - done >= VAES_BATCH; done += VAES_BATCH)
		vaes_ctr_regs(k, nr, xctr, c, src + done, dst + done, VAES_REGS);
	if (len - done >= 256) {
		vaes_ctr_regs(k, nr, xctr, c, src + done, dst + done, 8);
		done += 256;
	}
	if (len - done >= 128) {
		vaes_ctr_regs(k, nr, xctr, c, src + done, dst + done, 4);
		done += 128;
	}
	return done;
}

BC_X86_INLINE BC_X86_VAES int vaes_ctr(const struct bc_aes_x86_ek *k, const unsigned nr, uint8_t *iv,
                                        const uint8_t *src, uint8_t *dst, size_t len)
{
	struct vaes_counter c;
	size_t done = 0;

	if (len >= 128) {
		bc_x86_ctr_load(iv, &c.hi, &c.lo);
		done = vaes_ctr_bulk(k, nr, 0, &c, src, dst, len);
		bc_x86_ctr_store(iv, c.hi, c.lo, 0);
	}
	return bc_aes_x86_ctr(k, iv, src + done, dst + done, len - done);
}

static BC_X86_VAES int vaes_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_ek *k = ctx;

	switch (k->rounds) {
	case 10: return vaes_ctr(k, 10, iv, src, dst, len);
	case 12: return vaes_ctr(k, 12, iv, src, dst, len);
	default: return vaes_ctr(k, 14, iv, src, dst, len);
	}
}

/* ---- xctr ---------------------------------------------------------------------------- */

/* XCTR of the HCTR2 paper (ia.cr/2021/1441, section 3) as Linux crypto/xctr.c:
 * block i = E_K(IV ^ le128(i)), i from 1; ctr's passes over those blocks. */
BC_X86_INLINE BC_X86_VAES int vaes_xctr(const struct bc_aes_x86_ek *k, const unsigned nr, const uint8_t *iv,
                                         const uint8_t *src, uint8_t *dst, size_t len)
{
	struct vaes_counter c = { .lo = 1, .iv = _mm256_broadcastsi128_si256(bc_aes_x86_load(iv)) };
	size_t done = vaes_ctr_bulk(k, nr, 1, &c, src, dst, len);

	return bc_aes_x86_xctr(k, iv, c.lo, src + done, dst + done, len - done);
}

static BC_X86_VAES int vaes_xctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_ek *k = ctx;

	switch (k->rounds) {
	case 10: return vaes_xctr(k, 10, iv, src, dst, len);
	case 12: return vaes_xctr(k, 12, iv, src, dst, len);
	default: return vaes_xctr(k, 14, iv, src, dst, len);
	}
}

/* ---- xts ----------------------------------------------------------------------------- */

/* xts keeps twelve registers of two blocks in flight: with eight, the
 * sixteen AES chains would exactly cover the AES latency (4 cycles, two
 * instructions per cycle) and every cycle the tweak work takes from an AES
 * pipe would be lost for good; with twelve there is slack. */
#define XTS_REGS 12
#define XTS_BATCH (32 * XTS_REGS)

/* Tweak scratch of the batch loop: register i's two tweaks, the same XORed
 * with the first round key (input whitening of the next batch) and with the
 * last one (the key of this batch's final AESENCLAST/AESDECLAST, taken
 * straight from memory), and both keys broadcast. The offsets are spelled
 * out for the assembly below. */
struct vaes_xts_buf {
	__m256i t[XTS_REGS], tk0[XTS_REGS], tkl[XTS_REGS], k0, kl;
	__m128i steal[2];                     /* the stealing step's second block and tweak */
};
#define XTS_T   "0"
#define XTS_TK0 "384"
#define XTS_TKL "768"
#define XTS_K0  "1152"
#define XTS_KL  "1184"

/* The batch loop is written in assembly because it needs all sixteen ymm
 * registers exactly: twelve states, the round key, and three for the tweak
 * arithmetic. Compilers, given the same as intrinsics, spill a state to the
 * stack on some rounds, which puts a store and a reload on an AES chain.
 *
 * XTS_ROUND(OP, r): round r (its key broadcast from rk) on all twelve. */
#define XTS_R1(OP, i) OP " %%ymm12, %%ymm" #i ", %%ymm" #i "\n\t"
#define XTS_ROUND(OP, r)                                                                          \
	"vbroadcasti128 " #r "*16(%[rk]), %%ymm12\n\t"                                          \
	XTS_R1(OP, 0) XTS_R1(OP, 1) XTS_R1(OP, 2) XTS_R1(OP, 3) XTS_R1(OP, 4) XTS_R1(OP, 5)    \
	XTS_R1(OP, 6) XTS_R1(OP, 7) XTS_R1(OP, 8) XTS_R1(OP, 9) XTS_R1(OP, 10) XTS_R1(OP, 11)

/* XTS_STEP(i): register i's tweaks t give this batch's last-round key
 * t ^ K_Nr, then move on by 24 blocks, t * x^24 per lane: a byte shift by
 * three, and the 24 bits shifted out times x^7 + x^2 + x + 1 (at most 31
 * bits, one VPCLMULQDQ) folded back in. On this core the carry-less
 * multiplier is a unit of its own beside the two AES pipes (112 VAESENC
 * with 24 VPCLMULQDQ take as long as the VAESENC alone), so the multiply
 * replaces five shifts and XORs that compete with AES for the vector
 * pipes: AES-128 XTS 0.209 -> 0.192 c/B. Then the next batch's input
 * whitening t ^ K_0. One step per register per batch, spread over the
 * middle rounds so that it shares their cycles. */
#define XTS_STEP(i)                                                                               \
	"vmovdqa " XTS_T "+32*" #i "(%[b]), %%ymm13\n\t"                                        \
	"vpxor " XTS_KL "(%[b]), %%ymm13, %%ymm15\n\t"                                          \
	"vmovdqa %%ymm15, " XTS_TKL "+32*" #i "(%[b])\n\t"                                      \
	"vpsrldq $13, %%ymm13, %%ymm14\n\t"                                                     \
	"vpslldq $3, %%ymm13, %%ymm13\n\t"                                                      \
	"vpclmulqdq $0x00, %[poly], %%ymm14, %%ymm14\n\t"                                       \
	"vpxor %%ymm14, %%ymm13, %%ymm13\n\t"                                                   \
	"vmovdqa %%ymm13, " XTS_T "+32*" #i "(%[b])\n\t"                                        \
	"vpxor " XTS_K0 "(%[b]), %%ymm13, %%ymm15\n\t"                                          \
	"vmovdqa %%ymm15, " XTS_TK0 "+32*" #i "(%[b])\n\t"

/* The middle rounds 1..Nr-1 with the twelve steps spread over them. */
#define XTS_MID10(OP)                                                                             \
	XTS_ROUND(OP, 1) XTS_STEP(0) XTS_STEP(9) XTS_ROUND(OP, 2) XTS_STEP(1) XTS_STEP(10)        \
	XTS_ROUND(OP, 3) XTS_STEP(2) XTS_STEP(11) XTS_ROUND(OP, 4) XTS_STEP(3)                    \
	XTS_ROUND(OP, 5) XTS_STEP(4) XTS_ROUND(OP, 6) XTS_STEP(5) XTS_ROUND(OP, 7) XTS_STEP(6)    \
	XTS_ROUND(OP, 8) XTS_STEP(7) XTS_ROUND(OP, 9) XTS_STEP(8)
#define XTS_MID12(OP)                                                                             \
	XTS_ROUND(OP, 1) XTS_STEP(0) XTS_STEP(11) XTS_ROUND(OP, 2) XTS_STEP(1)                    \
	XTS_ROUND(OP, 3) XTS_STEP(2) XTS_ROUND(OP, 4) XTS_STEP(3) XTS_ROUND(OP, 5) XTS_STEP(4)    \
	XTS_ROUND(OP, 6) XTS_STEP(5) XTS_ROUND(OP, 7) XTS_STEP(6) XTS_ROUND(OP, 8) XTS_STEP(7)    \
	XTS_ROUND(OP, 9) XTS_STEP(8) XTS_ROUND(OP, 10) XTS_STEP(9) XTS_ROUND(OP, 11) XTS_STEP(10)
#define XTS_MID14(OP)                                                                             \
	XTS_ROUND(OP, 1) XTS_STEP(0) XTS_ROUND(OP, 2) XTS_STEP(1) XTS_ROUND(OP, 3) XTS_STEP(2)    \
	XTS_ROUND(OP, 4) XTS_STEP(3) XTS_ROUND(OP, 5) XTS_STEP(4) XTS_ROUND(OP, 6) XTS_STEP(5)    \
	XTS_ROUND(OP, 7) XTS_STEP(6) XTS_ROUND(OP, 8) XTS_STEP(7) XTS_ROUND(OP, 9) XTS_STEP(8)    \
	XTS_ROUND(OP, 10) XTS_STEP(9) XTS_ROUND(OP, 11) XTS_STEP(10) XTS_ROUND(OP, 12) XTS_STEP(11) \
	XTS_ROUND(OP, 13)

/* Register i's last round (key: its tweaks ^ K_Nr) and store; with NEXT,
 * its next input (the source ^ next tweaks ^ K_0) right behind it, so that
 * its chain goes on into the next batch at once. */
#define XTS_LAST1(LAST, i)                                                                        \
	LAST " " XTS_TKL "+32*" #i "(%[b]), %%ymm" #i ", %%ymm" #i "\n\t"                       \
	"vmovdqu %%ymm" #i ", 32*" #i "(%[dst])\n\t"
#define XTS_NEXT1(LAST, i)                                                                        \
	XTS_LAST1(LAST, i)                                                                        \
	"vmovdqu 32*" #i "(%[src]), %%ymm" #i "\n\t"                                            \
	"vpxor " XTS_TK0 "+32*" #i "(%[b]), %%ymm" #i ", %%ymm" #i "\n\t"
#define XTS_LOAD1(i)                                                                              \
	"vmovdqu 32*" #i "(%[src]), %%ymm" #i "\n\t"                                            \
	"vpxor " XTS_TK0 "+32*" #i "(%[b]), %%ymm" #i ", %%ymm" #i "\n\t"
#define XTS_ALL(M, A)                                                                             \
	M(A, 0) M(A, 1) M(A, 2) M(A, 3) M(A, 4) M(A, 5) M(A, 6) M(A, 7) M(A, 8) M(A, 9) M(A, 10) M(A, 11)
#define XTS_LOADS                                                                                 \
	XTS_LOAD1(0) XTS_LOAD1(1) XTS_LOAD1(2) XTS_LOAD1(3) XTS_LOAD1(4) XTS_LOAD1(5)             \
	XTS_LOAD1(6) XTS_LOAD1(7) XTS_LOAD1(8) XTS_LOAD1(9) XTS_LOAD1(10) XTS_LOAD1(11)

#define XTS_STR(x) XTS_STR_(x)
#define XTS_STR_(x) #x

/* nb >= 1 whole batches from src to dst; b holds the first batch's tweaks
 * in t and its whitening in tk0 (and K_0, K_Nr). On return it holds the
 * next batch's: t[0]'s low lane is the next block's tweak. */
#define XTS_BATCHES(NAME, MID, OP, LAST)                                                          \
	static BC_X86_VAES void NAME(const uint8_t (*rk)[16], struct vaes_xts_buf *b, const uint8_t *src, \
	                             uint8_t *dst, size_t nb)                                     \
	{                                                                                         \
		const __m256i poly = bc_x86_xts_poly256();                                        \
		__asm__ volatile(XTS_LOADS                                                        \
		                 "1:\n\t" MID(OP)                                                 \
		                 "add $" XTS_STR(XTS_BATCH) ", %[src]\n\t"                        \
		                 "sub $1, %[nb]\n\t"                                              \
		                 "jz 2f\n\t"                                                      \
		                 XTS_ALL(XTS_NEXT1, LAST)                                           \
		                 "add $" XTS_STR(XTS_BATCH) ", %[dst]\n\t"                        \
		                 "jmp 1b\n"                                                        \
		                 "2:\n\t" XTS_ALL(XTS_LAST1, LAST)                                \
		                 : [src] "+r"(src), [dst] "+r"(dst), [nb] "+r"(nb)                  \
		                 : [rk] "r"(rk), [b] "r"(b), [poly] "m"(poly)                       \
		                 : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",  \
		                   "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",       \
		                   "xmm13", "xmm14", "xmm15");                                      \
	}
_Static_assert(offsetof(struct vaes_xts_buf, tk0) == 384 && offsetof(struct vaes_xts_buf, tkl) == 768 &&
               offsetof(struct vaes_xts_buf, k0) == 1152 && offsetof(struct vaes_xts_buf, kl) == 1184,
               "XTS_TK0, XTS_TKL, XTS_K0, XTS_KL");

XTS_BATCHES(vaes_xts_enc10, XTS_MID10, "vaesenc", "vaesenclast")
XTS_BATCHES(vaes_xts_enc12, XTS_MID12, "vaesenc", "vaesenclast")
XTS_BATCHES(vaes_xts_enc14, XTS_MID14, "vaesenc", "vaesenclast")
XTS_BATCHES(vaes_xts_dec10, XTS_MID10, "vaesdec", "vaesdeclast")
XTS_BATCHES(vaes_xts_dec12, XTS_MID12, "vaesdec", "vaesdeclast")
XTS_BATCHES(vaes_xts_dec14, XTS_MID14, "vaesdec", "vaesdeclast")

BC_X86_INLINE void vaes_xts_batches(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                    struct vaes_xts_buf *b, const uint8_t *src, uint8_t *dst, size_t nb)
{
	if (enc)
		(nr == 10 ? vaes_xts_enc10 : nr == 12 ? vaes_xts_enc12 : vaes_xts_enc14)(rk, b, src, dst, nb);
	else
		(nr == 10 ? vaes_xts_dec10 : nr == 12 ? vaes_xts_dec12 : vaes_xts_dec14)(rk, b, src, dst, nb);
}

/* Zeroes the scratch with plain vector stores (a compiler turns a loop of
 * them into a string instruction, slow to start). */
static BC_X86_VAES void vaes_xts_wipe(struct vaes_xts_buf *b)
{
	__asm__ volatile("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
	                 ".irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, "
	                 "24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38\n\t"
	                 "vmovdqa %%ymm0, 32*\\i(%[b])\n\t"
	                 ".endr"
	                 : : [b] "r"(b) : "memory", "xmm0");
}
_Static_assert(sizeof(struct vaes_xts_buf) == 32 * 39, "vaes_xts_wipe");

/* ---- xts: everything around the batches ----------------------------------------------- */

/* n (1..6) registers of two blocks with the tweaks s * x^(2i), s = the
 * tweaks of the first two: few enough to keep states, tweaks and a round
 * key in registers. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void vaes_xts_group(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                                      __m256i s, const uint8_t *src, uint8_t *dst, const unsigned n)
{
	const __m256i poly = bc_x86_xts_poly256();
	__m256i x[6], tw[6], key;
	unsigned i, r;

	BC_X86_OPAQUE(rk);   /* keys from the context at each use: no spilled copies */
	key = bc_aes_x86_rk256(rk, 0);

	_Pragma("GCC unroll 6")
	for (i = 0; i < n; i++) {
		tw[i] = i ? bc_x86_xts_mul_xk_256(s, 2 * i, poly) : s;
		x[i] = _mm256_xor_si256(_mm256_xor_si256(bc_aes_x86_load256(src + 32 * i), key), tw[i]);
	}
	_Pragma("GCC unroll 14")
	for (r = 1; r < nr; r++) {
		key = bc_aes_x86_rk256(rk, r);
		_Pragma("GCC unroll 6")
		for (i = 0; i < n; i++)
			x[i] = enc ? _mm256_aesenc_epi128(x[i], key) : _mm256_aesdec_epi128(x[i], key);
	}
	key = bc_aes_x86_rk256(rk, nr);
	_Pragma("GCC unroll 6")
	for (i = 0; i < n; i++) {
		__m256i kl = _mm256_xor_si256(tw[i], key);

		bc_aes_x86_store256(dst + 32 * i, enc ? _mm256_aesenclast_epi128(x[i], kl)
		                                      : _mm256_aesdeclast_epi128(x[i], kl));
	}
}

#define XTS_GROUP(NR, ENC) do {                                                                   \
		switch (n) {                                                                      \
		case 1: vaes_xts_group(rk, NR, ENC, s, src, dst, 1); break;                       \
		case 2: vaes_xts_group(rk, NR, ENC, s, src, dst, 2); break;                       \
		case 3: vaes_xts_group(rk, NR, ENC, s, src, dst, 3); break;                       \
		case 4: vaes_xts_group(rk, NR, ENC, s, src, dst, 4); break;                       \
		case 5: vaes_xts_group(rk, NR, ENC, s, src, dst, 5); break;                       \
		default: vaes_xts_group(rk, NR, ENC, s, src, dst, 6); break;                      \
		}                                                                                 \
	} while (0)

/* The h (0..23) blocks that do not fill a batch, with tweaks t * x^i: done
 * first, so that their AES latency overlaps the batches that follow
 * instead of trailing them. */
static BC_X86_VAES_VPCLMUL void vaes_xts_head(const uint8_t (*rk)[16], unsigned nr, int enc, __m128i t,
                                              const uint8_t *src, uint8_t *dst, size_t h)
{
	const __m256i poly = bc_x86_xts_poly256();
	__m256i s = _mm256_set_m128i(bc_x86_xts_mul_x(t, bc_x86_xts_mask()), t);
	unsigned n;

	for (; h >= 2; h -= 2 * n, src += 32 * n, dst += 32 * n) {
		n = h / 2 < 6 ? (unsigned)h / 2 : 6;
		switch (2 * nr + (unsigned)enc) {
		case 20: XTS_GROUP(10, 0); break;
		case 21: XTS_GROUP(10, 1); break;
		case 24: XTS_GROUP(12, 0); break;
		case 25: XTS_GROUP(12, 1); break;
		case 28: XTS_GROUP(14, 0); break;
		default: XTS_GROUP(14, 1); break;
		}
		s = bc_x86_xts_mul_xk_256(s, 2 * n, poly);
	}
	if (h)
		bc_aes_x86_store(dst, bc_aes_x86_xts1(rk, nr, enc, _mm256_castsi256_si128(s), bc_aes_x86_load(src)));
}

/* Stealing starts early when its tweak is a few steps away, so that its
 * two dependent AES latencies hide under the bulk: the first before the
 * batches, the second after the first batch (placed any earlier, its wait
 * would stall the instruction window the batches need). Past this many
 * blocks it waits for the tweak the batches leave behind. */
#define XTS_STEAL_EARLY_MAX 448

/* The message from its first tweak t (= E_K2(iv)) on, len >= 16: the blocks
 * short of a batch, the stealing step and the batches. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void vaes_xts_from(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                                     __m128i t, const uint8_t *src, uint8_t *dst, size_t len)
{
	size_t rest = len % 16, whole = len / 16 - (rest != 0), head, nb, first;
	const int early = rest && whole <= XTS_STEAL_EARLY_MAX;
	const __m256i poly = bc_x86_xts_poly256();
	_Alignas(16) uint8_t tk[16];   /* T across the call: here, where it is wiped, not in a spill slot */
	const uint8_t *tp = tk;
	struct vaes_xts_buf b;
	__m256i s;
	unsigned i;

	nb = whole / 24;
	head = nb ? whole % 24 : whole;
	_mm_store_si128((__m128i *)tk, t);
	vaes_xts_head(rk, nr, enc, t, src, dst, head);
	BC_X86_OPAQUE(tp);   /* so T is read back, not kept in a register over the call */
	t = _mm_load_si128((const __m128i *)tp);
	bc_wipe(tk, sizeof(tk));
	if (!nb) {
		if (rest)
			bc_aes_x86_xts_steal(rk, nr, enc, bc_x86_xts_tweak_at(t, whole), src + 16 * whole, dst + 16 * whole, rest);
		return;
	}
	if (early)
		b.steal[0] = bc_aes_x86_xts_steal1(rk, nr, enc, bc_x86_xts_tweak_at(t, whole), src + 16 * whole,
		                                   dst + 16 * whole, rest, &b.steal[1]);
	s = _mm256_set_m128i(bc_x86_xts_mul_x(t, bc_x86_xts_mask()), t);
	b.k0 = bc_aes_x86_rk256(rk, 0);
	b.kl = bc_aes_x86_rk256(rk, nr);
	_Pragma("GCC unroll 16")
	for (i = 0; i < XTS_REGS; i++) {
		__m256i ti = bc_x86_xts_mul_xk_256(s, (unsigned)head + 2 * i, poly);

		_mm256_store_si256(b.t + i, ti);
		_mm256_store_si256(b.tk0 + i, _mm256_xor_si256(ti, b.k0));
	}
	src += 16 * head;
	dst += 16 * head;
	first = early ? 1 : nb;
	vaes_xts_batches(rk, nr, enc, &b, src, dst, first);
	if (early) {
		bc_aes_x86_store(dst + XTS_BATCH * nb, bc_aes_x86_xts1(rk, nr, enc, b.steal[1], b.steal[0]));
		if (nb > first)
			vaes_xts_batches(rk, nr, enc, &b, src + XTS_BATCH, dst + XTS_BATCH, nb - first);
	} else if (rest) {
		bc_aes_x86_xts_steal(rk, nr, enc, _mm256_castsi256_si128(_mm256_load_si256(b.t)), src + XTS_BATCH * nb,
		                     dst + XTS_BATCH * nb, rest);
	}
	vaes_xts_wipe(&b);
}

/* The whole message: a single block at once (bc_aes_x86_xts16), otherwise
 * the first tweak T = E_K2(iv) and the rest from it. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void vaes_xts(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv,
                                                const uint8_t *src, uint8_t *dst, size_t len, const int enc,
                                                const unsigned nr)
{
	const uint8_t (*rk)[16] = enc ? c->k1.enc.rk : c->k1.dk;
	const uint8_t (*k2)[16] = c->k2.rk;

	if (len == 16)
		bc_aes_x86_xts16(k2, rk, nr, enc, iv, src, dst);
	else
		vaes_xts_from(rk, nr, enc, _mm_aesenclast_si128(bc_aes_x86_xts_t_open(k2, nr, iv), bc_aes_x86_rk(k2, nr)),
		              src, dst, len);
}

BC_X86_VAES_VPCLMUL int bc_aes_vaes_xts_crypt(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv,
                                               const uint8_t *src, uint8_t *dst, size_t len, int enc)
{
	switch (2 * c->k1.enc.rounds + (unsigned)enc) {
	case 20: vaes_xts(c, iv, src, dst, len, 0, 10); break;
	case 21: vaes_xts(c, iv, src, dst, len, 1, 10); break;
	case 24: vaes_xts(c, iv, src, dst, len, 0, 12); break;
	case 25: vaes_xts(c, iv, src, dst, len, 1, 12); break;
	case 28: vaes_xts(c, iv, src, dst, len, 0, 14); break;
	default: vaes_xts(c, iv, src, dst, len, 1, 14); break;
	}
	return 0;
}

static int vaes_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_aes_vaes_xts_crypt(ctx, iv, src, dst, len, 1);
}

static int vaes_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	return bc_aes_vaes_xts_crypt(ctx, iv, src, dst, len, 0);
}

/* ---- driver tables ----------------------------------------------------------------------- */

const struct bc_skcipher_alg bc_ecb_aes_vaes_avx2 = {
	.name = "ecb(aes)", .driver = "ecb-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = vaes_ecb_encrypt, .decrypt = vaes_ecb_decrypt,
};

const struct bc_skcipher_alg bc_cbc_aes_vaes_avx2 = {
	.name = "cbc(aes)", .driver = "cbc-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = bc_aes_x86_cbc_encrypt, .decrypt = vaes_cbc_decrypt,
};

const struct bc_skcipher_alg bc_ctr_aes_vaes_avx2 = {
	.name = "ctr(aes)", .driver = "ctr-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = vaes_ctr_crypt, .decrypt = vaes_ctr_crypt,
};

const struct bc_skcipher_alg bc_xctr_aes_vaes_avx2 = {
	.name = "xctr(aes)", .driver = "xctr-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_AESNI,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = vaes_xctr_crypt, .decrypt = vaes_xctr_crypt,
};

const struct bc_skcipher_alg bc_xts_aes_vaes_avx2 = {
	.name = "xts(aes)", .driver = "xts-aes-vaes-avx2", .priority = 500,
	.cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_VPCLMUL | BC_CPU_AESNI,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_xts_ctx), .setkey = bc_aes_x86_xts_setkey,
	.encrypt = vaes_xts_encrypt, .decrypt = vaes_xts_decrypt,
};

#endif
