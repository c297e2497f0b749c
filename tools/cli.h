/* blockcrypt tool: what the subcommands share (hex, whole-stdin reads, error exits).
 * The command-line contract is the foundation issue's; output formats follow Linux /proc/crypto and tcrypt. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stddef.h>
#include <stdint.h>

/* Exit statuses: 1 only for a tag that does not verify, 2 for anything the user got wrong. */
#define EXIT_AUTH  1
#define EXIT_USAGE 2

/* Prints "blockcrypt: <message>" on stderr and returns EXIT_USAGE. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Decodes hex (either case; "" is zero bytes) into a fresh buffer. -1: not hex. */
int cli_hex_decode(const char *hex, uint8_t **out, size_t *len);
void cli_print_hex(const uint8_t *p, size_t len);

/* Reads stdin to its end into a fresh buffer. -1 on a read error or out of memory. */
int cli_read_stdin(uint8_t **buf, size_t *len);
/* Writes all of buf to stdout and flushes. -1 on error. */
int cli_write_stdout(const uint8_t *buf, size_t len);

/* Strict decimal parsing: the whole string, no sign. -1 if it is not a number in [0, max]. */
int cli_parse_size(const char *s, size_t max, size_t *out);

/* Seconds: a decimal number, more than 0 and at most an hour. -1 otherwise. */
int cli_parse_seconds(const char *s, double *out);

/* The subcommands; each gets argv with argv[0] the subcommand's own name. */
int cmd_list(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_crypt(int argc, char **argv, int decrypt);
int cmd_mac(int argc, char **argv, int keyed);
int cmd_speed(int argc, char **argv);
int cmd_benchmark(int argc, char **argv);
int cmd_luks(int argc, char **argv);    /* cli_luks.c */
int cmd_plain(int argc, char **argv);

#endif
