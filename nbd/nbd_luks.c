/* blockcrypt NBD server: the export of an unlocked LUKS or plain dm-crypt image, through blockcrypt-luks.h.
 * Semantics: NBD doc/proto.md (writes may stay cached until NBD_CMD_FLUSH or NBD_CMD_FLAG_FUA). */
#include "nbd.h"

static int luks_read(void *ctx, uint64_t off, uint8_t *buf, size_t len)
{
	return bc_luks_read(ctx, off, buf, len);
}

static int luks_write(void *ctx, uint64_t off, const uint8_t *buf, size_t len)
{
	return bc_luks_write_nosync(ctx, off, buf, len);
}

static int luks_flush(void *ctx)
{
	return bc_luks_sync(ctx);
}

void nbd_export_luks(struct nbd_export *e, bc_luks *l, const char *name, int read_only)
{
	*e = (struct nbd_export){ .name = name ? name : "", .size = bc_luks_data_size(l), .block = bc_luks_sector_size(l),
	                          .read_only = read_only, .ctx = l, .read = luks_read, .write = luks_write,
	                          .flush = luks_flush };
}
