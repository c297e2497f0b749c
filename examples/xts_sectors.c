/* Example: encrypt or decrypt a disk image with xts(aes), sector by sector, as dm-crypt does.
 * IEEE 1619 XTS; the tweak of sector n is n as a 128-bit little-endian number (dm-crypt's plain64). */
#include <blockcrypt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTOR 512

static int usage(void)
{
	fputs("usage: xts_sectors encrypt|decrypt KEYFILE IN OUT\n"
	      "  KEYFILE holds 32 bytes (AES-128-XTS) or 64 bytes (AES-256-XTS), raw.\n"
	      "  Each 512-byte sector n is one XTS data unit with tweak n; a last sector\n"
	      "  shorter than 512 bytes must still hold at least 16 (ciphertext stealing).\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	uint8_t key[65], buf[SECTOR], iv[16];
	bc_skcipher *tfm = NULL;
	FILE *kf, *in = NULL, *out = NULL;
	size_t keylen, n;
	uint64_t sector = 0;
	int decrypt, ret = 1, err;

	if (argc != 5 || (strcmp(argv[1], "encrypt") && strcmp(argv[1], "decrypt")))
		return usage();
	decrypt = argv[1][0] == 'd';

	/* A program built against this header must run with a library of the same major version. */
	if ((bc_version() >> 16) != BLOCKCRYPT_VERSION_MAJOR) {
		fprintf(stderr, "xts_sectors: built for blockcrypt %s, running with %lx\n",
			BLOCKCRYPT_VERSION_STRING, bc_version());
		return 1;
	}
	kf = fopen(argv[2], "rb");
	if (!kf) {
		perror(argv[2]);
		return 2;
	}
	keylen = fread(key, 1, sizeof(key), kf);
	fclose(kf);
	if (keylen != 32 && keylen != 64) {
		fprintf(stderr, "xts_sectors: %s: the key must be 32 or 64 bytes\n", argv[2]);
		return 2;
	}
	err = bc_skcipher_alloc(&tfm, "xts(aes)");
	if (!err)
		err = bc_skcipher_setkey(tfm, key, keylen);
	memset(key, 0, sizeof(key)); /* the tfm holds its own copy, wiped by bc_skcipher_free */
	if (err) {
		fprintf(stderr, "xts_sectors: xts(aes): %s\n", strerror(-err));
		goto out;
	}
	in = fopen(argv[3], "rb");
	out = fopen(argv[4], "wb");
	if (!in || !out) {
		perror(!in ? argv[3] : argv[4]);
		goto out;
	}
	while ((n = fread(buf, 1, SECTOR, in)) > 0) {
		/* The tweak is the sector number; the library consumes the IV, so set it afresh. */
		memset(iv, 0, sizeof(iv));
		for (int i = 0; i < 8; i++)
			iv[i] = (uint8_t)(sector >> (8 * i));
		err = decrypt ? bc_skcipher_decrypt(tfm, iv, buf, buf, n) : bc_skcipher_encrypt(tfm, iv, buf, buf, n);
		if (err) {
			fprintf(stderr, "xts_sectors: sector %llu (%zu bytes): %s\n", (unsigned long long)sector, n,
				n < 16 ? "shorter than one AES block" : strerror(-err));
			goto out;
		}
		if (fwrite(buf, 1, n, out) != n) {
			perror(argv[4]);
			goto out;
		}
		sector++;
	}
	if (ferror(in)) {
		perror(argv[3]);
		goto out;
	}
	ret = 0;
out:
	memset(buf, 0, sizeof(buf));
	if (in)
		fclose(in);
	if (out && fclose(out) && !ret) {
		perror(argv[4]);
		ret = 1;
	}
	bc_skcipher_free(tfm);
	return ret;
}
