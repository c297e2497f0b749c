/* libFuzzer harness: the NBD server's handshake and request parsing (nbd/nbd_server.c) fed any client bytes, over
 * a socket pair, against a 1 MiB export in memory. Protocol: the NBD project's doc/proto.md. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nbd.h"

/* the export: an access outside it is a global buffer overflow AddressSanitizer reports */
static uint8_t disk[1 << 20];

static int mem_read(void *ctx, uint64_t off, uint8_t *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, disk + off, len);
	return 0;
}

static int mem_write(void *ctx, uint64_t off, const uint8_t *buf, size_t len)
{
	(void)ctx;
	memcpy(disk + off, buf, len);
	return 0;
}

static int mem_flush(void *ctx)
{
	(void)ctx;
	return 0;
}

struct feed {
	int fd;
	const uint8_t *data;
	size_t len;
};

/* the client: sends the input, then reads whatever comes back until the server closes */
static void *client(void *arg)
{
	struct feed *f = arg;
	uint8_t sink[65536];

	for (size_t off = 0; off < f->len;) {
		ssize_t n = send(f->fd, f->data + off, f->len - off, MSG_NOSIGNAL);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	shutdown(f->fd, SHUT_WR);
	while (recv(f->fd, sink, sizeof(sink), 0) > 0)
		;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* the input's first byte picks a read-only export or not, and which name it has */
	const struct nbd_export e = { .name = len && data[0] & 1 ? "disk" : "", .size = sizeof(disk), .block = 512,
	                              .read_only = len && data[0] & 2, .read = mem_read, .write = mem_write,
	                              .flush = mem_flush };
	struct feed f = { .data = data + (len != 0), .len = len ? len - 1 : 0 };
	pthread_t t;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 0;
	f.fd = sv[0];
	if (!pthread_create(&t, NULL, client, &f)) {
		nbd_session(&e, sv[1]);
		shutdown(sv[1], SHUT_RDWR);
		pthread_join(t, NULL);
	}
	close(sv[0]);
	close(sv[1]);
	return 0;
}
