/* blockcrypt NBD server: one export (a LUKS or plain dm-crypt image's plaintext) served to several clients at once.
 * Protocol: the NBD project's doc/proto.md (fixed newstyle handshake, simple and structured replies, block status). */
#ifndef BC_NBD_H
#define BC_NBD_H

#include <stddef.h>
#include <stdint.h>

#include "blockcrypt-luks.h"

/* What is served. The callbacks return 0 or a negative errno; read and flush are called from several client
 * threads at once, write never (the server runs writes one at a time: partial sectors are read-modify-write). */
struct nbd_export {
	const char *name;            /* NBD_OPT_LIST's name; "" (the default export) is always accepted too */
	uint64_t size;
	unsigned block;              /* preferred block size: unaligned writes below it are read-modify-write */
	int read_only;
	void *ctx;
	int (*read)(void *ctx, uint64_t off, uint8_t *buf, size_t len);
	int (*write)(void *ctx, uint64_t off, const uint8_t *buf, size_t len);
	int (*flush)(void *ctx);
};

/* Where to listen: a Unix socket (made mode 0600, removed at the end) or, with port set, TCP on bind_addr
 * (127.0.0.1 when NULL). */
struct nbd_listen {
	const char *socket_path;
	const char *bind_addr;
	unsigned port;
};

/* The plaintext of an unlocked image, read-only or not (the image must then be open writable). */
void nbd_export_luks(struct nbd_export *e, bc_luks *l, const char *name, int read_only);

/* Listens, tells `ready` where (an NBD URI), and serves every client in its own thread until SIGTERM or SIGINT;
 * then disconnects the clients, flushes the export and returns 0. A socket that cannot be made: -errno, with a
 * one-line reason on stderr. */
int nbd_serve(const struct nbd_export *e, const struct nbd_listen *l, void (*ready)(const char *uri));

/* One client on a connected socket, from the handshake to its disconnect; the socket is left open. */
void nbd_session(const struct nbd_export *e, int fd);

#endif
