/* task.h — the task format (tasks/L<level>/<NNN>-<slug>/task.json): one task
 * loaded; the catalogue of them all is catalogue/catalogue.h. The schema is
 * documented in docs/ADDING-A-TASK.md. Everything read here is untrusted: errors
 * name the file and the JSON field. */
#ifndef CUA_TASK_H
#define CUA_TASK_H

#include "common.h"
#include "cuarena.h"

#define CUA_MAX_TENSORS 8
#define CUA_MAX_SHAPES 8
#define CUA_MAX_NAMED 16      /* named dims per shape set, params per task */
#define CUA_MAX_BASELINES 8
#define CUA_MAX_LIBS 4
#define CUA_NAME_LEN 32
#define CUA_MAX_SEGMENTS 4096 /* segments of one layered input (Level 3 weights) */
#define CUA_SEG_NAME_LEN 96   /* "layer4.22.downsample.1.running_mean" and longer */
#define CUA_SEG_ALIGN 64      /* elements: every segment starts at a multiple (256 B of f32) */
#define CUA_MAX_REPEAT_DEPTH 4
#define CUA_TASK_ID_MAX 120   /* longest id: "L1/075-conv-transposed-2d-…-dilated" is 91 */
#define CUA_EXTRA_SET "X"     /* tasks/X/: tasks outside every level (level 0) */

/* Input distributions; the generator is in harness/rng.h. */
enum cua_dist {
	CUA_DIST_UNIFORM = 0,  /* a = low, b = high (high > low) */
	CUA_DIST_NORMAL = 1,   /* a = mean, b = std (std > 0) */
	CUA_DIST_INT = 2,      /* integers uniform in [a, b] (for index/label inputs) */
	CUA_DIST_BERNOULLI = 3,/* 1 with probability a, else 0 (for masks) */
	CUA_DIST_CONST = 4,    /* every element = a (BatchNorm's weight 1, bias 0) */
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

/* One named segment of a layered input: a weight tensor of the network laid in
 * the flat buffer at `offset` (elements, a multiple of CUA_SEG_ALIGN). Element j
 * of the segment is cua_rng_value(init, seed, stream, j); the padding between
 * segments is zero. */
struct cua_segment {
	char name[CUA_SEG_NAME_LEN]; /* PyTorch state_dict() name: "layer1.0.conv1.weight" */
	int ndim;
	int64_t shape[CUA_MAX_DIMS];
	int64_t offset, numel;
	struct cua_init init;
	uint32_t stream;             /* RNG stream: CUA_SEG_STREAM(input index, segment) */
};

/* Each segment its own stream, apart from every plain input's (0..15). */
#define CUA_SEG_STREAM(input, k) ((uint32_t)(input) + 16u * ((uint32_t)(k) + 1u))

struct cua_tensor_spec {
	char name[CUA_NAME_LEN];
	enum cua_dtype dtype;
	int ndim;
	char *shape[CUA_MAX_DIMS];   /* expressions over dims and integer params */
	struct cua_init init;        /* inputs only (unused when n_segments > 0) */
	/* A layered input ("layers" in task.json, docs/ADDING-A-TASK.md): shape is
	 * ["P"] with P = the end of the last segment, the same in every shape set. */
	int n_segments;
	struct cua_segment *segments; /* owned; NULL when n_segments == 0 */
	/* Inputs only: why no output depends on this input ("ignored" in task.json),
	 * owned; NULL for an input every output must depend on. The selftest then
	 * proves the reverse: regenerating it changes no output (cmd-selftest.c). */
	char *ignored;
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
	char *id;                    /* "L1/019-relu": level dir + folder name; "X/001-…" */
	char *dir;                   /* folder path as given to the loader */
	int level;                   /* 1..9; 0 = the extra set (tasks/X/), in no level */
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
	int64_t memory_mb;           /* peak device memory of one evaluation, the judge's
	                              * copies included (MiB); 0 = not stated (required
	                              * from Level 3 and for any layered input) */
	/* "source": the KernelBench problem the task is; all NULL/0 when absent */
	char *source_version;        /* "v0.1": the KernelBench release (or commit) followed */
	char *source_file;           /* "level1/19_ReLU.py", under KernelBench/ in its repo */
	int source_problem;          /* 19: the file's number, which is the task's */
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

/* What `selftest --dump` writes for shape set `shape`: the inputs in their
 * dtypes, the oracle's outputs as it computes them (f64 for a float output).
 * Returns the total in bytes and stores the largest one file's in *largest; -1
 * when a shape does not resolve. */
int64_t cua_task_dump_bytes(const struct cua_task *t, int shape, int64_t *largest);

/* The dump holds the timed shape too when its files total at most this much
 * (tools/torch_check.py measures torch's fp32 error there: the long recurrences
 * of Level 3 fail at the timed shape alone). */
#define CUA_DUMP_TIMED_MAX (256LL << 20)

/* Whether `selftest --dump` writes shape set `shape`: every check shape, and the
 * timed one within CUA_DUMP_TIMED_MAX. The judge's dump and the file-size limit
 * its parent gives it both follow this. */
bool cua_task_dumps_shape(const struct cua_task *t, int shape);

/* The largest one file `selftest --dump` writes (0 when a shape does not resolve). */
int64_t cua_task_dump_file_max(const struct cua_task *t);

/* The segment of a layered input holding element `index`, or NULL when the
 * element is padding (or spec has no segments). Binary search. */
const struct cua_segment *cua_segment_at(const struct cua_tensor_spec *spec, int64_t index);

/* One line describing an init: "U(-0.125, 0.125)", "N(0, 1)", "const 1". */
void cua_init_describe(const struct cua_init *in, char *buf, size_t len);

const char *cua_dtype_name(enum cua_dtype d);     /* "f32" */
size_t cua_dtype_size(enum cua_dtype d);
const char *cua_precision_name(enum cua_precision p); /* "fp32-strict" */

#endif /* CUA_TASK_H */
