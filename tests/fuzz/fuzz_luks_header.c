/* libFuzzer harness: the LUKS1 and LUKS2 header and JSON metadata parsers of blockcrypt-luks, through bc_luks_open and
 * bc_luks_header_restore's backup checks, and what a reader does after it (accessors, dump, keyslot queries, unlock,
 * read). LUKS1 1.2.3 and LUKS2 1.1.4. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "blockcrypt-luks.h"

/*
 * Input: a flags byte, an unlock byte, then the header file's bytes.
 *   flags bit 0: the header is detached (the data is a second, empty file of the same size)
 *   flags bit 1: keep the LUKS2 checksums as given (otherwise every LUKS2 binary header found is re-summed, so
 *                mutations reach the JSON parser instead of stopping at the checksum)
 *   flags bits 2-3: the files' size: the input's length, or at least 2, 17 or 64 MiB (sparse: the header's
 *                offsets up to there point inside the file, and read as zeros past the input)
 *   flags bits 4-7: 32-byte units added to that size (a file that ends inside a sector)
 *   unlock bit 7: the passphrase is "fuzz" (the seeds' first keyslots) or a wrong one
 *   unlock bits 0-6: the keyslot tried, modulo 34, minus 1: -1 (every slot) .. 32 (out of range); -1 with more
 *                than two active keyslots tries the first one only: under the sanitizers each keyslot's AF merge
 *                costs up to a quarter of a second (4000 stripes of a 128-byte key: 28,000 SHA-1 calls)
 * The header file is also offered as a header backup to restore onto an empty file, the question answered no.
 * The contract: no crash, hang, leak (of memory or descriptors) or write; every refusal is a negative errno with a
 * one-line reason.
 */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	/* Unlocking must stay cheap: the seeds' keyslots (PBKDF2 1000 iterations, Argon2 32 KiB, time 4) pass,
	 * anything costlier is refused with -E2BIG before it runs. */
	bc_luks_set_pbkdf_limits(128, 4, 1000);
	return 0;
}

/* LUKS2 binary headers sit at 0 and at one of these offsets (LUKS2 Table 1), each summed over hdr_size bytes. */
static const uint64_t hdr_sizes[] = { 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304 };

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Re-sums the LUKS2 binary header at off if one starts there (LUKS2 section 2.1: the checksum field zeroed, the
 * digest written at byte 448, zero-padded to 64 bytes), over its hdr_size bytes as the file holds them: the input's
 * bytes, then the zeros of the file's sparse end (so an input can stop where the JSON text does). */
static void resum(uint8_t *h, size_t n, uint64_t fsize, uint64_t off)
{
	static const char magics[2][7] = { "LUKS\xba\xbe", "SKUL\xba\xbe" };
	static const uint8_t zeros[4096];
	uint8_t *b = h + off, sum[EVP_MAX_MD_SIZE];
	uint64_t hs, have;
	const EVP_MD *md;
	EVP_MD_CTX *ctx;
	unsigned len;
	int ok;

	if (off + 4096 > n || memcmp(b, magics[off != 0], 6) || b[6] != 0 || b[7] != 2)
		return;
	hs = be64(b + 8);
	if (hs < 4096 || hs > fsize - off || !memchr(b + 72, 0, 32) || !(md = EVP_get_digestbyname((const char *)b + 72)) ||
	    EVP_MD_get_size(md) > 64 || !(ctx = EVP_MD_CTX_new()))
		return;
	memset(b + 448, 0, 64);
	have = n - off < hs ? n - off : hs;
	ok = EVP_DigestInit_ex(ctx, md, NULL) && EVP_DigestUpdate(ctx, b, have);
	for (uint64_t left = hs - have; ok && left; left -= left < sizeof(zeros) ? left : sizeof(zeros))
		ok = EVP_DigestUpdate(ctx, zeros, left < sizeof(zeros) ? left : sizeof(zeros));
	if (ok && EVP_DigestFinal_ex(ctx, sum, &len))
		memcpy(b + 448, sum, len);
	EVP_MD_CTX_free(ctx);
}

/* A memfd holding `len` bytes of p, at least `size` bytes long; returns its /proc path in path. */
static int file_of(const uint8_t *p, size_t len, uint64_t size, char path[32])
{
	int fd = memfd_create("fuzz_luks", MFD_CLOEXEC);

	if (fd < 0 || (len && write(fd, p, len) != (ssize_t)len) || (size > len && ftruncate(fd, (off_t)size)))
		abort();
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	return fd;
}

static void expect(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_luks_header: %s\n", what);
		abort();
	}
}

/* A refusal: a negative errno and a one-line reason. */
static void refused(int r, int want, const char *what)
{
	const char *e = bc_luks_error();

	expect(r < 0 && (!want || r == want), what);
	expect(*e && !strchr(e, '\n'), "a refusal without a one-line reason");
}

/* What a reader of an opened image may do without writing: every accessor, the dumps, the keyslot
 * queries, reads and key changes before unlock (refused), then one unlock and, if it opens, a read. */
static void use(bc_luks *l, uint64_t data_file_size, uint8_t unlock)
{
	int v = bc_luks_version(l), n = bc_luks_max_slots(l), slot = (unlock & 0x7f) % 34 - 1, active = 0, first = -1, r;
	unsigned ss = bc_luks_sector_size(l), kb = bc_luks_key_bytes(l);
	uint64_t off = bc_luks_data_offset(l), ds = bc_luks_data_size(l);
	const char *pass = unlock & 0x80 ? "fuzz" : "wrong";
	uint8_t buf[4096 + 16], key[256];

	expect(v == 1 || v == 2, "version");
	expect(n == (v == 1 ? 8 : 32), "keyslot count");
	expect(ss >= 512 && ss <= 4096 && !(ss & (ss - 1)), "sector size");
	expect(kb <= 128, "key size");
	expect(off <= data_file_size && ds <= data_file_size - off && ds % ss == 0, "data segment outside the data file");
	expect(strlen(bc_luks_uuid(l)) < 40 && strlen(bc_luks_cipher(l)) < 64, "uuid or cipher length");
	for (int i = -1; i <= n; i++) {
		r = bc_luks_slot_active(l, i);
		if (i < 0 || i == n)
			refused(r, -EINVAL, "slot_active out of range");
		else
			expect(r == 0 || r == 1, "slot_active");
		if (r == 1 && ++active > 2 && slot < 0)
			slot = first;
		first = r == 1 && first < 0 ? i : first;
	}
	expect(bc_luks_dump(l, devnull, 0) == 0, "dump");
	r = bc_luks_dump(l, devnull, 1);
	if (v == 1)
		refused(r, -EINVAL, "--json dump of LUKS1");
	else
		expect(r == 0, "--json dump");

	/* nothing opens, reads or changes without a key, or on a read-only image */
	refused(bc_luks_read(l, 0, buf, 16), -ENOKEY, "read before unlock");
	refused(bc_luks_write(l, 0, buf, 16), -ENOKEY, "write before unlock");
	refused(bc_luks_volume_key(l, key, sizeof(key)), -ENOKEY, "volume key before unlock");
	refused(bc_luks_add_key(l, -1, &(struct bc_luks_pbkdf_params){ .type = BC_LUKS_PBKDF2, .iterations = 1000 }, "x", 1),
	        -ENOKEY, "add_key before unlock");
	refused(bc_luks_set_uuid(l, "0d9de549-4309-4c8d-b851-ee6d00db1178"), -EBADF, "set_uuid read-only");
	for (int i = 0; i < n; i++)
		if (bc_luks_slot_active(l, i))
			refused(bc_luks_kill_slot(l, i), -EBADF, "kill_slot read-only");
	refused(bc_luks_convert(l, 3 - v), -EBADF, "convert read-only");
	refused(bc_luks_erase(l), -EBADF, "erase read-only");
	refused(bc_luks_resize(l, 0), v == 1 ? -ENOTSUP : -EBADF, "resize read-only");

	r = bc_luks_unlock(l, pass, strlen(pass), slot);
	if (r < 0) {
		refused(r, 0, "unlock");
		expect(r != -EPERM || (slot < 0 || bc_luks_slot_active(l, slot) == 1), "-EPERM for an inactive slot");
		refused(bc_luks_read(l, 0, buf, 16), -ENOKEY, "read after a failed unlock");
		return;
	}
	expect(r < n && bc_luks_slot_active(l, r) == 1 && (slot < 0 || r == slot), "unlock: the slot that opened");
	kb = bc_luks_key_bytes(l);
	expect(bc_luks_volume_key(l, key, sizeof(key)) == (int)kb && kb >= 1 && kb <= 128, "volume key size");
	/* the first bytes and the last sector, unaligned, and one byte past the end (refused) */
	size_t len = ds < sizeof(buf) - 16 ? (size_t)ds : sizeof(buf) - 16;

	expect(bc_luks_read(l, 3 < ds ? 3 : 0, buf, len > 3 ? len - 3 : 0) == 0, "read after unlock");
	if (ds)
		expect(bc_luks_read(l, ds - len, buf + 16, len) == 0, "read of the last bytes");
	refused(bc_luks_read(l, ds, buf, 1), -EINVAL, "read past the end");
	refused(bc_luks_write(l, 0, buf, 1), -EBADF, "write to a read-only image");
}

static int answer_no(const char *msg, void *arg)
{
	(void)arg;
	expect(*msg != 0, "an empty question");
	return 0;
}

/* The header file as a backup for an empty image of the same size: refused, or asked and answered no; never written. */
static void restore(const char *backup, uint64_t fsize)
{
	char tpath[32];
	int tfd = file_of(NULL, 0, fsize, tpath), r = bc_luks_header_restore(tpath, NULL, backup, answer_no, NULL);
	struct stat st;

	refused(r, 0, "restore");
	expect(!fstat(tfd, &st) && st.st_blocks == 0, "a refused restore wrote to the image");
	close(tfd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[4] = { 0, 2u << 20, 17u << 20, 64u << 20 };
	char hpath[32], dpath[32];
	uint8_t flags, unlock, *h;
	uint64_t fsize;
	bc_luks *l;
	int hfd, dfd, r;

	if (size < 2)
		return 0;
	flags = data[0];
	unlock = data[1];
	data += 2;
	size -= 2;
	h = malloc(size ? size : 1);
	memcpy(h, data, size);
	fsize = (sizes[(flags >> 2) & 3] > size ? sizes[(flags >> 2) & 3] : size) + (flags >> 4) * 32u;
	if (!(flags & 2))
		for (size_t i = 0; i <= sizeof(hdr_sizes) / sizeof(hdr_sizes[0]); i++)
			resum(h, size, fsize, i ? hdr_sizes[i - 1] : 0);
	hfd = file_of(h, size, fsize, hpath);
	dfd = flags & 1 ? file_of(NULL, 0, fsize, dpath) : -1;
	free(h);

	r = bc_luks_open(&l, flags & 1 ? dpath : hpath, flags & 1 ? hpath : NULL, 0);
	if (r)
		refused(r, 0, "open");
	else {
		use(l, fsize, unlock);
		bc_luks_close(l);
	}
	restore(hpath, fsize);
	close(hfd);
	if (dfd >= 0)
		close(dfd);
	/* hfd was the lowest free descriptor: it is again unless the library kept one open */
	r = dup(2);
	expect(r == hfd, "a file descriptor leaked");
	close(r);
	return 0;
}
