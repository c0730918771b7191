/* channel.h — the judge's report channel to the parent, authenticated.
 *
 * The judge writes its events (JSON, one per line) on a pipe the parent reads.
 * No kernel code runs in the judge (it runs in a process of its own, which never
 * holds this pipe), but every line still carries an HMAC-SHA256 of its sequence
 * number and text under a key the parent draws for this one job and hands over
 * in the environment or the job (the judge reads the key and wipes it at once):
 * a line that does not verify was not written by the judge, and the parent
 * judges the evaluation a sandbox violation, whatever else the channel says
 * (docs/SECURITY.md). Defence in depth since the judge left the kernel's process.
 *
 * A line: 64 hex digits of MAC, one space, the JSON text, '\n'. */
#ifndef CUA_CHANNEL_H
#define CUA_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

#define CUA_CHANNEL_KEY_ENV "CUARENA_CHANNEL_KEY"

struct cua_channel_key {
	unsigned char k[32];
};

/* A fresh random key; its 64-digit hex form. */
enum cua_status cua_channel_key_new(struct cua_channel_key *key, char *err, size_t errlen);
void cua_channel_key_hex(const struct cua_channel_key *key, char out[65]);
/* Exactly 64 hex digits; false otherwise. */
bool cua_channel_key_parse(const char *hex, struct cua_channel_key *key);

/* The sealed line for the seq-th line of json[0..n) (no newline inside), with
 * its '\n'; malloc'd and NUL-terminated, length (without the NUL) in *len. */
char *cua_channel_seal(const struct cua_channel_key *key, uint64_t seq, const char *json,
                       size_t n, size_t *len);

/* Checks one line (without its '\n') as the seq-th; on success points *json
 * and *json_len at its JSON text, inside line. */
bool cua_channel_verify(const struct cua_channel_key *key, uint64_t seq, const char *line,
                        size_t n, const char **json, size_t *json_len);

#endif /* CUA_CHANNEL_H */
