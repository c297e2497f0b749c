/* blockcrypt tool: `fscrypt`, a file's key derived from a master key, its contents or a name decrypted (or encrypted).
 * Per the library's blockcrypt-fscrypt.h (Linux Documentation/filesystems/fscrypt.rst). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blockcrypt-fscrypt.h"
#include "cli.h"

const char cli_fscrypt_help[] =
	"usage: blockcrypt fscrypt identifier|contents|name KEY [OPTIONS]\n"
	"\n"
	"fscrypt (Linux filesystem encryption) with the master key KEY (--key HEX, --key-file FILE or\n"
	"--key-fd N; 16 to 64 bytes). identifier prints the v2 key identifier; contents and name\n"
	"decrypt --data HEX (or encrypt it with --encrypt) and print the result in hex.\n"
	"\n"
	"  --mode M               the file's contents mode (contents) or the directory's names mode\n"
	"                         (name): AES-256-XTS, AES-256-CTS, AES-128-CBC, AES-128-CTS, Adiantum,\n"
	"                         AES-256-HCTR2 or the uapi number\n"
	"  --nonce HEX            the file's (contents) or directory's (name) 16-byte nonce\n"
	"  --policy 1|2           the policy version (default 2)\n"
	"  --flags N              the policy flags as a number (padding 0-3, DIRECT_KEY 4,\n"
	"                         IV_INO_LBLK_64 8, IV_INO_LBLK_32 16; default 0)\n"
	"  --fs-uuid HEX          the filesystem UUID (IV_INO_LBLK_64, IV_INO_LBLK_32)\n"
	"  --ino N                the inode number (IV_INO_LBLK_64, IV_INO_LBLK_32)\n"
	"  --index N              contents: the first data unit's index (default 0)\n"
	"  --data-unit-size N     contents: 512 to 65536, a power of two (default 4096)\n"
	"  --data HEX             the ciphertext (or with --encrypt the plaintext)\n"
	"  --encrypt              encrypt instead of decrypt\n";

static const struct { const char *name; unsigned mode; } mode_names[] = {
	{ "AES-256-XTS", BC_FSCRYPT_MODE_AES_256_XTS }, { "AES-256-CTS", BC_FSCRYPT_MODE_AES_256_CTS },
	{ "AES-256-CTS-CBC", BC_FSCRYPT_MODE_AES_256_CTS }, { "AES-128-CBC", BC_FSCRYPT_MODE_AES_128_CBC },
	{ "AES-128-CBC-ESSIV", BC_FSCRYPT_MODE_AES_128_CBC }, { "AES-128-CTS", BC_FSCRYPT_MODE_AES_128_CTS },
	{ "AES-128-CTS-CBC", BC_FSCRYPT_MODE_AES_128_CTS }, { "Adiantum", BC_FSCRYPT_MODE_ADIANTUM },
	{ "AES-256-HCTR2", BC_FSCRYPT_MODE_AES_256_HCTR2 },
};

static int parse_mode(const char *s, unsigned *mode)
{
	size_t n;

	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (!strcasecmp(s, mode_names[i].name)) {
			*mode = mode_names[i].mode;
			return 0;
		}
	if (cli_parse_size(s, 255, &n) || bc_fscrypt_mode_info((unsigned)n, NULL, NULL, NULL))
		return -1;
	*mode = (unsigned)n;
	return 0;
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

struct fs_args {
	const char *action;
	struct bc_fscrypt_policy pol;
	unsigned mode;
	uint8_t *nonce, *data;
	size_t nonce_len, data_len, index, du, ino;
	int have_mode, encrypt;
};

/* contents: each data unit under its IV; name: the name under the name IV. */
static int crypt_file(bc_fscrypt_key *mk, struct fs_args *a)
{
	int dir = !strcmp(a->action, "name");
	uint8_t key[BC_FSCRYPT_MAX_KEY_SIZE], iv[BC_FSCRYPT_MAX_IV_SIZE], out[BC_FSCRYPT_NAME_MAX];
	uint32_t hashed = 0;
	bc_skcipher *tfm = NULL;
	size_t n;
	int r;

	if (!a->have_mode || a->nonce_len != BC_FSCRYPT_NONCE_SIZE || !a->data)
		return cli_fail("fscrypt %s: --mode, a 16-byte --nonce and --data are required", a->action);
	if (dir)
		a->pol.filenames_mode = (uint8_t)a->mode;
	else
		a->pol.contents_mode = (uint8_t)a->mode;
	r = bc_fscrypt_file_key(mk, &a->pol, dir, a->nonce, key);
	if (r)
		return cli_fail("fscrypt: no key for this policy (a master key too short, or flags the mode or version refuses)");
	if (a->pol.flags & BC_FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
		r = bc_fscrypt_hash_ino(mk, a->ino, &hashed);
	if (!r)
		r = bc_fscrypt_cipher_alloc(&tfm, a->mode, key);
	explicit_bzero(key, sizeof(key));
	if (r)
		return cli_fail("fscrypt: %s", strerror(-r));
	if (dir) {
		r = bc_fscrypt_iv(&a->pol, a->nonce, a->ino, hashed, 0, iv);
		if (!r)
			r = a->encrypt ? bc_fscrypt_name_encrypt(tfm, a->pol.flags, iv, a->data, a->data_len, out, &n)
			               : bc_fscrypt_name_decrypt(tfm, iv, a->data, a->data_len, out, &n);
		if (r)
			r = cli_fail("fscrypt name: %s", r == -EINVAL && a->encrypt ? "an empty name"
			             : r == -EINVAL ? "an encrypted name has 16 to 255 bytes" : strerror(-r));
		else
			print_hex(out, n);
		explicit_bzero(out, sizeof(out));
	} else if (a->data_len == 0 || a->data_len % a->du) {
		r = cli_fail("fscrypt contents: --data must be whole data units of %zu bytes", a->du);
	} else {
		for (size_t off = 0; !r && off < a->data_len; off += a->du) {
			r = bc_fscrypt_iv(&a->pol, a->nonce, a->ino, hashed, a->index + off / a->du, iv);
			if (!r)
				r = (a->encrypt ? bc_skcipher_encrypt : bc_skcipher_decrypt)(tfm, iv, a->data + off,
				                                                             a->data + off, a->du);
		}
		if (r)
			r = cli_fail("fscrypt contents: %s", r == -EINVAL ? "an index or inode number over 32 bits "
			             "(IV_INO_LBLK_*), or a data unit the mode refuses" : strerror(-r));
		else
			print_hex(a->data, a->data_len);
	}
	bc_skcipher_free(tfm);
	return r;
}

int cmd_fscrypt(int argc, char **argv)
{
	enum { O_MODE = 0x200, O_NONCE, O_POLICY, O_FLAGS, O_UUID, O_INO, O_INDEX, O_DU, O_DATA, O_ENC };
	static const struct option opts[] = {
		CLI_KEY_OPTIONS,
		{ "mode", required_argument, NULL, O_MODE }, { "nonce", required_argument, NULL, O_NONCE },
		{ "policy", required_argument, NULL, O_POLICY }, { "flags", required_argument, NULL, O_FLAGS },
		{ "fs-uuid", required_argument, NULL, O_UUID }, { "ino", required_argument, NULL, O_INO },
		{ "index", required_argument, NULL, O_INDEX }, { "data-unit-size", required_argument, NULL, O_DU },
		{ "data", required_argument, NULL, O_DATA }, { "encrypt", no_argument, NULL, O_ENC },
		{ NULL, 0, NULL, 0 }
	};
	struct fs_args a = { .pol = { .version = BC_FSCRYPT_POLICY_V2 }, .du = 4096 };
	struct cli_key key_opt = { 0 };
	uint8_t *key = NULL, *uuid = NULL;
	size_t keylen = 0, n;
	bc_fscrypt_key *mk = NULL;
	int c, r = 0;

	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_KEY: case CLI_OPT_KEY_FILE: case CLI_OPT_KEY_FD:
			r = cli_key_option(&key_opt, argv[0], c, optarg);
			break;
		case O_MODE:
			a.have_mode = 1;
			if (parse_mode(optarg, &a.mode))
				r = cli_fail("fscrypt: unknown mode '%s' (see blockcrypt help fscrypt)", optarg);
			break;
		case O_NONCE:
			free(a.nonce);
			if (cli_hex_decode(optarg, &a.nonce, &a.nonce_len) || a.nonce_len != BC_FSCRYPT_NONCE_SIZE)
				r = cli_fail("fscrypt: --nonce takes 16 bytes in hex");
			break;
		case O_UUID:
			free(uuid);
			uuid = NULL;
			if (cli_hex_decode(optarg, &uuid, &n) || n != BC_FSCRYPT_UUID_SIZE)
				r = cli_fail("fscrypt: --fs-uuid takes 16 bytes in hex");
			else
				memcpy(a.pol.fs_uuid, uuid, n);
			break;
		case O_POLICY:
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				r = cli_fail("fscrypt: --policy is 1 or 2");
			a.pol.version = !strcmp(optarg, "1") ? BC_FSCRYPT_POLICY_V1 : BC_FSCRYPT_POLICY_V2;
			break;
		case O_FLAGS:
			if (cli_parse_size(optarg, 0x1f, &n))
				r = cli_fail("fscrypt: --flags is a number from 0 to 31");
			a.pol.flags = (uint8_t)n;
			break;
		case O_INO: case O_INDEX:
			if (cli_parse_size(optarg, SIZE_MAX, c == O_INO ? &a.ino : &a.index))
				r = cli_fail("fscrypt: --%s takes a number", c == O_INO ? "ino" : "index");
			break;
		case O_DU:
			if (cli_parse_size(optarg, 65536, &a.du) || a.du < 512 || (a.du & (a.du - 1)))
				r = cli_fail("fscrypt: --data-unit-size is a power of two from 512 to 65536");
			break;
		case O_DATA:
			if (a.data)
				cli_free_secret(a.data, a.data_len);
			a.data = NULL;
			if (cli_hex_decode(optarg, &a.data, &a.data_len))
				r = cli_fail("fscrypt: --data is not hex");
			break;
		case O_ENC:
			a.encrypt = 1;
			break;
		default:
			r = cli_fail("fscrypt: unknown, repeated or incomplete option '%s' (see blockcrypt help fscrypt)",
			             argv[optind - 1]);
		}
	}
	if (!r && optind != argc - 1)
		r = cli_fail("usage: blockcrypt fscrypt identifier|contents|name --key-file FILE [OPTIONS]");
	a.action = r ? "" : argv[optind];
	if (!r && strcmp(a.action, "identifier") && strcmp(a.action, "contents") && strcmp(a.action, "name"))
		r = cli_fail("fscrypt: unknown action '%s': identifier, contents or name", a.action);
	if (!r)
		r = cli_key_load(&key_opt, "fscrypt", 0, &key, &keylen);
	if (!r && bc_fscrypt_key_alloc(&mk, key, keylen))
		r = cli_fail("fscrypt: a master key has 16 to 64 bytes, not %zu", keylen);
	if (!r && !strcmp(a.action, "identifier")) {
		uint8_t id[BC_FSCRYPT_KEY_IDENTIFIER_SIZE];

		r = bc_fscrypt_key_identifier(mk, id) ? cli_fail("fscrypt: cannot derive the identifier") : 0;
		if (!r)
			print_hex(id, sizeof(id));
	} else if (!r) {
		r = crypt_file(mk, &a);
	}
	bc_fscrypt_key_free(mk);
	cli_free_secret(key, keylen);
	cli_free_secret(a.data, a.data_len);
	free(a.nonce);
	free(uuid);
	return r;
}
