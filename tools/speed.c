/* blockcrypt tool: `speed`, throughput of skciphers, AEADs and hashes in the Linux tcrypt output shape, CSV or JSON.
 * Output lines follow the kernel's crypto/tcrypt.c (test_skcipher_speed, test_aead_speed, test_ahash_speed). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "speed.h"

static unsigned key_lengths(const struct speed_alg *a, unsigned keybits, size_t *out);

/* tcrypt's default block sizes; 1420 is the odd one, for ciphertext stealing. */
static const size_t default_sizes[] = { 16, 64, 256, 512, 1024, 1420, 2048, 4096, 8192 };

static int parse_sizes(char *list, struct speed_opts *o)
{
	o->nsizes = 0;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (o->nsizes == SPEED_MAX_SIZES || cli_parse_size(tok, SPEED_MAX_SIZE, &o->sizes[o->nsizes]) < 0 ||
		    o->sizes[o->nsizes] == 0)
			return -1;
		o->nsizes++;
	}
	return o->nsizes ? 0 : -1;
}

/* Every NAME is checked here, before anything is measured. */
int speed_parse_args(int argc, char **argv, struct speed_opts *o)
{
	static const struct option opts[] = {
		{ "sizes", required_argument, NULL, 's' },
		{ "time", required_argument, NULL, 't' },
		{ "key-bits", required_argument, NULL, 'k' },
		{ "decrypt", no_argument, NULL, 'd' },
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "threads", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	size_t v;
	int c;

	memcpy(o->sizes, default_sizes, sizeof(default_sizes));
	o->nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
	o->threads = 1;
	o->seconds = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_sizes(optarg, o) < 0)
				return cli_fail("speed: --sizes wants up to %d comma-separated sizes from 1 to %u bytes",
				                SPEED_MAX_SIZES, SPEED_MAX_SIZE);
			break;
		case 't':
			if (cli_parse_seconds(optarg, &o->seconds) < 0)
				return cli_fail("speed: --time wants seconds, more than 0 and at most 3600");
			break;
		case 'k':
			if (cli_parse_size(optarg, 512, &v) < 0 || v == 0 || v % 8)
				return cli_fail("speed: --key-bits wants a whole number of bytes in bits (128, 256, ...)");
			o->keybits = (unsigned)v;
			break;
		case 'd':
			o->decrypt = 1;
			break;
		case 'c':
		case 'j':
			if (o->fmt != FMT_TCRYPT)
				return cli_fail("speed: --csv and --json exclude each other");
			o->fmt = c == 'c' ? FMT_CSV : FMT_JSON;
			break;
		case 'n':
			if (cli_parse_size(optarg, SPEED_MAX_THREADS, &v) < 0 || v == 0)
				return cli_fail("speed: --threads wants 1 to %d", SPEED_MAX_THREADS);
			o->threads = (unsigned)v;
			break;
		default:
			return cli_fail("speed: unknown or incomplete option '%s' (see blockcrypt --help)", argv[optind - 1]);
		}
	}
	o->names = argv + optind;
	o->nnames = (unsigned)(argc - optind);
	for (unsigned i = 0; i < o->nnames; i++) {
		struct speed_alg a;
		size_t keys[SPEED_MAX_KEYS];
		int r = speed_lookup(o->names[i], &a);

		if (r == -ENOENT)
			return cli_fail("speed: unknown skcipher, AEAD or hash '%s' (see blockcrypt list)", o->names[i]);
		if (r < 0)
			return cli_fail("speed: %s: %s", o->names[i], strerror(-r));
		if (!key_lengths(&a, o->keybits, keys))
			return cli_fail("speed: %s takes no %u-bit key (it takes %zu to %zu bits)", o->names[i], o->keybits,
			                a.keylen[0] * 8, a.keylen[a.nkeys - 1] * 8);
	}
	return 0;
}

/* Every algorithm name the registry lists, once, in its order: what `speed` with no NAME measures. */
struct name_list {
	const char **v;
	unsigned n, cap;
};

static int collect_name(const struct bc_driver_info *d, void *arg)
{
	struct name_list *l = arg;

	if (d->type == BC_TYPE_CIPHER)
		return 0;
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], d->name))
			return 0;
	if (l->n == l->cap) {
		const char **nv = realloc(l->v, (l->cap * 2 + 16) * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = l->cap * 2 + 16;
	}
	l->v[l->n++] = d->name;
	return 0;
}

/* The key lengths to measure: --key-bits, or all the usual ones the algorithm takes.
 * 0 stands for an unkeyed hash. Returns how many (0: --key-bits does not suit it). */
static unsigned key_lengths(const struct speed_alg *a, unsigned keybits, size_t *out)
{
	if (a->nkeys == 0) {
		out[0] = 0;
		return 1;
	}
	if (!keybits) {
		memcpy(out, a->keylen, a->nkeys * sizeof(*out));
		return a->nkeys;
	}
	for (unsigned i = 0; i < a->nkeys; i++)
		if (a->keylen[i] * 8 == keybits) {
			out[0] = a->keylen[i];
			return 1;
		}
	return 0;
}

static const char *op_name(enum speed_op op)
{
	return op == SPEED_DIGEST ? "digest" : op == SPEED_DECRYPT ? "decrypt" : "encrypt";
}

/* A CSV field, quoted when it holds a comma or a quote (RFC 4180): essiv(cbc(aes),sha256). */
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void heading(const struct speed_opts *o, const char *name, const struct speed_alg *a, size_t keylen,
                    enum speed_op op)
{
	if (o->fmt != FMT_TCRYPT)
		return;
	if (op == SPEED_DIGEST && keylen)
		printf("\ntesting speed of %s (%s) with %zu bit key\n", name, a->driver, keylen * 8);
	else if (op == SPEED_DIGEST)
		printf("\ntesting speed of %s (%s)\n", name, a->driver);
	else
		printf("\ntesting speed of %s (%s) %s\n", name, a->driver,
		       op == SPEED_DECRYPT ? "decryption" : "encryption");
}

static void report(struct speed_opts *o, const char *name, const struct speed_alg *a, const struct speed_job *j,
                   unsigned test, const struct speed_result *r)
{
	unsigned long long ops = (unsigned long long)llround(r->ops_per_s * o->seconds);

	switch (o->fmt) {
	case FMT_TCRYPT:
		if (j->op == SPEED_DIGEST)
			printf("test%3u (%5zu byte blocks,%5zu bytes per update,%4u updates): %6.0f opers/sec, %9.0f bytes/sec, %.3f cycles/byte\n",
			       test, r->size, r->size, 1u, r->ops_per_s, r->bytes_per_s, r->cycles_per_byte);
		else
			printf("test %u (%zu bit key, %zu byte blocks): %llu operations in %g seconds (%llu bytes), %.3f cycles/byte\n",
			       test, j->keylen * 8, r->size, ops, o->seconds, ops * r->size, r->cycles_per_byte);
		break;
	case FMT_CSV:
		csv_field(name);
		putchar(',');
		csv_field(a->driver);
		printf(",%zu,%s,%zu,%.1f,%.0f,%.3f\n", j->keylen * 8, op_name(j->op), r->size, r->ops_per_s,
		       r->bytes_per_s, r->cycles_per_byte);
		break;
	case FMT_JSON:
		printf(o->emitted++ ? ",\n  {\"name\": " : "[\n  {\"name\": ");
		json_string(name);
		printf(", \"driver\": ");
		json_string(a->driver);
		printf(", \"keybits\": %zu, \"op\": \"%s\", \"size\": %zu, \"ops_per_s\": %.1f, \"bytes_per_s\": %.0f, "
		       "\"cycles_per_byte\": %.3f}", j->keylen * 8, op_name(j->op), r->size, r->ops_per_s,
		       r->bytes_per_s, r->cycles_per_byte);
		break;
	}
	fflush(stdout);
	if (r->kept == 0)
		fprintf(stderr, "blockcrypt: note: %s at %zu bytes: every batch lost the CPU for a while; the figure is low\n",
		        name, r->size);
}

/* Measures one algorithm at every key length and size; 0 or an exit status. */
static int speed_alg(struct speed_opts *o, const char *name, const struct speed_alg *a, const size_t *keys,
                     unsigned nkeys)
{
	struct speed_job j = { .name = name, .type = a->type, .seconds = o->seconds, .threads = o->threads };
	unsigned test = 0;

	j.op = a->type == BC_TYPE_SHASH ? SPEED_DIGEST : o->decrypt ? SPEED_DECRYPT : SPEED_ENCRYPT;
	for (unsigned k = 0; k < nkeys; k++) {
		j.keylen = keys[k];
		if (k == 0 || j.op == SPEED_DIGEST)
			heading(o, name, a, j.keylen, j.op);
		for (unsigned s = 0; s < o->nsizes; s++) {
			struct speed_result r;
			int err;

			j.size = o->sizes[s];
			err = speed_measure(&j, &r);
			if (err < 0)
				return cli_fail("speed: %s with a %zu-bit key at %zu bytes: %s", name, j.keylen * 8, j.size,
				                strerror(-err));
			report(o, name, a, &j, test++, &r);
		}
	}
	return 0;
}

int cmd_speed(int argc, char **argv)
{
	struct speed_opts o = { 0 };
	struct name_list all = { 0 };
	const char *const *names;
	unsigned nnames;
	int r = speed_parse_args(argc, argv, &o);
	FILE *notes;

	if (r)
		return r;
	if (o.nnames) {
		names = (const char *const *)o.names;
		nnames = o.nnames;
	} else {
		if (bc_list_drivers(collect_name, &all) < 0)
			return cli_fail("speed: out of memory");
		names = all.v;
		nnames = all.n;
	}
	notes = o.fmt == FMT_TCRYPT ? stdout : stderr;
	fprintf(notes, "# blockcrypt speed: after a warm-up, timed batches of %g ms for about %g s per line; the best "
	        "batch is reported, among those in which every thread had the CPU at least %.0f%% of the wall time; "
	        "%u thread%s%s\n", speed_batch_seconds(o.seconds) * 1e3, o.seconds, SPEED_MIN_CPU_SHARE * 100,
	        o.threads, o.threads > 1 ? "s" : "", o.threads > 1 ? " on independent buffers, operations added up" : "");
	fprintf(notes, "# cycles/byte: %s; %.2f GHz now\n", speed_clock_method, speed_core_hz() / 1e9);
	if (o.fmt == FMT_CSV)
		puts("name,driver,keybits,op,size,ops_per_s,bytes_per_s,cycles_per_byte");
	for (unsigned i = 0; i < nnames && r == 0; i++) {
		struct speed_alg a;
		size_t keys[SPEED_MAX_KEYS];
		unsigned nkeys;

		if (speed_lookup(names[i], &a) < 0)
			continue;
		nkeys = key_lengths(&a, o.keybits, keys);
		if (nkeys)
			r = speed_alg(&o, names[i], &a, keys, nkeys);
	}
	if (o.fmt == FMT_JSON)
		puts(o.emitted ? "\n]" : "[]");
	free(all.v);
	if (fflush(stdout) && r == 0)
		r = cli_fail("cannot write standard output: %s", strerror(errno));
	return r;
}
