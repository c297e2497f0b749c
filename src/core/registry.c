/* blockcrypt: the registry of drivers: name, driver name, priority, CPU needs, self-test state,
 * and template instances built over the best inner drivers (as Linux crypto/algapi.c and api.c do). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers.h"
#include "selftest.h"
#include "../mode/mode.h"

extern const struct bc_cipher_alg *const bc_cipher_drivers[];
extern const struct bc_skcipher_alg *const bc_skcipher_drivers[];
extern const struct bc_aead_alg *const bc_aead_drivers[];
extern const struct bc_shash_alg *const bc_shash_drivers[];

#define NAME_MAX_LEN 192

struct entry {
	enum bc_type type;
	const void *alg;                 /* struct bc_cipher_alg / _skcipher_ / _aead_ / _shash_alg */
	const char *name, *driver;
	int priority;
	uint32_t cpu;
	int state;                       /* 0 not yet tested, 1 passed, -1 failed */
	struct entry *next;
};

/* A template instance owns its alg struct and its names. Instances live as
 * long as the process, like the kernel's: they are few (one per driver
 * combination actually asked for) and pointers to them are handed out. */
struct instance {
	struct entry e;
	union {
		struct bc_skcipher_alg sk;
		struct bc_aead_alg aead;
		struct bc_shash_alg sh;
	} u;
	char name[NAME_MAX_LEN], driver[NAME_MAX_LEN];
};

static const struct bc_template *const templates[] = {
	&bc_tmpl_ecb, &bc_tmpl_cbc, &bc_tmpl_ctr, &bc_tmpl_cts, &bc_tmpl_xts,
	&bc_tmpl_essiv, &bc_tmpl_gcm, &bc_tmpl_cmac, &bc_tmpl_xcbc, &bc_tmpl_cbcmac,
	&bc_tmpl_hmac, &bc_tmpl_rfc3686, &bc_tmpl_rfc4106, &bc_tmpl_rfc4543, &bc_tmpl_rfc4309,
	&bc_tmpl_authenc, &bc_tmpl_authencesn,
	&bc_tmpl_ccm,
	&bc_tmpl_lrw,
	&bc_tmpl_xctr, &bc_tmpl_hctr2,
	&bc_tmpl_rfc7539, &bc_tmpl_rfc7539esp,
	&bc_tmpl_adiantum,
};

/* Every algorithm name the library answers to, in the order list shows them. */
static const char *const algorithm_names[] = {
	"aes", "sm4", "sha256", "sm3", "ghash",
	"ecb(aes)", "cbc(aes)", "ctr(aes)", "cts(cbc(aes))", "xts(aes)", "essiv(cbc(aes),sha256)",
	"gcm(aes)", "cmac(aes)", "xcbc(aes)", "cbcmac(aes)",
	"ecb(sm4)", "cbc(sm4)", "ctr(sm4)", "cts(cbc(sm4))", "xts(sm4)", "essiv(cbc(sm4),sm3)",
	"gcm(sm4)", "cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)",
	"sha1", "sha224", "sha384", "sha512", "md5",
	/* templates over whole algorithms; a name whose parts do not exist here is not listed */
	"hmac(md5)", "hmac(sha1)", "hmac(sha224)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)", "hmac(sm3)",
	"rfc3686(ctr(aes))", "rfc3686(ctr(sm4))", "rfc4106(gcm(aes))", "rfc4543(gcm(aes))", "rfc4309(ccm(aes))",
	"rfc4106(gcm(sm4))", "rfc4543(gcm(sm4))",
	"authenc(hmac(sha1),cbc(aes))", "authenc(hmac(sha256),cbc(aes))", "authenc(hmac(sha384),cbc(aes))",
	"authenc(hmac(sha512),cbc(aes))", "authenc(hmac(sha1),cbc(sm4))", "authenc(hmac(sha256),cbc(sm4))",
	"authenc(hmac(sha384),cbc(sm4))", "authenc(hmac(sha512),cbc(sm4))", "authenc(hmac(sha1),cbc(des3_ede))",
	"authenc(hmac(sha224),cbc(des3_ede))", "authenc(hmac(sha256),cbc(des3_ede))",
	"authenc(hmac(sha384),cbc(des3_ede))",
	"authenc(hmac(sha512),cbc(des3_ede))", "authenc(hmac(sha1),ctr(aes))", "authenc(hmac(sha256),ctr(aes))",
	"authenc(hmac(sha384),ctr(aes))", "authenc(hmac(sha512),ctr(aes))", "authencesn(hmac(sha1),cbc(aes))",
	"authencesn(hmac(sha256),cbc(aes))", "authencesn(hmac(sha384),cbc(aes))", "authencesn(hmac(sha512),cbc(aes))",
	"ccm(aes)", "ccm(sm4)",
	"des", "des3_ede", "ecb(des)", "cbc(des)", "ctr(des)", "ecb(des3_ede)", "cbc(des3_ede)", "ctr(des3_ede)",
	"cmac(des3_ede)",
	"lrw(aes)", "lrw(sm4)", "lrw(twofish)", "lrw(serpent)", "lrw(camellia)",
	"twofish", "ecb(twofish)", "cbc(twofish)", "ctr(twofish)", "cts(cbc(twofish))", "xts(twofish)",
	"essiv(cbc(twofish),sha256)", "gcm(twofish)", "cmac(twofish)", "xcbc(twofish)", "cbcmac(twofish)",
	"serpent", "ecb(serpent)", "cbc(serpent)", "ctr(serpent)", "cts(cbc(serpent))", "xts(serpent)",
	"essiv(cbc(serpent),sha256)", "gcm(serpent)", "cmac(serpent)", "xcbc(serpent)", "cbcmac(serpent)",
	"camellia", "ecb(camellia)", "cbc(camellia)", "ctr(camellia)", "cts(cbc(camellia))", "xts(camellia)",
	"essiv(cbc(camellia),sha256)", "gcm(camellia)", "cmac(camellia)", "xcbc(camellia)", "cbcmac(camellia)",
	"xctr(aes)", "polyval", "hctr2(aes)",
	"chacha20", "xchacha20", "xchacha12", "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)",
	"nhpoly1305", "adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)",
};
#define N_ALGNAMES (sizeof(algorithm_names) / sizeof(algorithm_names[0]))

static struct entry *entries;
static pthread_mutex_t lock;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add(struct entry *e)
{
	struct entry **p = &entries;

	while (*p)
		p = &(*p)->next;
	*p = e;
}

/* Set when an allocation failed during the current registry operation (under
 * the lock): the caller gets -ENOMEM, and nothing is recorded as a verdict, so
 * the same call works once memory is back. */
static int out_of_memory;
static struct entry *statics;    /* the dedicated drivers' entries, one block */
static size_t nstatics;

static void add_static(enum bc_type type, const void *alg, const char *name, const char *driver, int prio,
		       uint32_t cpu)
{
	struct entry *e = &statics[nstatics++];

	*e = (struct entry){ type, alg, name, driver, prio, cpu, 0, NULL };
	add(e);
}

/* Registers every dedicated driver, all at once: 0, or -ENOMEM with the
 * registry still empty, so that the next call tries again. */
static int add_statics(void)
{
	size_t n = 0;

	if (statics)
		return 0;
	for (size_t i = 0; bc_cipher_drivers[i]; i++)
		n++;
	for (size_t i = 0; bc_skcipher_drivers[i]; i++)
		n++;
	for (size_t i = 0; bc_aead_drivers[i]; i++)
		n++;
	for (size_t i = 0; bc_shash_drivers[i]; i++)
		n++;
	statics = calloc(n, sizeof(*statics));
	if (!statics)
		return -ENOMEM;
	for (size_t i = 0; bc_cipher_drivers[i]; i++) {
		const struct bc_cipher_alg *x = bc_cipher_drivers[i];
		add_static(BC_TYPE_CIPHER, x, x->name, x->driver, x->priority, x->cpu);
	}
	for (size_t i = 0; bc_skcipher_drivers[i]; i++) {
		const struct bc_skcipher_alg *x = bc_skcipher_drivers[i];
		add_static(BC_TYPE_SKCIPHER, x, x->name, x->driver, x->priority, x->cpu);
	}
	for (size_t i = 0; bc_aead_drivers[i]; i++) {
		const struct bc_aead_alg *x = bc_aead_drivers[i];
		add_static(BC_TYPE_AEAD, x, x->name, x->driver, x->priority, x->cpu);
	}
	for (size_t i = 0; bc_shash_drivers[i]; i++) {
		const struct bc_shash_alg *x = bc_shash_drivers[i];
		add_static(BC_TYPE_SHASH, x, x->name, x->driver, x->priority, x->cpu);
	}
	return 0;
}

static void registry_init(void)
{
	pthread_mutexattr_t a;

	/* Recursive: building an instance looks up its inner drivers, and a
	 * self-test may allocate through the registry. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lock, &a);
	pthread_mutexattr_destroy(&a);
}

/* Takes the lock, the dedicated drivers registered: 0, or -ENOMEM and not locked. */
static int registry_lock(void)
{
	pthread_once(&once, registry_init);
	pthread_mutex_lock(&lock);
	out_of_memory = 0;
	if (add_statics()) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	return 0;
}

static int usable(const struct entry *e)
{
	return (e->cpu & ~bc_cpu_features()) == 0;
}

/* Runs the quick known-answer test once per driver; a failed driver is
 * remembered and never handed out. */
static int passes(struct entry *e)
{
	if (!e->state) {
		int r = bc_selftest_run(e->type, e->alg, 0);

		if (r == -ENOMEM) {
			out_of_memory = 1;   /* no verdict: tested again next time */
			return 0;
		}
		e->state = r ? -1 : 1;
	}
	return e->state > 0;
}

static struct entry *find_driver_entry(enum bc_type type, const char *driver)
{
	for (struct entry *e = entries; e; e = e->next)
		if (e->type == type && !strcmp(e->driver, driver))
			return e;
	return NULL;
}

/* "essiv(cbc(aes),sha256)" -> template "essiv", args "cbc(aes)" and "sha256". */
struct parsed {
	char tmpl[32];
	char args[3][NAME_MAX_LEN];
	int nargs;
};

static int parse(const char *name, struct parsed *p)
{
	const char *open = strchr(name, '('), *a;
	size_t len = strlen(name), tl;
	int depth = 0;

	if (!open || name[len - 1] != ')' || (tl = (size_t)(open - name)) == 0 || tl >= sizeof(p->tmpl))
		return -1;
	memcpy(p->tmpl, name, tl);
	p->tmpl[tl] = 0;
	p->nargs = 0;
	a = open + 1;
	for (const char *s = a; s < name + len; s++) {
		if (*s == '(')
			depth++;
		else if ((*s == ')' && depth-- == 0) || (*s == ',' && depth == 0)) {
			size_t n = (size_t)(s - a);

			if (p->nargs == 3 || n == 0 || n >= NAME_MAX_LEN)
				return -1;
			memcpy(p->args[p->nargs], a, n);
			p->args[p->nargs++][n] = 0;
			a = s + 1;
			if (*s == ')' && s != name + len - 1)
				return -1;
		}
	}
	return depth == -1 ? 0 : -1;
}

static const struct bc_template *find_template(const char *tmpl, int by_driver)
{
	for (size_t i = 0; i < sizeof(templates) / sizeof(templates[0]); i++)
		if (!strcmp(by_driver ? templates[i]->driver_name : templates[i]->name, tmpl))
			return templates[i];
	return NULL;
}

static struct entry *lookup(enum bc_type type, const char *name, int by_driver);

/* "cbc(aes)" -> "aes": the cipher under a one-level mode name. */
static int inner_arg(const char *name, const char *tmpl, char *out)
{
	struct parsed p;

	if (parse(name, &p) || strcmp(p.tmpl, tmpl) || p.nargs != 1)
		return -1;
	strcpy(out, p.args[0]);
	return 0;
}

/* The instance's record of what it was built on: each inner entry in the
 * field of its type (cipher, inner skcipher, hash, inner aead). */
static void link_inner(struct instance *inst, const struct entry *x)
{
	if (!x)
		return;
	switch (inst->e.type) {
	case BC_TYPE_SKCIPHER:
		if (x->type == BC_TYPE_CIPHER)
			inst->u.sk.cipher = x->alg;
		else if (x->type == BC_TYPE_SKCIPHER)
			inst->u.sk.inner = x->alg;
		else
			inst->u.sk.hash = x->alg;
		break;
	case BC_TYPE_AEAD:
		if (x->type == BC_TYPE_CIPHER)
			inst->u.aead.cipher = x->alg;
		else if (x->type == BC_TYPE_SKCIPHER)
			inst->u.aead.inner = x->alg;
		else if (x->type == BC_TYPE_SHASH)
			inst->u.aead.hash = x->alg;
		else
			inst->u.aead.aead = x->alg;
		break;
	default:
		if (x->type == BC_TYPE_CIPHER)
			inst->u.sh.cipher = x->alg;
		else
			inst->u.sh.hash = x->alg;
		break;
	}
}

/* Builds (or finds) the instance of template t over the given inner entries. */
static struct entry *instantiate(const struct bc_template *t, struct entry *in, struct entry *hash,
				 struct entry *cipher)
{
	struct instance *inst;
	struct entry *found;
	char name[NAME_MAX_LEN], driver[NAME_MAX_LEN], x[NAME_MAX_LEN];
	int prio = in->priority, n1, n2;

	switch (t->args) {
	case BC_ARGS_CIPHER:
	case BC_ARGS_SKCIPHER:
	case BC_ARGS_SHASH:
	case BC_ARGS_AEAD:
		n1 = snprintf(name, sizeof(name), "%s(%s)", t->name, in->name);
		n2 = snprintf(driver, sizeof(driver), "%s(%s)", t->driver_name, in->driver);
		break;
	case BC_ARGS_ECB:
		if (inner_arg(in->name, "ecb", x))
			return NULL;
		n1 = snprintf(name, sizeof(name), "%s(%s)", t->name, x);
		n2 = snprintf(driver, sizeof(driver), "%s(%s)", t->driver_name, in->driver);
		break;
	case BC_ARGS_ESSIV:
		n1 = snprintf(name, sizeof(name), "essiv(%s,%s)", in->name, hash->name);
		n2 = snprintf(driver, sizeof(driver), "essiv(%s,%s)", in->driver, hash->driver);
		break;
	case BC_ARGS_AUTHENC:   /* the MAC first, as in the name */
		n1 = snprintf(name, sizeof(name), "%s(%s,%s)", t->name, hash->name, in->name);
		n2 = snprintf(driver, sizeof(driver), "%s(%s,%s)", t->driver_name, hash->driver, in->driver);
		prio = in->priority * 10 + hash->priority;
		break;
	case BC_ARGS_CHACHAPOLY:
		n1 = snprintf(name, sizeof(name), "%s(%s,poly1305)", t->name, in->name);
		n2 = snprintf(driver, sizeof(driver), "%s(%s,poly1305-generic)", t->driver_name, in->driver);
		break;
	case BC_ARGS_CCM: /* the kernel averages the two priorities */
		if (inner_arg(in->name, "ctr", x))
			return NULL;
		n1 = snprintf(name, sizeof(name), "ccm(%s)", x);
		n2 = snprintf(driver, sizeof(driver), "ccm_base(%s,%s)", in->driver, hash->driver);
		prio = (in->priority + hash->priority) / 2;
		break;
	case BC_ARGS_HCTR2: /* the kernel's weighting of the xctr, the cipher and polyval */
		if (inner_arg(in->name, "xctr", x))
			return NULL;
		n1 = snprintf(name, sizeof(name), "hctr2(%s)", x);
		n2 = snprintf(driver, sizeof(driver), "hctr2_base(%s,%s)", in->driver, hash->driver);
		prio = (2 * in->priority + 4 * cipher->priority + hash->priority) / 7;
		break;
	case BC_ARGS_ADIANTUM: /* the kernel's weighting of the stream cipher, the hash and the cipher */
		n1 = snprintf(name, sizeof(name), "adiantum(%s,%s)", in->name, cipher->name);
		n2 = snprintf(driver, sizeof(driver), "adiantum(%s,%s,%s)", in->driver, cipher->driver, hash->driver);
		prio = (4 * in->priority + 2 * hash->priority + cipher->priority) / 7;
		break;
	default: /* BC_ARGS_GCM; the kernel averages the two priorities */
		if (inner_arg(in->name, "ctr", x))
			return NULL;
		n1 = snprintf(name, sizeof(name), "gcm(%s)", x);
		n2 = snprintf(driver, sizeof(driver), "gcm_base(%s,%s)", in->driver, hash->driver);
		prio = (in->priority + hash->priority) / 2;
		break;
	}
	if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof(name) || (size_t)n2 >= sizeof(driver))
		return NULL;
	found = find_driver_entry(t->type, driver);
	if (found)
		return found;
	inst = calloc(1, sizeof(*inst));
	if (!inst) {
		out_of_memory = 1;
		return NULL;
	}
	strcpy(inst->name, name);
	strcpy(inst->driver, driver);
	inst->e.type = t->type;
	inst->e.name = inst->name;
	inst->e.driver = inst->driver;
	inst->e.priority = prio;
	inst->e.cpu = in->cpu | (hash ? hash->cpu : 0) | (cipher ? cipher->cpu : 0);
	link_inner(inst, in);
	link_inner(inst, hash);
	link_inner(inst, cipher);
	switch (t->type) {
	case BC_TYPE_SKCIPHER:
		inst->u.sk.name = inst->name;
		inst->u.sk.driver = inst->driver;
		inst->u.sk.priority = prio;
		inst->u.sk.cpu = inst->e.cpu;
		t->fill_skcipher(&inst->u.sk);
		inst->e.alg = &inst->u.sk;
		break;
	case BC_TYPE_AEAD:
		inst->u.aead.name = inst->name;
		inst->u.aead.driver = inst->driver;
		inst->u.aead.priority = prio;
		inst->u.aead.cpu = inst->e.cpu;
		t->fill_aead(&inst->u.aead);
		inst->e.alg = &inst->u.aead;
		break;
	default:
		inst->u.sh.name = inst->name;
		inst->u.sh.driver = inst->driver;
		inst->u.sh.priority = prio;
		inst->u.sh.cpu = inst->e.cpu;
		t->fill_shash(&inst->u.sh);
		inst->e.alg = &inst->u.sh;
		break;
	}
	add(&inst->e);
	return &inst->e;
}

/* The block of what a template is built on: a cipher's block size, a
 * skcipher's IV (cbc, ctr) or block (ecb). */
static size_t block_of(const struct entry *e)
{
	const struct bc_skcipher_alg *sk;

	if (e->type == BC_TYPE_CIPHER)
		return bc_cipher_blocksize(e->alg);
	sk = e->alg;
	return sk->ivsize ? sk->ivsize : sk->blocksize;
}

/* The entries a template needs, looked up as driver names (by_driver) or as
 * algorithm names (best driver). The types and shapes must fit the template:
 * cts takes a cbc, xts an ecb, essiv a cbc and a hash, gcm_base a ctr and ghash,
 * hmac an unkeyed hash, rfc4106 a gcm, authenc a MAC and a skcipher. */
static struct entry *build(const struct parsed *p, int by_driver)
{
	const struct bc_template *t = find_template(p->tmpl, by_driver);
	struct entry *in = NULL, *hash = NULL, *cipher = NULL;
	char x[NAME_MAX_LEN + 8];

	if (!t)
		return NULL;
	switch (t->args) {
	case BC_ARGS_CIPHER:
		if (p->nargs != 1)
			return NULL;
		in = lookup(BC_TYPE_CIPHER, p->args[0], by_driver);
		break;
	case BC_ARGS_SKCIPHER:
	case BC_ARGS_AEAD:
		if (p->nargs != 1)
			return NULL;
		in = lookup(t->args == BC_ARGS_AEAD ? BC_TYPE_AEAD : BC_TYPE_SKCIPHER, p->args[0], by_driver);
		if (in && inner_arg(in->name, t->over, x))
			return NULL;
		break;
	case BC_ARGS_SHASH:
		if (p->nargs != 1)
			return NULL;
		in = lookup(BC_TYPE_SHASH, p->args[0], by_driver);
		if (in && (((const struct bc_shash_alg *)in->alg)->max_keysize != 0 ||
			   ((const struct bc_shash_alg *)in->alg)->blocksize > BC_HASH_MAX_BLOCK ||
			   ((const struct bc_shash_alg *)in->alg)->digestsize > BC_MAX_AUTHSIZE))
			return NULL;
		break;
	case BC_ARGS_AUTHENC:
		/* The MAC must take any key the blob gives it (hmac), so that
		 * only the cipher's setkey can refuse one: a refused key then
		 * changes nothing. */
		if (p->nargs != 2)
			return NULL;
		hash = lookup(BC_TYPE_SHASH, p->args[0], by_driver);
		in = lookup(BC_TYPE_SKCIPHER, p->args[1], by_driver);
		if (!hash || ((const struct bc_shash_alg *)hash->alg)->min_keysize != 0 ||
		    ((const struct bc_shash_alg *)hash->alg)->max_keysize != BC_KEYSIZE_ANY)
			return NULL;
		break;
	case BC_ARGS_ECB:
		if (p->nargs != 1)
			return NULL;
		if (!by_driver)
			snprintf(x, sizeof(x), "ecb(%s)", p->args[0]);
		in = lookup(BC_TYPE_SKCIPHER, by_driver ? p->args[0] : x, by_driver);
		break;
	case BC_ARGS_ESSIV:
		if (p->nargs != 2)
			return NULL;
		in = lookup(BC_TYPE_SKCIPHER, p->args[0], by_driver);
		hash = lookup(BC_TYPE_SHASH, p->args[1], by_driver);
		if (!in || !hash || inner_arg(in->name, "cbc", x) ||
		    ((const struct bc_shash_alg *)hash->alg)->max_keysize != 0)
			return NULL;
		cipher = lookup(BC_TYPE_CIPHER, x, 0);   /* the IV cipher: the best of its name */
		if (!cipher)
			return NULL;
		break;
	case BC_ARGS_GCM:
	case BC_ARGS_HCTR2: {
		const char *mode = t->args == BC_ARGS_GCM ? "ctr" : "xctr";
		const char *hname = t->args == BC_ARGS_GCM ? "ghash" : "polyval";

		if (p->nargs != (by_driver ? 2 : 1))
			return NULL;
		if (!by_driver)
			snprintf(x, sizeof(x), "%s(%s)", mode, p->args[0]);
		in = lookup(BC_TYPE_SKCIPHER, by_driver ? p->args[0] : x, by_driver);
		hash = lookup(BC_TYPE_SHASH, by_driver ? p->args[1] : hname, by_driver);
		if (!in || !hash || strcmp(hash->name, hname) || inner_arg(in->name, mode, x))
			return NULL;
		/* The cipher under the ctr or xctr: the one its template was built on,
		 * else the best of its name. */
		if (((const struct bc_skcipher_alg *)in->alg)->cipher)
			cipher = find_driver_entry(BC_TYPE_CIPHER,
						   ((const struct bc_skcipher_alg *)in->alg)->cipher->driver);
		else
			cipher = lookup(BC_TYPE_CIPHER, x, 0);
		if (!cipher)
			return NULL;
		break;
	}
	case BC_ARGS_CHACHAPOLY:   /* the stream cipher under its name or a driver's, then Poly1305 */
		if (p->nargs != 2 || strcmp(p->args[1], by_driver ? "poly1305-generic" : "poly1305"))
			return NULL;
		in = lookup(BC_TYPE_SKCIPHER, p->args[0], by_driver);
		if (in && strcmp(in->name, "chacha20"))
			return NULL;
		break;
	case BC_ARGS_ADIANTUM: {
		const struct bc_cipher_alg *c;

		/* by driver names all three; by algorithm names the hash may be left out */
		if (p->nargs != 3 && (by_driver || p->nargs != 2))
			return NULL;
		in = lookup(BC_TYPE_SKCIPHER, p->args[0], by_driver);
		cipher = lookup(BC_TYPE_CIPHER, p->args[1], by_driver);
		hash = lookup(BC_TYPE_SHASH, p->nargs == 3 ? p->args[2] : "nhpoly1305", by_driver);
		if (!in || !cipher || !hash || (strcmp(in->name, "xchacha12") && strcmp(in->name, "xchacha20")) ||
		    strcmp(hash->name, "nhpoly1305"))
			return NULL;
		c = cipher->alg;
		if (bc_cipher_blocksize(c) != BC_BLOCK || c->min_keysize > 32 || c->max_keysize < 32)
			return NULL;
		break;
	}
	case BC_ARGS_CCM: {
		char y[NAME_MAX_LEN + 8];

		if (p->nargs != (by_driver ? 2 : 1))
			return NULL;
		if (!by_driver) {
			snprintf(x, sizeof(x), "ctr(%s)", p->args[0]);
			snprintf(y, sizeof(y), "cbcmac(%s)", p->args[0]);
		}
		in = lookup(BC_TYPE_SKCIPHER, by_driver ? p->args[0] : x, by_driver);
		hash = lookup(BC_TYPE_SHASH, by_driver ? p->args[1] : y, by_driver);
		/* ctr(X) and cbcmac(X) over the same cipher X */
		if (!in || !hash || inner_arg(in->name, "ctr", x) || inner_arg(hash->name, "cbcmac", y) || strcmp(x, y))
			return NULL;
		break;
	}
	}
	if (!in || !usable(in))
		return NULL;
	if (!t->any_block && (t->args <= BC_ARGS_GCM || t->args == BC_ARGS_HCTR2) && block_of(in) != BC_BLOCK)
		return NULL;
	return instantiate(t, in, hash, cipher);
}

/* By driver name: exactly that driver (a dedicated one, or a template
 * instance spelled out over driver names). By algorithm name: the usable
 * driver of highest priority that passes its self-test, where the template
 * instance over the best inner drivers competes with the dedicated ones. */
static struct entry *lookup(enum bc_type type, const char *name, int by_driver)
{
	struct entry *e = find_driver_entry(type, name), *best;
	struct parsed p;

	if (e || by_driver) {
		if (!e && !parse(name, &p))
			e = build(&p, 1);
		return e && e->type == type && usable(e) && passes(e) ? e : NULL;
	}
	if (!parse(name, &p) && (e = build(&p, 1)) != NULL)   /* a template over driver names */
		return e->type == type && usable(e) && passes(e) ? e : NULL;
	if (!parse(name, &p))
		build(&p, 0);                                  /* make the template instance a candidate */
	/* Dedicated drivers precede every instance in the list, so on equal
	 * priority (xts-aes-ce and xts(ecb-aes-ce)) the dedicated one wins. */
	for (;;) {
		best = NULL;
		for (e = entries; e; e = e->next)
			if (e->type == type && !strcmp(e->name, name) && usable(e) && e->state >= 0 &&
			    (!best || e->priority > best->priority))
				best = e;
		if (!best || passes(best))
			return best;
		if (out_of_memory)
			return NULL;
	}
}

static const void *find(enum bc_type type, const char *name, int *err)
{
	struct entry *e;

	*err = -ENOENT;
	if (!name)
		return NULL;
	if (registry_lock()) {
		*err = -ENOMEM;
		return NULL;
	}
	e = lookup(type, name, 0);
	*err = e ? 0 : out_of_memory ? -ENOMEM : -ENOENT;
	pthread_mutex_unlock(&lock);
	return e ? e->alg : NULL;
}

const struct bc_cipher_alg *bc_find_cipher(const char *name, int *err)
{
	return find(BC_TYPE_CIPHER, name, err);
}
const struct bc_skcipher_alg *bc_find_skcipher(const char *name, int *err)
{
	return find(BC_TYPE_SKCIPHER, name, err);
}
const struct bc_aead_alg *bc_find_aead(const char *name, int *err)
{
	return find(BC_TYPE_AEAD, name, err);
}
const struct bc_shash_alg *bc_find_shash(const char *name, int *err)
{
	return find(BC_TYPE_SHASH, name, err);
}

static void fill_info(const struct entry *e, struct bc_driver_info *info)
{
	memset(info, 0, sizeof(*info));
	info->name = e->name;
	info->driver = e->driver;
	info->type = e->type;
	info->priority = e->priority;
	info->selftest = e->state;
	switch (e->type) {
	case BC_TYPE_CIPHER: {
		const struct bc_cipher_alg *a = e->alg;
		info->min_keysize = a->min_keysize;
		info->max_keysize = a->max_keysize;
		info->blocksize = bc_cipher_blocksize(a);
		break;
	}
	case BC_TYPE_SKCIPHER: {
		const struct bc_skcipher_alg *a = e->alg;
		info->min_keysize = a->min_keysize;
		info->max_keysize = a->max_keysize;
		info->blocksize = a->blocksize;
		info->ivsize = a->ivsize;
		break;
	}
	case BC_TYPE_AEAD: {
		const struct bc_aead_alg *a = e->alg;
		info->min_keysize = a->min_keysize;
		info->max_keysize = a->max_keysize;
		info->blocksize = 1;
		info->ivsize = a->ivsize;
		info->maxauthsize = a->maxauthsize;
		break;
	}
	case BC_TYPE_SHASH: {
		const struct bc_shash_alg *a = e->alg;
		info->min_keysize = a->min_keysize;
		info->max_keysize = a->max_keysize;
		info->blocksize = a->blocksize;
		info->digestsize = a->digestsize;
		break;
	}
	}
}

/* The set list shows: every usable dedicated driver and, for each algorithm
 * name, the template instance over its best inner drivers; only drivers that
 * pass their self-test (unless with_failed), so everything listed can be
 * allocated. */
static size_t collect(struct entry **out, size_t max, int with_failed)
{
	size_t n = 0;
	enum bc_type types[] = { BC_TYPE_CIPHER, BC_TYPE_SKCIPHER, BC_TYPE_AEAD, BC_TYPE_SHASH };

	for (size_t i = 0; i < N_ALGNAMES; i++) {
		struct parsed p;

		if (!parse(algorithm_names[i], &p))
			build(&p, 0);
	}
	for (size_t i = 0; i < N_ALGNAMES; i++)
		for (size_t k = 0; k < 4; k++)
			for (struct entry *e = entries; e; e = e->next)
				if (e->type == types[k] && !strcmp(e->name, algorithm_names[i]) && usable(e) &&
				    (passes(e) || with_failed) && n < max)
					out[n++] = e;
	return n;
}

#define MAX_LISTED 512

int bc_list_drivers(int (*cb)(const struct bc_driver_info *info, void *arg), void *arg)
{
	struct entry *list[MAX_LISTED];
	struct bc_driver_info info;
	size_t n;
	int ret = 0;

	if (registry_lock())
		return -ENOMEM;
	n = collect(list, MAX_LISTED, 0);
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < n && !ret; i++) {
		fill_info(list[i], &info);
		ret = cb(&info, arg);
	}
	return ret;
}

int bc_selftest_all(int full, void (*cb)(const struct bc_driver_info *info, int result, void *arg), void *arg)
{
	struct entry *list[MAX_LISTED];
	struct bc_driver_info info;
	size_t n;
	int failures = 0;

	if (registry_lock())
		return -ENOMEM;
	n = collect(list, MAX_LISTED, 1);
	for (size_t i = 0; i < n; i++) {
		int r = list[i]->state < 0 ? -EBADMSG : full ? bc_selftest_run(list[i]->type, list[i]->alg, 1) : 0;

		if (r && r != -ENOMEM)
			list[i]->state = -1;   /* out of memory is no verdict */
		failures += r != 0;
		fill_info(list[i], &info);
		if (cb)
			cb(&info, r, arg);
	}
	pthread_mutex_unlock(&lock);
	return failures;
}
