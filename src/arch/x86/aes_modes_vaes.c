/* blockcrypt x86-64: ecb, cbc, ctr and xts over AES with VAES+AVX2, sixteen blocks in flight (ecb-aes-vaes-avx2, ...).
 * NIST SP 800-38A (ECB, CBC, CTR), IEEE 1619-2018 / NIST SP 800-38E (XTS with ciphertext stealing). */
#include "aes_x86.h"
#include "drivers.h"

/* x86-64 only: with eight ymm registers i386 could not keep sixteen blocks,
 * their tweaks and a round key in flight, so it keeps the AES-NI drivers. */
#if defined(__x86_64__)

/* Each loop here takes 16 blocks (8 ymm registers of two blocks) at a time
 * and hands what is left, fewer than 16 blocks plus any partial block, to
 * the AES-NI code, which does it eight blocks at a time. */
#define VAES_BATCH 256

/* ---- ecb ----------------------------------------------------------------------------- */

static BC_X86_VAES void vaes_ecb_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;
	__m256i x[8];

	(void)iv;
	for (; len >= VAES_BATCH; len -= VAES_BATCH, src += VAES_BATCH, dst += VAES_BATCH) {
		bc_aes_x86_load256_n(x, src, 8);
		bc_aes_x86_enc_256(&k->enc, x, 8);
		bc_aes_x86_store256_n(dst, x, 8);
	}
	bc_aes_x86_ecb_enc(&k->enc, dst, src, len / 16);
}

static BC_X86_VAES void vaes_ecb_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;
	__m256i x[8];

	(void)iv;
	for (; len >= VAES_BATCH; len -= VAES_BATCH, src += VAES_BATCH, dst += VAES_BATCH) {
		bc_aes_x86_load256_n(x, src, 8);
		bc_aes_x86_dec_256(k, x, 8);
		bc_aes_x86_store256_n(dst, x, 8);
	}
	bc_aes_x86_ecb_dec(k, dst, src, len / 16);
}

/* ---- cbc ----------------------------------------------------------------------------- */

static void vaes_cbc_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;

	bc_aes_x86_cbc_chain(&k->enc, iv, src, dst, len / 16);
}

/* Register i decrypts blocks 2i, 2i+1 and XORs with ciphertext blocks
 * 2i-1, 2i: one unaligned load straddling them, except for i = 0 whose low
 * half is the chaining value; that XOR is folded into the last round's key.
 * For dst == src, each such load happens before the store that would
 * overwrite its lower half, and the batch's last ciphertext block is kept
 * before any store. */
BC_X86_INLINE BC_X86_VAES void vaes_cbc_dec(const struct bc_aes_x86_key *k, uint8_t iv[16], const uint8_t *src,
                                            uint8_t *dst, size_t len, const unsigned nr)
{
	const uint8_t (*rk)[16] = k->dk;
	__m128i prev = bc_aes_x86_load(iv), last;
	__m256i x[8], p, q;
	unsigned i;

	for (; len >= VAES_BATCH; len -= VAES_BATCH, src += VAES_BATCH, dst += VAES_BATCH) {
		BC_X86_OPAQUE(rk);
		_Pragma("GCC unroll 8")
		for (i = 0; i < 8; i++)
			x[i] = _mm256_xor_si256(bc_aes_x86_load256(src + 32 * i), bc_aes_x86_rk256(rk, 0));
		last = bc_aes_x86_load(src + VAES_BATCH - 16);
		p = _mm256_inserti128_si256(_mm256_castsi128_si256(prev), bc_aes_x86_load(src), 1);
		bc_aes_x86_mid_256(rk, nr, x, 8, 0);
		_Pragma("GCC unroll 8")
		for (i = 0; i < 8; i++) {
			q = i < 7 ? bc_aes_x86_load256(src + 32 * i + 16) : p;
			bc_aes_x86_store256(dst + 32 * i,
			                    _mm256_aesdeclast_epi128(x[i], _mm256_xor_si256(p, bc_aes_x86_rk256(rk, nr))));
			p = q;
		}
		prev = last;
	}
	bc_aes_x86_store(iv, prev);
	bc_aes_x86_cbc_dec(k, iv, src, dst, len / 16);
}

static BC_X86_VAES void vaes_cbc_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_key *k = ctx;

	switch (k->enc.rounds) {
	case 10: vaes_cbc_dec(k, iv, src, dst, len, 10); break;
	case 12: vaes_cbc_dec(k, iv, src, dst, len, 12); break;
	default: vaes_cbc_dec(k, iv, src, dst, len, 14); break;
	}
}

/* ---- ctr ----------------------------------------------------------------------------- */

/* Sixteen counter blocks (hi:lo) + 0..15, two per register. The counter is
 * public; the branch only decides whether the low 64 bits wrap in the batch. */
BC_X86_INLINE BC_X86_VAES void vaes_ctr_blocks(__m256i x[8], uint64_t hi, uint64_t lo)
{
	unsigned i;

	if (lo <= UINT64_MAX - 15) {
		__m256i v = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);
		__m256i two = _mm256_set_epi64x(0, 2, 0, 2), bswap = bc_x86_bswap256_mask();
		_Pragma("GCC unroll 8")
		for (i = 0; i < 8; i++) {
			x[i] = _mm256_shuffle_epi8(v, bswap);
			v = _mm256_add_epi64(v, two);
		}
	} else {
		for (i = 0; i < 8; i++)
			x[i] = _mm256_set_m128i(bc_x86_ctr_block(hi, lo, 2 * i + 1), bc_x86_ctr_block(hi, lo, 2 * i));
	}
}

static BC_X86_VAES void vaes_ctr_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	const struct bc_aes_x86_ek *k = ctx;
	__m256i x[8];
	uint64_t hi, lo;
	unsigned i;

	if (len >= VAES_BATCH) {
		bc_x86_ctr_load(iv, &hi, &lo);
		for (; len >= VAES_BATCH; len -= VAES_BATCH, src += VAES_BATCH, dst += VAES_BATCH) {
			vaes_ctr_blocks(x, hi, lo);
			bc_aes_x86_enc_256(k, x, 8);
			_Pragma("GCC unroll 8")
			for (i = 0; i < 8; i++)
				x[i] = _mm256_xor_si256(x[i], bc_aes_x86_load256(src + 32 * i));
			bc_aes_x86_store256_n(dst, x, 8);
			lo += 16;
			hi += lo < 16;
		}
		bc_x86_ctr_store(iv, hi, lo, 0);
	}
	bc_aes_x86_ctr(k, iv, src, dst, len);
}

/* ---- xts ----------------------------------------------------------------------------- */

/* Register i holds the tweaks of blocks 2i and 2i+1 of a batch; a batch
 * later each lane has moved on by 16 blocks: one multiplication by x^16 per
 * lane, no chain between registers.
 *
 * Sixteen blocks in flight fill all sixteen ymm registers with the state
 * and the tweaks, which would leave the compiler to spill whatever it likes
 * (tweaks XORed with round keys included) to stack slots nobody wipes. So
 * the tweaks live in an explicit buffer the function wipes: tw[i] the raw
 * tweak (for the next step), tw[8 + i] the tweak XORed with the last round
 * key, which AESENCLAST/AESDECLAST then takes straight from memory (the
 * output whitening for free). The first round key is XORed in on the way
 * in the same way. The buffer pointer is made opaque between the writes and
 * the reads so the compiler must keep them in memory. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL __m256i vaes_xts_next(__m256i *tw, const uint8_t *src, const uint8_t (*rk)[16],
                                                        const unsigned nr, __m256i poly)
{
	__m256i t = bc_x86_xts_mul_x16_256(_mm256_load_si256(tw), poly);

	_mm256_store_si256(tw, t);
	_mm256_store_si256(tw + 8, _mm256_xor_si256(t, bc_aes_x86_rk256(rk, nr)));
	return _mm256_xor_si256(bc_aes_x86_load256(src), _mm256_xor_si256(t, bc_aes_x86_rk256(rk, 0)));
}

/* Whole batches here (len >= VAES_BATCH + 16, so at least one), with a
 * whole block always left for the AES-NI code
 * (the rest of the blocks and the ciphertext stealing) to start from the
 * tweak that comes next. The loop is software-pipelined: each register's
 * last round and store sit next to its loads and whitening for the next
 * batch, so the AES units see the next batch before this one drains. */
BC_X86_INLINE BC_X86_VAES_VPCLMUL void vaes_xts(const struct bc_aes_x86_xts_ctx *c, __m128i t, const uint8_t *src,
                                                uint8_t *dst, size_t len, int enc, const unsigned nr)
{
	const __m256i poly = bc_x86_xts_poly256();
	const uint8_t (*rk)[16] = enc ? c->k1.enc.rk : c->k1.dk;
	__m256i buf[16];
	__m256i *tw = buf, x[8], s;
	unsigned i;
	size_t batches = (len - 16) / VAES_BATCH;
	uint8_t next[16];

	/* The first batch's tweaks and whitening; each later batch gets
	 * its own from vaes_xts_next while the one before finishes. */
	s = _mm256_set_m128i(bc_x86_xts_mul_x(t, bc_x86_xts_mask()), t);
	_Pragma("GCC unroll 8")
	for (i = 0; i < 8; i++) {
		__m256i ti = i ? bc_x86_xts_mul_xk_256(s, 2 * i, poly) : s;

		_mm256_store_si256(tw + i, ti);
		_mm256_store_si256(tw + 8 + i, _mm256_xor_si256(ti, bc_aes_x86_rk256(rk, nr)));
		x[i] = _mm256_xor_si256(bc_aes_x86_load256(src + 32 * i), _mm256_xor_si256(ti, bc_aes_x86_rk256(rk, 0)));
	}
	for (;;) {
		BC_X86_OPAQUE(rk);
		BC_X86_OPAQUE(tw);
		bc_aes_x86_mid_256(rk, nr, x, 8, enc);
		src += VAES_BATCH;
		len -= VAES_BATCH;
		batches--;
		_Pragma("GCC unroll 8")
		for (i = 0; i < 8; i++) {
			x[i] = enc ? _mm256_aesenclast_epi128(x[i], _mm256_load_si256(tw + 8 + i))
			           : _mm256_aesdeclast_epi128(x[i], _mm256_load_si256(tw + 8 + i));
			bc_aes_x86_store256(dst + 32 * i, x[i]);
			if (batches)
				x[i] = vaes_xts_next(tw + i, src + 32 * i, rk, nr, poly);
		}
		dst += VAES_BATCH;
		if (!batches)
			break;
	}
	t = _mm256_castsi256_si128(bc_x86_xts_mul_x16_256(_mm256_load_si256(tw), poly));
	bc_x86_wipe256(buf, 16);
	bc_aes_x86_store(next, t);
	if (enc)
		bc_aes_x86_xts_enc_from(c, next, src, dst, len);
	else
		bc_aes_x86_xts_dec_from(c, next, src, dst, len);
	bc_wipe(next, sizeof(next));
}

static BC_X86_VAES_VPCLMUL void vaes_xts_bulk(const struct bc_aes_x86_xts_ctx *c, const uint8_t *iv,
                                              const uint8_t *src, uint8_t *dst, size_t len, int enc)
{
	__m128i t = bc_aes_x86_enc1(&c->k2, bc_aes_x86_load(iv));

	switch (c->k1.enc.rounds) {
	case 10: vaes_xts(c, t, src, dst, len, enc, 10); break;
	case 12: vaes_xts(c, t, src, dst, len, enc, 12); break;
	default: vaes_xts(c, t, src, dst, len, enc, 14); break;
	}
}

/* Below one batch plus a block there is nothing for VAES to do: straight to
 * the AES-NI code, with no 256-bit state touched on the way (a short
 * message's cost is its two dependent AES latencies, nothing more). */
static void vaes_xts_encrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (len < VAES_BATCH + 16)
		bc_aes_x86_xts_encrypt(ctx, iv, src, dst, len);
	else
		vaes_xts_bulk(ctx, iv, src, dst, len, 1);
}

static void vaes_xts_decrypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (len < VAES_BATCH + 16)
		bc_aes_x86_xts_decrypt(ctx, iv, src, dst, len);
	else
		vaes_xts_bulk(ctx, iv, src, dst, len, 0);
}

/* ---- driver tables ----------------------------------------------------------------------- */

const struct bc_skcipher_alg bc_ecb_aes_vaes_avx2 = {
	.name = "ecb(aes)", .driver = "ecb-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 0, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = vaes_ecb_encrypt, .decrypt = vaes_ecb_decrypt,
};

const struct bc_skcipher_alg bc_cbc_aes_vaes_avx2 = {
	.name = "cbc(aes)", .driver = "cbc-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 16, .min_len = 0, .len_align = 16,
	.ctxsize = sizeof(struct bc_aes_x86_key), .setkey = bc_aes_x86_setkey,
	.encrypt = vaes_cbc_encrypt, .decrypt = vaes_cbc_decrypt,
};

const struct bc_skcipher_alg bc_ctr_aes_vaes_avx2 = {
	.name = "ctr(aes)", .driver = "ctr-aes-vaes-avx2", .priority = 500, .cpu = BC_CPU_VAES | BC_CPU_AVX2,
	.min_keysize = 16, .max_keysize = 32, .ivsize = 16, .blocksize = 1, .min_len = 0, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_ek), .setkey = bc_aes_x86_ctr_setkey,
	.encrypt = vaes_ctr_crypt, .decrypt = vaes_ctr_crypt,
};

const struct bc_skcipher_alg bc_xts_aes_vaes_avx2 = {
	.name = "xts(aes)", .driver = "xts-aes-vaes-avx2", .priority = 500,
	.cpu = BC_CPU_VAES | BC_CPU_AVX2 | BC_CPU_VPCLMUL,
	.min_keysize = 32, .max_keysize = 64, .ivsize = 16, .blocksize = 16, .min_len = 16, .len_align = 1,
	.ctxsize = sizeof(struct bc_aes_x86_xts_ctx), .setkey = bc_aes_x86_xts_setkey,
	.encrypt = vaes_xts_encrypt, .decrypt = vaes_xts_decrypt,
};

#endif
