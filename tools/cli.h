/* blockcrypt tool: what the subcommands share (hex, keys, input and output files, error exits).
 * Output formats follow Linux /proc/crypto and tcrypt. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "blockcrypt.h"

/* Exit statuses: 1 only for a tag that does not verify, 2 for anything the user got wrong. */
#define EXIT_AUTH  1
#define EXIT_USAGE 2

/* The largest key accepted from a file or descriptor (every algorithm's keys are far shorter). */
#define CLI_KEY_MAX 1024

/* Prints "blockcrypt: <message>" on stderr and returns EXIT_USAGE. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Decodes hex (either case; "" is zero bytes) into a fresh buffer. -1: not hex. */
int cli_hex_decode(const char *hex, uint8_t **out, size_t *len);

/* Frees what it was given; the contents (key, plaintext) are wiped first. */
void cli_free_secret(uint8_t *p, size_t len);

/* Strict decimal parsing: the whole string, no sign. -1 if it is not a number in [0, max]. */
int cli_parse_size(const char *s, size_t max, size_t *out);
/* The same with an optional binary suffix: K, M or G (KiB, MiB, GiB). */
int cli_parse_bytes(const char *s, size_t max, size_t *out);

/* Seconds: a decimal number, more than 0 and at most an hour. -1 otherwise. */
int cli_parse_seconds(const char *s, double *out);

/* ---- keys: --key HEX, --key-file FILE, --key-fd N (exactly one) ---------------------------------------- */
enum { CLI_OPT_KEY = 0x100, CLI_OPT_KEY_FILE, CLI_OPT_KEY_FD, CLI_OPT_IN, CLI_OPT_OUT };
#define CLI_KEY_OPTIONS \
	{ "key", required_argument, NULL, CLI_OPT_KEY }, \
	{ "key-file", required_argument, NULL, CLI_OPT_KEY_FILE }, \
	{ "key-fd", required_argument, NULL, CLI_OPT_KEY_FD }

struct cli_key {
	int opt;              /* which of the three options, 0 if none */
	const char *arg;
};
/* Records one key option; a second one is an error (returns its exit status). */
int cli_key_option(struct cli_key *k, const char *cmd, int opt, const char *arg);
/* Reads the key into a fresh buffer (wipe it with cli_free_secret). stdin_data: standard
 * input carries the data, so the key may not come from it. 0 or an exit status. */
int cli_key_load(const struct cli_key *k, const char *cmd, int stdin_data, uint8_t **key, size_t *len);
/* Says why setkey refused a key: equal xts halves, or a length the algorithm does not take (with the
 * lengths it does take, probed with try() over the registry's min..max keysize for the driver or
 * algorithm name; try() returns 0 if it accepts a key). Returns the exit status. */
int cli_key_fail(const char *name, const char *driver, const uint8_t *key, size_t keylen,
                 int (*try)(void *tfm, const uint8_t *key, size_t len), void *tfm);
/* The registry's entry for a driver name, else for an algorithm name; 0 if found. */
int cli_find_driver(const char *driver, const char *name, struct bc_driver_info *out);

/* ---- input and output ----------------------------------------------------------------------------------- */
/* Opens FILE for reading; NULL or "-" is standard input. 0 or an exit status. */
int cli_open_in(const char *path, int *fd);
/* Reads until len bytes or end of input; *got is what was read. -1 with errno on a read error. */
int cli_read_full(int fd, uint8_t *buf, size_t len, size_t *got);
/* The bytes left to read when fd is a regular file: 0, or -1 if it is not one (a pipe, a terminal). */
int cli_input_size(int fd, uint64_t *size);
/* Reads all input into a fresh buffer with spare bytes after it. 0; -1 with errno; -2 if over limit bytes. */
int cli_read_all(int fd, size_t limit, size_t spare, uint8_t **buf, size_t *len);
/* Asks for a pipe buffer of about size bytes when fd is a pipe, so that large reads and writes need fewer wakeups. */
void cli_pipe_size(int fd, size_t size);

/* Output to standard output, or to FILE through a temporary file in its directory renamed over it
 * only when the whole run succeeded: a failed run leaves no partial FILE. */
struct cli_out {
	int fd;
	const char *path;      /* NULL: standard output */
	char *tmp;
};
int cli_out_open(struct cli_out *o, const char *path);
int cli_out_write(struct cli_out *o, const uint8_t *buf, size_t len);
/* status 0: flushes to disk and renames into place; else removes the temporary file. Returns the final status. */
int cli_out_close(struct cli_out *o, int status);
/* What the user names a file by in messages. */
const char *cli_in_name(const char *path);

/* ---- the subcommands; each gets argv with argv[0] the subcommand's own name ------------------------------ */
int cmd_list(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_crypt(int argc, char **argv, int decrypt);
int cmd_mac(int argc, char **argv, int keyed);
int cmd_speed(int argc, char **argv);
int cmd_benchmark(int argc, char **argv);
int cmd_luks(int argc, char **argv);    /* cli_luks.c */
extern const char cli_luks_help[], cli_plain_help[];
int cmd_plain(int argc, char **argv);
extern const char cli_run_help[];
int cmd_run(int argc, char **argv);     /* cli_run.c */
extern const char cli_fscrypt_help[];
int cmd_fscrypt(int argc, char **argv); /* cli_fscrypt.c */
/* luks (plain 0) or plain (1): the action and options checked as those commands do, nothing opened or run.
 * 0, or the exit status after the message. */
int cli_luks_parse_args(int argc, char **argv, int plain);
/* `cryptsetup benchmark`'s PBKDF2 and Argon2 rows (Argon2 for argon2_ms), N/A without the luks part. */
void cli_luks_benchmark_kdf(unsigned argon2_ms);

#endif
