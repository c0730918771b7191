/* bstore.h — the baseline store: baseline measurements kept across runs and
 * serve restarts, one file per key, the key being everything that determines the
 * measurement (docs/METHOD.md, "Baselines kept across runs"); and the rule that
 * decides, for one task's baselines, which are reused, which measured, and the
 * drift check that re-times one reused baseline per device per run. */
#ifndef CUA_BSTORE_H
#define CUA_BSTORE_H

#include <pthread.h>

#include "common.h"
#include "judge/verdict.h"
#include "judge/device.h"

/* The entry format's version (the file's "store"); an entry of another is ignored. */
#define CUA_BSTORE_FORMAT 1
/* A re-timed baseline further than this from its stored median (relative) means
 * the device drifted: everything reused on it is measured again. */
#define CUA_BSTORE_DRIFT_TOL 0.02
/* The largest entry read (an evaluation object with its cases: a few KiB). */
#define CUA_BSTORE_ENTRY_MAX ((size_t)4 << 20)
#define CUA_BSTORE_KEY_FIELDS 32

/* A key: named values. Its canonical text is "cuarena-baseline-key\n" then one
 * "name=value\n" per field in byte order of the names (backslash and newline in
 * a value written as \\ and \n), so the order of adding does not matter; the
 * entry's file is <SHA-256 of that text>.json. */
struct cua_bstore_key {
	int n;
	struct {
		char name[32];
		char value[200];
	} f[CUA_BSTORE_KEY_FIELDS];
};

/* Sets a field (replacing one of that name). Names are ours ([a-z0-9_]); a value
 * longer than the field holds is an invariant failure, never cut (a cut value
 * could make two keys one). */
void cua_bstore_key_set(struct cua_bstore_key *k, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The canonical text (heap, caller frees) and its SHA-256 (hex). */
char *cua_bstore_key_text(const struct cua_bstore_key *k);
void cua_bstore_key_sha256(const struct cua_bstore_key *k, char out[65]);

/* How a report's baseline came to be (a baselines.jsonl line's "store"). */
enum cua_bstore_how {
	CUA_BSTORE_NONE = 0,          /* no store: measured, nothing said */
	CUA_BSTORE_MEASURED = 1,      /* measured in this invocation (and stored) */
	CUA_BSTORE_REUSED = 2,        /* read from the store, measured by an earlier one */
};
const char *cua_bstore_how_name(enum cua_bstore_how h);

struct cua_bstore_origin {
	enum cua_bstore_how how;
	char key_sha256[65];          /* "" when the baseline has no key (imported) */
	bool drift_check;             /* re-timed as the drift check: ... */
	double stored_ms, retimed_ms; /* ... the stored median and the new one */
	bool drifted;                 /* outside CUA_BSTORE_DRIFT_TOL */
};
/* Adds "store": {how, key_sha256, drift_check?} to a baselines line (nothing for NONE). */
void cua_bstore_origin_to_json(struct cJSON *line, const struct cua_bstore_origin *o);

/* The drift check's state of one device for one invocation (a run, a serve). */
struct cua_bstore_device {
	char gpu[64];                 /* the children's CUDA_VISIBLE_DEVICES ("" = default) */
	pthread_mutex_t lock;         /* held through one task's baselines on it */
	bool probed;                  /* the device was asked for (once) */
	struct cua_device dev;        /* what it said (dev.known false: no device) */
	bool checked;                 /* a reused baseline was re-timed here */
	bool drifted;                 /* ... and it had drifted: nothing is reused here */
};

struct cua_bstore {
	char dir[CUA_PATH_LEN];
	bool fresh;                   /* --fresh-baselines: measure all, store what is new */
	FILE *log;                    /* warnings and notes (stderr by default) */
	pthread_mutex_t lock;         /* devices[] */
	int n_devices;
	struct cua_bstore_device devices[16];
	int measured, reused, stored; /* counters (under lock) */
	int drift_passed;             /* devices whose drift check passed (under lock) */
	int drift_drifted;            /* devices found drifted: re-timed outside the
	                               * tolerance, or a judge's device record differing
	                               * from the probe's (under lock) */
};

/* A store in dir (created on the first put); NULL with err when dir is empty or
 * not shorter than CUA_PATH_LEN. A dir that cannot be written makes puts fail
 * with a warning, and nothing is reused from a missing one. */
struct cua_bstore *cua_bstore_new(const char *dir, bool fresh, char *err, size_t errlen);
void cua_bstore_free(struct cua_bstore *s);

/* The state of device `gpu` (NULL or "" = the default device), made on first use. */
struct cua_bstore_device *cua_bstore_device(struct cua_bstore *s, const char *gpu);

/* The entry of key k: true and *e filled (caller clears) when a whole, valid entry
 * of exactly that key holds a correct, timed evaluation of subject `subject`.
 * Anything else is a miss; a file that exists and is not such an entry is named in
 * a warning on s->log (corrupt, truncated, of another key, a failed evaluation),
 * never trusted and never fatal. */
bool cua_bstore_get(struct cua_bstore *s, const struct cua_bstore_key *k,
                    const char *subject, struct cua_eval *e);

/* Stores e under k: the entry written to a temporary file in the store's folder,
 * fsynced, renamed over the key's file and the folder fsynced, so a reader sees
 * the old entry or the new one whole, and several processes may share a store.
 * Only a correct, timed evaluation is stored (CUA_E_INVALID otherwise). */
enum cua_status cua_bstore_put(struct cua_bstore *s, const struct cua_bstore_key *k,
                               const struct cua_eval *e, char *err, size_t errlen);

/* One baseline of a task for cua_bstore_obtain. */
struct cua_bstore_item {
	const char *subject;          /* "nvcc", "cublas/sgemm" */
	struct cua_bstore_key key;    /* n == 0: no key, always measured, never stored */
	struct cua_eval *e;           /* out (cleared by the caller) */
	struct cua_bstore_origin origin;   /* out */
	bool no_store;                /* set by measure: what measured it is not the key's
	                               * device, so the result is not stored */
};

/* Measures item i into it->e (a verdict; an error return: the harness could not). */
typedef enum cua_status (*cua_bstore_measure_fn)(void *ctx, int i, struct cua_bstore_item *it,
                                                  char *err, size_t errlen);

/* One task's baselines on device d: each item with a key is looked up (unless
 * fresh, s->fresh or d has drifted) and reused on a hit; the first time anything is
 * reused on d, the reused item with the smallest stored median (the cheapest
 * to re-time) is measured again and compared with its stored median — outside
 * CUA_BSTORE_DRIFT_TOL (or failing), d has drifted: every item reused here is
 * measured, and nothing more is reused on d by this store; within it, the new
 * measurement is the one used. Every item not reused is measured, in order, and
 * stored when correct and timed. A measurement that sets no_store (another device
 * than the key's measured it) counts as drift: if it was the re-timing, every
 * reused item is measured, and d reuses nothing more. Holds d->lock throughout. An error of measure
 * stops and is returned (items measured so far keep their results). */
enum cua_status cua_bstore_obtain(struct cua_bstore *s, struct cua_bstore_device *d,
                                  bool fresh, const char *task,
                                  struct cua_bstore_item *items, int n,
                                  cua_bstore_measure_fn measure, void *ctx, char *err,
                                  size_t errlen);

#endif /* CUA_BSTORE_H */
