/* blockcrypt build support: asm/posix_types.h for 32-bit x86 builds (gcc -m32), reached through glibc's
 * <fcntl.h> (linux/falloc.h); the i386 definitions are those the x86-64 kernel headers carry for 32-bit. */
#include <x86_64-linux-gnu/asm/posix_types_32.h>
