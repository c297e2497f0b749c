/* bench: the peer for `blockcrypt encrypt 'xts(aes)' --data-unit-size N` on large streams: OpenSSL's EVP xts,
 * one EVP call per data unit with the IV first-IV + unit index (128-bit little-endian, dm-crypt plain64), stdin to stdout. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static int hex(const char *s, unsigned char *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (sscanf(s + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return 0;
}

static size_t read_full(unsigned char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n < len && (r = read(0, buf + n, len - n)) > 0)
		n += (size_t)r;
	return n;
}

int main(int argc, char **argv)
{
	unsigned char key[64], iv[16];
	size_t unit = argc == 4 ? strtoul(argv[3], NULL, 10) : 0, chunk, got;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char *buf;
	int outl;

	if (argc != 4 || hex(argv[1], key, 64) || hex(argv[2], iv, 16) || unit < 16 || unit > CHUNK) {
		fprintf(stderr, "usage: xts-units KEY(128 hex) IV(32 hex) UNIT < in > out\n");
		return 2;
	}
	chunk = CHUNK / unit * unit;
	buf = malloc(chunk);
	if (!buf || !ctx || !EVP_EncryptInit_ex(ctx, EVP_aes_256_xts(), NULL, key, NULL))
		return 2;
	while ((got = read_full(buf, chunk)) > 0) {
		for (size_t off = 0; off < got; off += unit) {
			size_t n = got - off < unit ? got - off : unit;

			if (!EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv) ||
			    !EVP_EncryptUpdate(ctx, buf + off, &outl, buf + off, (int)n))
				return 1;
			for (int i = 0, c = 1; i < 16 && c; i++)
				c = ++iv[i] == 0;
		}
		for (size_t off = 0; off < got;) {
			ssize_t w = write(1, buf + off, got - off);

			if (w <= 0)
				return 1;
			off += (size_t)w;
		}
		if (got < chunk)
			break;
	}
	EVP_CIPHER_CTX_free(ctx);
	free(buf);
	return 0;
}
