/* results.h — the one reader of a run folder, results/<run>/ (docs/RESULTS-FORMAT.md):
 * its files' names; lines.c: its lines, walked with one schema check and one rule
 * for torn lines (by the scorers, `run --resume`, `serve` and `merge` alike);
 * results.c: the folder loaded into structs that tables, boards, plots and compare
 * score, and the text escaping those outputs share. Its one writer is writer.h;
 * what it holds, for the writers that go on with it, prior.h. Everything read
 * here is untrusted: errors name the file and the line. */
#ifndef CUA_RESULTS_H
#define CUA_RESULTS_H

#include "common.h"
#include "judge/stats.h"
#include "judge/verdict.h"

struct cJSON;
struct cua_task;

/* The results schema this cuarena reads and writes (2 since the judge's clock,
 * timing.judge_ms, is the time; it reads 1 as well). */
#define CUA_RESULTS_SCHEMA 2

/* The files of a run folder: their names here and nowhere else. */
#define CUA_RESULTS_RUN_JSON   "run.json"
#define CUA_RESULTS_EVALS      "evals.jsonl"
#define CUA_RESULTS_TRAJ       "trajectories.jsonl"
#define CUA_RESULTS_BASELINES  "baselines.jsonl"
#define CUA_RESULTS_LOCK       "writer.lock"   /* the writer's (writer.h): who holds it */
#define CUA_RESULTS_WORK       "work"          /* each task's kernels, as sources */

/* The .jsonl files, in the order a folder is read and written. */
enum cua_results_file {
	CUA_RESULTS_F_EVALS = 0,
	CUA_RESULTS_F_TRAJ = 1,
	CUA_RESULTS_F_BASELINES = 2,
	CUA_RESULTS_N_FILES = 3,
};
extern const char *const cua_results_file_names[CUA_RESULTS_N_FILES];

/* The pseudo-baseline "library": the fastest of a task's library baselines
 * (names "<library>/<routine>", e.g. cublas/sgemm), nvcc when it has none. */
#define CUA_BASELINE_LIBRARY "library"

struct cua_speedup {
	char baseline[64];        /* "nvcc", "cublas/sgemm", "torch-eager" */
	double x;                 /* time(baseline) / time(candidate); NaN for null */
};

/* One evaluation line of evals.jsonl or baselines.jsonl, reduced to what
 * scoring reads (the full object is cua_eval; keeping 12 KB per line of a
 * 50 000-line run would not fit). */
struct cua_rec {
	int line;                 /* 1-based line in its file */
	int turn;                 /* evals.jsonl: >= 1; baselines.jsonl: 0 */
	double reward;            /* NaN when absent */
	char subject[64];
	bool imported;
	enum cua_verdict verdict;
	char message[160];        /* the evaluation's sentence, cut to fit */
	bool timed;               /* a timing block was present */
	struct cua_stats ms;      /* timing.event_ms (median, q1, q3 ...) */
	double sm_mhz;            /* mean of sm_mhz_before/after; NaN unknown */
	double pct_sol;           /* NaN unknown */
	int n_speedups;
	struct cua_speedup *speedups;   /* owned */
};

/* A "turn" line of trajectories.jsonl: where it is, so its code can be read
 * back on demand (cua_results_code) instead of holding every kernel in memory. */
struct cua_turn_ref {
	int turn;
	long offset;              /* byte offset of the line */
	enum cua_verdict verdict; /* CUA_VERDICT_COUNT when absent or unknown */
};

/* Everything a run holds about one task. */
struct cua_results_task {
	char id[64];              /* "L1/021-relu" */
	int level;                /* from the lines, else the id's "L<n>/"; 0 unknown */
	bool listed;              /* named in run.json's "tasks" */
	int n_evals;
	struct cua_rec *evals;    /* evals.jsonl lines, in file order */
	int n_baselines;
	struct cua_rec *baselines;/* baselines.jsonl lines */
	int n_turns;
	struct cua_turn_ref *turns;
	double flops, bytes;      /* the task's, at its timed shape, as baselines.jsonl
	                           * records them; NaN when it does not (a run from
	                           * before they were recorded) */
	bool ended;               /* an "end" line was seen */
	char end_reason[128];
	int best_turn, final_turn;/* from the "end" line; 0 when absent */
	int cap_evals, cap_baselines, cap_turns;
};

struct cua_results {
	char dir[CUA_PATH_LEN];           /* the folder as given, without a trailing '/' */
	char run_id[128];         /* run.json's run_id, else the folder's name */
	char created[64];         /* ISO 8601 as written; "" when absent */
	char agent[64], version[64];
	char device[128];         /* device.name; "" when absent */
	char harness_version[32], harness_git[64];
	char catalogue_hash[65];
	char nvcc[128];
	char reward[32];
	int turns;                /* the run's turn limit; 0 when absent */
	int n_tasks;
	struct cua_results_task *tasks; /* sorted by id */
	int n_warnings;
	char *warnings;           /* one line each ("FILE: line N: ..."), NULL if none */
	int cap_tasks;
};

/* Loads dir/run.json (required), evals.jsonl, baselines.jsonl and
 * trajectories.jsonl (each optional: missing means empty). A line that lacks a
 * required field or carries a newer schema fails the load with "DIR/FILE: line
 * N: what"; a line that does not parse is torn (cua_results_each_line): left
 * out, named with its bytes in run->warnings. On failure *out is NULL. */
enum cua_status cua_results_load(const char *dir, struct cua_results **out, char *err,
                             size_t errlen);
void cua_results_free(struct cua_results *run);   /* NULL is a no-op */

/* The task of that id, NULL if the run does not mention it. */
const struct cua_results_task *cua_results_find(const struct cua_results *run, const char *id);

/* True when the evaluation passed every check (verdict ok). */
bool cua_rec_correct(const struct cua_rec *r);

/* The evaluation's speedup vs a baseline name, or vs CUA_BASELINE_LIBRARY;
 * NaN when unknown (failed, untimed, or no such baseline). */
double cua_rec_speedup(const struct cua_rec *r, const char *baseline);

/* Which evaluation of an episode is scored. */
enum cua_pick {
	CUA_PICK_BEST = 0,        /* the correct one with the highest speedup vs
	                           * primary (ties: earliest turn); CUDA Agent's rule */
	CUA_PICK_FINAL = 1,       /* the one with the highest turn (ties: last line) */
};

/* The scored evaluation of a task, or NULL when it has none (BEST: none is
 * correct; FINAL: none at all). A correct evaluation without a speedup vs
 * primary ranks below every one with a speedup. */
const struct cua_rec *cua_results_scored(const struct cua_results_task *t, const char *primary,
                                      enum cua_pick pick);

/* The baseline record of a subject ("nvcc"), NULL if none. */
const struct cua_rec *cua_results_baseline(const struct cua_results_task *t, const char *subject);

/* The code of a turn, read back from trajectories.jsonl: a heap string, or
 * NULL when that turn has no line or no "code". */
char *cua_results_code(const struct cua_results *run, const struct cua_results_task *t, int turn);

/* Levels present in the run, ascending, into levels[max]; returns how many. */
int cua_results_levels(const struct cua_results *run, int *levels, int max);

/* Loads each folder of dirs[0..n); each run's warnings go to `warn` (may be
 * NULL) prefixed with `who` ("cuarena table"). NULL on the first failure, err
 * naming the file. Free with cua_results_free_many. */
struct cua_results **cua_results_load_many(char *const *dirs, int n, const char *who, FILE *warn,
                               char *err, size_t errlen);
void cua_results_free_many(struct cua_results **runs, int n);

/* "agent version" (or "agent" without a version) into buf. */
const char *cua_results_label(const struct cua_results *run, char *buf, size_t len);

/* ---- the line reader: one schema check, one rule for torn lines ---------------- */

/* Where a line is: for messages ("PATH: line N: what") and to read it again. */
struct cua_results_at {
	const char *path;         /* "DIR/evals.jsonl" */
	int line;                 /* 1-based */
	long offset;              /* byte offset of the line's start */
	const char *text;         /* the line as read, without its newline (borrowed) */
	size_t len;
};

/* Called with each line that is a JSON object carrying a "schema" this cuarena
 * reads. CUA_OK goes on; any other status stops the walk and is returned (the
 * callback says why in err, e.g. with cua_results_line_err). */
typedef enum cua_status (*cua_results_line_fn)(void *ctx, const struct cJSON *line,
                                               const struct cua_results_at *at,
                                               char *err, size_t errlen);

/* A line a walk left out. Two kinds: the last line without its newline, torn by
 * a writer killed while appending it (a reader skips it; a writer about to
 * append cuts it from the file), and a line in the middle that does not parse,
 * which only a writer older than writer.h leaves: a failed append it did not cut
 * back, with the next line glued to it. Of that one the torn bytes are skipped
 * and a whole record glued after them is read. */
struct cua_results_tear {
	int line;                 /* 1-based */
	long bytes;               /* left out (or cut from the file) */
	bool tail;                /* the last line, without its newline */
	bool glued;               /* a whole record after the torn bytes was read */
};

#define CUA_RESULTS_TEARS 8
struct cua_results_tears {
	int n;                    /* how many (the first CUA_RESULTS_TEARS are in at[]) */
	long bytes;               /* summed */
	struct cua_results_tear at[CUA_RESULTS_TEARS];
};

/* One sentence for a tear: "PATH: line N: B bytes ..." into buf. */
const char *cua_results_tear_text(const char *path, const struct cua_results_tear *t,
                                  char *buf, size_t len);

/* What a walk does with a torn last line. */
enum cua_results_tail {
	CUA_RESULTS_SKIP_TORN = 0, /* a reader: the torn last line is skipped */
	CUA_RESULTS_CUT_TORN = 1,  /* a writer about to append: what follows the last
	                            * newline is cut from the file first */
};

/* Walks the .jsonl file at path line by line (never whole; blank lines are
 * skipped; a missing file is empty). Lines that do not parse are left out as
 * the tears above say, each named in *tears (may be NULL; zeroed first); a line
 * that parses but is not an object, has no "schema" or a newer one fails the
 * walk with "PATH: line N: what", and so does whatever fn refuses. */
enum cua_status cua_results_each_line(const char *path, enum cua_results_tail tail,
                                      cua_results_line_fn fn, void *ctx,
                                      struct cua_results_tears *tears, char *err,
                                      size_t errlen);

/* "PATH: line N: " and the message into err; returns CUA_E_PARSE. */
enum cua_status cua_results_line_err(const struct cua_results_at *at, char *err,
                                     size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Reads dir/run.json into *out (the caller cJSON_Deletes it): a JSON object
 * whose "schema" this cuarena reads, with a non-empty agent.name. A missing file
 * is CUA_E_NOT_FOUND; other faults CUA_E_PARSE, naming the file. */
enum cua_status cua_results_read_run_json(const char *dir, struct cJSON **out, char *err,
                                          size_t errlen);

/* ---- text output shared by table, board, plot and compare ------------------- */

enum cua_escape {
	CUA_ESC_NONE = 0,
	CUA_ESC_MD = 1,        /* '|' and newlines in a markdown table cell */
	CUA_ESC_LATEX = 2,     /* \ { } $ & # ^ _ ~ % */
	CUA_ESC_CSV = 3,       /* RFC 4180: quoted when it holds , " or a newline */
	CUA_ESC_HTML = 4,      /* & < > " ' */
	CUA_ESC_GNUPLOT = 5,   /* inside a gnuplot double-quoted string */
};

/* Writes s to f escaped for the context. */
void cua_fput_esc(FILE *f, const char *s, enum cua_escape how);

/* ---- the torn tail -------------------------------------------------------------- */

/* Cuts a results file after its last newline: a line torn by a kill must not
 * swallow the next one appended. Returns how many bytes were cut (0 also for a
 * missing file), or -errno when the file could not be cut. */
long cua_results_drop_torn_tail(const char *path);

/* A task's flops and bytes at its timed shape, as a run records them (each NaN
 * when its expression does not evaluate). */
void cua_results_task_work(const struct cua_task *t, double *flops, double *bytes);

#endif /* CUA_RESULTS_H */
