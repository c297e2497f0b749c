/* blockcrypt tool: what a speed job needs for the templates over whole algorithms: their keys, IVs and associated data.
 * Key formats of the Linux crypto API: rfc3686/4106/4543 key || 4-byte salt, rfc4309 || 3 bytes, authenc's rtattr blob. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "speed.h"

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The key --key-bits stands for is the cipher's, as tcrypt counts it; around it go the
 * salt or, for authenc, the blob header and a 32-byte MAC key (RFC 4868's for hmac(sha256)). */
size_t speed_job_key(const char *name, size_t keylen, uint8_t *key, size_t max, void (*fill)(uint8_t *, size_t))
{
	size_t n = keylen;

	if (starts(name, "authenc")) {
		uint16_t rta[2] = { 8, 1 };

		n = 8 + 32 + keylen;
		if (n > max)
			return 0;
		fill(key, n);
		memcpy(key, rta, sizeof(rta));
		key[4] = key[5] = 0;
		key[6] = (uint8_t)(keylen >> 8);
		key[7] = (uint8_t)keylen;
		return n;
	}
	if (starts(name, "rfc3686(") || starts(name, "rfc4106(") || starts(name, "rfc4543("))
		n += 4;
	else if (starts(name, "rfc4309("))
		n += 3;
	if (n > max)
		return 0;
	fill(key, n);
	return n;
}

/* An AEAD request's IV length and associated data: gcm's 12-byte IV and no data; the
 * ESP wrappers' 8-byte IV and 16 bytes (SPI, sequence number, IV); authenc's cipher IV
 * and the same 16 bytes (authencesn reads its sequence number from them). */
void speed_aead_shape(const char *name, size_t *ivlen, size_t *adlen)
{
	struct bc_driver_info info;

	*ivlen = 12;
	*adlen = 0;
	if (starts(name, "rfc4106(") || starts(name, "rfc4543(") || starts(name, "rfc4309(")) {
		*ivlen = 8;
		*adlen = 16;
	} else if (starts(name, "authenc") && cli_find_driver(name, name, &info) == 0) {
		*ivlen = info.ivsize;
		*adlen = 16;
	}
}
