/* blockcrypt build support: asm/errno.h for 32-bit x86 builds (gcc -m32).
 * Debian's gcc-12-multilib ships no i386 <asm/> headers (gcc-multilib adds a link to the
 * x86-64 ones, but conflicts with the cross compilers); the errno values are the generic ones. */
#include <asm-generic/errno.h>
