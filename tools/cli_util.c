/* blockcrypt tool: hex decoding, strict number parsing, wiping frees and error exits.
 * Hex as RFC 4648 section 8 (base16, either case); exit statuses per the foundation issue. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("blockcrypt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int cli_hex_decode(const char *hex, uint8_t **out, size_t *len)
{
	size_t n = strlen(hex);
	uint8_t *buf;

	if (n % 2)
		return -1;
	/* One spare byte so that "" still yields a pointer callers may pass on. */
	buf = malloc(n / 2 + 1);
	if (!buf)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			explicit_bzero(buf, i);   /* a key's first bytes */
			free(buf);
			return -1;
		}
		buf[i] = (uint8_t)(hi << 4 | lo);
	}
	*out = buf;
	*len = n / 2;
	return 0;
}

void cli_free_secret(uint8_t *p, size_t len)
{
	if (p) {
		explicit_bzero(p, len);
		free(p);
	}
}

int cli_parse_size(const char *s, size_t max, size_t *out)
{
	size_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		size_t d = (size_t)(*s - '0');

		if (v > max / 10 || d > max - v * 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int cli_parse_bytes(const char *s, size_t max, size_t *out)
{
	static const char suffix[] = "KMG";
	size_t n = strlen(s), shift = 0, v;
	const char *u = n ? strchr(suffix, s[n - 1]) : NULL;
	char digits[32];

	if (u) {
		shift = 10 * (size_t)(u - suffix + 1);
		n--;
	}
	if (n == 0 || n >= sizeof(digits))
		return -1;
	memcpy(digits, s, n);
	digits[n] = 0;
	if (cli_parse_size(digits, max >> shift, &v) < 0)
		return -1;
	*out = v << shift;
	return 0;
}

int cli_parse_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v <= 0 || v > 3600)
		return -1;
	*out = v;
	return 0;
}
