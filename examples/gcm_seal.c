/* Example: seal and open a message with gcm(aes): a fresh random nonce, ciphertext, tag.
 * NIST SP 800-38D; the sealed form is nonce (12 bytes) || ciphertext || tag (16 bytes). */
#include <blockcrypt.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define NONCE 12
#define TAG   16

static int usage(void)
{
	fputs("usage: gcm_seal seal|open KEYHEX < IN > OUT\n"
	      "  KEYHEX: 32, 48 or 64 hex digits (AES-128, -192, -256).\n"
	      "  seal writes nonce || ciphertext || tag; open checks the tag and writes the\n"
	      "  plaintext, or nothing and exit status 1 if the message is not authentic.\n", stderr);
	return 2;
}

/* The whole of stdin: GCM releases no plaintext before the tag is checked. */
static uint8_t *read_all(size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	uint8_t *buf = malloc(cap), *p;

	while (buf && (r = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += r;
		if (n == cap) {
			p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	if (buf && ferror(stdin)) {
		free(buf);
		buf = NULL;
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	uint8_t key[32], *in, *out;
	size_t keylen, len, i;
	bc_aead *tfm = NULL;
	int open, err, ret = 2;

	if (argc != 3 || (strcmp(argv[1], "seal") && strcmp(argv[1], "open")))
		return usage();
	open = argv[1][0] == 'o';
	keylen = strlen(argv[2]) / 2;
	if (strlen(argv[2]) % 2 || keylen > sizeof(key))
		return usage();
	for (i = 0; i < keylen; i++)
		if (sscanf(argv[2] + 2 * i, "%2hhx", &key[i]) != 1)
			return usage();

	err = bc_aead_alloc(&tfm, "gcm(aes)");
	if (!err)
		err = bc_aead_setkey(tfm, key, keylen);
	memset(key, 0, sizeof(key));
	if (err) {
		fprintf(stderr, "gcm_seal: gcm(aes): %s\n", strerror(-err));
		bc_aead_free(tfm);
		return 2;
	}
	in = read_all(&len);
	out = in ? malloc(len + NONCE + TAG) : NULL;
	if (!out) {
		fputs("gcm_seal: cannot read the input\n", stderr);
		goto done;
	}
	if (!open) {
		/* A nonce must never repeat under one key: 96 random bits are safe for
		 * about 2^32 messages (SP 800-38D section 8.3). */
		if (getrandom(out, NONCE, 0) != NONCE) {
			perror("getrandom");
			goto done;
		}
		err = bc_aead_encrypt(tfm, out, NONCE, NULL, 0, in, out + NONCE, len, out + NONCE + len);
		len += NONCE + TAG;
	} else if (len < NONCE + TAG) {
		fputs("gcm_seal: input shorter than nonce and tag\n", stderr);
		goto done;
	} else {
		len -= NONCE + TAG;
		err = bc_aead_decrypt(tfm, in, NONCE, NULL, 0, in + NONCE, out, len, in + NONCE + len);
	}
	if (err == -EBADMSG) {
		fputs("gcm_seal: authentication failed\n", stderr);
		ret = 1;
	} else if (err) {
		fprintf(stderr, "gcm_seal: %s\n", strerror(-err));
	} else if (fwrite(out, 1, len, stdout) != len || fflush(stdout)) {
		perror("gcm_seal: stdout");
	} else {
		ret = 0;
	}
done:
	free(in);
	free(out);
	bc_aead_free(tfm);
	return ret;
}
