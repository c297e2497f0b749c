/* The blockcrypt provider against OpenSSL's default provider through EVP only (no blockcrypt header):
 * every cipher, random keys and IVs, long streams in random-sized updates, both directions, same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static const char *const names[] = {
	"AES-128-ECB", "AES-192-ECB", "AES-256-ECB", "AES-128-CBC", "AES-192-CBC", "AES-256-CBC",
	"AES-128-CTR", "AES-192-CTR", "AES-256-CTR", "AES-128-CBC-CTS", "AES-192-CBC-CTS", "AES-256-CBC-CTS",
	"AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "AES-128-XTS", "AES-256-XTS",
	"SM4-ECB", "SM4-CBC", "SM4-CTR", "SM4-XTS", "SM4-GCM",
};

static unsigned long passed, failed;
static uint64_t rs = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545f4914f6cdd1du;
}
static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}
static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL " __VA_ARGS__); printf("\n"); } } while (0)

/* One side of the comparison: a context, its provider, how it splits input. */
struct side {
	EVP_CIPHER_CTX *ctx;
	EVP_MD_CTX *md;      /* SHA-256 of everything the context output */
	int random_split;
};

static int side_init(struct side *s, EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, const char *xts,
		     const uint8_t *aad, size_t aadlen)
{
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end() };
	int l;

	if (xts)
		p[0] = OSSL_PARAM_construct_utf8_string("xts_standard", (char *)xts, 0);
	if (!EVP_CipherInit_ex2(s->ctx, c, key, iv, enc, p))
		return 0;
	for (size_t off = 0, n; off < aadlen; off += n) {
		n = s->random_split ? 1 + below(aadlen - off) : aadlen - off;
		if (!EVP_CipherUpdate(s->ctx, NULL, &l, aad + off, (int)n))
			return 0;
	}
	return 1;
}

/* Feeds one chunk (one data unit for XTS, one message for CTS), hashing the output. */
static int side_update(struct side *s, const uint8_t *in, size_t len, uint8_t *out, int one_piece)
{
	size_t done = 0;
	int l;

	for (size_t off = 0, n; off < len; off += n) {
		n = s->random_split && !one_piece ? 1 + below(len - off < 70000 ? len - off : 70000) : len - off;
		if (!EVP_CipherUpdate(s->ctx, out + done, &l, in + off, (int)n))
			return 0;
		done += (size_t)l;
	}
	return EVP_DigestUpdate(s->md, out, done);
}

static int side_final(struct side *s, uint8_t *out)
{
	int l;

	return EVP_CipherFinal_ex(s->ctx, out, &l) && EVP_DigestUpdate(s->md, out, (size_t)l);
}

/* CTR, CTS, GCM, XTS: total bytes of plaintext through cipher `name`,
 * blockcrypt in random-sized updates against the reference (the default
 * provider, else blockcrypt) in whole chunks of up to 1 MiB (XTS: a data
 * unit each, CTS: a message each, others: one message); then both decrypt
 * blockcrypt's ciphertext. */
static void stream(const char *name, EVP_CIPHER *bc, EVP_CIPHER *ref, size_t total)
{
	int mode = EVP_CIPHER_get_mode(bc), aead = (EVP_CIPHER_get_flags(bc) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;
	int cts = (EVP_CIPHER_get_flags(bc) & EVP_CIPH_FLAG_CTS) != 0, xts = mode == EVP_CIPH_XTS_MODE;
	size_t keylen = (size_t)EVP_CIPHER_get_key_length(bc), maxchunk = 1 << 20;
	uint8_t key[64], iv[16], aad[100], tag[2][16], h[4][32];
	uint8_t *pt = malloc(maxchunk), *ct = malloc(maxchunk + 32), *ct2 = malloc(maxchunk + 32),
		*dt = malloc(maxchunk + 32);
	struct side e[2], d[2];
	EVP_MD *sha = EVP_MD_fetch(NULL, "SHA256", "provider=default");
	const char *std = strcmp(name, "SM4-XTS") ? NULL : (rnd() & 1 ? "GB" : "IEEE");
	size_t aadlen = aead ? below(sizeof(aad)) : 0;
	int ok = 1;

	fill(key, sizeof(key));
	if (xts)
		key[keylen / 2] = (uint8_t)~key[0];    /* the halves differ */
	fill(iv, sizeof(iv));
	fill(aad, aadlen);
	for (int i = 0; i < 2; i++) {
		e[i] = (struct side){ EVP_CIPHER_CTX_new(), EVP_MD_CTX_new(), i == 0 };
		d[i] = (struct side){ EVP_CIPHER_CTX_new(), EVP_MD_CTX_new(), i == 0 };
		ok &= EVP_DigestInit_ex(e[i].md, sha, NULL) && EVP_DigestInit_ex(d[i].md, sha, NULL);
	}
	EVP_MD_CTX *pmd = EVP_MD_CTX_new();

	ok &= EVP_DigestInit_ex(pmd, sha, NULL);
	for (size_t off = 0; ok && off < total;) {
		/* XTS: a data unit per update; CTS: a message per chunk; others: one message */
		size_t n = 16 + below(maxchunk - 16);

		n = n < total - off ? n : total - off;
		if (n < 16 && (xts || cts))
			break;
		fill(pt, n);
		if (off == 0 || cts) {
			for (int i = 0; i < 2; i++)
				ok &= side_init(&e[i], i ? ref : bc, 1, key, iv, std, aad, aadlen);
		}
		ok &= side_update(&e[0], pt, n, ct, xts || cts) && side_update(&e[1], pt, n, ct2, xts || cts);
		if (cts) {
			ok &= side_final(&e[0], ct) && side_final(&e[1], ct2);
			for (int i = 0; i < 2; i++)
				ok &= side_init(&d[i], i ? ref : bc, 0, key, iv, std, NULL, 0);
		}
		if (off == 0 && !cts)
			for (int i = 0; i < 2; i++)
				ok &= side_init(&d[i], i ? ref : bc, 0, key, iv, std, aad, aadlen);
		/* both decrypt blockcrypt's ciphertext of this chunk (these modes
		 * give out as many bytes as they take in) */
		ok &= side_update(&d[0], ct, n, dt, xts || cts) && side_update(&d[1], ct, n, dt, xts || cts);
		if (cts)
			ok &= side_final(&d[0], dt) && side_final(&d[1], dt);
		ok &= EVP_DigestUpdate(pmd, pt, n);
		off += n;
	}
	if (!cts) {
		ok &= side_final(&e[0], ct) && side_final(&e[1], ct2);
		if (aead) {
			ok &= EVP_CIPHER_CTX_ctrl(e[0].ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag[0]) > 0 &&
			      EVP_CIPHER_CTX_ctrl(e[1].ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag[1]) > 0;
			CHECK(ok && !memcmp(tag[0], tag[1], 16), "%s: tags differ", name);
			for (int i = 0; i < 2; i++)
				ok &= EVP_CIPHER_CTX_ctrl(d[i].ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag[0]) > 0;
		}
	}
	CHECK(ok, "%s: an EVP call failed", name);
	unsigned int hl;

	EVP_DigestFinal_ex(e[0].md, h[0], &hl);
	EVP_DigestFinal_ex(e[1].md, h[1], &hl);
	CHECK(!memcmp(h[0], h[1], 32), "%s: ciphertexts differ (%zu bytes)", name, total);
	if (!cts)
		CHECK(side_final(&d[0], dt) && side_final(&d[1], dt), "%s: decryption final", name);
	EVP_DigestFinal_ex(d[0].md, h[2], &hl);
	EVP_DigestFinal_ex(d[1].md, h[3], &hl);
	EVP_DigestFinal_ex(pmd, h[0], &hl);
	CHECK(!memcmp(h[2], h[0], 32) && !memcmp(h[3], h[0], 32), "%s: decryption differs", name);
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX_free(e[i].ctx);
		EVP_CIPHER_CTX_free(d[i].ctx);
		EVP_MD_CTX_free(e[i].md);
		EVP_MD_CTX_free(d[i].md);
	}
	EVP_MD_CTX_free(pmd);
	EVP_MD_free(sha);
	free(pt);
	free(ct);
	free(ct2);
	free(dt);
	ERR_clear_error();
}

/* ECB and CBC (padded, so output lags input): a whole message each, both
 * directions, blockcrypt in random pieces against the reference in one. */
static void padded(const char *name, EVP_CIPHER *bc, EVP_CIPHER *ref, size_t len)
{
	uint8_t key[32], iv[16], *pt = malloc(len + 1), *out[2], *back = malloc(len + 64);
	size_t outl[2] = { 0, 0 }, backl = 0;
	int l, ok = 1, pad = rnd() % 4 != 0 || len % 16;

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	fill(pt, len);
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

		out[i] = malloc(len + 64);
		ok &= EVP_EncryptInit_ex2(c, i ? ref : bc, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(c, pad);
		for (size_t off = 0, n; ok && off < len; off += n) {
			n = i ? len - off : below(len - off + 1);
			ok &= EVP_EncryptUpdate(c, out[i] + outl[i], &l, pt + off, (int)n);
			outl[i] += (size_t)l;
		}
		ok &= EVP_EncryptFinal_ex(c, out[i] + outl[i], &l);
		outl[i] += (size_t)l;
		EVP_CIPHER_CTX_free(c);
	}
	CHECK(ok && outl[0] == outl[1] && !memcmp(out[0], out[1], outl[0]), "%s: %zu bytes, padding %d differ",
	      name, len, pad);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	ok = EVP_DecryptInit_ex2(c, bc, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(c, pad);
	for (size_t off = 0, n; ok && off < outl[0]; off += n) {
		n = below(outl[0] - off + 1);
		ok &= EVP_DecryptUpdate(c, back + backl, &l, out[0] + off, (int)n);
		backl += (size_t)l;
	}
	ok &= EVP_DecryptFinal_ex(c, back + backl, &l);
	backl += (size_t)l;
	CHECK(ok && backl == len && !memcmp(back, pt, len), "%s: %zu bytes do not decrypt back", name, len);
	EVP_CIPHER_CTX_free(c);
	free(out[0]);
	free(out[1]);
	free(pt);
	free(back);
	ERR_clear_error();
}

static size_t unhex(const char *h, uint8_t *out, size_t max)
{
	size_t n = 0;

	for (unsigned v; n < max && sscanf(h + 2 * n, "%2x", &v) == 1; n++)
		out[n] = (uint8_t)v;
	return n;
}

/* provider_stream DIR --encrypt NAME KEY IV [AAD]: stdin to stdout through
 * the blockcrypt provider in one update (XTS: one data unit, xts_standard
 * IEEE as the kernel's xts), an AEAD appending its 16-byte tag, as
 * `blockcrypt encrypt` writes them; for tests/provider_cli.sh. */
static int encrypt_stdin(const char *name, const char *khex, const char *ivhex, const char *aadhex)
{
	static uint8_t in[1 << 20], out[(1 << 20) + 32];
	uint8_t key[64], iv[128], aad[256];
	size_t len = fread(in, 1, sizeof(in), stdin), ivlen = unhex(ivhex, iv, sizeof(iv));
	size_t aadlen = aadhex ? unhex(aadhex, aad, sizeof(aad)) : 0;
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, "provider=blockcrypt");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string("xts_standard", "IEEE", 0), OSSL_PARAM_construct_end() };
	int l, l2, aead = c && (EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER);
	int ok = c && unhex(khex, key, sizeof(key)) == (size_t)EVP_CIPHER_get_key_length(c) &&
		 EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL) &&
		 (!aead || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0) &&
		 EVP_EncryptInit_ex2(ctx, NULL, key, iv, strcmp(name, "SM4-XTS") ? NULL : p) &&
		 (!aadlen || EVP_EncryptUpdate(ctx, NULL, &l, aad, (int)aadlen)) &&
		 EVP_EncryptUpdate(ctx, out, &l, in, (int)len) && EVP_EncryptFinal_ex(ctx, out + l, &l2) &&
		 (!aead || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + l + l2) > 0);

	if (ok)
		fwrite(out, 1, (size_t)(l + l2 + (aead ? 16 : 0)), stdout);
	else
		ERR_print_errors_fp(stderr);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return !ok;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "build/provider";
	size_t total = argc > 2 && argv[2][0] != '-' ? (size_t)strtoull(argv[2], NULL, 0) : (size_t)4 << 20;
	OSSL_PROVIDER *bcp, *def;

	setvbuf(stdout, NULL, _IOLBF, 0);
	OSSL_PROVIDER_set_default_search_path(NULL, dir);
	bcp = OSSL_PROVIDER_load(NULL, "blockcrypt");
	def = OSSL_PROVIDER_load(NULL, "default");
	if (argc > 5 && !strcmp(argv[2], "--encrypt"))
		return encrypt_stdin(argv[3], argv[4], argv[5], argc > 6 ? argv[6] : NULL);
	CHECK(bcp && def, "cannot load the providers from %s", dir);
	for (size_t i = 0; bcp && def && i < sizeof(names) / sizeof(names[0]); i++) {
		EVP_CIPHER *bc = EVP_CIPHER_fetch(NULL, names[i], "provider=blockcrypt");
		EVP_CIPHER *ref = EVP_CIPHER_fetch(NULL, names[i], "provider=default");
		int mode;

		CHECK(bc != NULL, "%s not offered", names[i]);
		if (!bc)
			continue;
		printf("%s: against %s, %zu bytes\n", names[i], ref ? "the default provider" :
		       "itself in whole chunks (the default provider has none)", total);
		if (!ref)
			EVP_CIPHER_up_ref(ref = bc);
		mode = EVP_CIPHER_get_mode(bc);
		if ((mode == EVP_CIPH_ECB_MODE || mode == EVP_CIPH_CBC_MODE) &&
		    !(EVP_CIPHER_get_flags(bc) & EVP_CIPH_FLAG_CTS)) {
			for (size_t done = 0; done < total;) {
				size_t len = below(total - done < 70000 ? total - done + 1 : 70001);

				padded(names[i], bc, ref, len);
				done += len + 1;
			}
		} else {
			stream(names[i], bc, ref, total);
		}
		EVP_CIPHER_free(bc);
		EVP_CIPHER_free(ref);
	}
	OSSL_PROVIDER_unload(bcp);
	OSSL_PROVIDER_unload(def);
	printf("provider_stream: %lu passed, %lu failed\n", passed, failed);
	return failed != 0;
}
