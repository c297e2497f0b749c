/* blockcrypt: what the generic mode templates share, and how the registry builds instances of them.
 * Templates follow the Linux crypto API's (crypto/ecb.c, cbc.c, ctr.c, cts.c, xts.c, essiv.c, gcm.c, cmac.c). */
#ifndef BC_MODE_H
#define BC_MODE_H

#include "internal.h"

/* Largest stack chunk a template hands to its inner driver in one call: big
 * enough that a bitsliced or multi-block driver runs at full width, small
 * enough for any thread's stack. */
#define BC_CHUNK_BLOCKS 32
/* The same for an 8-byte block cipher: 256 blocks (2 KiB), a pass of the
 * widest bitsliced DES driver. */
#define BC_CHUNK8_BLOCKS 256
#define BC_CHUNK_BYTES_MAX (BC_CHUNK8_BLOCKS * 8)

/* Template contexts start with a small header (the inner algorithms) and
 * place each inner context at the next BC_CTX_ALIGN boundary. */
static inline size_t bc_ctx_round(size_t n)
{
	return (n + BC_CTX_ALIGN - 1) & ~(size_t)(BC_CTX_ALIGN - 1);
}
static inline void *bc_ctx_at(const void *ctx, size_t off)
{
	return (uint8_t *)(uintptr_t)ctx + off;
}

/* A template: its name and how to finish an instance. The registry resolves
 * the inner algorithms, stores them in the instance (cipher/inner/hash fields)
 * and sets name, driver, priority and cpu; fill sets the operations and sizes. */
enum bc_tmpl_args {
	BC_ARGS_CIPHER,     /* ecb(X), cbc(X), ctr(X), cmac(X), xcbc(X), cbcmac(X): over a cipher */
	BC_ARGS_SKCIPHER,   /* cts(cbc(X)), rfc3686(ctr(X)): over a skcipher of the template .over */
	BC_ARGS_ECB,        /* xts(X), lrw(X): over the ecb(X) skcipher */
	BC_ARGS_ESSIV,      /* essiv(cbc(X),H): over a cbc skcipher, a hash and the cipher X */
	BC_ARGS_GCM,        /* gcm(X) = gcm_base(ctr(X),ghash) */
	BC_ARGS_SHASH,      /* hmac(H): over an unkeyed shash */
	BC_ARGS_AEAD,       /* rfc4106(gcm(X)), rfc4543(gcm(X)), rfc4309(ccm(X)): over an aead of the template .over */
	BC_ARGS_AUTHENC,    /* authenc(M,E), authencesn(M,E): over a MAC (a shash that takes any key length)
	                     * and a skcipher; instance priority 10 * E's + M's, as the kernel's */
	BC_ARGS_CCM,        /* ccm(X) = ccm_base(ctr(X),cbcmac(X)) */
	BC_ARGS_HCTR2,      /* hctr2(X) = hctr2_base(xctr(X),polyval), with the cipher X under the xctr */
	BC_ARGS_CHACHAPOLY, /* rfc7539(chacha20,poly1305), rfc7539esp(...): over a chacha20 skcipher; Poly1305 is
	                     * the library's own (driver poly1305-generic), not a registry entry */
	BC_ARGS_ADIANTUM,   /* adiantum(S,X) = adiantum(S,X,nhpoly1305): over an xchacha skcipher S, a cipher X taking
	                     * 32-byte keys and nhpoly1305; by driver names all three */
};

struct bc_template {
	const char *name;           /* as in algorithm names: "cbc", "xts", "gcm" */
	const char *driver_name;    /* as in driver names: "gcm_base" for gcm, else name */
	enum bc_type type;
	enum bc_tmpl_args args;
	const char *over;           /* BC_ARGS_SKCIPHER, BC_ARGS_AEAD: the inner algorithm's template ("cbc" for cts) */
	void (*fill_skcipher)(struct bc_skcipher_alg *alg);
	void (*fill_aead)(struct bc_aead_alg *alg);
	void (*fill_shash)(struct bc_shash_alg *alg);
	/* Builds over an 8-byte block cipher too (ecb, cbc, ctr, cmac, cbcmac);
	 * otherwise only over a 16-byte one, as the kernel's xts, gcm and xcbc. */
	unsigned any_block;
};

extern const struct bc_template bc_tmpl_ecb, bc_tmpl_cbc, bc_tmpl_ctr, bc_tmpl_cts, bc_tmpl_xts,
	bc_tmpl_essiv, bc_tmpl_gcm, bc_tmpl_cmac, bc_tmpl_xcbc, bc_tmpl_cbcmac;
/* Templates that compose whole algorithms (hmac.c, rfc_wrap.c, authenc.c). */
extern const struct bc_template bc_tmpl_hmac, bc_tmpl_rfc3686, bc_tmpl_rfc4106, bc_tmpl_rfc4543, bc_tmpl_rfc4309,
	bc_tmpl_authenc, bc_tmpl_authencesn;
extern const struct bc_template bc_tmpl_ccm;
extern const struct bc_template bc_tmpl_lrw;
extern const struct bc_template bc_tmpl_xctr, bc_tmpl_hctr2;
extern const struct bc_template bc_tmpl_rfc7539, bc_tmpl_rfc7539esp;
extern const struct bc_template bc_tmpl_adiantum;

/* The ctr mode's counter step (128-bit big-endian increment), shared with gcm. */
void bc_ctr_add(uint8_t ctr[16], uint64_t n);

/* ---- templates over one block cipher: header + cipher context ---- */
struct bc_cipher_tctx {
	const struct bc_cipher_alg *cipher;
};
#define BC_CIPHER_TCTX_OFF bc_ctx_round(sizeof(struct bc_cipher_tctx))
static inline void *bc_tctx_cipher(const void *ctx)
{
	return bc_ctx_at(ctx, BC_CIPHER_TCTX_OFF);
}
/* Nested templates (cts over cbc(...), xts over ecb(...)) initialise the
 * inner context they embed, just as the API does for the outer one. */
static inline void bc_init_inner(const struct bc_skcipher_alg *inner, void *ctx)
{
	if (inner->init)
		inner->init(ctx, inner);
}

/* Sets what ecb, cbc and ctr share: key sizes, context size, init and setkey. */
void bc_fill_skcipher_over_cipher(struct bc_skcipher_alg *alg);

/* ---- counter modes over a bc_cipher_tctx (ctr.c, xctr.c) ----
 * Counter blocks for a whole chunk are made first by blocks (first: the
 * index of the chunk's first block in this call), encrypted in one call,
 * then XORed in. Inlined into each mode, so blocks is a direct call. */
typedef void bc_ctrblk_fn(uint8_t *ks, uint8_t *iv, uint64_t first, size_t nb, size_t bs);

static inline int bc_keystream_crypt(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len,
				     size_t bs, bc_ctrblk_fn *blocks)
{
	const struct bc_cipher_tctx *t = ctx;
	const void *c = bc_tctx_cipher(ctx);
	uint8_t ks[BC_CHUNK_BYTES_MAX];
	const size_t chunk = bs == 8 ? BC_CHUNK8_BLOCKS * 8 : BC_CHUNK_BLOCKS * BC_BLOCK;
	uint64_t first = 0;

	while (len) {
		size_t n = len < chunk ? len : chunk;
		size_t nb = (n + bs - 1) / bs;

		blocks(ks, iv, first, nb, bs);
		t->cipher->encrypt(c, ks, ks, nb);
		bc_xor(dst, src, ks, n);
		first += nb;
		src += n;
		dst += n;
		len -= n;
	}
	bc_wipe(ks, chunk);
	return 0;
}

/* ---- cmac, xcbc, cbcmac (mac.c): the templates' operations, which the
 * dedicated MAC drivers of accelerated ciphers (src/arch/) reuse with their
 * own .cipher, so the buffering and the final block exist once. The context
 * is a BC_MAC_HDR-byte header (cipher, final masks) then the cipher's. */
#define BC_MAC_HDR 64
#define BC_MAC_DESCSIZE (2 * BC_BLOCK + 2 * sizeof(size_t))
void bc_mac_init_tfm(void *ctx, const struct bc_shash_alg *self);
int  bc_cmac_setkey(void *ctx, const uint8_t *key, size_t keylen);
int  bc_xcbc_setkey(void *ctx, const uint8_t *key, size_t keylen);
int  bc_cbcmac_setkey(void *ctx, const uint8_t *key, size_t keylen);
void bc_mac_init(const void *ctx, void *desc);
void bc_mac_update(const void *ctx, void *desc, const uint8_t *data, size_t len);
void bc_mac_final(const void *ctx, void *desc, uint8_t *out);
void bc_mac_digest_many(const void *ctx, unsigned n, const uint8_t *const msgs[], const size_t lens[],
			uint8_t *const outs[]);


/* ---- ccm (ccm.c): the rules and block formats the template and the fused
 * drivers share. */
#define BC_CCM_HDR_MAX 10   /* longest encoding of the AD length: 0xffff and 8 bytes */
int bc_ccm_setauthsize(size_t taglen);
int bc_ccm_check(const struct bc_aead_alg *self, const uint8_t *iv, size_t ivlen, size_t adlen, size_t len);
size_t bc_ccm_format(const uint8_t iv[16], size_t adlen, size_t len, size_t taglen, uint8_t b0[16],
		     uint8_t a0[16], uint8_t hdr[BC_CCM_HDR_MAX]);

#endif
