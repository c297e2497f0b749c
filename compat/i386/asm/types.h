/* blockcrypt build support: asm/types.h for 32-bit x86 builds (gcc -m32), reached through glibc's
 * <fcntl.h> (linux/falloc.h); see errno.h beside this file. The generic header is i386's. */
#include <asm-generic/types.h>
