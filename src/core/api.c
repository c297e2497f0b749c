/* blockcrypt: the public API: allocation through the registry, argument checks, then straight into the driver.
 * Semantics of the Linux crypto API (skcipher, aead, shash); errors are negative errno values. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* Contexts are aligned for the widest vector loads a driver makes, and
 * zeroed so that an init op sees a clean slate. */
void *bc_ctx_alloc(size_t size)
{
	size_t n = (size + BC_CTX_ALIGN - 1) / BC_CTX_ALIGN * BC_CTX_ALIGN;
	void *p = aligned_alloc(BC_CTX_ALIGN, n ? n : BC_CTX_ALIGN);

	if (p)
		memset(p, 0, n ? n : BC_CTX_ALIGN);
	return p;
}

void bc_ctx_free(void *p, size_t size)
{
	if (p) {
		bc_wipe(p, size);
		free(p);
	}
}

/* Memory for a tfm of tfmsize bytes and for its driver's context, both
 * zeroed and aligned: 0, or -ENOMEM with nothing kept. */
static int tfm_new(size_t tfmsize, size_t ctxsize, void **tfm, void **ctx)
{
	*tfm = bc_ctx_alloc(tfmsize);
	*ctx = *tfm ? bc_ctx_alloc(ctxsize) : NULL;
	if (!*ctx) {
		free(*tfm);
		*tfm = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ---- skcipher ---------------------------------------------------------------- */
/* What an operation reads comes first, copied out of the driver table at
 * allocation: no pointer chase to the table on the way to the driver. */
struct bc_skcipher {
	int (*encrypt)(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
	int (*decrypt)(const void *ctx, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len);
	void *ctx;
	/* The length rule, two tests (sk_ready): len & len_mask == 0 and
	 * len >= min_len. Both SIZE_MAX until a key is set, which no length
	 * passes: min_len == SIZE_MAX is also what "no key" means. */
	size_t len_mask, min_len;
	uintptr_t no_iv;             /* 1 when the mode takes no IV (ecb): a NULL iv passes */
	unsigned flags;
	const struct bc_skcipher_alg *alg;
};

int bc_skcipher_alloc(bc_skcipher **tfm, const char *name)
{
	const struct bc_skcipher_alg *alg;
	void *t, *ctx;
	int err;

	if (!tfm)
		return -EINVAL;
	*tfm = NULL;
	alg = bc_find_skcipher(name, &err);
	if (!alg)
		return err;
	err = tfm_new(sizeof(**tfm), alg->ctxsize, &t, &ctx);
	if (err)
		return err;
	*tfm = t;
	(*tfm)->alg = alg;
	(*tfm)->ctx = ctx;
	(*tfm)->encrypt = alg->encrypt;
	(*tfm)->decrypt = alg->decrypt;
	(*tfm)->len_mask = SIZE_MAX;
	(*tfm)->min_len = SIZE_MAX;
	(*tfm)->no_iv = alg->ivsize == 0;
	if (alg->init)
		alg->init(ctx, alg);
	return 0;
}

void bc_skcipher_free(bc_skcipher *tfm)
{
	if (tfm) {
		bc_ctx_free(tfm->ctx, tfm->alg->ctxsize);
		free(tfm);
	}
}

void bc_skcipher_set_flags(bc_skcipher *tfm, unsigned flags)
{
	if (tfm)
		tfm->flags = flags;
}

int bc_skcipher_setkey(bc_skcipher *tfm, const uint8_t *key, size_t keylen)
{
	int err;

	if (!tfm || (!key && keylen))
		return -EINVAL;
	err = tfm->alg->setkey(tfm->ctx, key, keylen, tfm->flags);
	if (!err) {
		tfm->len_mask = tfm->alg->len_align - 1;
		tfm->min_len = tfm->alg->min_len;
	}
	return err;
}

/* Everything a driver may assume is checked here, once: key set, length
 * allowed by the mode, buffers present. */
static int sk_check(const bc_skcipher *tfm, const uint8_t *iv, const uint8_t *src, const uint8_t *dst, size_t len)
{
	if (!tfm)
		return -EINVAL;
	if (tfm->min_len == SIZE_MAX)
		return -ENOKEY;
	if (len < tfm->min_len || (len & tfm->len_mask) || (!tfm->no_iv && !iv) ||
	    (len && (!src || !dst)))
		return -EINVAL;
	return 0;
}

/* The common case (a key, an allowed length, every pointer present) in
 * five tests, with no pointer chase to the driver table: what a one-block
 * operation pays before its AES. Anything else takes sk_check, which also
 * lets a zero length through with NULL buffers. */
static inline int sk_ready(const bc_skcipher *tfm, const uint8_t *iv, const uint8_t *src, const uint8_t *dst,
			   size_t len)
{
	return !(len & tfm->len_mask) && len >= tfm->min_len && ((uintptr_t)iv | tfm->no_iv) && src && dst;
}

/* Everything but the common case: the full checks, then the driver. */
static __attribute__((noinline, cold)) int sk_slow(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src,
						   uint8_t *dst, size_t len, int enc)
{
	int err = sk_check(tfm, iv, src, dst, len);

	if (err)
		return err;
	return (enc ? tfm->encrypt : tfm->decrypt)(tfm->ctx, iv, src, dst, len);
}

int bc_skcipher_encrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (__builtin_expect(!tfm || !sk_ready(tfm, iv, src, dst, len), 0))
		return sk_slow(tfm, iv, src, dst, len, 1);
	return tfm->encrypt(tfm->ctx, iv, src, dst, len);
}

int bc_skcipher_decrypt(const bc_skcipher *tfm, uint8_t *iv, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (__builtin_expect(!tfm || !sk_ready(tfm, iv, src, dst, len), 0))
		return sk_slow(tfm, iv, src, dst, len, 0);
	return tfm->decrypt(tfm->ctx, iv, src, dst, len);
}

size_t bc_skcipher_ivsize(const bc_skcipher *tfm)
{
	return tfm ? tfm->alg->ivsize : 0;
}

size_t bc_skcipher_blocksize(const bc_skcipher *tfm)
{
	return tfm ? tfm->alg->blocksize : 0;
}

const char *bc_skcipher_driver(const bc_skcipher *tfm)
{
	return tfm ? tfm->alg->driver : NULL;
}

/* ---- aead ---------------------------------------------------------------------- */
struct bc_aead {
	const struct bc_aead_alg *alg;
	void *ctx;
	/* The incremental form: alg itself when it has one, else the gcm
	 * template instance over the best ctr and ghash drivers (a fused
	 * driver has no piecewise entry points), keyed alongside. */
	const struct bc_aead_alg *stream;
	void *stream_ctx;
	size_t authsize;
	int keyed;
};

/* "gcm(aes)" -> "gcm_base(<best ctr(aes) driver>,<best ghash driver>)"; NULL with *err
 * -ENOMEM if memory ran out on the way, else with *err 0 (no incremental form). */
static const struct bc_aead_alg *stream_alg(const struct bc_aead_alg *alg, int *err)
{
	const struct bc_skcipher_alg *ctr = NULL;
	const struct bc_shash_alg *ghash = NULL;
	const struct bc_aead_alg *found = NULL;
	char name[256];

	*err = 0;
	if (alg->start)
		return alg;
	if (strncmp(alg->name, "gcm(", 4))
		return NULL;
	if (snprintf(name, sizeof(name), "ctr(%s", alg->name + 4) < (int)sizeof(name))
		ctr = bc_find_skcipher(name, err);
	if (ctr)
		ghash = bc_find_shash("ghash", err);
	if (ctr && ghash && snprintf(name, sizeof(name), "gcm_base(%s,%s)", ctr->driver, ghash->driver) < (int)sizeof(name))
		found = bc_find_aead(name, err);
	if (!found && *err != -ENOMEM)
		*err = 0;
	return found;
}

int bc_aead_alloc(bc_aead **tfm, const char *name)
{
	const struct bc_aead_alg *alg;
	void *t, *ctx;
	int err;

	if (!tfm)
		return -EINVAL;
	*tfm = NULL;
	alg = bc_find_aead(name, &err);
	if (!alg)
		return err;
	err = tfm_new(sizeof(**tfm), alg->ctxsize, &t, &ctx);
	if (err)
		return err;
	*tfm = t;
	(*tfm)->alg = alg;
	(*tfm)->ctx = ctx;
	(*tfm)->authsize = alg->maxauthsize;
	if (alg->init)
		alg->init(ctx, alg);
	(*tfm)->stream = stream_alg(alg, &err);
	if (err) {
		bc_ctx_free(ctx, alg->ctxsize);
		free(t);
		*tfm = NULL;
		return err;
	}
	if ((*tfm)->stream == alg) {
		(*tfm)->stream_ctx = ctx;
	} else if ((*tfm)->stream) {
		(*tfm)->stream_ctx = bc_ctx_alloc((*tfm)->stream->ctxsize);
		if (!(*tfm)->stream_ctx) {
			bc_aead_free(*tfm);
			*tfm = NULL;
			return -ENOMEM;
		}
		(*tfm)->stream->init((*tfm)->stream_ctx, (*tfm)->stream);
	}
	return 0;
}

void bc_aead_free(bc_aead *tfm)
{
	if (tfm) {
		if (tfm->stream_ctx && tfm->stream_ctx != tfm->ctx)   /* none: an AEAD without an incremental form */
			bc_ctx_free(tfm->stream_ctx, tfm->stream->ctxsize);
		bc_ctx_free(tfm->ctx, tfm->alg->ctxsize);
		free(tfm);
	}
}

int bc_aead_setkey(bc_aead *tfm, const uint8_t *key, size_t keylen)
{
	int err;

	if (!tfm || (!key && keylen))
		return -EINVAL;
	err = tfm->alg->setkey(tfm->ctx, key, keylen);
	if (!err && tfm->stream_ctx && tfm->stream_ctx != tfm->ctx)
		err = tfm->stream->setkey(tfm->stream_ctx, key, keylen);   /* same algorithm: accepted */
	if (!err)
		tfm->keyed = 1;
	return err;
}

/* GCM tags (SP 800-38D 5.2.1.2): 128, 120, 112, 104, 96 bits, and 64 or 32
 * for the applications of its appendix C — the kernel's crypto_gcm_setauthsize set.
 * Templates with rules of their own (ccm, rfc4106, authenc) give them in setauthsize. */
int bc_aead_setauthsize(bc_aead *tfm, size_t taglen)
{
	if (!tfm || taglen > tfm->alg->maxauthsize)
		return -EINVAL;
	if (tfm->alg->setauthsize ? tfm->alg->setauthsize(taglen) != 0
				     : !(taglen == 4 || taglen == 8 || taglen >= 12))
		return -EINVAL;
	tfm->authsize = taglen;
	return 0;
}

static int aead_check(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		      const uint8_t *src, const uint8_t *dst, size_t len, const uint8_t *tag)
{
	if (!tfm)
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	if (!iv || !ivlen || (adlen && !ad) || (len && (!src || !dst)) || !tag)
		return -EINVAL;
	if (tfm->alg->check)
		return tfm->alg->check(tfm->alg, iv, ivlen, adlen, len);
	return bc_gcm_too_long(ivlen, adlen, len) ? -EINVAL : 0;
}

/* For the algorithms that read the associated data and the text as one
 * buffer (joined_ad): the caller's own when the text follows the data in
 * memory, as in an ESP packet, else a copy of both (*buf, to be freed).
 * 0, or -ENOMEM with nothing to free. */
static int aead_join(const bc_aead *tfm, const uint8_t **ad, size_t adlen, const uint8_t **src, size_t len,
		     uint8_t **buf)
{
	*buf = NULL;
	if (!tfm->alg->joined_ad || !len || (adlen && *ad + adlen == *src))
		return 0;
	*buf = malloc(adlen + len);
	if (!*buf)
		return -ENOMEM;
	if (adlen)
		memcpy(*buf, *ad, adlen);
	memcpy(*buf + adlen, *src, len);
	*ad = *buf;
	*src = *buf + adlen;
	return 0;
}

static void aead_unjoin(uint8_t *buf, size_t n)
{
	if (buf) {
		bc_wipe(buf, n);   /* the plaintext, on encryption */
		free(buf);
	}
}

int bc_aead_encrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		    const uint8_t *src, uint8_t *dst, size_t len, uint8_t *tag)
{
	int err = aead_check(tfm, iv, ivlen, ad, adlen, src, dst, len, tag);
	uint8_t *buf;

	if (!err && !(err = aead_join(tfm, &ad, adlen, &src, len, &buf))) {
		tfm->alg->encrypt(tfm->ctx, iv, ivlen, ad, adlen, src, dst, len, tag, tfm->authsize);
		aead_unjoin(buf, adlen + len);
	}
	return err;
}

int bc_aead_decrypt(const bc_aead *tfm, const uint8_t *iv, size_t ivlen, const uint8_t *ad, size_t adlen,
		    const uint8_t *src, uint8_t *dst, size_t len, const uint8_t *tag)
{
	int err = aead_check(tfm, iv, ivlen, ad, adlen, src, dst, len, tag);
	uint8_t *buf;

	if (!err && !(err = aead_join(tfm, &ad, adlen, &src, len, &buf))) {
		err = tfm->alg->decrypt(tfm->ctx, iv, ivlen, ad, adlen, src, dst, len, tag, tfm->authsize);
		aead_unjoin(buf, adlen + len);
	}
	return err;
}

/* ---- aead, incremental ------------------------------------------------------------ */
enum { REQ_IDLE, REQ_AD, REQ_TEXT };

struct bc_aead_req {
	const bc_aead *tfm;
	int state;                   /* REQ_*: what may come next */
	int enc;
	uint64_t len, adlen;
	void *st;                    /* the algorithm's state, reqsize bytes */
};

int bc_aead_req_alloc(bc_aead_req **req, const bc_aead *tfm)
{
	bc_aead_req *r;

	if (!req)
		return -EINVAL;
	*req = NULL;
	if (!tfm || !tfm->stream)
		return -EINVAL;
	r = bc_ctx_alloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->st = bc_ctx_alloc(tfm->stream->reqsize);
	if (!r->st) {
		free(r);
		return -ENOMEM;
	}
	r->tfm = tfm;
	*req = r;
	return 0;
}

void bc_aead_req_free(bc_aead_req *req)
{
	if (req) {
		bc_ctx_free(req->st, req->tfm->stream->reqsize);
		bc_ctx_free(req, sizeof(*req));
	}
}

int bc_aead_start(bc_aead_req *req, int encrypt, const uint8_t *iv, size_t ivlen)
{
	if (!req || !iv || !ivlen || bc_gcm_too_long(ivlen, 0, 0))
		return -EINVAL;
	if (!req->tfm->keyed)
		return -ENOKEY;
	req->tfm->stream->start(req->tfm->stream_ctx, req->st, iv, ivlen);
	req->state = REQ_AD;
	req->enc = !!encrypt;
	req->len = 0;
	req->adlen = 0;
	return 0;
}

int bc_aead_update_ad(bc_aead_req *req, const uint8_t *ad, size_t len)
{
	if (!req || req->state != REQ_AD || (len && !ad) || bc_gcm_too_long(0, req->adlen + len, 0) ||
	    req->adlen + len < req->adlen)
		return -EINVAL;
	if (!len)
		return 0;        /* nothing to hash; ad may be NULL, which no driver should offset */
	req->tfm->stream->ad(req->tfm->stream_ctx, req->st, ad, len);
	req->adlen += len;
	return 0;
}

int bc_aead_update(bc_aead_req *req, const uint8_t *src, uint8_t *dst, size_t len)
{
	if (!req || req->state == REQ_IDLE || (len && (!src || !dst)) || bc_gcm_too_long(0, 0, req->len + len) ||
	    req->len + len < req->len)
		return -EINVAL;
	if (!len)
		return 0;        /* no text yet: more AD may still come */
	req->tfm->stream->crypt(req->tfm->stream_ctx, req->st, src, dst, len, req->enc);
	req->len += len;
	req->state = REQ_TEXT;
	return 0;
}

int bc_aead_final(bc_aead_req *req, uint8_t *tag)
{
	uint8_t full[BC_BLOCK];

	if (!req || req->state == REQ_IDLE || !tag)
		return -EINVAL;
	req->tfm->stream->final(req->tfm->stream_ctx, req->st, full);
	memcpy(tag, full, req->tfm->authsize);
	bc_wipe(full, sizeof(full));
	req->state = REQ_IDLE;
	return 0;
}

int bc_aead_req_copy(bc_aead_req *dst, const bc_aead_req *src)
{
	if (!dst || !src || dst->tfm->stream != src->tfm->stream)
		return -EINVAL;
	memcpy(dst->st, src->st, src->tfm->stream->reqsize);
	dst->state = src->state;
	dst->enc = src->enc;
	dst->len = src->len;
	return 0;
}

size_t bc_aead_authsize(const bc_aead *tfm)
{
	return tfm ? tfm->authsize : 0;
}

const char *bc_aead_driver(const bc_aead *tfm)
{
	return tfm ? tfm->alg->driver : NULL;
}

/* ---- shash ----------------------------------------------------------------------- */
struct bc_shash {
	const struct bc_shash_alg *alg;
	void *ctx;
	int keyed;                   /* unkeyed algorithms count as keyed */
	_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];
};

int bc_shash_alloc(bc_shash **tfm, const char *name)
{
	const struct bc_shash_alg *alg;
	void *t, *ctx;
	int err;

	if (!tfm)
		return -EINVAL;
	*tfm = NULL;
	alg = bc_find_shash(name, &err);
	if (!alg)
		return err;
	err = tfm_new(sizeof(**tfm), alg->ctxsize, &t, &ctx);
	if (err)
		return err;
	*tfm = t;
	(*tfm)->alg = alg;
	(*tfm)->ctx = ctx;
	if (alg->init_tfm)
		alg->init_tfm(ctx, alg);
	(*tfm)->keyed = alg->max_keysize == 0;
	if ((*tfm)->keyed)
		alg->init(ctx, (*tfm)->desc);
	return 0;
}

void bc_shash_free(bc_shash *tfm)
{
	if (tfm) {
		bc_ctx_free(tfm->ctx, tfm->alg->ctxsize);
		bc_ctx_free(tfm, sizeof(*tfm));
	}
}

int bc_shash_setkey(bc_shash *tfm, const uint8_t *key, size_t keylen)
{
	int err;

	if (!tfm || (!key && keylen) || !tfm->alg->setkey)
		return -EINVAL;
	err = tfm->alg->setkey(tfm->ctx, key, keylen);
	if (err)
		return err;
	tfm->keyed = 1;
	tfm->alg->init(tfm->ctx, tfm->desc);
	return 0;
}

int bc_shash_init(bc_shash *tfm)
{
	if (!tfm)
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	tfm->alg->init(tfm->ctx, tfm->desc);
	return 0;
}

int bc_shash_update(bc_shash *tfm, const uint8_t *data, size_t len)
{
	if (!tfm || (len && !data))
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	tfm->alg->update(tfm->ctx, tfm->desc, data, len);
	return 0;
}

int bc_shash_final(bc_shash *tfm, uint8_t *out)
{
	if (!tfm || !out)
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	tfm->alg->final(tfm->ctx, tfm->desc, out);
	tfm->alg->init(tfm->ctx, tfm->desc);
	return 0;
}

/* The checks once, then the driver's own steps: a short message's digest
 * is mostly this path. A refused call leaves the running state as it was. */
int bc_shash_digest(bc_shash *tfm, const uint8_t *data, size_t len, uint8_t *out)
{
	const struct bc_shash_alg *alg;

	if (!tfm)
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	if ((len && !data) || !out)
		return -EINVAL;
	alg = tfm->alg;
	alg->init(tfm->ctx, tfm->desc);
	alg->update(tfm->ctx, tfm->desc, data, len);
	alg->final(tfm->ctx, tfm->desc, out);
	alg->init(tfm->ctx, tfm->desc);
	return 0;
}

/* Groups of up to 8 go to a driver that interleaves them; others get one
 * message at a time on a private state, so the tfm's running state stays. */
int bc_shash_digest_many(bc_shash *tfm, size_t n, const uint8_t *const msgs[], const size_t lens[],
			 uint8_t *const outs[])
{
	const struct bc_shash_alg *alg;

	if (!tfm || (n && (!msgs || !lens || !outs)))
		return -EINVAL;
	if (!tfm->keyed)
		return -ENOKEY;
	for (size_t i = 0; i < n; i++)
		if (!outs[i] || (lens[i] && !msgs[i]))
			return -EINVAL;
	alg = tfm->alg;
	for (size_t i = 0; i < n;) {
		unsigned k = n - i < 8 ? (unsigned)(n - i) : 8;

		if (alg->digest_many) {
			alg->digest_many(tfm->ctx, k, msgs + i, lens + i, outs + i);
		} else {
			_Alignas(BC_CTX_ALIGN) uint8_t desc[BC_DESC_MAX];

			for (unsigned j = 0; j < k; j++) {
				alg->init(tfm->ctx, desc);
				alg->update(tfm->ctx, desc, msgs[i + j], lens[i + j]);
				alg->final(tfm->ctx, desc, outs[i + j]);
			}
			bc_wipe(desc, sizeof(desc));
		}
		i += k;
	}
	return 0;
}

/* Contexts hold the key material and the inner algorithms (static) at fixed
 * offsets, no pointers into themselves, so a byte copy is a working tfm. */
int bc_shash_dup(bc_shash **dst, const bc_shash *src)
{
	bc_shash *t;

	if (!dst)
		return -EINVAL;
	*dst = NULL;
	if (!src)
		return -EINVAL;
	t = bc_ctx_alloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	memcpy(t, src, sizeof(*t));
	t->ctx = bc_ctx_alloc(src->alg->ctxsize);
	if (!t->ctx) {
		bc_ctx_free(t, sizeof(*t));
		return -ENOMEM;
	}
	memcpy(t->ctx, src->ctx, src->alg->ctxsize);
	*dst = t;
	return 0;
}

size_t bc_shash_digestsize(const bc_shash *tfm)
{
	return tfm ? tfm->alg->digestsize : 0;
}

const char *bc_shash_driver(const bc_shash *tfm)
{
	return tfm ? tfm->alg->driver : NULL;
}

unsigned long bc_version(void)
{
	return BLOCKCRYPT_VERSION_NUMBER;
}
