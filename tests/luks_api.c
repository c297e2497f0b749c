/* blockcrypt-luks C API tests: unaligned reads and writes against a shadow copy, bulk encryption and decryption
 * with 1 and 3 threads, keyslot life cycle, error codes, PBKDF bounds, refused formats writing nothing (LUKS1, LUKS2, plain). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockcrypt-luks.h"

static int pass_n, fail_n;
static char dir[] = "/tmp/luks_api.XXXXXX";

#define CHECK(cond, ...) do { if (cond) pass_n++; else { fail_n++; printf("FAIL: " __VA_ARGS__); \
	printf(" (%s:%d) [%s]\n", __FILE__, __LINE__, bc_luks_error()); } } while (0)

static void path_of(char *out, const char *name)
{
	snprintf(out, 256, "%s/%s", dir, name);
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static int new_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

static int same_file(const char *path, const uint8_t *want, size_t n)
{
	uint8_t *got = malloc(n + 1);
	int fd = open(path, O_RDONLY), ok;
	ssize_t r = fd < 0 ? -1 : read(fd, got, n + 1);

	ok = r == (ssize_t)n && !memcmp(got, want, n);
	if (fd >= 0)
		close(fd);
	free(got);
	return ok;
}

/* Random unaligned writes mirrored in a shadow buffer, then reads in other pieces, then bulk decryption. */
static void io_checks(bc_luks *l, const char *what)
{
	const size_t size = bc_luks_data_size(l);
	uint8_t *shadow = malloc(size), *buf = malloc(size);
	char out[256];
	unsigned seed = 7;

	CHECK(bc_luks_read(l, 0, shadow, size) == 0, "%s: read all", what);
	for (int i = 0; i < 40; i++) {
		seed = seed * 1103515245u + 12345u;
		size_t off = (seed >> 4) % size, len = 1 + (seed >> 9) % 20000;

		if (len > size - off)
			len = size - off;
		fill(buf, len, seed);
		memcpy(shadow + off, buf, len);
		if (bc_luks_write(l, off, buf, len)) {
			CHECK(0, "%s: write %zu at %zu", what, len, off);
			break;
		}
	}
	pass_n++;
	int ok = 1;

	for (size_t off = 0; off < size && ok; off += 3001) {
		size_t len = size - off < 3001 ? size - off : 3001;

		ok = !bc_luks_read(l, off, buf, len) && !memcmp(buf, shadow + off, len);
	}
	CHECK(ok, "%s: reads after unaligned writes", what);
	CHECK(bc_luks_read(l, size - 1, buf, 2) == -EINVAL, "%s: read past the end", what);
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		path_of(out, "dec");
		int fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);

		CHECK(fd >= 0 && bc_luks_decrypt_to(l, fd, threads, NULL, NULL) == 0, "%s: decrypt_to, %u threads", what, threads);
		if (fd >= 0)
			close(fd);
		CHECK(same_file(out, shadow, size), "%s: decrypt_to output, %u threads", what, threads);
	}
	free(shadow);
	free(buf);
}

static void luks_image(int version)
{
	struct bc_luks_format_params p = { 0 };
	struct bc_luks_pbkdf_params kdf = { .type = BC_LUKS_PBKDF2, .iterations = 1000 };
	char img[256], what[32];
	uint8_t vk[128], vk2[128];
	bc_luks *l;
	int n, r;

	snprintf(what, sizeof(what), "LUKS%d", version);
	path_of(img, version == 1 ? "l1.img" : "l2.img");
	new_file(img);
	p.version = version;
	p.pbkdf = kdf;
	p.data_size = version == 2 ? 1 << 20 : 0;
	p.sector_size = version == 2 ? 4096 : 0;
	p.data_offset = version == 1 ? 0 : 0;
	p.keyslot = -1;
	if (bc_luks_format(&l, img, NULL, &p, "one", 3)) {
		CHECK(0, "%s: format", what);
		return;
	}
	pass_n++;
	if (version == 1) {
		/* LUKS1 segments run to the end of the file: 1 MiB after the 2 MiB of header */
		bc_luks_close(l);
		truncate(img, 3 << 20);
		r = bc_luks_open(&l, img, NULL, 1);
		CHECK(r == 0 && bc_luks_unlock(l, "one", 3, -1) == 0, "%s: reopen", what);
	}
	io_checks(l, what);
	n = bc_luks_volume_key(l, vk, sizeof(vk));
	CHECK(n == 64, "%s: volume key size %d", what, n);
	CHECK(bc_luks_add_key(l, 3, &kdf, "three", 5) == 3, "%s: add-key to slot 3", what);
	CHECK(bc_luks_add_key(l, 3, &kdf, "again", 5) == -EEXIST, "%s: slot 3 is taken", what);
	CHECK(bc_luks_kill_slot(l, 0) == 0, "%s: kill slot 0", what);
	CHECK(bc_luks_slot_active(l, 0) == 0 && bc_luks_slot_active(l, 3) == 1, "%s: slot states", what);
	bc_luks_close(l);

	CHECK(bc_luks_open(&l, img, NULL, 0) == 0, "%s: open read-only", what);
	CHECK(bc_luks_read(l, 0, vk2, 16) == -ENOKEY, "%s: read before unlock", what);
	CHECK(bc_luks_unlock(l, "one", 3, -1) == -EPERM, "%s: killed passphrase refused", what);
	CHECK(bc_luks_unlock(l, "three", 5, 0) == -EINVAL, "%s: inactive slot named", what);
	CHECK(bc_luks_unlock(l, "three", 5, 99) == -EINVAL, "%s: slot out of range", what);
	bc_luks_set_pbkdf_limits(1048576, 100, 999);
	CHECK(bc_luks_unlock(l, "three", 5, -1) == -E2BIG, "%s: PBKDF2 iterations above the bound", what);
	bc_luks_set_pbkdf_limits(1048576, 100, 50000000);
	CHECK(bc_luks_unlock(l, "three", 5, -1) == 3, "%s: unlock slot 3", what);
	CHECK(bc_luks_volume_key(l, vk2, sizeof(vk2)) == n && !memcmp(vk, vk2, (size_t)n), "%s: same volume key", what);
	CHECK(bc_luks_write(l, 0, vk2, 1) == -EBADF, "%s: write to a read-only image", what);
	bc_luks_close(l);

	CHECK(bc_luks_open(&l, img, NULL, 1) == 0, "%s: open", what);
	vk[0] ^= 1;
	CHECK(bc_luks_unlock_volume_key(l, vk, (size_t)n) == -EPERM, "%s: wrong volume key", what);
	vk[0] ^= 1;
	CHECK(bc_luks_unlock_volume_key(l, vk, (size_t)n) == 0, "%s: volume key unlocks", what);
	CHECK(bc_luks_change_key(l, 3, -1, &kdf, "four", 4) >= 0, "%s: change-key", what);
	bc_luks_close(l);
	CHECK(bc_luks_open(&l, img, NULL, 0) == 0 && bc_luks_unlock(l, "four", 4, -1) == (version == 2 ? 3 : 0),
	      "%s: changed key opens (slot kept on LUKS2, first free on LUKS1)", what);
	CHECK(bc_luks_unlock(l, "three", 5, -1) == -EPERM, "%s: old key refused after change-key", what);
	bc_luks_close(l);

	/* the slot rules of cryptsetup's luksChangeKey: in place when asked, to another slot, LUKS1 full: in place */
	int s = version == 2 ? 3 : 0;

	CHECK(bc_luks_open(&l, img, NULL, 1) == 0 && bc_luks_unlock(l, "four", 4, -1) == s, "%s: reopen", what);
	CHECK(bc_luks_change_key(l, s, s, &kdf, "five", 4) == s, "%s: change-key in place", what);
	CHECK(bc_luks_change_key(l, s, 5, &kdf, "six", 3) == 5, "%s: change-key to slot 5", what);
	CHECK(bc_luks_slot_active(l, s) == 0, "%s: the old slot is wiped", what);
	CHECK(bc_luks_change_key(l, 5, 99, &kdf, "x", 1) == -EINVAL, "%s: change-key to a slot out of range", what);
	for (int i = 0; version == 1 && i < 8; i++)
		if (i != 5)
			CHECK(bc_luks_add_key(l, i, &kdf, "filler", 6) == i, "%s: fill slot %d", what, i);
	CHECK(bc_luks_change_key(l, 5, -1, &kdf, "seven", 5) == 5,
	      "%s: change-key keeps the slot (LUKS2; LUKS1 when no slot is free)", what);
	bc_luks_close(l);
	CHECK(bc_luks_open(&l, img, NULL, 0) == 0 && bc_luks_unlock(l, "seven", 5, -1) == 5, "%s: changed in place", what);
	CHECK(bc_luks_unlock(l, "six", 3, -1) == -EPERM && bc_luks_unlock(l, "five", 4, -1) == -EPERM,
	      "%s: the replaced passphrases are refused", what);
	bc_luks_close(l);
}

/* The whole file, malloc'ed (*n bytes). */
static uint8_t *slurp(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY);
	off_t end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	uint8_t *p = end > 0 ? malloc((size_t)end) : NULL;

	*n = p && pread(fd, p, (size_t)end, 0) == end ? (size_t)end : 0;
	if (fd >= 0)
		close(fd);
	return p;
}

static int answer_no(const char *msg, void *arg)
{
	*(int *)arg = strstr(msg, "already contains LUKS2 header") != NULL;
	return 0;
}

static int answer_yes(const char *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return 1;
}

/* header backup and restore, convert both ways on one handle, erase */
static void header_care(void)
{
	struct bc_luks_format_params p = { .version = 2, .pbkdf = { .type = BC_LUKS_PBKDF2, .iterations = 1000 }, .keyslot = -1 };
	char img[256], bak[256];
	uint8_t *before, *after, junk[4096];
	size_t n, m;
	bc_luks *l;
	int fd, asked = 0;

	path_of(img, "care.img");
	path_of(bak, "care.bak");
	new_file(img);
	if (truncate(img, 17 << 20) || bc_luks_format(&l, img, NULL, &p, "one", 3)) {
		CHECK(0, "care: format");
		return;
	}
	CHECK(bc_luks_header_backup(l, bak) == 0, "care: backup");
	CHECK(bc_luks_header_backup(l, bak) == -EEXIST, "care: no backup over an existing file");
	CHECK(bc_luks_convert(l, 2) == -EINVAL, "care: already LUKS2");
	bc_luks_close(l);
	before = slurp(img, &n);
	CHECK(bc_luks_header_restore(img, NULL, bak, answer_no, &asked) == -ECANCELED && asked, "care: restore not confirmed");
	after = slurp(img, &m);
	CHECK(n && m == n && !memcmp(before, after, n), "care: the unconfirmed restore wrote nothing");
	free(after);
	fill(junk, sizeof(junk), 7);
	fd = open(img, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, junk, sizeof(junk), 0) == (ssize_t)sizeof(junk), "care: damage the header");
	close(fd);
	CHECK(bc_luks_header_restore(img, NULL, bak, answer_yes, NULL) == 0, "care: restore");
	after = slurp(img, &m);
	CHECK(m == n && !memcmp(before, after, n), "care: the restored image is the original");
	free(after);
	free(before);
	CHECK(bc_luks_open(&l, img, NULL, 0) == 0, "care: open read-only");
	CHECK(bc_luks_convert(l, 1) == -EBADF, "care: no convert of a read-only image");
	bc_luks_close(l);
	CHECK(bc_luks_open(&l, img, NULL, 1) == 0, "care: open");
	CHECK(bc_luks_convert(l, 3) == -EINVAL, "care: no LUKS3");
	CHECK(bc_luks_convert(l, 1) == 0 && bc_luks_version(l) == 1, "care: to LUKS1");
	CHECK(bc_luks_unlock(l, "one", 3, -1) == 0, "care: the converted handle unlocks");
	CHECK(bc_luks_resize(l, 1 << 20) == -ENOTSUP, "care: LUKS1 has no segment size");
	CHECK(bc_luks_convert(l, 2) == 0 && bc_luks_version(l) == 2, "care: back to LUKS2");
	CHECK(bc_luks_add_key(l, -1, &p.pbkdf, "two", 3) == 1, "care: a key added after the round trip");
	CHECK(bc_luks_resize(l, 1 << 20) == 0 && bc_luks_data_size(l) == 1 << 20, "care: resize to 1 MiB");
	CHECK(bc_luks_resize(l, 1000) == -EINVAL && bc_luks_data_size(l) == 1 << 20, "care: resize to a partial sector");
	CHECK(bc_luks_resize(l, 0) == 0 && bc_luks_data_size(l) == 1 << 20 && bc_luks_resize(l, 2 << 20) == 0 && bc_luks_data_size(l) == 2 << 20,
	      "care: resize to the end of the file, then beyond it");
	CHECK(bc_luks_erase(l) == 0, "care: erase");
	CHECK(bc_luks_unlock(l, "two", 3, -1) == -EPERM, "care: nothing opens the erased handle");
	bc_luks_close(l);
	CHECK(bc_luks_open(&l, img, NULL, 0) == 0 && bc_luks_unlock(l, "one", 3, -1) == -EPERM,
	      "care: nothing opens the erased image");
	bc_luks_close(l);
}

static void refused_format(void)
{
	struct bc_luks_format_params p = { .pbkdf = { .type = BC_LUKS_PBKDF2, .iterations = 1000 } };
	static const char *bad[] = { "nosuchcipher-xts-plain64", "aes-xts-tcw", "aes", "aes:64-cbc-lmk", "aes-cbc-lmk",
		"aes-cbc-random", "aes-xts", "aes-cbc-essiv:sha512", "aes-cbc-essiv:nosuchhash", "aes-cbc-plain64:x",
		"aes-nosuchmode-plain64", "capi:cbc(aes)", "aes--plain64" };
	uint8_t content[8192];
	char img[256];
	bc_luks *l;

	path_of(img, "refused.img");
	fill(content, sizeof(content), 99);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(img, "w");

		fwrite(content, 1, sizeof(content), f);
		fclose(f);
		p.cipher = bad[i];
		int r = bc_luks_format(&l, img, NULL, &p, "x", 1);

		CHECK(r == -ENOTSUP || r == -EINVAL, "format with %s refused (%d)", bad[i], r);
		CHECK(same_file(img, content, sizeof(content)), "format with %s wrote nothing", bad[i]);
	}
	p.cipher = NULL;
	p.pbkdf.iterations = 4000000000u;
	CHECK(bc_luks_format(&l, img, NULL, &p, "x", 1) == -E2BIG, "format with 4e9 forced iterations refused");
	CHECK(same_file(img, content, sizeof(content)), "refused costly format wrote nothing");
	p.pbkdf.iterations = 1000;
	p.uuid = "not-a-uuid";
	CHECK(bc_luks_format(&l, img, NULL, &p, "x", 1) == -EINVAL, "format with a bad UUID refused");
	CHECK(same_file(img, content, sizeof(content)), "refused UUID format wrote nothing");
}

static int write_file(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600), ok;

	ok = fd >= 0 && write(fd, p, n) == (ssize_t)n && !fsync(fd);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Bulk encryption and decryption of a plaintext larger than the writeback window (more than 3 + 8 chunks of 4 MiB),
 * its size a multiple of neither the chunk nor the sector, in `where` (a disk file system and tmpfs, which has no
 * writeback): a data offset not aligned for direct I/O with 512-byte sectors, 1 thread and the plaintext out of the
 * page cache (read with direct I/O), then an aligned one with 4096-byte sectors, 3 threads and the plaintext cached.
 * The image must equal the one the sector-by-sector path (bc_luks_write) makes under the same key. */
static void bulk_checks(const char *where)
{
	const size_t size = (50u << 20) + 1000;
	uint8_t key[64], *plain = malloc(size + 4096), *got = malloc((16u << 20) + size + 4096);
	char in[256], img[256], ref[256], out[256];

	snprintf(in, sizeof(in), "%s/bulk.in", where);
	snprintf(img, sizeof(img), "%s/bulk.img", where);
	snprintf(ref, sizeof(ref), "%s/bulk.ref", where);
	snprintf(out, sizeof(out), "%s/bulk.out", where);
	fill(plain, size, 11);
	fill(key, sizeof(key), 12);
	CHECK(write_file(in, plain, size), "%s: plaintext file", where);
	for (int pass = 0; pass < 2; pass++) {
		const unsigned sector = pass ? 4096 : 512, threads = pass ? 3 : 1;
		const uint64_t offset = pass ? 16u << 20 : 1536, iv_offset = pass ? 40 : 0;
		const size_t padded = (size + sector - 1) / sector * sector;
		int fd = open(in, O_RDONLY), fo;
		bc_luks *l;

		memset(plain + size, 0, padded - size);
		if (pass)
			CHECK(fd >= 0 && read(fd, got, size) == (ssize_t)size, "%s: plaintext read into the cache", where);
		else
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		new_file(img);
		truncate(img, (off_t)offset);   /* the data segment begins empty and grows */
		if (bc_luks_open_plain(&l, img, "aes-xts-plain64", key, 64, sector, pass, offset, 0, iv_offset, 1)) {
			CHECK(0, "%s: plain open of %s", where, img);
			close(fd);
			break;
		}
		CHECK(bc_luks_encrypt_from(l, fd, size, threads, NULL, NULL) == 0, "%s: encrypt_from, %u threads", where,
		      threads);
		close(fd);
		CHECK(bc_luks_data_size(l) == padded, "%s: data size %zu after encrypt_from", where, padded);
		fo = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
		CHECK(fo >= 0 && bc_luks_decrypt_to(l, fo, threads, NULL, NULL) == 0, "%s: decrypt_to, %u threads", where,
		      threads);
		if (fo >= 0)
			close(fo);
		CHECK(same_file(out, plain, padded), "%s: decrypted plaintext, %u-byte sectors", where, sector);
		bc_luks_close(l);

		new_file(ref);
		truncate(ref, (off_t)(offset + padded));
		if (bc_luks_open_plain(&l, ref, "aes-xts-plain64", key, 64, sector, pass, offset, 0, iv_offset, 1)) {
			CHECK(0, "%s: plain open of %s", where, ref);
			break;
		}
		CHECK(bc_luks_write(l, 0, plain, padded) == 0, "%s: sector-by-sector reference", where);
		bc_luks_close(l);
		fd = open(ref, O_RDONLY);
		CHECK(fd >= 0 && read(fd, got, offset + padded) == (ssize_t)(offset + padded) &&
		      same_file(img, got, offset + padded), "%s: bulk image equals the reference, %u-byte sectors", where,
		      sector);
		if (fd >= 0)
			close(fd);
	}
	unlink(in);
	unlink(img);
	unlink(ref);
	unlink(out);
	free(plain);
	free(got);
}

static void plain_image(void)
{
	uint8_t key[64];
	char img[256];
	bc_luks *l;

	path_of(img, "plain.img");
	new_file(img);
	truncate(img, 3 << 20);
	fill(key, sizeof(key), 5);
	if (bc_luks_open_plain(&l, img, "aes-xts-plain64", key, 64, 1024, 1, 65536, 1 << 20, 40, 1)) {
		CHECK(0, "plain open");
		return;
	}
	pass_n++;
	io_checks(l, "plain");
	bc_luks_close(l);
	CHECK(bc_luks_open_plain(&l, img, "aes-xts-plain64", key, 64, 1000, 0, 0, 0, 0, 0) == -EINVAL, "plain: bad sector size");
	CHECK(bc_luks_open_plain(&l, img, "aes-xts-essiv:sha512", key, 64, 512, 0, 0, 0, 0, 0) == -EINVAL,
	      "plain: essiv:sha512 with aes refused (a 512-bit salt is no AES key)");
	CHECK(bc_luks_open_plain(&l, img, "aes-ctr-eboiv", key, 32, 512, 0, 0, 0, 0, 0) == -EINVAL,
	      "plain: eboiv with ctr refused (block and IV sizes differ)");
	if (!bc_luks_open_plain(&l, img, "aes-xts-essiv:sha256", key, 64, 512, 0, 0, 0, 0, 0)) {
		pass_n++;   /* dm-crypt builds essiv over any mode */
		bc_luks_close(l);
	} else {
		CHECK(0, "plain: aes-xts-essiv:sha256 refused");
	}
	key[32] = key[0];
	memcpy(key + 32, key, 32);
	CHECK(bc_luks_open_plain(&l, img, "aes-xts-plain64", key, 64, 512, 0, 0, 0, 0, 0) == -EINVAL,
	      "plain: equal xts key halves refused");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	luks_image(2);
	luks_image(1);
	header_care();
	refused_format();
	plain_image();
	bulk_checks(dir);
	char cmd[300], shm[] = "/dev/shm/luks_api.XXXXXX";

	if (mkdtemp(shm)) {
		bulk_checks(shm);
		rmdir(shm);
	}

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	printf("luks_api: %d passed, %d failed\n", pass_n, fail_n);
	return fail_n != 0;
}
