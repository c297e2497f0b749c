/* Test support for the templates over whole algorithms (hmac, rfc3686/4106/4543/4309, authenc, authencesn):
 * which names they are, their key formats (the kernel's authenc key blob), and an HMAC built from the bare hash. */
#ifndef BC_TEST_COMMON_TMPL_H
#define BC_TEST_COMMON_TMPL_H

#include <stddef.h>
#include <stdint.h>

/* 1 when alg is one of these templates' names; the generic per-type checks
 * (gcm's IV rules, the MACs' key sizes) do not apply to them. */
int composed_name(const char *alg);

/* The kernel's authenc key blob (crypto_authenc_extractkeys): rtattr
 * {rta_len 8, rta_type 1} in host order, be32 enckeylen, the MAC key, the
 * cipher key. Returns the blob's length (8 + alen + elen). */
size_t authenc_blob(uint8_t *out, const uint8_t *authkey, size_t alen, const uint8_t *enckey, size_t elen);

/* HMAC (RFC 2104) computed here from the plain hash driver `hash`, with no
 * use of the library's hmac template: 0, or a negative errno. */
int ref_hmac(const char *hash, const uint8_t *key, size_t keylen, const uint8_t *const parts[],
	     const size_t lens[], size_t nparts, uint8_t *out, size_t *outlen);

/* A key for one of these templates' instance info, written to key (room for 128 bytes): a 16-byte
 * cipher key with the salt, the authenc blob with a 20-byte MAC key, 40 bytes for hmac; returns its
 * length. *ivlen becomes the request's IV length (aead) and *len a text length the mode takes,
 * at most the one given. */
struct bc_driver_info;
size_t composed_test_key(const struct bc_driver_info *info, uint8_t *key, size_t *ivlen, size_t *len);

#endif
