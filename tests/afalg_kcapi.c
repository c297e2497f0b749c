/* A program written against libkcapi (Debian's libkcapi-dev), run under `blockcrypt run`: skcipher one-shot with the
 * vmsplice and sendmsg access paths and the stream API, aead one-shot, hash digest and update/final, each result
 * checked against libblockcrypt called directly. API: libkcapi's kcapi.h. */
#include <errno.h>
#include <kcapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const int access_modes[] = { KCAPI_ACCESS_HEURISTIC, KCAPI_ACCESS_VMSPLICE, KCAPI_ACCESS_SENDMSG };

static void test_cipher(const char *name, size_t keylen)
{
	static const size_t lens[] = { 16, 4096, 65536, 200000 };
	uint8_t key[64], iv[16], iv2[16], *pt = malloc(200000), *ct = malloc(200000), *got = malloc(200000);
	struct kcapi_handle *h;
	bc_skcipher *d;

	set_context("%s", name);
	rng_fill(key, keylen);
	CHECK(kcapi_cipher_init(&h, name, 0) == 0, "kcapi_cipher_init");
	CHECK(kcapi_cipher_setkey(h, key, (uint32_t)keylen) == 0, "setkey");
	bc_skcipher_alloc(&d, name);
	bc_skcipher_setkey(d, key, keylen);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (size_t a = 0; a < 3; a++) {
			size_t len = lens[i];

			rng_fill(pt, len);
			rng_fill(iv, 16);
			/* libkcapi sends more than 16 pages as requests of 16 pages, each with the IV it was given */
			for (size_t off = 0; off < len; off += 65536) {
				memcpy(iv2, iv, 16);
				bc_skcipher_encrypt(d, iv2, pt + off, ct + off, len - off < 65536 ? len - off : 65536);
			}
			memset(got, 0, len);
			CHECK(kcapi_cipher_encrypt(h, pt, len, iv, got, len, access_modes[a]) == (ssize_t)len &&
			      !memcmp(got, ct, len), "encrypt %zu access %d", len, access_modes[a]);
			CHECK(kcapi_cipher_decrypt(h, ct, len, iv, got, len, access_modes[a]) == (ssize_t)len &&
			      !memcmp(got, pt, len), "decrypt %zu access %d", len, access_modes[a]);
		}
	/* the stream API: the text in three updates, read back at once */
	if (strncmp(name, "xts", 3)) {
		struct iovec in[3] = { { pt, 64 }, { pt + 64, 4096 }, { pt + 4160, 96 } }, out = { got, 4256 };

		rng_fill(iv, 16);
		memcpy(iv2, iv, 16);
		bc_skcipher_encrypt(d, iv2, pt, ct, 4256);
		CHECK(kcapi_cipher_stream_init_enc(h, iv, NULL, 0) >= 0, "stream init");
		CHECK(kcapi_cipher_stream_update(h, &in[0], 1) == 64, "update");
		CHECK(kcapi_cipher_stream_update(h, &in[1], 1) == 4096, "update");
		CHECK(kcapi_cipher_stream_update_last(h, &in[2], 1) == 96, "update last");
		CHECK(kcapi_cipher_stream_op(h, &out, 1) == 4256 && !memcmp(got, ct, 4256), "stream result");
	}
	kcapi_cipher_destroy(h);
	bc_skcipher_free(d);
	free(pt);
	free(ct);
	free(got);
}

/* libkcapi's AIO one-shot (KCAPI_INIT_AIO: io_setup, io_submit of one IOCB_CMD_PREAD per output iovec, io_getevents):
 * each batch of up to 64 iovecs is one request, sent at once and read back piece by piece, so the IV chains across a
 * batch's iovecs and starts again with the next batch. */
static void test_cipher_aio(const char *name, size_t keylen)
{
	enum { MAXV = 70, PIECE = 4096 };
	static const size_t counts[] = { 1, 2, 5, 64, 70 };
	uint8_t key[64], iv[16], iv2[16], *pt = malloc(MAXV * PIECE), *ct = malloc(MAXV * PIECE), *got = malloc(MAXV * PIECE);
	struct iovec in[MAXV], out[MAXV];
	struct kcapi_handle *h;
	bc_skcipher *d;

	set_context("%s aio", name);
	rng_fill(key, keylen);
	CHECK(kcapi_cipher_init(&h, name, KCAPI_INIT_AIO) == 0, "kcapi_cipher_init AIO");
	CHECK(kcapi_cipher_setkey(h, key, (uint32_t)keylen) == 0, "setkey");
	bc_skcipher_alloc(&d, name);
	bc_skcipher_setkey(d, key, keylen);
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t a = 0; a < 3; a++) {
			size_t n = counts[c], len = n * PIECE;

			rng_fill(pt, len);
			rng_fill(iv, 16);
			for (size_t off = 0; off < len; off += 64 * PIECE) {
				memcpy(iv2, iv, 16);
				bc_skcipher_encrypt(d, iv2, pt + off, ct + off, len - off < 64 * PIECE ? len - off : 64 * PIECE);
			}
			for (size_t i = 0; i < n; i++) {
				in[i] = (struct iovec){ pt + i * PIECE, PIECE };
				out[i] = (struct iovec){ got + i * PIECE, PIECE };
			}
			memset(got, 0, len);
			CHECK(kcapi_cipher_encrypt_aio(h, in, out, n, iv, access_modes[a]) == (ssize_t)len && !memcmp(got, ct, len),
			      "encrypt_aio %zu iovecs access %d", n, access_modes[a]);
			for (size_t i = 0; i < n; i++)
				in[i].iov_base = ct + i * PIECE;
			memset(got, 0, len);
			CHECK(kcapi_cipher_decrypt_aio(h, in, out, n, iv, access_modes[a]) == (ssize_t)len && !memcmp(got, pt, len),
			      "decrypt_aio %zu iovecs access %d", n, access_modes[a]);
		}
	kcapi_cipher_destroy(h);
	bc_skcipher_free(d);
	free(pt);
	free(ct);
	free(got);
}

static void test_aead(const char *name, size_t ivlen)
{
	uint8_t key[16], iv[16], in[20 + 3000], out[20 + 3000 + 16], want[3000], tag[16];
	struct kcapi_handle *h;
	bc_aead *d;

	set_context("%s", name);
	rng_fill(key, 16);
	rng_fill(in, sizeof(in));
	rng_fill(iv, 16);
	if (ivlen == 16)
		iv[0] = 3;
	CHECK(kcapi_aead_init(&h, name, 0) == 0, "kcapi_aead_init");
	CHECK(kcapi_aead_setkey(h, key, 16) == 0, "setkey");
	CHECK(kcapi_aead_settaglen(h, 16) == 0, "settaglen");
	kcapi_aead_setassoclen(h, 20);
	bc_aead_alloc(&d, name);
	bc_aead_setkey(d, key, 16);
	bc_aead_encrypt(d, iv, ivlen, in, 20, in + 20, want, 3000, tag);
	for (size_t a = 0; a < 3; a++) {
		memset(out, 0, sizeof(out));
		CHECK(kcapi_aead_encrypt(h, in, sizeof(in), iv, out, sizeof(out), access_modes[a]) == (ssize_t)sizeof(out),
		      "encrypt access %d", access_modes[a]);
		CHECK(!memcmp(out, in, 20) && !memcmp(out + 20, want, 3000) && !memcmp(out + 3020, tag, 16), "AAD || ct || tag");
		uint8_t back[sizeof(in)];
		CHECK(kcapi_aead_decrypt(h, out, sizeof(out), iv, back, sizeof(back), access_modes[a]) == (ssize_t)sizeof(back) &&
		      !memcmp(back, in, sizeof(in)), "decrypt access %d", access_modes[a]);
		out[3025] ^= 1;
		CHECK(kcapi_aead_decrypt(h, out, sizeof(out), iv, back, sizeof(back), access_modes[a]) == -EBADMSG,
		      "bad tag: -EBADMSG");
	}
	kcapi_aead_destroy(h);
	/* the AIO one-shot: one request, read back by one IOCB_CMD_PREAD */
	CHECK(kcapi_aead_init(&h, name, KCAPI_INIT_AIO) == 0 && kcapi_aead_setkey(h, key, 16) == 0 &&
	      kcapi_aead_settaglen(h, 16) == 0, "AIO handle");
	kcapi_aead_setassoclen(h, 20);
	for (size_t a = 0; a < 3; a++) {
		struct iovec iv_in = { in, sizeof(in) }, iv_out = { out, sizeof(out) };

		memset(out, 0, sizeof(out));
		CHECK(kcapi_aead_encrypt_aio(h, &iv_in, &iv_out, 1, iv, access_modes[a]) == (ssize_t)sizeof(out) &&
		      !memcmp(out, in, 20) && !memcmp(out + 20, want, 3000) && !memcmp(out + 3020, tag, 16),
		      "encrypt_aio access %d", access_modes[a]);
	}
	kcapi_aead_destroy(h);
	bc_aead_free(d);
}

static void test_md(const char *name, int keyed)
{
	uint8_t key[32], data[100000], want[64], got[64];
	struct kcapi_handle *h;
	bc_shash *d;

	set_context("%s", name);
	rng_fill(key, sizeof(key));
	rng_fill(data, sizeof(data));
	CHECK(kcapi_md_init(&h, name, 0) == 0, "kcapi_md_init");
	bc_shash_alloc(&d, name);
	if (keyed) {
		CHECK(kcapi_md_setkey(h, key, sizeof(key)) == 0, "setkey");
		bc_shash_setkey(d, key, sizeof(key));
	}
	size_t ds = bc_shash_digestsize(d);
	for (size_t len = 0; len <= sizeof(data); len = len ? len * 7 : 1) {
		bc_shash_digest(d, data, len, want);
		CHECK(kcapi_md_digest(h, data, len, got, sizeof(got)) == (ssize_t)ds && !memcmp(got, want, ds), "digest %zu", len);
	}
	bc_shash_digest(d, data, sizeof(data), want);
	ssize_t u1 = kcapi_md_update(h, data, 1000), u2 = kcapi_md_update(h, data + 1000, sizeof(data) - 1000);
	ssize_t f = kcapi_md_final(h, got, sizeof(got));
	CHECK(u1 == 0 && u2 == 0 && f == (ssize_t)ds && !memcmp(got, want, ds),
	      "update, final: %zd %zd %zd", u1, u2, f);
	kcapi_md_destroy(h);
	bc_shash_free(d);
}

/* libkcapi's rng API on the rng socket type: seeded (its seed size 0: it seeds itself), then generated in 128-byte reads */
static void test_rng(void)
{
	uint8_t seed[32], a[1000], b[1000];
	struct kcapi_handle *h;

	set_context("stdrng");
	rng_fill(seed, sizeof(seed));
	CHECK(kcapi_rng_init(&h, "stdrng", 0) == 0, "kcapi_rng_init");
	CHECK(kcapi_rng_seedsize(h) == 0, "seedsize 0");
	CHECK(kcapi_rng_seed(h, seed, sizeof(seed)) == 0, "seed");
	CHECK(kcapi_rng_generate(h, a, sizeof(a)) == (ssize_t)sizeof(a) && kcapi_rng_generate(h, b, sizeof(b)) == (ssize_t)sizeof(b),
	      "generate 1000");
	CHECK(memcmp(a, b, sizeof(a)) != 0, "two outputs differ");
	CHECK(kcapi_rng_get_bytes(a, 77) == 77, "kcapi_rng_get_bytes");
	kcapi_rng_destroy(h);
}

int main(void)
{
	test_init();
	rng_seed(0x6b636170);
	test_cipher("cbc(aes)", 16);
	test_cipher("ctr(aes)", 32);
	test_cipher("xts(aes)", 64);
	test_cipher_aio("cbc(aes)", 16);
	test_cipher_aio("ctr(aes)", 32);
	test_aead("gcm(aes)", 12);
	test_aead("ccm(aes)", 16);
	test_md("sha256", 0);
	test_md("sha512", 0);
	test_md("hmac(sha256)", 1);
	test_rng();
	struct kcapi_handle *h;
	set_context("errors");
	CHECK(kcapi_cipher_init(&h, "cbc(nosuch)", 0) == -ENOENT, "unknown cipher: -ENOENT");
	return test_summary("afalg_kcapi");
}
