/* blockcrypt-luks: error messages, locked key memory, big-endian fields, whole-buffer I/O, UUIDs, Base64.
 * Big-endian integers and NUL-terminated strings as LUKS1 section 3.1 and LUKS2 section 2.1; Base64 per RFC 4648. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "luks_internal.h"

static _Thread_local char err_msg[256];

uint32_t luks_max_memory_kib = 1048576, luks_max_time = 100, luks_max_iterations = 50000000;

const char *bc_luks_error(void)
{
	return err_msg;
}

int luks_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	/* Messages quote header fields: a hostile header's control bytes (a newline, a terminal escape)
	 * must not reach the user's terminal, and the reason stays one line. */
	for (char *c = err_msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return err;
}

void bc_luks_set_pbkdf_limits(uint32_t max_memory_kib, uint32_t max_time, uint32_t max_iterations)
{
	luks_max_memory_kib = max_memory_kib;
	luks_max_time = max_time;
	luks_max_iterations = max_iterations;
}

void *luks_secure_alloc(size_t len)
{
	void *p = calloc(1, len);

	/* Without RLIMIT_MEMLOCK room the key still works, it may just reach swap. */
	if (p)
		(void)mlock(p, len);
	return p;
}

void luks_secure_free(void *p, size_t len)
{
	if (!p)
		return;
	explicit_bzero(p, len);
	(void)munlock(p, len);
	free(p);
}

int bc_luks_random(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return luks_fail(-errno, "getrandom: %s", strerror(errno));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

uint16_t luks_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t luks_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t luks_be64(const uint8_t *p)
{
	return (uint64_t)luks_be32(p) << 32 | luks_be32(p + 4);
}

void luks_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void luks_put_be32(uint8_t *p, uint32_t v)
{
	luks_put_be16(p, (uint16_t)(v >> 16));
	luks_put_be16(p + 2, (uint16_t)v);
}

void luks_put_be64(uint8_t *p, uint64_t v)
{
	luks_put_be32(p, (uint32_t)(v >> 32));
	luks_put_be32(p + 4, (uint32_t)v);
}

int luks_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return luks_fail(-errno, "read: %s", strerror(errno));
		if (n == 0)
			return luks_fail(-EINVAL, "read: unexpected end of file at byte %llu", (unsigned long long)off);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int luks_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return luks_fail(n < 0 ? -errno : -EIO, "write: %s", n < 0 ? strerror(errno) : "no progress");
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int luks_cstring_ok(const uint8_t *field, size_t len)
{
	return memchr(field, 0, len) != NULL;
}

/* 8-4-4-4-12 hex digits, as LUKS1 section 3.1 and RFC 4122's text form. */
int luks_uuid_ok(const char *uuid)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (strlen(uuid) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++) {
		char c = uuid[i];

		if (shape[i] == '-' ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

/* A random (version 4) UUID. */
void luks_uuid_random(char out[37])
{
	uint8_t r[16];

	if (bc_luks_random(r, sizeof(r)))
		abort();   /* getrandom cannot fail with a valid buffer on Linux 3.17+ */
	r[6] = (uint8_t)((r[6] & 0x0f) | 0x40);
	r[8] = (uint8_t)((r[8] & 0x3f) | 0x80);
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2],
	         r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}

int luks_base64_decode(const char *in, uint8_t *out, size_t max, size_t *outlen)
{
	size_t n = strlen(in), pad = 0;
	uint8_t tmp[(LUKS_MAX_DIGEST + 2) / 3 * 3 + 3];
	int got;

	if (n == 0 || n % 4 || n > 4 * sizeof(tmp) / 3)
		return -EINVAL;
	while (pad < 2 && in[n - 1 - pad] == '=')
		pad++;
	got = EVP_DecodeBlock(tmp, (const unsigned char *)in, (int)n);
	if (got < 0 || (size_t)got < pad || (size_t)got - pad > max)
		return -EINVAL;
	*outlen = (size_t)got - pad;
	memcpy(out, tmp, *outlen);
	return 0;
}

char *luks_base64_encode(const uint8_t *in, size_t len)
{
	char *s = malloc((len + 2) / 3 * 4 + 1);

	if (s)
		EVP_EncodeBlock((unsigned char *)s, in, (int)len);
	return s;
}

unsigned luks_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
