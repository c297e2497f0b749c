/* blockcrypt tool: `benchmark`, what `cryptsetup benchmark` (2.6) prints: its PBKDF2 and Argon2 rows, then the cipher
 * table (whole-key bits: aes-xts 256b is AES-128-XTS) in its columns and number formats; 4096-byte sectors, one fresh IV each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "speed.h"

#define SECTOR 4096
#define SECONDS 0.3   /* per figure by default: the whole table stays well under a minute */
#define ARGON2_MS 2000   /* cryptsetup's LUKS2 default unlock time, which its Argon2 rows ask for */

struct bench_line {
	const char *label;    /* cryptsetup's cipher-mode spelling */
	const char *name;     /* ours */
	unsigned keybits;     /* the whole key, 0 for an unkeyed hash */
};

/* cryptsetup's own lines first, in its order (N/A for a cipher the library lacks), then ours. MACs and
 * hashes fill the Encryption column; they have no decryption. */
static const struct bench_line lines[] = {
	{ "aes-cbc", "cbc(aes)", 128 },
	{ "serpent-cbc", "cbc(serpent)", 128 },
	{ "twofish-cbc", "cbc(twofish)", 128 },
	{ "aes-cbc", "cbc(aes)", 256 },
	{ "serpent-cbc", "cbc(serpent)", 256 },
	{ "twofish-cbc", "cbc(twofish)", 256 },
	{ "aes-xts", "xts(aes)", 256 },
	{ "serpent-xts", "xts(serpent)", 256 },
	{ "twofish-xts", "xts(twofish)", 256 },
	{ "aes-xts", "xts(aes)", 512 },
	{ "serpent-xts", "xts(serpent)", 512 },
	{ "twofish-xts", "xts(twofish)", 512 },
	{ "xchacha12,aes-adiantum", "adiantum(xchacha12,aes)", 256 },
	{ "xchacha20,aes-adiantum", "adiantum(xchacha20,aes)", 256 },
	{ "sm4-xts", "xts(sm4)", 256 },
	{ "camellia-cbc", "cbc(camellia)", 128 },
	{ "camellia-cbc", "cbc(camellia)", 256 },
	{ "camellia-xts", "xts(camellia)", 256 },
	{ "camellia-xts", "xts(camellia)", 512 },
	{ "aes-lrw", "lrw(aes)", 256 },
	{ "aes-lrw", "lrw(aes)", 384 },
	{ "aes-gcm", "gcm(aes)", 128 },
	{ "aes-gcm", "gcm(aes)", 256 },
	{ "aes-ecb", "ecb(aes)", 128 },
	{ "aes-ecb", "ecb(aes)", 256 },
	{ "aes-ctr", "ctr(aes)", 128 },
	{ "aes-ctr", "ctr(aes)", 256 },
	{ "aes-cts", "cts(cbc(aes))", 256 },
	{ "aes-cbc-essiv", "essiv(cbc(aes),sha256)", 256 },
	{ "sm4-ecb", "ecb(sm4)", 128 },
	{ "sm4-cbc", "cbc(sm4)", 128 },
	{ "sm4-ctr", "ctr(sm4)", 128 },
	{ "sm4-gcm", "gcm(sm4)", 128 },
	{ "aes-cmac", "cmac(aes)", 128 },
	{ "aes-cmac", "cmac(aes)", 256 },
	{ "sm4-cmac", "cmac(sm4)", 128 },
	{ "ghash", "ghash", 128 },
	{ "sha256", "sha256", 0 },
	{ "sm3", "sm3", 0 },
	{ "sha1", "sha1", 0 },
	{ "sha512", "sha512", 0 },
};

/* MiB/s of one direction, or a negative errno. */
static double mib_per_s(const struct bench_line *l, enum bc_type type, enum speed_op op, double seconds)
{
	struct speed_job j = { .name = l->name, .type = type, .keylen = l->keybits / 8, .size = SECTOR,
	                       .op = op, .seconds = seconds, .threads = 1 };
	struct speed_result r;
	int err = speed_measure(&j, &r);

	return err < 0 ? err : r.bytes_per_s / (1024.0 * 1024.0);
}

static void column(double v)
{
	if (v < 0)
		printf("  %16s", "N/A");
	else
		printf("  %10.1f MiB/s", v);
}

/* [--time S] [--iter-time MS], each at most once, in any order. */
int benchmark_parse_args(int argc, char **argv, double *seconds, unsigned *argon2_ms)
{
	int have_time = 0, have_iter = 0;

	*seconds = SECONDS;
	*argon2_ms = ARGON2_MS;
	for (int i = 1; i < argc; i += 2) {
		char *end;
		unsigned long ms;

		if (i + 1 >= argc)
			return cli_fail("usage: blockcrypt benchmark [--time S] [--iter-time MS]");
		if (!strcmp(argv[i], "--time") && !have_time++) {
			if (cli_parse_seconds(argv[i + 1], seconds) < 0)
				return cli_fail("benchmark: --time wants seconds, more than 0 and at most 3600");
		} else if (!strcmp(argv[i], "--iter-time") && !have_iter++) {
			ms = strtoul(argv[i + 1], &end, 10);
			if (*argv[i + 1] < '0' || *argv[i + 1] > '9' || *end || ms < 1 || ms > 3600000)
				return cli_fail("benchmark: --iter-time wants milliseconds, 1 to 3600000");
			*argon2_ms = (unsigned)ms;
		} else {
			return cli_fail("usage: blockcrypt benchmark [--time S] [--iter-time MS]");
		}
	}
	return 0;
}

int cmd_benchmark(int argc, char **argv)
{
	double seconds;
	unsigned argon2_ms;

	if (benchmark_parse_args(argc, argv, &seconds, &argon2_ms))
		return EXIT_USAGE;
	puts("# Tests are approximate using memory only (no storage IO).");
	fflush(stdout);
	cli_luks_benchmark_kdf(argon2_ms);
	printf("# %d-byte sectors, a fresh IV each; best %g ms batch in %g s per figure; CPU features: %s\n", SECTOR,
	       speed_batch_seconds(seconds) * 1e3, seconds, bc_cpu_features_string());
	puts("#     Algorithm |       Key |      Encryption |      Decryption");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const struct bench_line *l = &lines[i];
		struct speed_alg a;
		int r = speed_lookup(l->name, &a);

		printf("%15s", l->label);
		if (l->keybits)
			printf("  %9ub", l->keybits);
		else
			printf("  %10s", "-");
		if (r < 0) {
			column(r);
			column(r);
		} else if (a.type == BC_TYPE_SHASH) {
			column(mib_per_s(l, a.type, SPEED_DIGEST, seconds));
			column(-1);
		} else {
			column(mib_per_s(l, a.type, SPEED_ENCRYPT, seconds));
			column(mib_per_s(l, a.type, SPEED_DECRYPT, seconds));
		}
		putchar('\n');
		fflush(stdout);
	}
	/* The table keeps cryptsetup's columns; which driver ran goes underneath, once a name. */
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct speed_alg a;
		size_t j = 0;

		while (j < i && strcmp(lines[j].name, lines[i].name))
			j++;
		if (j == i && speed_lookup(lines[i].name, &a) == 0)
			printf("# %s: %s\n", lines[i].name, a.driver);
	}
	return 0;
}
