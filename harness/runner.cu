/* runner.cu — evaluates one compiled kernel (.so) on one task, inside a sandboxed child.
 *
 * Built into build/cuarena by the Makefile (nvcc, sm_90a); run only as
 *   cuarena __runner --task DIR --so K.so --oracle REF.so --fd N --seeds A,B,C
 *                    --secret S --recheck R [--time] [--max-time-s X] [--subject NAME]
 *                    [--trusted]
 * by the parent (eval.c), with the report channel's key in $CUARENA_CHANNEL_KEY
 * (channel.h). Candidates run under the system-call guard (guard.h); --trusted
 * kernels (references, baselines) without. Order of work, per DESIGN.md §4:
 *   1. every check shape, then the timed shape: for each public seed and the secret
 *      seed: generate inputs on the device, poison outputs and guard bands, call,
 *      check launch errors, synchronise the device, verify guards and inputs, only
 *      then compute the fp64 oracle, compare on the device, scrub the oracle buffer.
 *      The candidate never runs while an oracle result exists in this process.
 *   2. timing at the timed shape (rotating input sets, L2 flushed before each sample,
 *      events + host clock, stop rule from stats.h), SM clock before and after.
 *   3. a re-check at the timed shape with a fresh seed.
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "../include/cuarena.h"
extern "C" {
#include "channel.h"
#include "common.h"
#include "guard.h"
#include "stats.h"
#include "task.h"
#include "verdict.h"
#include "runner.h"
}
#include "rng.h"
#include "compare.h"

typedef int (*solve_fn)(const struct cua_tensor *, int, struct cua_tensor *, int,
                        cudaStream_t);

static const size_t GUARD_BYTES = 64 * 1024;
#define MAX_SETS 6   /* input sets rotated while timing */

/* ---- report channel ------------------------------------------------------- */

static int report_fd = -1;
static struct cua_channel_key g_key;   /* from the parent; lines are sealed with it */
static bool g_have_key;
static uint64_t g_seq;                 /* lines written so far */

static void emit(cJSON *obj)
{
	char *s = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	if (!s)
		return;
	size_t left = 0;
	char *line = g_have_key ? cua_channel_seal(&g_key, g_seq++, s, strlen(s), &left) : NULL;
	free(s);
	const char *p = line;
	while (p && report_fd >= 0 && left > 0) {
		ssize_t w = write(report_fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		left -= (size_t)w;
	}
	free(line);
}

/* The channel key comes in the environment: read it, then wipe it where it
 * lies (the strings /proc/self/environ shows) before any candidate code runs. */
static void take_channel_key(void)
{
	char *v = getenv(CUA_CHANNEL_KEY_ENV);
	g_have_key = v && cua_channel_key_parse(v, &g_key);
	if (v)
		memset(v, 0, strlen(v));
	unsetenv(CUA_CHANNEL_KEY_ENV);
}

static void emit_phase(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "phase");
	cJSON_AddStringToObject(o, "what", buf);
	emit(o);
}

/* Emits the final result line and ends the process: the context dies with it. */
static void finish(enum cua_verdict v, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
static void finish(enum cua_verdict v, const char *fmt, ...)
{
	char buf[CUA_MSG_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "result");
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(v));
	cJSON_AddStringToObject(o, "message", buf);
	emit(o);
	fflush(stdout);
	fflush(stderr);
	_exit(0);
}

/* The system-call guard caught a call from code mapped after it was installed
 * (guard.h): the candidate's own. Runs in the SIGSYS handler: says where on
 * stderr (the output tail, for whoever debugs the kernel), then dies of SIGSYS,
 * which the parent judges a sandbox violation. No result line: sealing one
 * here is not async-signal-safe, and the death says it all. */
static void on_forbidden_syscall(long nr, uintptr_t ip)
{
	char line[200];
	int n = snprintf(line, sizeof(line),
	                 "cuarena: system call %ld made directly from the candidate's own "
	                 "code at 0x%llx; stopped by the runner's guard\n",
	                 nr, (unsigned long long)ip);
	if (n > 0)
		(void)!write(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGSYS, &sa, NULL);
	sigset_t sys;
	sigemptyset(&sys);
	sigaddset(&sys, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &sys, NULL);
	raise(SIGSYS);
	_exit(125);
}

/* A CUDA call of the harness itself failed outside the candidate's call. */
#define HARNESS_TRY(call)                                                          \
	do {                                                                           \
		cudaError_t e_ = (call);                                                   \
		if (e_ != cudaSuccess)                                                     \
			finish(CUA_VERDICT_HARNESS_ERROR, "%s failed: %s (%s)", #call,         \
			       cudaGetErrorString(e_), cudaGetErrorName(e_));                  \
	} while (0)

/* After the candidate ran: a sticky error is the candidate's fault. */
static void after_call_sync(const char *where)
{
	cudaError_t e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		finish(CUA_VERDICT_RUNTIME_ERROR,
		       "CUDA error while the kernel ran (%s): %s (%s)", where,
		       cudaGetErrorString(e), cudaGetErrorName(e));
}

/* ---- device kernels -------------------------------------------------------- */

template <typename T>
__global__ void gen_kernel(T *p, int64_t n, int dist, double a, double b,
                           uint64_t seed, uint32_t tensor)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = (T)cua_rng_value(dist, a, b, seed, tensor, (uint64_t)i);
}

template <typename T>
__device__ __forceinline__ bool same_bits(const T &a, const T &b)
{
	const unsigned char *pa = (const unsigned char *)&a, *pb = (const unsigned char *)&b;
	for (unsigned i = 0; i < sizeof(T); i++)
		if (pa[i] != pb[i])
			return false;
	return true;
}

/* Counts elements that differ (bitwise) from what the generator made. */
template <typename T>
__global__ void verify_kernel(const T *p, int64_t n, int dist, double a, double b,
                              uint64_t seed, uint32_t tensor,
                              unsigned long long *bad)
{
	unsigned long long mine = 0;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		T want = (T)cua_rng_value(dist, a, b, seed, tensor, (uint64_t)i);
		if (!same_bits(want, p[i]))
			mine++;
	}
	if (mine)
		atomicAdd(bad, mine);
}

__global__ void fill32_kernel(uint32_t *p, int64_t n, uint32_t v)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = v;
}

__global__ void count_not32_kernel(const uint32_t *p, int64_t n, uint32_t v,
                                   unsigned long long *bad)
{
	unsigned long long mine = 0;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		mine += p[i] != v;
	if (mine)
		atomicAdd(bad, mine);
}

struct cmp_acc {
	unsigned long long n_bad, n_nan, n_unwritten;
	unsigned long long max_abs_bits, max_rel_bits; /* non-negative doubles order as ints */
	unsigned long long first_bad;
};

__device__ void acc_max(unsigned long long *slot, double v)
{
	if (v > 0 && v == v)
		atomicMax(slot, (unsigned long long)__double_as_longlong(v));
}

/* One thread's share of a comparison, kept in registers: global atomics on the
 * same few words for every element (as until 2026-11-29) serialise in L2. On
 * the H200 a 3.2 GB output's comparison took about a second that way; 023-
 * sigmoid spent 4.7 s checking and 6.2 s timing (nine comparisons at its timed
 * shape), where its kernels take milliseconds. */
struct cmp_local {
	unsigned long long n_bad, n_nan, n_unwritten, first_bad;
	double max_abs, max_rel;
};

__device__ __forceinline__ void local_err(cmp_local *l, double cv, double rv)
{
	l->max_abs = fmax(l->max_abs, fabs(cv - rv));   /* fmax drops a NaN operand */
	l->max_rel = fmax(l->max_rel, cua_rel_err(cv, rv));
}

/* Warp-reduces the threads' shares; lane 0 adds its warp's to acc. Every lane
 * of every warp must call it (no thread may leave the kernel early). */
__device__ void flush_local(cmp_local l, cmp_acc *acc)
{
	for (int o = 16; o > 0; o >>= 1) {
		l.n_bad += __shfl_down_sync(0xffffffffu, l.n_bad, o);
		l.n_nan += __shfl_down_sync(0xffffffffu, l.n_nan, o);
		l.n_unwritten += __shfl_down_sync(0xffffffffu, l.n_unwritten, o);
		unsigned long long f = __shfl_down_sync(0xffffffffu, l.first_bad, o);
		l.first_bad = f < l.first_bad ? f : l.first_bad;
		l.max_abs = fmax(l.max_abs, __shfl_down_sync(0xffffffffu, l.max_abs, o));
		l.max_rel = fmax(l.max_rel, __shfl_down_sync(0xffffffffu, l.max_rel, o));
	}
	if ((threadIdx.x & 31) != 0)
		return;
	if (l.n_bad)
		atomicAdd(&acc->n_bad, l.n_bad);
	if (l.n_nan)
		atomicAdd(&acc->n_nan, l.n_nan);
	if (l.n_unwritten)
		atomicAdd(&acc->n_unwritten, l.n_unwritten);
	if (l.first_bad != ULLONG_MAX)
		atomicMin(&acc->first_bad, l.first_bad);
	acc_max(&acc->max_abs_bits, l.max_abs);
	acc_max(&acc->max_rel_bits, l.max_rel);
}

/* Compares a candidate output (float or double) with the fp64 oracle. */
template <typename T>
__global__ void compare_float_kernel(const T *c, const double *r, int64_t n,
                                     double atol, double rtol, cmp_acc *acc)
{
	cmp_local l = {0, 0, 0, ULLONG_MAX, 0, 0};
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		double cv = (double)c[i], rv = r[i];
		int k = sizeof(T) == 4 ? cua_judge_f32((float)c[i], rv, atol, rtol)
		                       : cua_judge_f64(cv, rv, atol, rtol);
		if (k == CUA_ELEM_OK) {
			if (cv == cv && rv == rv && !isinf(rv))
				local_err(&l, cv, rv);
			continue;
		}
		if (l.first_bad == ULLONG_MAX)   /* i only grows: the thread's first */
			l.first_bad = (unsigned long long)i;
		if (k == CUA_ELEM_UNWRITTEN)
			l.n_unwritten++;
		else if (k == CUA_ELEM_NAN)
			l.n_nan++;
		else {
			l.n_bad++;
			if (cv == cv && !isinf(cv) && !isinf(rv))
				local_err(&l, cv, rv);
		}
	}
	flush_local(l, acc);
}

/* Integer outputs must match exactly. */
template <typename T>
__global__ void compare_int_kernel(const T *c, const T *r, int64_t n, cmp_acc *acc)
{
	cmp_local l = {0, 0, 0, ULLONG_MAX, 0, 0};
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		if (c[i] == r[i])
			continue;
		if (l.first_bad == ULLONG_MAX)
			l.first_bad = (unsigned long long)i;
		l.n_bad++;
		l.max_abs = fmax(l.max_abs, fabs((double)c[i] - (double)r[i]));
	}
	flush_local(l, acc);
}

/* Measures this SM's clock: cycles counted over ~2 ms of the global timer. */
__global__ void clock_kernel(double *mhz)
{
	uint64_t t0, t1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	long long c0 = clock64();
	do {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	} while (t1 - t0 < 2000000ull);
	long long c1 = clock64();
	*mhz = (double)(c1 - c0) / (double)(t1 - t0) * 1e3;
}

static int grid_for(int64_t n)
{
	int64_t blocks = (n + 255) / 256;
	if (blocks > 132 * 32)
		blocks = 132 * 32;
	return blocks < 1 ? 1 : (int)blocks;
}

/* ---- device tensors with guard bands ----------------------------------------- */

struct dev_tensor {
	char *base;               /* allocation: guard | data | guard */
	struct cua_tensor t;
	int64_t n;
	size_t bytes;             /* data bytes */
	const struct cua_init *init; /* inputs only */
	uint32_t index;           /* RNG stream id of an input */
};

static void tensor_alloc(struct dev_tensor *d, enum cua_dtype dtype, int ndim,
                         const int64_t *shape)
{
	memset(d, 0, sizeof(*d));
	d->t.dtype = dtype;
	d->t.ndim = ndim;
	d->n = 1;
	for (int i = 0; i < ndim; i++) {
		d->t.shape[i] = shape[i];
		d->n *= shape[i];
	}
	d->bytes = (size_t)d->n * cua_dtype_size(dtype);
	size_t padded = (d->bytes + 3) & ~(size_t)3;
	HARNESS_TRY(cudaMalloc((void **)&d->base, padded + 2 * GUARD_BYTES));
	d->t.data = d->base + GUARD_BYTES;
}

static void tensor_free(struct dev_tensor *d)
{
	if (d->base)
		cudaFree(d->base);
	d->base = NULL;
}

static size_t total_words(const struct dev_tensor *d)
{
	return (((d->bytes + 3) & ~(size_t)3) + 2 * GUARD_BYTES) / 4;
}

/* Poisons the guard bands, and the data too when `data` is true. */
static void poison(struct dev_tensor *d, bool data, cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4;
	if (data) {
		int64_t n = (int64_t)total_words(d);
		fill32_kernel<<<grid_for(n), 256, 0, s>>>(w, n, CUA_POISON32);
	} else {
		int64_t dw = (int64_t)(((d->bytes + 3) & ~(size_t)3) / 4);
		fill32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32);
		fill32_kernel<<<grid_for(gw), 256, 0, s>>>(w + gw + dw, gw, CUA_POISON32);
	}
	HARNESS_TRY(cudaGetLastError());
}

static unsigned long long *d_counter;

static unsigned long long guard_damage(const struct dev_tensor *d, cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4;
	int64_t dw = (int64_t)(((d->bytes + 3) & ~(size_t)3) / 4);
	unsigned long long h = 0;
	HARNESS_TRY(cudaMemsetAsync(d_counter, 0, sizeof(*d_counter), s));
	count_not32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32, d_counter);
	count_not32_kernel<<<grid_for(gw), 256, 0, s>>>(w + gw + dw, gw, CUA_POISON32,
	                                                d_counter);
	HARNESS_TRY(cudaMemcpyAsync(&h, d_counter, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h;
}

#define DISPATCH_TYPES(dtype, ...)                                            \
	switch (dtype) {                                                           \
	case CUA_F32: { typedef float T; __VA_ARGS__; } break;                            \
	case CUA_F64: { typedef double T; __VA_ARGS__; } break;                           \
	case CUA_I32: { typedef int32_t T; __VA_ARGS__; } break;                          \
	case CUA_I64: { typedef int64_t T; __VA_ARGS__; } break;                          \
	case CUA_U8: { typedef uint8_t T; __VA_ARGS__; } break;                           \
	default:                                                                   \
		finish(CUA_VERDICT_HARNESS_ERROR, "dtype %s is not supported yet",    \
		       cua_dtype_name(dtype));                                         \
	}

static void generate(struct dev_tensor *d, uint64_t seed, cudaStream_t s)
{
	const struct cua_init *in = d->init;
	DISPATCH_TYPES(d->t.dtype,
	               gen_kernel<T><<<grid_for(d->n), 256, 0, s>>>(
	                   (T *)d->t.data, d->n, (int)in->dist, in->a, in->b, seed,
	                   d->index));
	HARNESS_TRY(cudaGetLastError());
}

static unsigned long long mutated(const struct dev_tensor *d, uint64_t seed,
                                  cudaStream_t s)
{
	const struct cua_init *in = d->init;
	unsigned long long h = 0;
	HARNESS_TRY(cudaMemsetAsync(d_counter, 0, sizeof(*d_counter), s));
	DISPATCH_TYPES(d->t.dtype,
	               verify_kernel<T><<<grid_for(d->n), 256, 0, s>>>(
	                   (const T *)d->t.data, d->n, (int)in->dist, in->a, in->b,
	                   seed, d->index, d_counter));
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(&h, d_counter, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h;
}

/* ---- the job ---------------------------------------------------------------- */

struct job {
	const char *task_dir, *so, *oracle_so, *subject;
	uint64_t seeds[8];
	int n_seeds;
	uint64_t secret, recheck;
	bool time;
	double max_time_s;
	int min_samples;
	bool degeneracy;          /* --degeneracy: prove the task is not degenerate */
	bool trusted;             /* --trusted: the harness's own kernel (no guard) */
	const char *dump_dir;     /* --dump DIR: write inputs and oracle outputs */
};

struct shape_bufs {
	int shape;
	struct dev_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
};

static const struct cua_task *g_task;
static solve_fn g_solve, g_oracle;
static cmp_acc *d_acc;

static void shape_alloc(struct shape_bufs *b, int shape)
{
	const struct cua_task *t = g_task;
	char err[CUA_ERR_LEN];
	int64_t dims[CUA_MAX_DIMS];

	memset(b, 0, sizeof(*b));
	b->shape = shape;
	for (int i = 0; i < t->n_inputs; i++) {
		if (cua_task_tensor_shape(t, shape, &t->inputs[i], dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&b->in[i], t->inputs[i].dtype, t->inputs[i].ndim, dims);
		b->in[i].init = &t->inputs[i].init;
		b->in[i].index = (uint32_t)i;
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *o = &t->outputs[i];
		if (cua_task_tensor_shape(t, shape, o, dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&b->out[i], o->dtype, o->ndim, dims);
		bool fl = o->dtype == CUA_F32 || o->dtype == CUA_F64;
		tensor_alloc(&b->ref[i], fl ? CUA_F64 : o->dtype, o->ndim, dims);
	}
}

static void shape_free(struct shape_bufs *b)
{
	for (int i = 0; i < CUA_MAX_TENSORS; i++) {
		tensor_free(&b->in[i]);
		tensor_free(&b->out[i]);
		tensor_free(&b->ref[i]);
	}
}

static void index_string(const struct cua_tensor *t, int64_t flat, char *buf,
                         size_t len)
{
	int64_t idx[CUA_MAX_DIMS];
	for (int i = t->ndim - 1; i >= 0; i--) {
		idx[i] = flat % t->shape[i];
		flat /= t->shape[i];
	}
	size_t off = (size_t)snprintf(buf, len, "[");
	for (int i = 0; i < t->ndim && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", i ? ", " : "",
		                        (long long)idx[i]);
	if (off < len)
		snprintf(buf + off, len - off, "]");
}

static double host_value(const void *dev, enum cua_dtype dt, int64_t i)
{
	union { float f; double d; int32_t i32; int64_t i64; uint8_t u8; } v;
	size_t es = cua_dtype_size(dt);
	memset(&v, 0, sizeof(v));
	if (cudaMemcpy(&v, (const char *)dev + (size_t)i * es, es,
	               cudaMemcpyDeviceToHost) != cudaSuccess)
		return NAN;
	switch (dt) {
	case CUA_F32: return v.f;
	case CUA_F64: return v.d;
	case CUA_I32: return v.i32;
	case CUA_I64: return (double)v.i64;
	case CUA_U8: return v.u8;
	default: return NAN;
	}
}

static void call_checked(solve_fn fn, struct shape_bufs *b, cudaStream_t s,
                         const char *where)
{
	struct cua_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS];
	for (int i = 0; i < g_task->n_inputs; i++)
		in[i] = b->in[i].t;
	for (int i = 0; i < g_task->n_outputs; i++)
		out[i] = b->out[i].t;
	int rc = fn(in, g_task->n_inputs, out, g_task->n_outputs, s);
	cudaError_t le = cudaGetLastError();
	if (le != cudaSuccess)
		finish(CUA_VERDICT_LAUNCH_ERROR, "launch failed (%s): %s (%s)", where,
		       cudaGetErrorString(le), cudaGetErrorName(le));
	after_call_sync(where);
	if (rc != 0)
		finish(CUA_VERDICT_RUNTIME_ERROR, "cua_solve returned %d (%s)", rc, where);
}

struct cua_verdict_box {
	enum cua_verdict v;
	char msg[CUA_MSG_LEN];
};

static bool judge_case(struct shape_bufs *b, uint64_t seed, bool secret, bool recheck,
                       const char *where, cudaStream_t s, struct cua_verdict_box *box);

/* One correctness case. Returns true when it passed; emits a case event; the
 * first failure of the run is kept in box. */
static bool run_case(struct shape_bufs *b, uint64_t seed, bool secret, bool recheck,
                     cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	const char *shape = t->shapes[b->shape].name;
	char where[128];
	snprintf(where, sizeof(where), "shape %s, %s", shape,
	         secret ? "secret seed" : recheck ? "re-check seed" : "public seed");
	emit_phase("check %s seed %s", shape,
	           secret ? "secret" : recheck ? "recheck" : "public");

	for (int i = 0; i < t->n_inputs; i++) {
		generate(&b->in[i], seed, s);
		poison(&b->in[i], false, s);
	}
	for (int i = 0; i < t->n_outputs; i++)
		poison(&b->out[i], true, s);
	HARNESS_TRY(cudaDeviceSynchronize());

	call_checked(g_solve, b, s, where);
	return judge_case(b, seed, secret, recheck, where, s, box);
}

/* Judges the call that just ran on b (inputs generated from `seed`): guard
 * bands, inputs unchanged, then the oracle and the comparison. Emits a case
 * event; the first failure of the run is kept in box. */
static bool judge_case(struct shape_bufs *b, uint64_t seed, bool secret, bool recheck,
                       const char *where, cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	const char *shape = t->shapes[b->shape].name;

	for (int i = 0; i < t->n_outputs; i++) {
		unsigned long long g = guard_damage(&b->out[i], s);
		if (g)
			finish(CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around output '%s' were written "
			       "(%s)", g, t->outputs[i].name, where);
	}
	for (int i = 0; i < t->n_inputs; i++) {
		unsigned long long g = guard_damage(&b->in[i], s);
		if (g)
			finish(CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around input '%s' were written "
			       "(%s)", g, t->inputs[i].name, where);
		unsigned long long m = mutated(&b->in[i], seed, s);
		if (m)
			finish(CUA_VERDICT_INPUT_MUTATED,
			       "%llu elements of input '%s' changed during the call (%s)", m,
			       t->inputs[i].name, where);
	}

	/* The candidate is done and the device idle: now, and only now, the oracle. */
	{
		struct cua_tensor in[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
		for (int i = 0; i < t->n_inputs; i++)
			in[i] = b->in[i].t;
		for (int i = 0; i < t->n_outputs; i++)
			ref[i] = b->ref[i].t;
		int rc = g_oracle(in, t->n_inputs, ref, t->n_outputs, s);
		cudaError_t e = cudaDeviceSynchronize();
		if (rc != 0 || e != cudaSuccess)
			finish(CUA_VERDICT_HARNESS_ERROR, "the oracle failed (%s): rc %d, %s",
			       where, rc, cudaGetErrorString(e));
	}

	bool all_ok = true;
	cJSON *ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "event", "case");
	cJSON_AddStringToObject(ev, "shape", shape);
	cJSON_AddNumberToObject(ev, "seed", secret ? 0 : (double)seed);
	cJSON_AddBoolToObject(ev, "secret", secret);
	cJSON_AddBoolToObject(ev, "recheck", recheck);
	unsigned long long tot_n = 0, tot_bad = 0, tot_nan = 0, tot_unw = 0;
	double max_abs = 0, max_rel = 0;
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i], *r = &b->ref[i];
		cmp_acc h;
		memset(&h, 0, sizeof(h));
		h.first_bad = ULLONG_MAX;
		HARNESS_TRY(cudaMemcpyAsync(d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
		switch (o->t.dtype) {
		case CUA_F32:
			compare_float_kernel<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, d_acc);
			break;
		case CUA_F64:
			compare_float_kernel<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, d_acc);
			break;
		default:
			DISPATCH_TYPES(o->t.dtype,
			               compare_int_kernel<T><<<grid_for(o->n), 256, 0, s>>>(
			                   (const T *)o->t.data, (const T *)r->t.data, o->n,
			                   d_acc));
		}
		HARNESS_TRY(cudaGetLastError());
		HARNESS_TRY(cudaMemcpyAsync(&h, d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(cudaStreamSynchronize(s));
		double ma, mr;
		memcpy(&ma, &h.max_abs_bits, sizeof(ma));
		memcpy(&mr, &h.max_rel_bits, sizeof(mr));
		tot_n += (unsigned long long)o->n;
		tot_bad += h.n_bad;
		tot_nan += h.n_nan;
		tot_unw += h.n_unwritten;
		max_abs = fmax(max_abs, ma);
		max_rel = fmax(max_rel, mr);
		bool ok = h.n_bad == 0 && h.n_nan == 0 && h.n_unwritten == 0;
		if (!ok && all_ok) {
			char at[96];
			int64_t fb = (int64_t)h.first_bad;
			index_string(&o->t, fb, at, sizeof(at));
			cJSON_AddStringToObject(ev, "output", t->outputs[i].name);
			cJSON_AddNumberToObject(ev, "first_bad", (double)fb);
			cJSON_AddStringToObject(ev, "first_bad_at", at);
			double got = host_value(o->t.data, o->t.dtype, fb);
			double want = host_value(r->t.data, r->t.dtype, fb);
			cJSON_AddItemToObject(ev, "got", got == got && !isinf(got)
			                                     ? cJSON_CreateNumber(got)
			                                     : cJSON_CreateNull());
			cJSON_AddItemToObject(ev, "want", want == want && !isinf(want)
			                                      ? cJSON_CreateNumber(want)
			                                      : cJSON_CreateNull());
			const char *what = h.n_unwritten == (unsigned long long)o->n
			                       ? "wrote nothing to"
			                       : h.n_unwritten ? "left elements unwritten in"
			                       : h.n_nan       ? "produced NaN in"
			                                       : "got wrong values in";
			if (box->v == CUA_VERDICT_OK) {
				box->v = (h.n_nan && !h.n_bad && !h.n_unwritten)
				             ? CUA_VERDICT_NAN_OUTPUT
				             : CUA_VERDICT_WRONG_OUTPUT;
				snprintf(box->msg, sizeof(box->msg),
				         "%s output '%s' (%s): %llu wrong, %llu NaN, %llu unwritten "
				         "of %lld; first at %s: got %.9g, want %.9g "
				         "(atol %g, rtol %g)",
				         what, t->outputs[i].name, where, h.n_bad, h.n_nan,
				         h.n_unwritten, (long long)o->n, at, got, want, t->atol,
				         t->rtol);
			}
			all_ok = false;
		}
		/* Scrub the oracle's result before the candidate can run again. */
		poison(r, true, s);
	}
	HARNESS_TRY(cudaDeviceSynchronize());
	cJSON_AddBoolToObject(ev, "ok", all_ok);
	cJSON_AddNumberToObject(ev, "n", (double)tot_n);
	cJSON_AddNumberToObject(ev, "bad", (double)tot_bad);
	cJSON_AddNumberToObject(ev, "nan", (double)tot_nan);
	cJSON_AddNumberToObject(ev, "unwritten", (double)tot_unw);
	cJSON_AddNumberToObject(ev, "max_abs", max_abs);
	cJSON_AddNumberToObject(ev, "max_rel", max_rel);
	emit(ev);
	return all_ok;
}

static double measure_sm_mhz(cudaStream_t s)
{
	double *d, h = 0;
	HARNESS_TRY(cudaMalloc((void **)&d, sizeof(double)));
	clock_kernel<<<1, 1, 0, s>>>(d);
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	cudaFree(d);
	return h;
}

static void stats_json(cJSON *parent, const char *name, const struct cua_stats *st)
{
	cJSON *o = cJSON_AddObjectToObject(parent, name);
	cJSON_AddNumberToObject(o, "n", st->n);
	cJSON_AddNumberToObject(o, "median", st->median);
	cJSON_AddNumberToObject(o, "q1", st->q1);
	cJSON_AddNumberToObject(o, "q3", st->q3);
	cJSON_AddNumberToObject(o, "iqr", st->iqr);
	cJSON_AddNumberToObject(o, "mean", st->mean);
	cJSON_AddNumberToObject(o, "stdev", st->stdev);
	cJSON_AddNumberToObject(o, "min", st->min);
	cJSON_AddNumberToObject(o, "max", st->max);
	cJSON_AddNumberToObject(o, "rel_sem", st->rel_sem);
}

static double median_of(double *v, int n)
{
	struct cua_stats st;
	cua_stats_compute(v, n, &st);
	return st.median;
}

/* Times the kernel at the timed shape; emits a timing event. */
static void run_timing(const struct job *job, cudaStream_t s, size_t l2_bytes,
                       struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	int timed = cua_task_timed_shape(t);
	struct shape_bufs sets[MAX_SETS];
	int n_sets = 0;
	size_t per_set = 0;

	emit_phase("timing");
	/* Several input sets, each with its own output: rotating them defeats caching
	 * by pointer and by content, and the median then spans several physical
	 * placements of the buffers (on the H200 one placement of ReLU's buffers ran
	 * 5 % slower than another, run to run). As many as fit in half the free memory. */
	{
		struct shape_bufs probe;
		shape_alloc(&probe, timed);
		for (int i = 0; i < t->n_inputs; i++)
			per_set += probe.in[i].bytes;
		for (int i = 0; i < t->n_outputs; i++)
			per_set += probe.out[i].bytes;
		shape_free(&probe);
	}
	size_t free_b = 0, total_b = 0;
	HARNESS_TRY(cudaMemGetInfo(&free_b, &total_b));
	for (n_sets = MAX_SETS; n_sets > 1; n_sets--)
		if ((double)per_set * n_sets < 0.5 * (double)free_b)
			break;
	for (int k = 0; k < n_sets; k++) {
		shape_alloc(&sets[k], timed);
		/* one oracle buffer (set 0's) serves the spot checks of every set */
		if (k > 0)
			for (int i = 0; i < t->n_outputs; i++)
				tensor_free(&sets[k].ref[i]);
		for (int i = 0; i < t->n_inputs; i++) {  /* real data for the warm-up */
			generate(&sets[k].in[i], job->seeds[k % job->n_seeds], s);
			poison(&sets[k].in[i], false, s);   /* guard bands, checked by spot checks */
		}
	}
	size_t flush_bytes = 2 * l2_bytes;
	if (flush_bytes < (size_t)256 << 20)
		flush_bytes = (size_t)256 << 20;
	void *flush = NULL;
	HARNESS_TRY(cudaMalloc(&flush, flush_bytes));
	HARNESS_TRY(cudaDeviceSynchronize());

	/* Warm-up: module load, library handles, autotuning stay out of the numbers. */
	double t_warm = cua_now();
	for (int w = 0; w < 3 || (w < 20 && cua_now() - t_warm < 0.05); w++)
		call_checked(g_solve, &sets[w % n_sets], s, "warm-up");

	cudaEvent_t e0, e1;
	HARNESS_TRY(cudaEventCreate(&e0));
	HARNESS_TRY(cudaEventCreate(&e1));

	double over[15];
	for (int k = 0; k < 15; k++) {
		HARNESS_TRY(cudaDeviceSynchronize());
		double h0 = cua_now();
		HARNESS_TRY(cudaEventRecord(e0, s));
		HARNESS_TRY(cudaEventRecord(e1, s));
		HARNESS_TRY(cudaDeviceSynchronize());
		over[k] = (cua_now() - h0) * 1e3;
	}
	double overhead = median_of(over, 15);

	struct cua_stop_rule rule;
	cua_stop_rule_init(&rule);
	rule.max_time_s = job->max_time_s;
	if (job->min_samples > 0)
		rule.min_samples = job->min_samples;
	if (rule.min_samples < 3 * n_sets)
		rule.min_samples = 3 * n_sets;   /* every set timed several times */
	double *ev = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	double *host = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	CUA_ASSERT(ev && host);
	double mhz0 = measure_sm_mhz(s);
	double spent = 0;
	int n = 0;
	struct cua_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS];
	int spot_checks = 0;
	while (!cua_stop_now(&rule, ev, n, spent)) {
		struct shape_bufs *b = &sets[n % n_sets];
		/* Fresh inputs from an unguessable seed for every sample, outputs poisoned:
		 * nothing a kernel cached (by pointer or by content) is ever right again. */
		uint64_t seed = cua_mix64(job->secret ^ 0x7157ab1e00000000ull ^ (uint64_t)n) >> 11;
		for (int i = 0; i < t->n_inputs; i++) {
			generate(&b->in[i], seed, s);
			in[i] = b->in[i].t;
		}
		for (int i = 0; i < t->n_outputs; i++) {
			poison(&b->out[i], true, s);
			out[i] = b->out[i].t;
		}
		HARNESS_TRY(cudaMemsetAsync(flush, n & 0xff, flush_bytes, s));
		HARNESS_TRY(cudaDeviceSynchronize());
		double h0 = cua_now();
		HARNESS_TRY(cudaEventRecord(e0, s));
		int rc = g_solve(in, t->n_inputs, out, t->n_outputs, s);
		cudaError_t le = cudaGetLastError();
		cudaError_t re = cudaEventRecord(e1, s);
		cudaError_t se = cudaDeviceSynchronize();
		double h1 = cua_now();
		if (le != cudaSuccess)
			finish(CUA_VERDICT_LAUNCH_ERROR, "launch failed while timing: %s",
			       cudaGetErrorString(le));
		if (re != cudaSuccess || se != cudaSuccess)
			finish(CUA_VERDICT_RUNTIME_ERROR, "CUDA error while timing: %s",
			       cudaGetErrorString(se != cudaSuccess ? se : re));
		if (rc != 0)
			finish(CUA_VERDICT_RUNTIME_ERROR, "cua_solve returned %d while timing", rc);
		float ms = 0;
		HARNESS_TRY(cudaEventElapsedTime(&ms, e0, e1));
		ev[n] = ms;
		host[n] = (h1 - h0) * 1e3;
		spent += host[n] / 1e3;
		/* Spot checks of timed calls, chosen by the secret: a kernel that is lazy
		 * only while it is timed fails here (outside the timed region). */
		if (spot_checks < 4 &&
		    (n == 0 || cua_mix64(job->secret ^ 0x5907c4ecull ^ (uint64_t)n) % 4 == 0)) {
			struct shape_bufs view = *b;
			for (int i = 0; i < t->n_outputs; i++)
				view.ref[i] = sets[0].ref[i];
			char where[96];
			snprintf(where, sizeof(where), "timed call %d, checked at random", n + 1);
			if (!judge_case(&view, seed, true, false, where, s, box))
				finish(box->v, "%s", box->msg);
			spot_checks++;
		}
		n++;
	}
	double mhz1 = measure_sm_mhz(s);

	struct cua_stats se_, sh;
	cua_stats_compute(ev, n, &se_);
	cua_stats_compute(host, n, &sh);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "timing");
	stats_json(o, "event_ms", &se_);
	stats_json(o, "host_ms", &sh);
	cJSON_AddNumberToObject(o, "overhead_ms", overhead);
	cJSON_AddNumberToObject(o, "sm_mhz_before", mhz0);
	cJSON_AddNumberToObject(o, "sm_mhz_after", mhz1);
	cJSON_AddNumberToObject(o, "input_sets", n_sets);
	cJSON_AddNumberToObject(o, "spot_checks", spot_checks);
	/* Per-set medians: sample k used set k % n_sets. */
	cJSON *sm = cJSON_AddArrayToObject(o, "set_median_ms");
	for (int k = 0; k < n_sets; k++) {
		double v[1000];
		int m = 0;
		for (int i = k; i < n; i += n_sets)
			v[m++] = ev[i];
		cJSON_AddItemToArray(sm, cJSON_CreateNumber(m ? median_of(v, m) : 0));
	}
	cJSON_AddNumberToObject(o, "flush_bytes", (double)flush_bytes);
	emit(o);

	/* Work that escaped the harness stream shows as host time the events miss. */
	double excess = sh.median - overhead - se_.median;
	if (excess > 0.25 * se_.median + 0.05)
		finish(CUA_VERDICT_TIMING_ANOMALY,
		       "work escaped the timed stream: events saw %.4f ms but the device "
		       "was busy for %.4f ms (host clock, minus %.4f ms overhead)",
		       se_.median, sh.median - overhead, overhead);

	free(ev);
	free(host);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	cudaFree(flush);
	for (int k = 0; k < n_sets; k++)
		shape_free(&sets[k]);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

static void usage_exit(const char *msg)
{
	fprintf(stderr, "cuarena __runner: %s\n", msg);
	finish(CUA_VERDICT_HARNESS_ERROR, "runner usage: %s", msg);
}

static void parse_job(int argc, char **argv, struct job *job)
{
	memset(job, 0, sizeof(*job));
	job->max_time_s = 3.0;
	job->subject = "candidate";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--time")) {
			job->time = true;
			continue;
		}
		if (!strcmp(a, "--degeneracy")) {
			job->degeneracy = true;
			continue;
		}
		if (!strcmp(a, "--trusted")) {
			job->trusted = true;
			continue;
		}
		if (!v)
			usage_exit("option without a value");
		i++;
		if (!strcmp(a, "--fd"))
			report_fd = atoi(v);
		else if (!strcmp(a, "--task"))
			job->task_dir = v;
		else if (!strcmp(a, "--so"))
			job->so = v;
		else if (!strcmp(a, "--oracle"))
			job->oracle_so = v;
		else if (!strcmp(a, "--subject"))
			job->subject = v;
		else if (!strcmp(a, "--dump"))
			job->dump_dir = v;
		else if (!strcmp(a, "--max-time-s"))
			job->max_time_s = atof(v);
		else if (!strcmp(a, "--min-samples"))
			job->min_samples = atoi(v);
		else if (!strcmp(a, "--secret")) {
			if (!parse_u64(v, &job->secret))
				usage_exit("bad --secret");
		} else if (!strcmp(a, "--recheck")) {
			if (!parse_u64(v, &job->recheck))
				usage_exit("bad --recheck");
		} else if (!strcmp(a, "--seeds")) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%s", v);
			for (char *tok = strtok(buf, ","); tok && job->n_seeds < 8;
			     tok = strtok(NULL, ","))
				if (!parse_u64(tok, &job->seeds[job->n_seeds++]))
					usage_exit("bad --seeds");
		} else
			usage_exit("unknown option");
	}
	if (!job->task_dir || !job->oracle_so || job->n_seeds < 1 ||
	    (!job->so && !job->degeneracy && !job->dump_dir))
		usage_exit("--task, --so, --oracle and --seeds are required");
}

static void emit_device(const cudaDeviceProp *p)
{
	int drv = 0, rt = 0;
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "device");
	cJSON_AddStringToObject(o, "name", p->name);
	cJSON_AddNumberToObject(o, "cc_major", p->major);
	cJSON_AddNumberToObject(o, "cc_minor", p->minor);
	cJSON_AddNumberToObject(o, "sms", p->multiProcessorCount);
	cJSON_AddNumberToObject(o, "l2_bytes", p->l2CacheSize);
	cJSON_AddNumberToObject(o, "mem_bytes", (double)p->totalGlobalMem);
	cJSON_AddNumberToObject(o, "driver", drv);
	cJSON_AddNumberToObject(o, "runtime", rt);
	/* The kernel module's version ("580.159.04"); the CUDA calls only give the
	 * CUDA version the driver supports. */
	char ver[64];
	cua_driver_version(ver, sizeof(ver));
	cJSON_AddStringToObject(o, "driver_version", ver);
	emit(o);
}

/* ---- selftest: the task itself ------------------------------------------------ */

/* Runs the oracle into b->ref with each input generated from seeds[i]. */
static void oracle_with(struct shape_bufs *b, const uint64_t *seeds, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	struct cua_tensor in[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
	for (int i = 0; i < t->n_inputs; i++) {
		generate(&b->in[i], seeds[i], s);
		in[i] = b->in[i].t;
	}
	for (int i = 0; i < t->n_outputs; i++)
		ref[i] = b->ref[i].t;
	int rc = g_oracle(in, t->n_inputs, ref, t->n_outputs, s);
	cudaError_t e = cudaDeviceSynchronize();
	if (rc != 0 || e != cudaSuccess)
		finish(CUA_VERDICT_HARNESS_ERROR, "the oracle failed: rc %d, %s", rc,
		       cudaGetErrorString(e));
}

/* Elements of `a` (f64 or integer, as the oracle writes) outside the task's
 * tolerance of `want`. */
static unsigned long long differing(const struct dev_tensor *a,
                                    const struct dev_tensor *want, cudaStream_t s)
{
	cmp_acc h;
	memset(&h, 0, sizeof(h));
	h.first_bad = ULLONG_MAX;
	HARNESS_TRY(cudaMemcpyAsync(d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
	if (a->t.dtype == CUA_F64)
		compare_float_kernel<double><<<grid_for(a->n), 256, 0, s>>>(
		    (const double *)a->t.data, (const double *)want->t.data, a->n,
		    g_task->atol, g_task->rtol, d_acc);
	else
		DISPATCH_TYPES(a->t.dtype,
		               compare_int_kernel<T><<<grid_for(a->n), 256, 0, s>>>(
		                   (const T *)a->t.data, (const T *)want->t.data, a->n,
		                   d_acc));
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(&h, d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h.n_bad + h.n_nan + h.n_unwritten;
}

template <typename T>
__global__ void broadcast_kernel(T *p, int64_t n, const T *v)
{
	T x = *v;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = x;
}

static void emit_degeneracy(const char *shape, const char *check, const char *output,
                            unsigned long long differ, unsigned long long n, bool ok)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "degeneracy");
	cJSON_AddStringToObject(o, "shape", shape);
	cJSON_AddStringToObject(o, "check", check);
	cJSON_AddStringToObject(o, "output", output);
	cJSON_AddNumberToObject(o, "differ", (double)differ);
	cJSON_AddNumberToObject(o, "n", (double)n);
	cJSON_AddBoolToObject(o, "ok", ok);
	emit(o);
}

/* Proves, from the oracle, that the task cannot be passed by a lazy kernel: at
 * every shape set, all-zero output fails, a constant output fails (outputs of
 * two or more elements), outputs differ across seeds, and regenerating any one
 * input changes the output. A check holds when at least one element of some
 * output leaves the tolerance. */
static void run_degeneracy(const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	char failed[CUA_MSG_LEN] = "";
	uint64_t a = job->seeds[0], bseed = job->n_seeds > 1 ? job->seeds[1] : a + 1;

	for (int sh = 0; sh < t->n_shapes; sh++) {
		const char *shape = t->shapes[sh].name;
		struct shape_bufs base, other;
		uint64_t seeds[CUA_MAX_TENSORS];
		emit_phase("degeneracy %s", shape);
		shape_alloc(&base, sh);
		shape_alloc(&other, sh);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = a;
		oracle_with(&base, seeds, s);

		/* zero and constant: computed into other.ref from base.ref */
		for (int o = 0; o < t->n_outputs; o++) {
			struct dev_tensor *r = &base.ref[o], *x = &other.ref[o];
			unsigned long long d;
			HARNESS_TRY(cudaMemsetAsync(x->t.data, 0, x->bytes, s));
			d = differing(x, r, s);
			emit_degeneracy(shape, "zero", t->outputs[o].name, d, r->n, d > 0);
			if (!d && !failed[0])
				snprintf(failed, sizeof(failed), "output '%s' at shape %s is within "
				         "tolerance of all zeros", t->outputs[o].name, shape);
			if (r->n >= 2) {
				DISPATCH_TYPES(x->t.dtype,
				               broadcast_kernel<T><<<grid_for(x->n), 256, 0, s>>>(
				                   (T *)x->t.data, x->n, (const T *)r->t.data));
				HARNESS_TRY(cudaGetLastError());
				d = differing(x, r, s);
				emit_degeneracy(shape, "constant", t->outputs[o].name, d, r->n, d > 0);
				if (!d && !failed[0])
					snprintf(failed, sizeof(failed), "output '%s' at shape %s is "
					         "within tolerance of a constant", t->outputs[o].name,
					         shape);
			}
		}
		/* another seed for every input, then for each input alone */
		for (int v = -1; v < t->n_inputs; v++) {
			char check[64];
			for (int i = 0; i < t->n_inputs; i++)
				seeds[i] = (v < 0 || i == v) ? bseed : a;
			oracle_with(&other, seeds, s);
			if (v < 0)
				snprintf(check, sizeof(check), "seeds");
			else
				snprintf(check, sizeof(check), "input:%s", t->inputs[v].name);
			unsigned long long total = 0;
			for (int o = 0; o < t->n_outputs; o++)
				total += differing(&other.ref[o], &base.ref[o], s);
			emit_degeneracy(shape, check, "*", total, 0, total > 0);
			if (!total && !failed[0] && v < 0)
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change with the seed", shape);
			else if (!total && !failed[0])
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change when input '%s' is regenerated", shape,
				         t->inputs[v].name);
		}
		shape_free(&base);
		shape_free(&other);
	}
	if (failed[0])
		finish(CUA_VERDICT_WRONG_OUTPUT, "degenerate task: %s", failed);
}

/* Writes every check shape's inputs (public seed 1) and oracle outputs as raw
 * little-endian files plus a manifest, for tools/torch_check.py. */
static void run_dump(const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	char path[4300], err[CUA_ERR_LEN];
	cJSON *man = cJSON_CreateObject();
	cJSON_AddStringToObject(man, "task", t->id);
	cJSON_AddNumberToObject(man, "seed", (double)job->seeds[0]);
	cJSON *shapes = cJSON_AddArrayToObject(man, "shapes");
	if (cua_mkdirs(job->dump_dir, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	int timed = cua_task_timed_shape(t);
	for (int sh = 0; sh < t->n_shapes; sh++) {
		if (sh == timed)
			continue;
		struct shape_bufs b;
		uint64_t seeds[CUA_MAX_TENSORS];
		shape_alloc(&b, sh);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = job->seeds[0];
		oracle_with(&b, seeds, s);
		cJSON *js = cJSON_CreateObject();
		cJSON_AddStringToObject(js, "name", t->shapes[sh].name);
		cJSON *files = cJSON_AddArrayToObject(js, "tensors");
		for (int k = 0; k < t->n_inputs + t->n_outputs; k++) {
			bool is_in = k < t->n_inputs;
			struct dev_tensor *d = is_in ? &b.in[k] : &b.ref[k - t->n_inputs];
			const char *name = is_in ? t->inputs[k].name : t->outputs[k - t->n_inputs].name;
			void *h = malloc(d->bytes ? d->bytes : 1);
			CUA_ASSERT(h);
			HARNESS_TRY(cudaMemcpy(h, d->t.data, d->bytes, cudaMemcpyDeviceToHost));
			snprintf(path, sizeof(path), "%s/%s.%s.%s.bin", job->dump_dir,
			         t->shapes[sh].name, is_in ? "in" : "oracle", name);
			if (cua_write_file(path, h, d->bytes, err, sizeof(err)) != CUA_OK)
				finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
			free(h);
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "name", name);
			cJSON_AddStringToObject(f, "role", is_in ? "input" : "oracle");
			cJSON_AddStringToObject(f, "dtype", cua_dtype_name(d->t.dtype));
			cJSON *shp = cJSON_AddArrayToObject(f, "shape");
			for (int q = 0; q < d->t.ndim; q++)
				cJSON_AddItemToArray(shp, cJSON_CreateNumber((double)d->t.shape[q]));
			snprintf(path, sizeof(path), "%s.%s.%s.bin", t->shapes[sh].name,
			         is_in ? "in" : "oracle", name);
			cJSON_AddStringToObject(f, "file", path);
			cJSON_AddItemToArray(files, f);
		}
		cJSON_AddItemToArray(shapes, js);
		shape_free(&b);
	}
	char *txt = cJSON_Print(man);
	snprintf(path, sizeof(path), "%s/manifest.json", job->dump_dir);
	if (cua_write_file(path, txt, strlen(txt), err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	free(txt);
	cJSON_Delete(man);
}

extern "C" int cua_runner_main(int argc, char **argv)
{
	struct job job;
	char err[CUA_ERR_LEN];
	struct cua_task *task = NULL;

	take_channel_key();
	parse_job(argc, argv, &job);
	if (!g_have_key) {
		fprintf(stderr, "cuarena __runner: no report channel key in %s\n",
		        CUA_CHANNEL_KEY_ENV);
		_exit(2);
	}
	if (cua_task_load(job.task_dir, &task, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	g_task = task;

	int ndev = 0;
	cudaError_t e = cudaGetDeviceCount(&ndev);
	if (e != cudaSuccess || ndev < 1)
		finish(CUA_VERDICT_HARNESS_ERROR, "no CUDA device: %s",
		       e != cudaSuccess ? cudaGetErrorString(e) : "none found");
	cudaDeviceProp prop;
	HARNESS_TRY(cudaSetDevice(0));
	HARNESS_TRY(cudaGetDeviceProperties(&prop, 0));
	emit_device(&prop);
	/* No persisting-L2 window may survive from anything before us. */
	cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
	cudaCtxResetPersistingL2Cache();
	cudaGetLastError();
	HARNESS_TRY(cudaMalloc((void **)&d_counter, sizeof(*d_counter)));
	HARNESS_TRY(cudaMalloc((void **)&d_acc, sizeof(*d_acc)));

	void *oh = dlopen(job.oracle_so, RTLD_NOW | RTLD_LOCAL);
	if (!oh || !(g_oracle = (solve_fn)dlsym(oh, "cua_oracle")))
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot load the oracle: %s", dlerror());
	emit_phase("load");
	if (job.degeneracy || job.dump_dir) {
		cudaStream_t ss;
		HARNESS_TRY(cudaStreamCreate(&ss));
		if (job.dump_dir)
			run_dump(&job, ss);
		if (job.degeneracy)
			run_degeneracy(&job, ss);
		finish(CUA_VERDICT_OK, "%s", "");
	}
	/* From here on only code mapped now may make system calls: the candidate's
	 * constructors, cua_solve and anything they map run without. References and
	 * baselines (--trusted) are the harness's own code, and the libraries they
	 * link (cuDNN) load with them, after this point. */
	if (!job.trusted && cua_guard_install(on_forbidden_syscall, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	void *h = dlopen(job.so, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		finish(CUA_VERDICT_LOAD_ERROR, "the shared object does not load: %s",
		       dlerror());
	g_solve = (solve_fn)dlsym(h, "cua_solve");
	if (!g_solve)
		finish(CUA_VERDICT_LOAD_ERROR,
		       "no function cua_solve with C linkage (include cuarena.h)");

	cudaStream_t s;
	/* A blocking stream: work a candidate puts on the legacy default stream is
	 * ordered with our events; work on its own non-blocking streams is not, and
	 * the host-clock cross-check catches it. */
	HARNESS_TRY(cudaStreamCreate(&s));

	struct cua_verdict_box box;
	box.v = CUA_VERDICT_OK;
	box.msg[0] = '\0';
	double t0 = cua_now();
	int timed = cua_task_timed_shape(task);
	/* Check shapes first (small, odd), the timed shape last. A shape that fails
	 * ends the check once all its seeds are reported: the verdict is settled, and
	 * the rest (above all the fp64 oracle at the large timed shape) would only
	 * cost GPU time. On the H200 a kernel that writes nothing took 1.7 s of
	 * checking, most of it at the timed shape. */
	for (int pass = 0; pass < 2 && box.v == CUA_VERDICT_OK; pass++)
		for (int sh = 0; sh < task->n_shapes && box.v == CUA_VERDICT_OK; sh++) {
			if ((sh == timed) != (pass == 1))
				continue;
			struct shape_bufs b;
			shape_alloc(&b, sh);
			for (int k = 0; k < job.n_seeds; k++)
				run_case(&b, job.seeds[k], false, false, s, &box);
			run_case(&b, job.secret, true, false, s, &box);
			shape_free(&b);
		}
	cJSON *ck = cJSON_CreateObject();
	cJSON_AddStringToObject(ck, "event", "checked");
	cJSON_AddNumberToObject(ck, "seconds", cua_now() - t0);
	emit(ck);
	if (box.v != CUA_VERDICT_OK)
		finish(box.v, "%s", box.msg);

	if (job.time) {
		double t1 = cua_now();
		run_timing(&job, s, (size_t)prop.l2CacheSize, &box);
		/* A kernel that turns lazy after many calls fails here. */
		struct shape_bufs b;
		shape_alloc(&b, timed);
		run_case(&b, job.recheck, false, true, s, &box);
		shape_free(&b);
		cJSON *tm = cJSON_CreateObject();
		cJSON_AddStringToObject(tm, "event", "timed");
		cJSON_AddNumberToObject(tm, "seconds", cua_now() - t1);
		emit(tm);
		if (box.v != CUA_VERDICT_OK)
			finish(box.v, "after timing: %s", box.msg);
	}
	finish(CUA_VERDICT_OK, "%s", "");
}
