/* blockcrypt-luks benchmark: unlock time against --iter-time (PBKDF2 and Argon2id), and the latency of a
 * 4 KiB `luks read` after unlock. Public API of include/blockcrypt-luks.h only; `make bench-luks` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blockcrypt-luks.h"

static double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int make_image(const char *path, uint64_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || ftruncate(fileno(f), (off_t)size)) {
		perror(path);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Formats with iter_time_ms, then times three unlocks and one volume-key check (the digest alone), in wall
 * time and in CPU time divided by the KDF's parallelism (what the benchmark aims at; a shared machine adds
 * other programs' turns to the wall time only). */
static void iter_time(const char *dir, enum bc_luks_pbkdf kdf, uint32_t ms, uint32_t memory_kib, unsigned par)
{
	char path[4096];
	struct bc_luks_format_params p = { 0 };
	bc_luks *l;
	uint8_t vk[128];
	double t[3], c[3], d, dc;
	int n;

	snprintf(path, sizeof(path), "%s/bench-iter.img", dir);
	p.pbkdf.type = kdf;
	p.pbkdf.iter_time_ms = ms;
	p.pbkdf.memory_kib = memory_kib;
	if (make_image(path, 32 << 20) || bc_luks_format(&l, path, NULL, &p, "benchmark", 9)) {
		fprintf(stderr, "format: %s\n", bc_luks_error());
		return;
	}
	n = bc_luks_volume_key(l, vk, sizeof(vk));
	bc_luks_close(l);
	for (int i = 0; i < 3; i++) {
		if (bc_luks_open(&l, path, NULL, 0))
			return;
		double t0 = now_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);

		if (bc_luks_unlock(l, "benchmark", 9, -1) < 0)
			fprintf(stderr, "unlock: %s\n", bc_luks_error());
		t[i] = now_ms() - t0;
		c[i] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
		bc_luks_close(l);
	}
	if (bc_luks_open(&l, path, NULL, 0))
		return;
	d = now_ms();
	dc = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	bc_luks_unlock_volume_key(l, vk, (size_t)n);
	d = now_ms() - d;
	dc = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - dc;
	bc_luks_close(l);
	qsort(t, 3, sizeof(t[0]), cmp_double);
	qsort(c, 3, sizeof(c[0]), cmp_double);
	double kdf_cpu = (c[1] - dc) / par;

	printf("%-8s --iter-time %4u: unlock wall %6.0f ms (digest %4.0f ms); keyslot KDF CPU/parallelism %6.0f ms = %.2fx the target\n",
	       kdf == BC_LUKS_PBKDF2 ? "pbkdf2" : "argon2id", ms, t[1], d, kdf_cpu, kdf_cpu / ms);
	unlink(path);
}

static void read_latency(const char *dir)
{
	char path[4096];
	struct bc_luks_format_params p = { 0 };
	bc_luks *l;
	uint8_t buf[4096];
	double t[1000];
	const uint64_t size = 256u << 20;

	snprintf(path, sizeof(path), "%s/bench-read.img", dir);
	p.pbkdf.type = BC_LUKS_PBKDF2;
	p.pbkdf.iterations = 1000;
	p.data_size = size;
	if (make_image(path, 0) || bc_luks_format(&l, path, NULL, &p, "benchmark", 9)) {
		fprintf(stderr, "format: %s\n", bc_luks_error());
		return;
	}
	srand(1);
	for (int i = 0; i < 1000; i++) {
		uint64_t off = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % (size - sizeof(buf));
		double t0 = now_ms();

		if (bc_luks_read(l, off, buf, sizeof(buf)))
			fprintf(stderr, "read: %s\n", bc_luks_error());
		t[i] = now_ms() - t0;
	}
	qsort(t, 1000, sizeof(t[0]), cmp_double);
	printf("luks read of 4 KiB at a random offset of a 256 MiB image (page cache): median %.1f us, p99 %.1f us, max %.1f us\n",
	       t[500] * 1e3, t[990] * 1e3, t[999] * 1e3);
	bc_luks_close(l);
	unlink(path);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";

	read_latency(dir);
	unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN), par = cores < 4 ? cores : 4;

	iter_time(dir, BC_LUKS_PBKDF2, 1000, 0, 1);
	iter_time(dir, BC_LUKS_PBKDF2, 2000, 0, 1);
	iter_time(dir, BC_LUKS_ARGON2ID, 1000, 262144, par);
	iter_time(dir, BC_LUKS_ARGON2ID, 2000, 1048576, par);
	return 0;
}
