/* blockcrypt-luks: the header report `cryptsetup luksDump` prints, for LUKS1 and LUKS2, and LUKS2's JSON.
 * Fields per LUKS1 section 3.1 (phdr) and LUKS2 section 3 (keyslots, segments, digests, tokens, config). */
#include <string.h>

#include <json-c/json.h>

#include "luks_internal.h"

static void hex_lines(FILE *f, const char *indent, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		if (i)
			fputs(indent, f);
		for (size_t j = i; j < n && j < i + 16; j++)
			fprintf(f, "%02x ", p[j]);
		fputc('\n', f);
	}
}

static void dump_luks1(const bc_luks *l, FILE *f)
{
	const struct luks_digest *d = &l->digest[0];
	const char *dash = strchr(l->cipher, '-');

	fprintf(f, "LUKS header information\n\n");
	fprintf(f, "Version:       \t1\n");
	fprintf(f, "Cipher name:   \t%.*s\n", (int)(dash - l->cipher), l->cipher);
	fprintf(f, "Cipher mode:   \t%s\n", dash + 1);
	fprintf(f, "Hash spec:     \t%s\n", d->hash);
	fprintf(f, "Payload offset:\t%llu\n", (unsigned long long)(l->data_offset / LUKS_SECTOR));
	fprintf(f, "MK bits:       \t%u\n", l->key_bytes * 8);
	fprintf(f, "MK digest:     \t");
	hex_lines(f, "               \t", d->digest, d->digest_len);
	fprintf(f, "MK salt:       \t");
	hex_lines(f, "               \t", d->salt, d->salt_len);
	fprintf(f, "MK iterations: \t%u\n", d->iterations);
	fprintf(f, "UUID:          \t%s\n\n", l->uuid);
	for (int i = 0; i < 8; i++) {
		const struct luks_slot *s = &l->slot[i];

		fprintf(f, "Key Slot %d: %s\n", i, s->active ? "ENABLED" : "DISABLED");
		if (!s->active)
			continue;
		fprintf(f, "\tIterations:         \t%u\n\tSalt:               \t", s->iterations);
		hex_lines(f, "\t                      \t", s->salt, s->salt_len);
		fprintf(f, "\tKey material offset:\t%llu\n", (unsigned long long)(s->area_offset / LUKS_SECTOR));
		fprintf(f, "\tAF stripes:            \t%u\n", s->stripes);
	}
}

static const char *kdf_name(enum bc_luks_pbkdf k)
{
	return k == BC_LUKS_PBKDF2 ? "pbkdf2" : k == BC_LUKS_ARGON2I ? "argon2i" : "argon2id";
}

static void segment(FILE *f, int n, const char *cipher, uint64_t off, uint64_t size, int dynamic, unsigned sector)
{
	fprintf(f, "  %d: %s\n\toffset: %llu [bytes]\n", n, cipher ? "crypt" : "linear", (unsigned long long)off);
	if (dynamic)
		fprintf(f, "\tlength: (whole device)\n");
	else
		fprintf(f, "\tlength: %llu [bytes]\n", (unsigned long long)size);
	if (cipher)
		fprintf(f, "\tcipher: %s\n\tsector: %u [bytes]\n", cipher, sector);
}

static void string_array(FILE *f, json_object *arr, const char *none)
{
	size_t n = arr ? json_object_array_length(arr) : 0;

	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", json_object_get_string(json_object_array_get_idx(arr, i)));
	fprintf(f, "%s\n", n ? "" : none);
}

static void dump_luks2(const bc_luks *l, FILE *f)
{
	json_object *config = json_object_object_get(l->json, "config");
	json_object *tokens = json_object_object_get(l->json, "tokens");

	fprintf(f, "LUKS header information\n");
	fprintf(f, "Version:       \t2\nEpoch:         \t%llu\n", (unsigned long long)l->seqid);
	fprintf(f, "Metadata area: \t%llu [bytes]\n", (unsigned long long)l->hdr_size);
	fprintf(f, "Keyslots area: \t%llu [bytes]\n", (unsigned long long)l->keyslots_size);
	fprintf(f, "UUID:          \t%s\n", l->uuid);
	fprintf(f, "Label:         \t%s\n", *l->label ? l->label : "(no label)");
	fprintf(f, "Subsystem:     \t%s\n", *l->subsystem ? l->subsystem : "(no subsystem)");
	fprintf(f, "Flags:       \t");
	string_array(f, json_object_object_get(config, "flags"), "(no flags)");
	fprintf(f, "\nData segments:\n");
	if (l->reenc) {
		static const char *const res[] = { "none", "checksum", "journal", "datashift", "datashift-checksum",
		                                   "datashift-journal" };
		const struct luks_reenc *re = l->reenc;

		for (int i = 0; i < re->nseg; i++) {
			const struct luks_seg *g = &re->seg[i];

			segment(f, i, g->key < 0 ? NULL : g->cipher, g->offset, g->size, i + 1 == re->nseg && l->dynamic,
			        g->sector_size);
			fprintf(f, "\tkey:    %s\n", g->hot ? "old and new (the hot zone, in reencryption)" : g->key < 0 ? "none (plaintext)" : g->key ? "new" : "old");
		}
		fprintf(f, "\nReencryption in progress: %s, %s, resilience %s\n",
		        re->mode == 0 ? "reencrypt" : re->mode == 1 ? "encrypt" : "decrypt", re->backward ? "backward" : "forward",
		        res[re->resilience]);
	} else {
		segment(f, 0, l->cipher, l->data_offset, l->data_size, l->dynamic, l->sector_size);
	}
	fprintf(f, "\nKeyslots:\n");
	for (int i = 0; i < l->nslots; i++) {
		const struct luks_slot *s = &l->slot[i];

		if (!s->area_size)
			continue;
		if (l->reenc && s->area_offset == l->reenc->area_offset) {
			fprintf(f, "  %d: reencrypt (unbound)\n\tArea offset:%llu [bytes]\n\tArea length:%llu [bytes]\n", i,
			        (unsigned long long)s->area_offset, (unsigned long long)s->area_size);
			continue;
		}
		fprintf(f, "  %d: luks2%s\n", i, s->active ? "" : " (unbound)");
		fprintf(f, "\tKey:        %u bits\n", s->key_bytes * 8);
		fprintf(f, "\tPriority:   %s\n", s->priority == 2 ? "preferred" : s->priority ? "normal" : "ignored");
		fprintf(f, "\tCipher:     %s\n\tCipher key: %u bits\n", s->area_cipher, s->area_key_bytes * 8);
		fprintf(f, "\tPBKDF:      %s\n", kdf_name(s->kdf));
		if (s->kdf == BC_LUKS_PBKDF2)
			fprintf(f, "\tHash:       %s\n\tIterations: %u\n", s->kdf_hash, s->iterations);
		else
			fprintf(f, "\tTime cost:  %u\n\tMemory:     %u\n\tThreads:    %u\n", s->iterations, s->memory_kib, s->cpus);
		fprintf(f, "\tSalt:       ");
		hex_lines(f, "\t            ", s->salt, s->salt_len);
		fprintf(f, "\tAF stripes: %u\n\tAF hash:    %s\n", s->stripes, s->af_hash);
		fprintf(f, "\tArea offset:%llu [bytes]\n\tArea length:%llu [bytes]\n", (unsigned long long)s->area_offset,
		        (unsigned long long)s->area_size);
		fprintf(f, "\tDigest ID:  %d\n", s->digest);
	}
	fprintf(f, "Tokens:\n");
	json_object_object_foreach(tokens, tn, tv) {
		fprintf(f, "  %s: %s\n\tKeyslot:    ", tn, json_object_get_string(json_object_object_get(tv, "type")));
		string_array(f, json_object_object_get(tv, "keyslots"), "");
	}
	fprintf(f, "Digests:\n");
	for (int i = 0; i < LUKS_MAX_SLOTS; i++) {
		const struct luks_digest *d = &l->digest[i];

		if (!d->used)
			continue;
		fprintf(f, "  %d: pbkdf2\n\tHash:       %s\n\tIterations: %u\n\tSalt:       ", i, d->hash, d->iterations);
		hex_lines(f, "\t            ", d->salt, d->salt_len);
		fprintf(f, "\tDigest:     ");
		hex_lines(f, "\t            ", d->digest, d->digest_len);
	}
}

int bc_luks_dump(const bc_luks *l, void *out, int json)
{
	FILE *f = out;

	if (json) {
		if (l->version != 2)
			return luks_fail(-EINVAL, "--json: LUKS1 has no JSON metadata");
		return luks2_dump_json(l, f);
	}
	if (l->version == 1)
		dump_luks1(l, f);
	else
		dump_luks2(l, f);
	return 0;
}
