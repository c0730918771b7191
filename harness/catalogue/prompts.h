/* prompts.h — what an agent is shown: a task's prompt (description, interface,
 * shapes, precision, the reference), and the prompt templates (the .md files of
 * data/prompts/): their combined hash, recorded in run.json as
 * agent.prompts_sha256, and placeholder filling ({{name}}) for templates. */
#ifndef CUA_PROMPTS_H
#define CUA_PROMPTS_H

#include "common.h"

struct cua_task;

/* The templates' folder of a root: root/data/prompts, or root/docs/prompts where
 * only that exists (a checkout or catalogue laid out before 2026-12-02, as
 * bench/ab.sh and `bench/throughput.sh` with TASKS_ROOT run one). */
void cua_prompts_dir(const char *root, char *buf, size_t len);

/* SHA-256 over every regular file NAME.md in cua_prompts_dir(root), in byte
 * order of their names: for each, the name, a NUL, the size in decimal, a NUL,
 * then the contents. A renamed, added, removed or edited template changes it.
 * out gets 64 lowercase hex chars + NUL (cleared on failure). CUA_E_NOT_FOUND
 * when the folder is missing or holds no .md file; CUA_E_IO when one cannot be
 * read. */
enum cua_status cua_prompts_hash(const char *root, char out[65], char *err,
                                 size_t errlen);

/* A copy of tmpl (heap) with each {{key}} whose key is in keys[0..n) replaced by
 * the matching vals entry, in one pass: text substituted in is never scanned
 * again, and unknown {{...}} stay as they are. */
char *cua_prompts_fill(const char *tmpl, const char *const *keys,
                      const char *const *vals, size_t n);

/* The prompt an agent gets for a task: description, ABI, shapes, precision,
 * tolerance, the reference source. Heap string. */
char *cua_prompts_render(const struct cua_task *t, const char *root);

#endif /* CUA_PROMPTS_H */
