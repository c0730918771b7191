/* task.h — the task format (tasks/L<level>/<NNN>-<slug>/task.json) and the catalogue.
 * The schema is documented in docs/ADDING-A-TASK.md. Everything read here is
 * untrusted: errors name the file and the JSON field. */
#ifndef CUA_TASK_H
#define CUA_TASK_H

#include "common.h"
#include "../include/cuarena.h"

#define CUA_MAX_TENSORS 8
#define CUA_MAX_SHAPES 8
#define CUA_MAX_NAMED 16      /* named dims per shape set, params per task */
#define CUA_MAX_BASELINES 8
#define CUA_MAX_LIBS 4
#define CUA_NAME_LEN 32

/* Input distributions; the generator is in harness/rng.h. */
enum cua_dist {
	CUA_DIST_UNIFORM = 0,  /* a = low, b = high (high > low) */
	CUA_DIST_NORMAL = 1,   /* a = mean, b = std (std > 0) */
	CUA_DIST_INT = 2,      /* integers uniform in [a, b] (for index/label inputs) */
	CUA_DIST_BERNOULLI = 3,/* 1 with probability a, else 0 (for masks) */
};

enum cua_precision {
	CUA_PREC_FP32_STRICT = 0,  /* default: no TF32, no half; baselines run strict */
	CUA_PREC_TF32_ALLOWED = 1,
	CUA_PREC_HALF_ALLOWED = 2,
};

struct cua_init {
	enum cua_dist dist;
	double a, b;
};

struct cua_tensor_spec {
	char name[CUA_NAME_LEN];
	enum cua_dtype dtype;
	int ndim;
	char *shape[CUA_MAX_DIMS];   /* expressions over dims and integer params */
	struct cua_init init;        /* inputs only */
};

struct cua_named {
	char name[CUA_NAME_LEN];
	int64_t value;
};

struct cua_shape_set {
	char name[CUA_NAME_LEN];
	bool timed;                  /* exactly one per task */
	int n_dims;
	struct cua_named dims[CUA_MAX_NAMED];
};

struct cua_param {
	char name[CUA_NAME_LEN];
	double value;
	bool is_int;                 /* integer params may appear in expressions */
};

struct cua_task {
	char *id;                    /* "L1/020-relu": level dir + folder name */
	char *dir;                   /* folder path as given to the loader */
	int level;
	char *title;
	char *description;
	char *torch;                 /* cross-validation expression (optional) */
	int n_inputs, n_outputs;
	struct cua_tensor_spec inputs[CUA_MAX_TENSORS];
	struct cua_tensor_spec outputs[CUA_MAX_TENSORS];
	int n_params;
	struct cua_param params[CUA_MAX_NAMED];
	int n_shapes;
	struct cua_shape_set shapes[CUA_MAX_SHAPES];
	enum cua_precision precision;
	double atol, rtol;
	char *flops;                 /* expression */
	char *bytes;                 /* expression: fewest bytes the op must move */
	bool sol_bytes_only;         /* "sol": "bytes": fast algorithms (FFT, Winograd)
	                              * may do fewer flops than `flops` counts, so the
	                              * speed of light is the memory bound alone */
	int n_baselines;
	char *baselines[CUA_MAX_BASELINES]; /* "cublas/sgemm" = baselines/cublas/sgemm.cu */
	int n_libraries;
	char *libraries[CUA_MAX_LIBS];      /* libraries a candidate may call: "cublas", "cudnn" */
};

/* Loads dir/task.json (dir = a task folder). On failure *out is NULL and err
 * holds "PATH: FIELD: what is wrong". */
enum cua_status cua_task_load(const char *dir, struct cua_task **out, char *err,
                              size_t errlen);
void cua_task_free(struct cua_task *t);   /* NULL is a no-op */

/* Index of the timed shape set (always exists in a loaded task). */
int cua_task_timed_shape(const struct cua_task *t);

/* Evaluates an expression in shape set `shape` (dims + integer params). */
enum cua_status cua_task_eval(const struct cua_task *t, int shape, const char *expr,
                              int64_t *out, char *err, size_t errlen);

/* Resolves a tensor spec's shape in a shape set. */
enum cua_status cua_task_tensor_shape(const struct cua_task *t, int shape,
                                      const struct cua_tensor_spec *spec,
                                      int64_t dims[CUA_MAX_DIMS], char *err,
                                      size_t errlen);

const char *cua_dtype_name(enum cua_dtype d);     /* "f32" */
size_t cua_dtype_size(enum cua_dtype d);
const char *cua_precision_name(enum cua_precision p); /* "fp32-strict" */

/* The catalogue: every task folder under root/tasks/L<n>/ (scanned, no list). */
struct cua_catalogue {
	int n;
	struct cua_task **tasks;     /* sorted by id */
	char hash[65];               /* SHA-256 over every file under root/tasks */
	int n_bad;                   /* folders that failed to load */
	char *errors;                /* one line per bad task, NULL if none */
};

/* Loads every task. Bad tasks do not stop the scan: each is reported in
 * cat->errors and the call returns CUA_E_PARSE with the good ones loaded. */
enum cua_status cua_catalogue_load(const char *root, struct cua_catalogue *cat,
                                   char *err, size_t errlen);
void cua_catalogue_free(struct cua_catalogue *cat);

/* Finds a task by exact id ("L1/020-relu"), folder name ("020-relu"), slug
 * ("relu") or number ("20": the lowest level's task 20; "L2/20": Level 2's). NULL if none or
 * ambiguous (err says which). */
const struct cua_task *cua_catalogue_find(const struct cua_catalogue *cat,
                                          const char *name, char *err,
                                          size_t errlen);

#endif /* CUA_TASK_H */
