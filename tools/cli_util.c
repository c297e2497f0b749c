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

/* Keys pass through here, so a digit's value is chosen with masks, not branches
 * (a branch per digit class would tell a timing observer each key nibble's range).
 * Returns 0..15, or -1 for a character that is not a hex digit. */
static int hex_nibble(char ch)
{
	unsigned c = (unsigned char)ch, d = c - '0', l = (c | 0x20) - 'a';
	/* all ones when d < 10 (resp. l < 6) as unsigned, i.e. c is in range: the top bit of (d - 10) & ~d */
	unsigned md = 0u - (((d - 10) & ~d) >> 31), ml = 0u - (((l - 6) & ~l) >> 31);

	return (int)((md & d) | (ml & (l + 10)) | ~(md | ml));
}

int cli_hex_decode(const char *hex, uint8_t **out, size_t *len)
{
	size_t n = strlen(hex);
	uint8_t *buf;
	int bad = 0;

	if (n % 2)
		return -1;
	/* One spare byte so that "" still yields a pointer callers may pass on. */
	buf = malloc(n / 2 + 1);
	if (!buf)
		return -1;
	/* A bad digit is acted on after the whole string, so where it sits does not show either. */
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);

		bad |= hi | lo;
		buf[i] = (uint8_t)((unsigned)hi << 4 | (unsigned)lo);
	}
	if (bad < 0) {
		explicit_bzero(buf, n / 2);
		free(buf);
		return -1;
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
