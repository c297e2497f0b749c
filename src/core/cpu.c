/* blockcrypt: CPU feature detection, done once (CPUID + XGETBV on x86, AT_HWCAP on arm64),
 * with the BLOCKCRYPT_DISABLE mask that lets tests reach every driver on one machine. */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

static const struct {
	const char *name;
	uint32_t bit;
	uint32_t implies_off;   /* masking this feature also masks the ones built on it */
} feature_names[] = {
	{ "aesni",   BC_CPU_AESNI,     BC_CPU_VAES },
	{ "pclmul",  BC_CPU_PCLMUL,    BC_CPU_VPCLMUL },
	{ "avx",     BC_CPU_AVX,       BC_CPU_AVX2 | BC_CPU_VAES | BC_CPU_VPCLMUL | BC_CPU_GFNI | BC_CPU_AVX512 | BC_CPU_AVX512IFMA },
	{ "avx2",    BC_CPU_AVX2,      BC_CPU_VAES | BC_CPU_VPCLMUL | BC_CPU_GFNI | BC_CPU_AVX512 | BC_CPU_AVX512IFMA },
	{ "vaes",    BC_CPU_VAES,      0 },
	{ "vpclmul", BC_CPU_VPCLMUL,   0 },
	{ "gfni",    BC_CPU_GFNI,      0 },
	{ "avx512",  BC_CPU_AVX512,    BC_CPU_AVX512VBMI | BC_CPU_AVX512IFMA },
	{ "vbmi",    BC_CPU_AVX512VBMI, 0 },
	{ "ifma",    BC_CPU_AVX512IFMA, 0 },
	{ "bmi2",    BC_CPU_BMI2,      0 },
	{ "shani",   BC_CPU_SHA,       0 },
	{ "ssse3",   BC_CPU_SSSE3,     0 },
	{ "aes",     BC_CPU_ARM_AES,   0 },
	{ "pmull",   BC_CPU_ARM_PMULL, 0 },
	{ "sm4",     BC_CPU_ARM_SM4,   0 },
	{ "sha2",    BC_CPU_ARM_SHA2,  0 },
	{ "sm3",     BC_CPU_ARM_SM3,   0 },
	{ "sha1",    BC_CPU_ARM_SHA1,  0 },
	{ "sha512",  BC_CPU_ARM_SHA512, 0 },
};
#define NFEATURES (sizeof(feature_names) / sizeof(feature_names[0]))

static uint32_t features;
static char features_string[96];
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) || defined(__i386__)
/* XGETBV without needing the xsave target: AVX code may run only if the OS
 * saves the SSE and AVX register state on context switches (XCR0 bits 1, 2). */
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* Intel CPUs that lower their clock for a while after any 512-bit
 * instruction, so that zmm code slows down everything around it (Skylake-SP
 * to Tiger Lake: family 6 models 0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x9d, 0x8c,
 * 0x8d). The Linux kernel keeps its zmm crypto off on exactly these and so
 * does blockcrypt: there BC_CPU_AVX512 is not reported, and the 256-bit
 * drivers are chosen. Rocket Lake, Sapphire Rapids and later, and AMD's
 * Zen 4 and 5, run zmm at full clock. */
static int zmm_downclocks(unsigned max)
{
	static const unsigned char models[] = { 0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x9d, 0x8c, 0x8d };
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	if (b != 0x756e6547 || d != 0x49656e69 || c != 0x6c65746e || max < 1)  /* "GenuineIntel" */
		return 0;
	__cpuid(1, a, b, c, d);
	if (((a >> 8) & 0xf) != 6)
		return 0;
	for (size_t i = 0; i < sizeof(models); i++)
		if ((((a >> 4) & 0xf) | ((a >> 12) & 0xf0)) == models[i])
			return 1;
	return 0;
}

static uint32_t detect(void)
{
	unsigned a, b, c, d, max = __get_cpuid_max(0, NULL);
	uint32_t f = 0;
	int os_avx = 0, ssse3_sse41;

	if (max < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	ssse3_sse41 = (c & bit_SSSE3) && (c & bit_SSE4_1);
	if (c & bit_SSSE3)
		f |= BC_CPU_SSSE3;
	/* AES-NI drivers also use PSHUFB (SSSE3) and PEXTR/PINSR (SSE4.1),
	 * which every AES-NI CPU has; ask for all three anyway. */
	if ((c & bit_AES) && ssse3_sse41)
		f |= BC_CPU_AESNI;
	if (c & bit_PCLMUL)
		f |= BC_CPU_PCLMUL;
	if ((c & bit_OSXSAVE) && (c & bit_AVX))
		os_avx = (xgetbv0() & 6) == 6;
	if (os_avx)
		f |= BC_CPU_AVX;
	if (max < 7)
		return f;
	__cpuid_count(7, 0, a, b, c, d);
	/* SHA-NI is SSE-encoded: no OS support beyond SSE's is needed. The
	 * driver also uses PSHUFB, PALIGNR (SSSE3) and PBLENDW (SSE4.1). */
	if ((b & bit_SHA) && ssse3_sse41)
		f |= BC_CPU_SHA;
	if (b & bit_BMI2)
		f |= BC_CPU_BMI2;
	/* AVX-512 also needs the OS to save the mask and upper zmm state (XCR0 bits 5-7) */
	if (os_avx && (b & bit_AVX2) && (b & (1u << 16)) && (b & (1u << 30)) && (b & (1u << 31)) &&
	    (xgetbv0() & 0xe0) == 0xe0 && !zmm_downclocks(max))
		f |= BC_CPU_AVX512 | ((c & (1u << 1)) ? BC_CPU_AVX512VBMI : 0) |      /* F, BW and VL; VBMI */
		     ((b & (1u << 21)) ? BC_CPU_AVX512IFMA : 0);                   /* IFMA */
	if (os_avx && (b & bit_AVX2)) {
		f |= BC_CPU_AVX2;
		if (c & (1u << 9))      /* VAES */
			f |= BC_CPU_VAES;
		if (c & (1u << 10))     /* VPCLMULQDQ */
			f |= BC_CPU_VPCLMUL;
		if (c & (1u << 8))      /* GFNI (the VEX form, on ymm) */
			f |= BC_CPU_GFNI;
	}
	return f;
}
#elif defined(__aarch64__)
static uint32_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;

	if (hw & (1ul << 3))    /* HWCAP_AES */
		f |= BC_CPU_ARM_AES;
	if (hw & (1ul << 4))    /* HWCAP_PMULL */
		f |= BC_CPU_ARM_PMULL;
	if (hw & (1ul << 19))   /* HWCAP_SM4 */
		f |= BC_CPU_ARM_SM4;
	if (hw & (1ul << 6))    /* HWCAP_SHA2 */
		f |= BC_CPU_ARM_SHA2;
	if (hw & (1ul << 18))   /* HWCAP_SM3 */
		f |= BC_CPU_ARM_SM3;
	if (hw & (1ul << 5))    /* HWCAP_SHA1 */
		f |= BC_CPU_ARM_SHA1;
	if (hw & (1ul << 21))   /* HWCAP_SHA512 */
		f |= BC_CPU_ARM_SHA512;
	return f;
}
#else
static uint32_t detect(void)
{
	return 0;
}
#endif

/* BLOCKCRYPT_DISABLE="avx2,vaes" (commas or spaces) or "all". Unknown names
 * are ignored, so one setting works on every architecture. */
static uint32_t disabled_mask(void)
{
	const char *s = getenv("BLOCKCRYPT_DISABLE");
	uint32_t mask = 0;

	while (s && *s) {
		size_t n = strcspn(s, ", ");

		if (n == 3 && !strncmp(s, "all", 3))
			mask = ~0u;
		for (size_t i = 0; i < NFEATURES; i++)
			if (strlen(feature_names[i].name) == n && !strncmp(s, feature_names[i].name, n))
				mask |= feature_names[i].bit | feature_names[i].implies_off;
		s += n;
		s += strspn(s, ", ");
	}
	return mask;
}

static void init_features(void)
{
	size_t len = 0;

	features = detect() & ~disabled_mask();
	for (size_t i = 0; i < NFEATURES; i++) {
		const char *n = feature_names[i].name;

		if (!(features & feature_names[i].bit) || len + strlen(n) + 2 > sizeof(features_string))
			continue;
		if (len)
			features_string[len++] = ' ';
		memcpy(features_string + len, n, strlen(n));
		len += strlen(n);
	}
	features_string[len] = 0;
}

uint32_t bc_cpu_features(void)
{
	pthread_once(&features_once, init_features);
	return features;
}

const char *bc_cpu_features_string(void)
{
	pthread_once(&features_once, init_features);
	return features_string;
}
