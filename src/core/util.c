/* blockcrypt: small helpers every part of the library shares (key wiping, tag comparison).
 * bc_memneq is the constant-time comparison SP 800-38D section 7.2 asks for in tag checks. */
#include "internal.h"

/* A memset through a volatile pointer: the compiler may not drop it even
 * when the buffer is dead afterwards, which is exactly when keys are wiped. */
void bc_wipe(void *p, size_t len)
{
	volatile uint8_t *v = p;

	while (len--)
		*v++ = 0;
}

/* Every byte is read whatever the data; the result depends only on the OR of
 * the differences, so timing says nothing about where a tag differs. */
int bc_memneq(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;
	uint8_t d = 0;

	for (size_t i = 0; i < len; i++)
		d |= x[i] ^ y[i];
	return d != 0;
}
