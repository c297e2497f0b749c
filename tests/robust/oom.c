/* Allocation failure and key wiping: every allocation the library makes fails in turn (the Nth, in a fresh child
 * process each, from the very first use); every tfm context it frees must be all zeros, and no driver call may leave
 * 16 bytes of its key schedule on the stack below its caller. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common.h"
#include "../common_tmpl.h"
#include "blockcrypt-fscrypt.h"

/* ---- the interposed allocator (ld --wrap): the library's calls come here ---------------- */
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
int __wrap_posix_memalign(void **p, size_t a, size_t n);
void __wrap_free(void *p);

static long fail_at;           /* 0: never */
static long calls;
static int armed;              /* counting only inside the call under test */

static int fails(void)
{
	return armed && ++calls == fail_at;
}

/* The aligned blocks (tfms and their contexts, self-test contexts) with their sizes, and
 * the tfm handle the test holds, whose block holds pointers rather than secrets. */
#define MAX_BLOCKS 4096
static struct { void *p; size_t n; } blocks[MAX_BLOCKS];
static void *handle;
static void *last_aligned;     /* the latest aligned block: after bc_*_alloc, the tfm's context */
static size_t last_aligned_size;
static long dirty_frees;

void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return fails() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }
int __wrap_posix_memalign(void **p, size_t a, size_t n) { return fails() ? ENOMEM : __real_posix_memalign(p, a, n); }

void *__wrap_aligned_alloc(size_t a, size_t n)
{
	void *p = fails() ? NULL : __real_aligned_alloc(a, n);

	if (p) {
		last_aligned = p;
		last_aligned_size = n;
	}
	for (size_t i = 0; p && i < MAX_BLOCKS; i++)
		if (!blocks[i].p) {
			blocks[i].p = p;
			blocks[i].n = n;
			break;
		}
	return p;
}

/* A word a tfm handle holds: zero, a count or a user-space pointer (below 2^47); a
 * random key word is that small with probability 2^-17. */
static int handle_word(uint64_t w)
{
	return w >> 47 == 0;
}

/* A block freed inside a failing allocation call may be the half-built tfm (the test never
 * saw its handle): that one may hold pointers and counts, never anything else. */
void __wrap_free(void *p)
{
	for (size_t i = 0; p && i < MAX_BLOCKS; i++)
		if (blocks[i].p == p) {
			const unsigned char *b = p;
			for (size_t k = 0; p != handle && k < blocks[i].n; k += armed ? 8 : 1) {
				uint64_t w = 0;
				if (armed)
					memcpy(&w, b + k, blocks[i].n - k < 8 ? blocks[i].n - k : 8);
				if (armed ? !handle_word(w) : b[k] != 0) {
					dirty_frees++;
					fprintf(stderr, "a context of %zu bytes freed with byte %zu = %02x\n", blocks[i].n, k, b[k]);
					break;
				}
			}
			blocks[i].p = NULL;
			break;
		}
	__real_free(p);
}

/* ---- the calls under test ------------------------------------------------------------------ */
static const char *const names[] = {
	"ecb(aes)", "cbc(aes)", "ctr(aes)", "cts(cbc(aes))", "xts(aes)", "essiv(cbc(aes),sha256)", "gcm(aes)",
	"cmac(aes)", "xcbc(aes)", "cbcmac(aes)", "ecb(sm4)", "cbc(sm4)", "ctr(sm4)", "cts(cbc(sm4))", "xts(sm4)",
	"essiv(cbc(sm4),sm3)", "gcm(sm4)", "cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)", "sha256", "sm3", "ghash",
	"xts(ecb(aes-generic))", "gcm_base(ctr(sm4-generic),ghash-generic)", "cmac(aes-generic)",
	"fscrypt",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* "fscrypt": a master key (its HKDF tfm), a v1 key derivation (an ecb(aes) tfm inside), a v2 name
 * key and its cipher, one name encrypted. */
static int use_fscrypt(void)
{
	static const uint8_t mk[64] = { 1, 2, 3 }, nonce[16] = { 5 };
	struct bc_fscrypt_policy pol = { .version = BC_FSCRYPT_POLICY_V1, .contents_mode = BC_FSCRYPT_MODE_AES_256_XTS,
	                                 .filenames_mode = BC_FSCRYPT_MODE_AES_256_CTS };
	uint8_t key[64], out[BC_FSCRYPT_NAME_MAX], iv[BC_FSCRYPT_MAX_IV_SIZE] = { 0 };
	bc_fscrypt_key *k;
	bc_skcipher *s;
	size_t n;
	int r;

	armed = 1;
	r = bc_fscrypt_key_alloc(&k, mk, sizeof(mk));
	if (!r) {
		r = bc_fscrypt_file_key(k, &pol, 0, nonce, key);
		pol.version = BC_FSCRYPT_POLICY_V2;
		if (!r)
			r = bc_fscrypt_file_key(k, &pol, 1, nonce, key);
		if (!r)
			r = bc_fscrypt_cipher_alloc(&s, pol.filenames_mode, key);
		armed = 0;
		if (!r) {
			handle = s;
			r = bc_fscrypt_name_encrypt(s, 0, iv, (const uint8_t *)"name", 4, out, &n) ? -EBADMSG : 0;
			bc_skcipher_free(s);
		}
		bc_fscrypt_key_free(k);
	}
	armed = 0;
	return r;
}

/* Allocates name as whatever type it is, keys it and uses it once; -ENOMEM or 0. */
static int use(const char *name)
{
	uint8_t key[64] = { 1, 2, 3 }, iv[32] = { 0 }, ad[8] = { 4 }, buf[64] = { 0 }, tag[16];   /* 32: xchacha's IV */
	bc_skcipher *s;
	bc_aead *a;
	bc_shash *h;
	int r, ok = 1;

	if (!strcmp(name, "fscrypt"))
		return use_fscrypt();
	armed = 1;
	r = bc_skcipher_alloc(&s, name);
	if (r == -ENOENT) {
		r = bc_aead_alloc(&a, name);
		if (r == -ENOENT) {
			r = bc_shash_alloc(&h, name);
			armed = 0;
			if (!r) {
				handle = h;
				ok = (starts(name, "sha") || starts(name, "sm3") || !bc_shash_setkey(h, key, 16)) &&
				     !bc_shash_digest(h, buf, 40, tag);
				bc_shash_free(h);
			}
		} else if (!r) {
			armed = 0;
			handle = a;
			ok = !bc_aead_setkey(a, key, 16) && !bc_aead_encrypt(a, iv, 12, ad, 5, buf, buf, 33, tag) &&
			     !bc_aead_decrypt(a, iv, 12, ad, 5, buf, buf, 33, tag);
			bc_aead_free(a);
		}
	} else if (!r) {
		armed = 0;
		handle = s;
		ok = !bc_skcipher_setkey(s, key, starts(name, "xts") ? 32 : 16) && !bc_skcipher_encrypt(s, iv, buf, buf, 32);
		bc_skcipher_free(s);
	}
	armed = 0;
	if (!r && !ok)
		return -EBADMSG;   /* allocated but not usable */
	return r;
}

/* ---- the stack after a driver call: no 16 bytes of the key schedule left below the caller's frame ---- */
#define STACK_SCAN 32768
#define MAX_NEEDLES 256
static uint8_t needles[MAX_NEEDLES][16];
static size_t nneedles;
static long stack_leaks;

/* The 16-byte words of a keyed context that look like key material: many distinct byte
 * values and no pointer-sized half that points into this process's address ranges. */
static void take_needles(const uint8_t *ctx, size_t n)
{
	nneedles = 0;
	for (size_t off = 0; off + 16 <= n && nneedles < MAX_NEEDLES; off += 16) {
		int seen[256] = { 0 }, distinct = 0;
		uint64_t lo, hi;

		for (int i = 0; i < 16; i++)
			distinct += !seen[ctx[off + i]]++;
		memcpy(&lo, ctx + off, 8);
		memcpy(&hi, ctx + off + 8, 8);
		if (distinct >= 12 && lo >> 40 != 0x7f && hi >> 40 != 0x7f && lo >> 40 != 0x55 && hi >> 40 != 0x55 &&
		    lo >> 40 != 0x56 && hi >> 40 != 0x56)
			memcpy(needles[nneedles++], ctx + off, 16);
	}
}

/* The driver's frames lie below its caller's: paint_stack clears that region before the call,
 * and the caller copies it (STACK_COPY, with nothing but memcpy's return address pushed on top)
 * before anything else runs there; the needles are then searched for in the copy. */
static uint8_t scan_copy[STACK_SCAN];

static __attribute__((noinline)) void paint_stack(void)
{
	volatile uint8_t a[STACK_SCAN];

	for (size_t i = 0; i < STACK_SCAN; i++)
		a[i] = 0;
	(void)a[0];
}

#define STACK_COPY(top) memcpy(scan_copy, (const void *)((uintptr_t)(top) - STACK_SCAN), STACK_SCAN)

static int stack_holds_needle(void)
{
	for (size_t k = 0; k < nneedles; k++)
		if (memmem(scan_copy, STACK_SCAN, needles[k], 16))
			return 1;
	return 0;
}

/* The scan's own check: a callee that leaves a needle in its frame. */
static __attribute__((noinline)) void leave_needle(void)
{
	volatile uint8_t a[64];

	for (int i = 0; i < 16; i++)
		a[8 + i] = needles[0][i];
	(void)a[0];
}

/* Runs call between painting and scanning the stack; a setkey first takes the needles from the
 * context it has just filled. */
#define STACK_CHECK(call, is_setkey, what)                                                      \
	do {                                                                                    \
		paint_stack();                                                                  \
		r |= (call) != 0;                                                               \
		STACK_COPY(&top);                                                               \
		if (is_setkey)                                                                  \
			take_needles(ctx, ctxsize);                                             \
		if (stack_holds_needle()) {                                                     \
			stack_leaks++;                                                          \
			CHECK(0, "%s left key schedule bytes on the stack", what);              \
		}                                                                               \
	} while (0)

static int wipe_one(const struct bc_driver_info *d, void *arg)
{
	uint8_t key[128], iv[32] = { 0 }, buf[80] = { 0 }, tag[64];   /* 32: xchacha's IV */
	unsigned ks[4];
	size_t klen, ivlen = 12, len = 64;
	int r = 0;
	const uint8_t *ctx = NULL;
	size_t ctxsize = 0;
	volatile char top = 0;   /* the driver calls' frames lie below this */
#define CTX_OF_HANDLE (ctx = last_aligned, ctxsize = last_aligned_size)

	if (d->type == BC_TYPE_CIPHER)
		return 0;
	set_context("wipe %s", d->driver);
	rng_fill(key, sizeof(key));
	alg_key_sizes(d->name, ks);
	klen = ks[0];
	if (composed_name(d->name))   /* hmac, the ESP wrappers, authenc: their own key formats and IVs */
		klen = composed_test_key(d, key, &ivlen, &len);
	if (starts(d->name, "ccm(")) {   /* the kernel's counter block: iv[0] = L - 1 = 3 */
		ivlen = 16;
		iv[0] = 3;
	}
	if (starts(d->name, "rfc7539esp("))   /* ESP's 8-byte IV */
		ivlen = 8;
	if (d->type == BC_TYPE_SKCIPHER) {
		bc_skcipher *t;
		if (!(r = bc_skcipher_alloc(&t, d->driver))) {
			handle = t;
			CTX_OF_HANDLE;
			STACK_CHECK(bc_skcipher_setkey(t, key, klen), 1, "setkey");
			STACK_CHECK(bc_skcipher_encrypt(t, iv, buf, buf, 64), 0, "encrypt");
			STACK_CHECK(bc_skcipher_decrypt(t, iv, buf, buf, 64), 0, "decrypt");
			bc_skcipher_free(t);
		}
	} else if (d->type == BC_TYPE_AEAD) {
		bc_aead *t;
		if (!(r = bc_aead_alloc(&t, d->driver))) {
			handle = t;
			CTX_OF_HANDLE;
			STACK_CHECK(bc_aead_setkey(t, key, klen), 1, "setkey");
			STACK_CHECK(bc_aead_encrypt(t, iv, ivlen, iv, 16, buf, buf, 64, tag), 0, "encrypt");
			STACK_CHECK(bc_aead_decrypt(t, iv, ivlen, iv, 16, buf, buf, 64, tag), 0, "decrypt");
			bc_aead_free(t);
		}
	} else {
		bc_shash *t;
		if (!(r = bc_shash_alloc(&t, d->driver))) {
			handle = t;
			CTX_OF_HANDLE;
			STACK_CHECK(klen ? bc_shash_setkey(t, key, klen) : 0, 1, "setkey");
			STACK_CHECK(bc_shash_update(t, buf, 41), 0, "update");
			bc_shash_free(t);   /* freed mid-message: the running state must be wiped too */
		}
	}
	CHECK(r == 0, "use");
	++*(size_t *)arg;
	return 0;
}

/* Child statuses. */
enum { DONE = 10, FAILED_CLEANLY, WRONG_ERROR, NOT_USABLE_AFTER, DIRTY };

static int child(size_t i, long n)
{
	fail_at = n;
	int r = use(names[i]);
	long reached = calls >= n;

	fail_at = 0;
	if (r && r != -ENOMEM) {
		fprintf(stderr, "%s, allocation %ld failing: %d, not -ENOMEM\n", names[i], n, r);
		return WRONG_ERROR;
	}
	/* after the failure, with memory back: the same call must work */
	if (r && use(names[i])) {
		fprintf(stderr, "%s: unusable after allocation %ld failed once\n", names[i], n);
		return NOT_USABLE_AFTER;
	}
	if (dirty_frees)
		return DIRTY;
	return reached ? FAILED_CLEANLY : DONE;
}

int main(void)
{
	test_init();
	for (size_t i = 0; i < NNAMES; i++) {
		long n;
		int status = 0;

		set_context("%s", names[i]);
		for (n = 1; n < 2000; n++) {
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0)
				exit(child(i, n));   /* exit, not _exit: LeakSanitizer checks at exit (status 23 on a leak) */
			waitpid(pid, &status, 0);
			int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			if (code == DONE)
				break;
			CHECK(code == FAILED_CLEANLY, "allocation %ld failing: child status %d", n, code);
			if (code != FAILED_CLEANLY)
				break;
		}
		printf("%-44s %ld allocations on first use, each failed in turn\n", names[i], n - 1);
	}

	/* wiping: every driver bc_list_drivers shows, keyed and used, then freed */
	set_context("wipe");
	size_t ndrivers = 0;
	bc_list_drivers(wipe_one, &ndrivers);
	CHECK(dirty_frees == 0, "%ld contexts freed with key material left", dirty_frees);
	printf("%zu drivers keyed, used and freed: %ld contexts not wiped, %ld calls left key schedule on the stack\n",
	       ndrivers, dirty_frees, stack_leaks);
	/* and the checks themselves see a context that is not wiped, and a key left on the stack */
	memset(needles[0], 0x3c, 16);
	nneedles = 1;
	volatile char top = 0;
	paint_stack();
	leave_needle();
	STACK_COPY(&top);
	CHECK(stack_holds_needle(), "the stack scan missed a planted key");
	handle = NULL;   /* the last tfm's handle, whose address the block below may reuse */
	uint8_t *volatile p = aligned_alloc(64, 64);   /* volatile: the pair must not be optimised away */
	memset(p, 0x11, 64);
	free(p);
	CHECK(dirty_frees == 1, "an unwiped block was not noticed");
	return test_summary("oom");
}
