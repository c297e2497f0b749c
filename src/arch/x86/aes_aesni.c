/* blockcrypt x86: the aes-aesni block cipher (key expansion, n-block encrypt/decrypt, CBC-MAC chains) with AES-NI.
 * FIPS-197 (AES key expansion 5.2, equivalent inverse cipher 5.3.5); CBC-MAC as in NIST SP 800-38B. */
#include "aes_x86.h"
#include "drivers.h"

/* FIPS-197 KeyExpansion one word at a time. AESKEYGENASSIST on a broadcast
 * word yields SubWord (lane 0) and RotWord+SubWord (lane 1) without a table,
 * so the schedule is constant-time; the loop indices alone pick the steps. */
BC_X86_AES void bc_aes_x86_expand_enc(struct bc_aes_x86_ek *ek, const uint8_t *key, size_t keylen)
{
	static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };
	unsigned nk = (unsigned)keylen / 4, nr = nk + 6, total = 4 * (nr + 1), i;
	uint32_t w[60];

	for (i = 0; i < nk; i++)
		w[i] = bc_load_le32(key + 4 * i);
	for (i = nk; i < total; i++) {
		uint32_t t = w[i - 1];
		if (i % nk == 0 || (nk == 8 && i % nk == 4)) {
			__m128i g = _mm_aeskeygenassist_si128(_mm_set1_epi32((int)t), 0);
			if (i % nk == 0)
				t = (uint32_t)_mm_extract_epi32(g, 1) ^ rcon[i / nk - 1];
			else
				t = (uint32_t)_mm_cvtsi128_si32(g);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i < total; i++)
		bc_store_le32(ek->rk[i / 4] + 4 * (i % 4), w[i]);
	ek->rounds = nr;
	bc_wipe(w, sizeof(w));
}

/* The decryption keys by AESIMC, an instruction: no table either. */
BC_X86_AES void bc_aes_x86_expand(struct bc_aes_x86_key *k, const uint8_t *key, size_t keylen)
{
	unsigned nr, i;

	bc_aes_x86_expand_enc(&k->enc, key, keylen);
	nr = k->enc.rounds;
	_mm_store_si128((__m128i *)k->dk[0], bc_aes_x86_rk(k->enc.rk, nr));
	for (i = 1; i < nr; i++)
		_mm_store_si128((__m128i *)k->dk[i], _mm_aesimc_si128(bc_aes_x86_rk(k->enc.rk, nr - i)));
	_mm_store_si128((__m128i *)k->dk[nr], bc_aes_x86_rk(k->enc.rk, 0));
}

static int aesni_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return bc_aes_x86_setkey(ctx, key, keylen, 0);
}

/* n blocks with the nr + 1 round keys rk (enc: the encryption keys, else
 * the decryption keys dk); nr and n constants, so that everything unrolls. */
BC_X86_INLINE BC_X86_AES void aesni_ecb_blocks(const uint8_t (*rk)[16], const unsigned nr, const int enc,
                                               uint8_t *dst, const uint8_t *src, const unsigned n)
{
	__m128i x[8];

	bc_aes_x86_load_n(x, src, n);
	_Pragma("GCC unroll 8")
	for (unsigned i = 0; i < n; i++) {
		x[i] = bc_aes_x86_mid1(rk, nr, enc, _mm_xor_si128(x[i], bc_aes_x86_rk(rk, 0)));
		x[i] = enc ? _mm_aesenclast_si128(x[i], bc_aes_x86_rk(rk, nr)) : _mm_aesdeclast_si128(x[i], bc_aes_x86_rk(rk, nr));
	}
	bc_aes_x86_store_n(dst, x, n);
}

BC_X86_INLINE BC_X86_AES void aesni_ecb_nr(const uint8_t (*rk)[16], const unsigned nr, const int enc, uint8_t *dst,
                                           const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128)
		aesni_ecb_blocks(rk, nr, enc, dst, src, 8);
#define TAIL(N) aesni_ecb_blocks(rk, nr, enc, dst, src, N)
	BC_X86_CASES_1_8(nblocks, TAIL);
#undef TAIL
}

/* The round count picked once per call, so that a short message (one
 * block: a few nanoseconds) runs straight-line code with no loop over the
 * rounds: that loop's counter, compare and branch were most of its cost. */
BC_X86_INLINE BC_X86_AES void aesni_ecb(unsigned rounds, const uint8_t (*rk)[16], uint8_t *dst, const uint8_t *src,
                                        size_t nblocks, int enc)
{
	switch (rounds) {
	case 10: aesni_ecb_nr(rk, 10, enc, dst, src, nblocks); break;
	case 12: aesni_ecb_nr(rk, 12, enc, dst, src, nblocks); break;
	default: aesni_ecb_nr(rk, 14, enc, dst, src, nblocks); break;
	}
}

BC_X86_AES int bc_aes_x86_ecb_enc(const struct bc_aes_x86_ek *k, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	aesni_ecb(k->rounds, k->rk, dst, src, nblocks, 1);
	return 0;
}

BC_X86_AES int bc_aes_x86_ecb_dec(const struct bc_aes_x86_key *k, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	aesni_ecb(k->enc.rounds, k->dk, dst, src, nblocks, 0);
	return 0;
}

static void aesni_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	const struct bc_aes_x86_key *k = ctx;

	bc_aes_x86_ecb_enc(&k->enc, dst, src, nblocks);
}

static void aesni_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
	bc_aes_x86_ecb_dec(ctx, dst, src, nblocks);
}

/* n CBC chains of nblocks (>= 1) each, with nr and n constants so that
 * everything unrolls; dst (one chain only, else NULL) receives every state.
 * The chain is pure AES latency: the first round-key XOR of each next block
 * is folded into the previous AESENCLAST, whose key becomes
 * rk[Nr] ^ rk[0] ^ block, computed off the chain; so a block costs exactly
 * Nr dependent AES instructions, and the state itself is recovered off the
 * chain as that output ^ rk[0] ^ block. Independent chains fill the pipeline. */
BC_X86_INLINE BC_X86_AES void aesni_chains(const struct bc_aes_x86_ek *k, const unsigned nr, const unsigned n,
                                           uint8_t (*st)[16], const uint8_t *const src[], uint8_t *dst,
                                           size_t nblocks)
{
	const uint8_t (*rk)[16] = k->rk;
	const uint8_t *p[8];
	__m128i s[8], m[8];
	unsigned i, r;

	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++) {
		p[i] = src[i];
		s[i] = _mm_xor_si128(_mm_xor_si128(bc_aes_x86_load(st[i]), bc_aes_x86_load(p[i])), bc_aes_x86_rk(rk, 0));
	}
	for (;;) {
		BC_X86_OPAQUE(rk);
		_Pragma("GCC unroll 14")
		for (r = 1; r < nr; r++) {
			_Pragma("GCC unroll 8")
			for (i = 0; i < n; i++)
				s[i] = _mm_aesenc_si128(s[i], bc_aes_x86_rk(rk, r));
		}
		if (--nblocks == 0)
			break;
		_Pragma("GCC unroll 8")
		for (i = 0; i < n; i++) {
			p[i] += 16;
			m[i] = _mm_xor_si128(bc_aes_x86_load(p[i]), bc_aes_x86_rk(rk, 0));
			s[i] = _mm_aesenclast_si128(s[i], _mm_xor_si128(m[i], bc_aes_x86_rk(rk, nr)));
		}
		if (dst) {
			bc_aes_x86_store(dst, _mm_xor_si128(s[0], m[0]));
			dst += 16;
		}
	}
	_Pragma("GCC unroll 8")
	for (i = 0; i < n; i++) {
		s[i] = _mm_aesenclast_si128(s[i], bc_aes_x86_rk(rk, nr));
		bc_aes_x86_store(st[i], s[i]);
	}
	if (dst)
		bc_aes_x86_store(dst, s[0]);
}

#define AESNI_CHAINS(k, n, st, src, dst, nblocks) do {                               \
		switch ((k)->rounds) {                                                \
		case 10: aesni_chains(k, 10, n, st, src, dst, nblocks); break;       \
		case 12: aesni_chains(k, 12, n, st, src, dst, nblocks); break;       \
		default: aesni_chains(k, 14, n, st, src, dst, nblocks); break;       \
		}                                                                     \
	} while (0)

BC_X86_AES int bc_aes_x86_cbc_chain(const struct bc_aes_x86_ek *k, uint8_t st[16], const uint8_t *src, uint8_t *dst,
                                     size_t nblocks)
{
	uint8_t (*sts)[16] = (uint8_t (*)[16])st;
	const uint8_t *const srcs[1] = { src };

	if (nblocks)
		AESNI_CHAINS(k, 1, sts, srcs, dst, nblocks);
	return 0;
}

static void aesni_mac(const void *ctx, uint8_t st[16], const uint8_t *src, size_t nblocks)
{
	const struct bc_aes_x86_key *k = ctx;

	bc_aes_x86_cbc_chain(&k->enc, st, src, NULL, nblocks);
}

static BC_X86_AES void aesni_mac_many(const void *ctx, unsigned n, uint8_t (*st)[16], const uint8_t *const src[],
                                      size_t nblocks)
{
	const struct bc_aes_x86_ek *k = &((const struct bc_aes_x86_key *)ctx)->enc;

	if (!nblocks)
		return;
#define MANY(N) AESNI_CHAINS(k, N, st, src, NULL, nblocks)
	BC_X86_CASES_1_8(n, MANY);
#undef MANY
}

const struct bc_cipher_alg bc_aes_aesni = {
	.name = "aes",
	.driver = "aes-aesni",
	.priority = 300,
	.cpu = BC_CPU_AESNI,
	.min_keysize = 16,
	.max_keysize = 32,
	.ctxsize = sizeof(struct bc_aes_x86_key),
	.setkey = aesni_setkey,
	.encrypt = aesni_encrypt,
	.decrypt = aesni_decrypt,
	.mac = aesni_mac,
	.mac_many = aesni_mac_many,
};
