/* blockcrypt: small helpers every part of the library shares (key wiping, tag comparison).
 * bc_memneq is the constant-time comparison SP 800-38D section 7.2 asks for in tag checks. */
#include "internal.h"

/* Keys are wiped exactly when their buffer is dead, which is when a
 * compiler may drop a plain memset. With GNU C an empty asm that takes the
 * pointer and clobbers memory makes the stores observable (the
 * explicit_bzero technique) while memset stays fast; elsewhere, a byte loop
 * through a volatile pointer. */
void bc_wipe(void *p, size_t len)
{
#if defined(__GNUC__)
	memset(p, 0, len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	volatile uint8_t *v = p;

	while (len--)
		*v++ = 0;
#endif
}

/* noinline: its frame must lie where the caller's callee had its own. */
__attribute__((noinline)) void bc_burn_stack(void)
{
	uint8_t buf[BC_BURN_STACK];

	bc_wipe(buf, sizeof(buf));
}

__attribute__((noinline)) void bc_burn_stack_deep(void)
{
	uint8_t buf[BC_BURN_STACK_DEEP];

	bc_wipe(buf, sizeof(buf));
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
