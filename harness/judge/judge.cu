/* judge.cu — judges one compiled kernel (.so) on one task. The judge never runs
 * the kernel's code: it starts the candidate's process (build/cuarena-cand,
 * cand/main.cu) in a jail (jail.h), shares device buffers with it (vmm.cuh),
 * commands it over a socket (wire.h), and owns everything else: seeds, inputs,
 * poison and guard bands, the fp64 oracle, the comparison, the L2 flush, the
 * clock and the verdict.
 *
 * Built into build/cuarena by the Makefile (nvcc, sm_90a); run only as
 *   cuarena __judge --task DIR --so K.so --oracle REF.so --fd N --seeds A,B,C
 *                   [--checker LIB.so] [--time] [--max-time-s X] [--subject NAME]
 *                   [--trusted] [--timeout S]
 * by the parent (eval.c), with the report channel's key in $CUARENA_CHANNEL_KEY
 * (channel.h), read and wiped at once; or, as the parent's long-lived judge of
 * one GPU (judges.c), as `cuarena __judge --serve --fd N`, taking those same
 * options and the key job after job on its stdin (runner.h). Each job draws its
 * own secret, 256 bits from the OS, and derives from it a key per secret case,
 * timed sample and re-check (rng.h): the parent never has it. Order of work,
 * per DESIGN.md §4:
 *   0. the candidate's process starts (in parallel with our CUDA start-up); the
 *      timed shape's buffers are shared with it and the fixed cost of one timed
 *      sample is calibrated with an empty kernel, before any of the kernel's code
 *      is in that process; then it loads the kernel under its system-call filter.
 *   1. every check shape, then the timed shape: for each public seed and a secret
 *      key of the shape's own: generate inputs, poison outputs and guard bands,
 *      command a call, wait for it, verify guards and inputs, then regenerate
 *      the inputs in private memory, compute the fp64 oracle from them (in memory
 *      the candidate cannot map), compare, and judge the precision by accuracy
 *      (accuracy.h: the oracle again on inputs rounded to the precision the
 *      task forbids; on every check-shape case and the timed shape's secret one).
 *   2. timing at the timed shape: per sample, fresh inputs from a key of its own are
 *      made in private memory, the expected output computed there by a trusted
 *      kernel (the checker), outputs poisoned, the inputs published into the shared
 *      buffers under a watchdog that sees any GPU work of the candidate before the
 *      clock starts, L2 flushed; the sample is the judge's clock from "run" until
 *      its own comparison has found the outputs complete and right, minus the
 *      calibrated fixed cost. The candidate's own times are a claim, cross-checked.
 *   3. a re-check at the timed shape with a fresh seed.
 *
 * The judge is in five files, its state one struct cua_judge (judge.cuh) passed
 * to each function: this one (the report channel, the end of a job, shape sets,
 * the checks, a job and a judge that serves many), clock.cu (the timing),
 * selftest.cu (degeneracy proofs and dumps), cand-ctl.c (the kernel's process,
 * plain C), and the header modules kernels.cuh (device kernels) and tensor.cuh
 * (the guard-banded tensors).
 *
 * Longer than docs/CODE-STYLE.md's ~900 lines (about 1,180) on purpose: the
 * checks of one case (guard bands, inputs, the oracle on the judge's own copy,
 * the comparison, the precision rule) and the job that runs them, read top to
 * bottom in sections; they share the job's shape sets and its first failure,
 * and a split between them would make one case a walk across files.
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "judge/judge.cuh"
extern "C" {
#include "judge/stats.h"
#include "judge/device.h"
#include "judge/runner.h"
#include "judge/jail.h"
#include "sandbox.h"
#include "judge/wire.h"
}
#include "judge/accuracy.cuh"
#include "judge/compare.h"
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* ---- report channel ------------------------------------------------------- */

void cua_judge_emit(struct cua_judge *J, cJSON *obj)
{
	char *s = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	if (!s)
		return;
	size_t left = 0;
	char *line = J->have_key ? cua_channel_seal(&J->key, J->seq++, s, strlen(s), &left) : NULL;
	free(s);
	const char *p = line;
	while (p && J->report_fd >= 0 && left > 0) {
		ssize_t w = write(J->report_fd, p, left);
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
static void take_channel_key(struct cua_judge *J)
{
	char *v = getenv(CUA_CHANNEL_KEY_ENV);
	J->have_key = v && cua_channel_key_parse(v, &J->key);
	if (v)
		memset(v, 0, strlen(v));
	unsetenv(CUA_CHANNEL_KEY_ENV);
}

void cua_judge_phase(struct cua_judge *J, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "phase");
	cJSON_AddStringToObject(o, "what", buf);
	cua_judge_emit(J, o);
}

/* One step of the profile: seconds since the job started. */
static void mark(struct cua_judge *J, const char *what)
{
	size_t n = strlen(J->profile);
	if (n + 24 < sizeof(J->profile))
		snprintf(J->profile + n, sizeof(J->profile) - n, "%s%s %.3f", n ? " " : "", what,
		         cua_now() - J->t0);
}

/* ---- the end of a job ----------------------------------------------------------- */

static bool job_reset(struct cua_judge *J, enum cua_verdict v);

/* Between jobs there is no job to answer: a spare that failed is dropped, and
 * the next job starts its own process. */
static void spare_failed(struct cua_judge *J) __attribute__((noreturn));
static void spare_failed(struct cua_judge *J)
{
	cua_cand_ctl_drop(&J->cand);
	longjmp(J->next_job, 2);
}

/* Emits the final result line and ends the job; a one-shot judge's process
 * ends with it (the context dies with it), after the candidate's process
 * (killed first, its output copied to our stderr). */
extern "C" void cua_judge_finish(struct cua_judge *J, enum cua_verdict v, const char *fmt, ...)
{
	if (J->quiet)
		spare_failed(J);
	char buf[CUA_MSG_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Our own CUDA calls fail for one reason the kernel controls: it took the
	 * device's memory (every buffer of ours exists before it loads, but the
	 * oracle and the checker may need scratch). That is the kernel's verdict. */
	size_t free_b = 0, total_b = 0;
	double grown = 0;   /* GiB the kernel's process took since it was loaded, and kept */
	if (v == CUA_VERDICT_HARNESS_ERROR && J->cand.kernel_loaded &&
	    cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
		grown = ((double)J->free_at_load - (double)free_b - (double)J->mem.post_load_bytes) /
		        1073741824.0;
	if (v == CUA_VERDICT_HARNESS_ERROR && J->cand.kernel_loaded && free_b &&
	    (free_b < ((size_t)2 << 30) || grown > 1.0)) {
		char tmp[CUA_MSG_LEN];
		snprintf(tmp, sizeof(tmp), "the kernel's process holds the device's memory "
		         "(%.2f of %.0f GiB free, %.1f GiB more than before it was loaded) and the "
		         "judge could not work: %.*s", free_b / 1073741824.0,
		         total_b / 1073741824.0, grown > 0 ? grown : 0, (int)sizeof(tmp) / 2, buf);
		memcpy(buf, tmp, sizeof(buf));
		v = CUA_VERDICT_RUNTIME_ERROR;
	}
	cudaGetLastError();
	mark(J, "end");
	cua_cand_ctl_stop(&J->cand);
	mark(J, "stopped");
	/* A judge that stays for the next job gives back all this one held first,
	 * and says whether it can (the parent starts a fresh one if not). */
	bool last = J->serving && !job_reset(J, v);
	cJSON *pr = cJSON_CreateObject();
	cJSON_AddStringToObject(pr, "event", "profile");
	cJSON_AddStringToObject(pr, "what", J->profile);
	cua_judge_emit(J, pr);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "result");
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(v));
	cJSON_AddStringToObject(o, "message", buf);
	if (J->serving)
		cJSON_AddBoolToObject(o, "last", last);
	cua_judge_emit(J, o);
	fflush(stdout);
	fflush(stderr);
	/* Back to the serving loop (judge_serve) for the next job. A longjmp, not
	 * error returns, on purpose: a job ends here from about a hundred places at
	 * any depth (every CUDA call of ours through HARNESS_TRY, every verdict of
	 * the checks, of the clock and of the kernel's process in cand-ctl.c), and
	 * a one-shot judge simply exits from the same places. Returning instead
	 * would give every function of the judge a status to pass up and every call
	 * a branch, in the timing loop too, for the same outcome: nothing on the
	 * way up needs cleaning, since everything the job held is in struct
	 * cua_judge and job_reset has just freed it (the registry of device
	 * tensors, the kernel's process, the task), and no frame between here and
	 * judge_serve's setjmp is returned to. */
	if (J->serving && !last)
		longjmp(J->next_job, 1);
	_exit(0);
}

/* A path built under one of ours (common.h's rule: a CUA_PATH_BUF, never cut):
 * one that would not fit is the harness's error, named. */
extern "C" void cua_judge_pathf(struct cua_judge *J, char *buf, size_t len, const char *fmt, ...)
{
	char err[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	enum cua_status r = cua_vpathf(buf, len, err, sizeof(err), fmt, ap);
	va_end(ap);
	if (r != CUA_OK)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
}

/* ---- a job's secret, and the memory its task needs ----------------------------- */

/* The job's own secret, from the OS: the parent never has it, the kernel's
 * process never sees it, and no input reveals it (rng.h). */
static bool draw_master(struct job *job)
{
	size_t got = 0;
	while (got < sizeof(job->master)) {
		ssize_t r = getrandom((char *)&job->master + got, sizeof(job->master) - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* A task that states more device memory than is free is refused before any of
 * it runs, rather than failing mid-run (memory_mb in task.json). */
static void check_memory(struct cua_judge *J, const struct cua_task *t)
{
	size_t free_b = 0, total_b = 0;
	if (t->memory_mb <= 0)
		return;
	HARNESS_TRY(J, cudaMemGetInfo(&free_b, &total_b));
	if ((uint64_t)t->memory_mb << 20 > free_b)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s needs %lld MiB of device memory (memory_mb) "
		       "but the device has %zu MiB free of %zu MiB: refused, not started", t->id,
		       (long long)t->memory_mb, free_b >> 20, total_b >> 20);
}

/* ---- shape sets: a shape's buffers, shared and private --------------------- */

static void cand_map(struct cua_judge *J, struct shape_bufs *b)
{
	const struct cua_task *t = J->task;
	int n = t->n_inputs + t->n_outputs;
	if (n > CUA_WIRE_MAX_T)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "too many shared buffer sets");
	struct cua_wire_tensor w[CUA_WIRE_MAX_T];
	int *fds[CUA_WIRE_MAX_T];
	memset(w, 0, sizeof(w));
	for (int k = 0; k < n; k++) {
		struct dev_tensor *d = k < t->n_inputs ? &b->in[k] : &b->out[k - t->n_inputs];
		w[k].size = d->alloc;
		w[k].offset = (uint64_t)((char *)d->t.data - d->base);
		w[k].dtype = d->t.dtype;
		w[k].ndim = d->t.ndim;
		for (int q = 0; q < d->t.ndim; q++)
			w[k].shape[q] = d->t.shape[q];
		fds[k] = &d->fd;
	}
	b->slot = cua_cand_ctl_map(&J->cand, t->n_inputs, t->n_outputs, w, fds);
}

void cua_judge_shape_alloc(struct cua_judge *J, struct shape_bufs *b, int shape, bool with_ref,
                           bool own_private)
{
	const struct cua_task *t = J->task;
	char err[CUA_ERR_LEN];
	int64_t dims[CUA_MAX_DIMS];
	bool shared = J->cand.cur.pid > 0;

	memset(b, 0, sizeof(*b));
	b->shape = shape;
	b->slot = -1;
	for (int i = 0; i < CUA_MAX_TENSORS; i++)
		b->in[i].fd = b->out[i].fd = b->ref[i].fd = b->own_priv[i].fd = b->own_chk[i].fd = -1;
	if (with_ref && own_private) {
		b->priv = b->own_priv;
		b->chk = b->own_chk;
	}
	for (int i = 0; i < t->n_inputs; i++) {
		if (cua_task_tensor_shape(t, shape, &t->inputs[i], dims, err, sizeof(err)))
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&J->mem, &b->in[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, shared);
		b->in[i].init = &t->inputs[i].init;
		b->in[i].index = (uint32_t)i;
		if (b->priv == b->own_priv) {
			tensor_alloc(&J->mem, &b->own_priv[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, false);
			b->own_priv[i].init = &t->inputs[i].init;
			b->own_priv[i].index = (uint32_t)i;
		}
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *o = &t->outputs[i];
		if (cua_task_tensor_shape(t, shape, o, dims, err, sizeof(err)))
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&J->mem, &b->out[i], o->dtype, o->ndim, dims, shared);
		bool fl = o->dtype == CUA_F32 || o->dtype == CUA_F64;
		if (with_ref)
			tensor_alloc(&J->mem, &b->ref[i], fl ? CUA_F64 : o->dtype, o->ndim, dims, false);
		if (b->chk == b->own_chk)
			tensor_alloc(&J->mem, &b->own_chk[i], o->dtype, o->ndim, dims, false);
	}
	if (shared)
		cand_map(J, b);
}

void cua_judge_shape_free(struct cua_judge *J, struct shape_bufs *b)
{
	cua_cand_ctl_unmap(&J->cand, &b->slot);
	for (int i = 0; i < CUA_MAX_TENSORS; i++) {
		tensor_free(&J->mem, &b->in[i]);
		tensor_free(&J->mem, &b->out[i]);
		tensor_free(&J->mem, &b->ref[i]);
		tensor_free(&J->mem, &b->own_priv[i]);
		tensor_free(&J->mem, &b->own_chk[i]);
	}
}

/* ---- the checks: a case, the oracle, the precision rule ------------------------ */

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

/* Guard bands around every tensor intact. */
void cua_judge_guards(struct cua_judge *J, struct shape_bufs *b, const char *where, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	for (int i = 0; i < t->n_outputs; i++) {
		unsigned long long g = guard_damage(&J->mem, &b->out[i], s);
		if (g)
			cua_judge_finish(J, CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around output '%s' were written "
			       "(%s)", g, t->outputs[i].name, where);
	}
	for (int i = 0; i < t->n_inputs; i++) {
		unsigned long long g = guard_damage(&J->mem, &b->in[i], s);
		if (g)
			cua_judge_finish(J, CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around input '%s' were written "
			       "(%s)", g, t->inputs[i].name, where);
	}
}

/* Guard bands around every tensor intact, inputs as generated from key; the
 * judge's private copy of them (b->priv) regenerated in the same pass. */
static void judge_guards_inputs(struct cua_judge *J, struct shape_bufs *b, const struct cua_rng_key *key,
                                const char *where, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	cua_judge_guards(J, b, where, s);
	for (int i = 0; i < t->n_inputs; i++) {
		unsigned long long m = mutated(&J->mem, J->task, &b->in[i], key, s, &b->priv[i]);
		if (m)
			cua_judge_finish(J, CUA_VERDICT_INPUT_MUTATED,
			       "%llu elements of input '%s' changed during the call (%s)", m,
			       t->inputs[i].name, where);
	}
}

/* One correctness case. Returns true when it passed; emits a case event; the
 * first failure of the run is kept in box. */
static bool run_case(struct cua_judge *J, struct shape_bufs *b, const struct case_key *c, cudaStream_t s,
                     struct cua_verdict_box *box)
{
	const struct cua_task *t = J->task;
	const char *shape = t->shapes[b->shape].name;
	char where[128];
	snprintf(where, sizeof(where), "shape %s, %s", shape,
	         c->secret ? "secret seed" : c->recheck ? "re-check seed" : "public seed");
	cua_judge_phase(J, "check %s seed %s", shape,
	           c->secret ? "secret" : c->recheck ? "recheck" : "public");

	for (int i = 0; i < t->n_inputs; i++) {
		generate(&J->mem, J->task, &b->in[i], &c->key, s);
		poison(&J->mem, &b->in[i], false, s);
	}
	for (int i = 0; i < t->n_outputs; i++)
		poison(&J->mem, &b->out[i], true, s);
	HARNESS_TRY(J, cudaDeviceSynchronize());

	/* one untimed call, waited for (the judge's device work is idle meanwhile:
	 * nothing of ours runs while the kernel does) */
	cua_cand_ctl_call(&J->cand, b->slot, where);
	return cua_judge_case(J, b, c, where, s, box);
}

/* The oracle of the task on these inputs, into memory the candidate's process
 * cannot map. */
void cua_judge_oracle(struct cua_judge *J, struct dev_tensor *in_t, struct dev_tensor *ref_t,
                      const char *where, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	struct cua_tensor in[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
	for (int i = 0; i < t->n_inputs; i++)
		in[i] = in_t[i].t;
	for (int i = 0; i < t->n_outputs; i++)
		ref[i] = ref_t[i].t;
	int rc = J->oracle(in, t->n_inputs, ref, t->n_outputs, s);
	cudaError_t e = cudaDeviceSynchronize();
	if (rc != 0 || e != cudaSuccess)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "the oracle failed (%s): rc %d, %s", where, rc,
		       cudaGetErrorString(e));
}

/* The mantissa bits of the precision a task forbids, or 0 where the rule does
 * not apply: a strict task forbids TF32's (and fp16's) 10, a tf32-allowed one
 * bf16's 7; a half-allowed task has none below it. */
static int forbidden_bits(const struct cua_task *t)
{
	switch (t->precision) {
	case CUA_PREC_FP32_STRICT: return 10;
	case CUA_PREC_TF32_ALLOWED: return 7;
	default: return 0;
	}
}

/* Precision by accuracy (accuracy.h) on the outputs of the call just judged:
 * b->ref holds the oracle on b->priv. Runs the checker on the same inputs,
 * pass A, the inputs rounded, the oracle again, pass B. The case record gets
 * the worst output's figures; a failure goes into box. */
static void check_precision(struct cua_judge *J, struct shape_bufs *b, int bits, const char *where,
                            struct cua_case *k, cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = J->task;
	struct prec_acc sums[CUA_MAX_TENSORS];
	bool fl[CUA_MAX_TENSORS];
	prec_acc *d_p = (prec_acc *)J->d_acc;   /* cmp_acc's words hold a prec_acc */
	static_assert(sizeof(prec_acc) <= sizeof(cmp_acc), "prec_acc fits in J->d_acc's slot");

	{
		struct cua_tensor in[CUA_MAX_TENSORS], ck[CUA_MAX_TENSORS];
		for (int i = 0; i < t->n_inputs; i++)
			in[i] = b->priv[i].t;
		for (int i = 0; i < t->n_outputs; i++)
			ck[i] = b->chk[i].t;
		int rc = J->checker(in, t->n_inputs, ck, t->n_outputs, s);
		cudaError_t e = cudaStreamSynchronize(s);
		if (rc != 0 || e != cudaSuccess)
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "the checker kernel failed (%s): rc %d, %s",
			       where, rc, cudaGetErrorString(e));
	}
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i];
		fl[i] = o->t.dtype == CUA_F32 || o->t.dtype == CUA_F64;
		memset(&sums[i], 0, sizeof(sums[i]));
		if (!fl[i])
			continue;
		HARNESS_TRY(J, cudaMemsetAsync(d_p, 0, sizeof(prec_acc), s));
		if (o->t.dtype == CUA_F32)
			prec_pass_a<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const double *)b->ref[i].t.data,
			    (float *)b->chk[i].t.data, o->n, d_p);
		else
			prec_pass_a<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)b->ref[i].t.data,
			    (double *)b->chk[i].t.data, o->n, d_p);
		HARNESS_TRY(J, cudaGetLastError());
		HARNESS_TRY(J, cudaMemcpyAsync(&sums[i], d_p, sizeof(prec_acc), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(J, cudaStreamSynchronize(s));
	}
	for (int i = 0; i < t->n_inputs; i++) {
		struct dev_tensor *x = &b->priv[i];
		if (x->t.dtype == CUA_F32)
			round_kernel<float><<<grid_for(x->n), 256, 0, s>>>((float *)x->t.data, x->n, bits);
		else if (x->t.dtype == CUA_F64)
			round_kernel<double><<<grid_for(x->n), 256, 0, s>>>((double *)x->t.data, x->n,
			                                                   bits);
		HARNESS_TRY(J, cudaGetLastError());
	}
	cua_judge_oracle(J, b->priv, b->ref, where, s);
	double worst = -1;
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i];
		if (!fl[i])
			continue;
		struct prec_acc h = sums[i];
		h.dd = h.ed = h.n = 0;
		HARNESS_TRY(J, cudaMemsetAsync(d_p, 0, sizeof(prec_acc), s));
		if (o->t.dtype == CUA_F32)
			prec_pass_b<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const float *)b->chk[i].t.data,
			    (const double *)b->ref[i].t.data, o->n, d_p);
		else
			prec_pass_b<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)b->chk[i].t.data,
			    (const double *)b->ref[i].t.data, o->n, d_p);
		HARNESS_TRY(J, cudaGetLastError());
		struct prec_acc hb;
		HARNESS_TRY(J, cudaMemcpyAsync(&hb, d_p, sizeof(hb), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(J, cudaStreamSynchronize(s));
		struct cua_accuracy_sums ps = { h.ee, h.kk, hb.dd, hb.ed, hb.n };
		struct cua_accuracy_result r;
		cua_accuracy_decide(&ps, &r);
		if (!r.judged)
			continue;
		bool fail = r.corr_fail || r.mag_fail;
		/* the record keeps the failing output, else the one nearest to failing */
		double score = fail ? 1e300 : fmax(fabs(r.rho), r.exposed ? r.err_ratio : 0);
		if (score > worst) {
			worst = score;
			k->accuracy.judged = true;
			snprintf(k->accuracy.vs, sizeof(k->accuracy.vs), "%s", bits == 10 ? "tf32" : "bf16");
			snprintf(k->accuracy.output, sizeof(k->accuracy.output), "%s", t->outputs[i].name);
			k->accuracy.rho = r.rho;
			k->accuracy.rho_sd = r.rho_sd;
			k->accuracy.explained = r.explained;
			k->accuracy.err_ratio = r.err_ratio;
			k->accuracy.chk_ratio = r.chk_ratio;
			k->accuracy.exposed = r.exposed;
			k->accuracy.ok = !fail;
		}
		if (!fail || box->v != CUA_VERDICT_OK)
			continue;
		const char *low = bits == 10 ? "TF32 (or fp16)" : "bf16";
		box->v = CUA_VERDICT_WRONG_OUTPUT;
		if (r.corr_fail)
			snprintf(box->msg, sizeof(box->msg),
			         "output '%s' (%s) is less accurate than %s arithmetic: its error is "
			         "the error that rounding the inputs to %s gives (correlation %.3f ± "
			         "%.3f, %.0f %% of its error explained; correct fp32 code shows |ρ| "
			         "≤ %.2f) — reduced-precision arithmetic on any path (tensor cores, "
			         "half conversions, code loaded at run time) fails a %s task",
			         t->outputs[i].name, where,
			         bits == 10 ? "fp32" : "TF32", low, r.rho, r.rho_sd,
			         100 * r.explained, CUA_ACCURACY_RHO_MAX,
			         cua_precision_name(t->precision));
		else
			snprintf(box->msg, sizeof(box->msg),
			         "output '%s' (%s) is less accurate than %s arithmetic: its RMS error "
			         "is %.3g times what rounding the inputs to %s costs (at most %.2f "
			         "here, where the task's trusted fp32 kernel is %.0f times more "
			         "accurate than that rounding) — reduced precision (rounded inputs "
			         "or half-precision intermediates) fails a %s task",
			         t->outputs[i].name, where, bits == 10 ? "fp32" : "TF32", r.err_ratio,
			         low, CUA_ACCURACY_ERR_MAX, r.chk_ratio > 0 ? 1 / r.chk_ratio : INFINITY,
			         cua_precision_name(t->precision));
	}
}

/* Judges the call that just ran on b (inputs generated from c's key): guard
 * bands, inputs unchanged, then the oracle on the judge's own copy of the
 * inputs, the comparison, and (c->precision) the precision rule. Emits a case
 * event; the first failure of the run is kept in box. */
bool cua_judge_case(struct cua_judge *J, struct shape_bufs *b, const struct case_key *c,
                    const char *where, cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = J->task;
	const char *shape = t->shapes[b->shape].name;

	/* Inputs unchanged, and regenerated into private memory in the same pass:
	 * the oracle reads those, so what the kernel's process does to the shared
	 * ones after its call changes nothing here. */
	judge_guards_inputs(J, b, &c->key, where, s);
	cua_judge_oracle(J, b->priv, b->ref, where, s);

	bool all_ok = true;
	struct cua_case k;
	memset(&k, 0, sizeof(k));
	snprintf(k.shape, sizeof(k.shape), "%s", shape);
	k.secret = c->secret;
	k.seed = c->secret ? 0 : c->seed;
	k.recheck = c->recheck;
	k.first_bad = -1;
	unsigned long long tot_n = 0, tot_bad = 0, tot_nan = 0, tot_unw = 0;
	double max_abs = 0, max_rel = 0;
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i], *r = &b->ref[i];
		cmp_acc h;
		memset(&h, 0, sizeof(h));
		h.first_bad = ULLONG_MAX;
		HARNESS_TRY(J, cudaMemcpyAsync(J->d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
		switch (o->t.dtype) {
		case CUA_F32:
			compare_float_kernel<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, J->d_acc);
			break;
		case CUA_F64:
			compare_float_kernel<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, J->d_acc);
			break;
		default:
			DISPATCH_TYPES(J, o->t.dtype,
			               compare_int_kernel<T><<<grid_for(o->n), 256, 0, s>>>(
			                   (const T *)o->t.data, (const T *)r->t.data, o->n,
			                   J->d_acc));
		}
		HARNESS_TRY(J, cudaGetLastError());
		HARNESS_TRY(J, cudaMemcpyAsync(&h, J->d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(J, cudaStreamSynchronize(s));
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
			snprintf(k.output, sizeof(k.output), "%s", t->outputs[i].name);
			k.first_bad = fb;
			snprintf(k.first_bad_at, sizeof(k.first_bad_at), "%s", at);
			double got = host_value(o->t.data, o->t.dtype, fb);
			double want = host_value(r->t.data, r->t.dtype, fb);
			k.got = got;     /* NaN and inf are written as null */
			k.want = want;
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
	}
	/* Precision by accuracy: only for a kernel whose values passed (a wrong one
	 * has its verdict already). */
	int bits = forbidden_bits(t);
	if (all_ok && c->precision && bits && b->chk) {
		enum cua_verdict before = box->v;
		check_precision(J, b, bits, where, &k, s, box);
		if (before == CUA_VERDICT_OK && box->v != CUA_VERDICT_OK)
			all_ok = false;
	}
	/* Scrub the oracle's result before the candidate can run again. */
	for (int i = 0; i < t->n_outputs; i++)
		poison(&J->mem, &b->ref[i], true, s);
	HARNESS_TRY(J, cudaDeviceSynchronize());
	k.ok = all_ok;
	k.n_elems = tot_n;
	k.n_bad = tot_bad;
	k.n_nan = tot_nan;
	k.n_unwritten = tot_unw;
	k.max_abs = max_abs;
	k.max_rel = max_rel;
	cJSON *ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "event", "case");
	cua_case_to_json(ev, &k);      /* the one codec of a case (verdict.h) */
	cua_judge_emit(J, ev);
	return all_ok;
}


/* ---- a job's options, and the device --------------------------------------------- */

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

static void usage_exit(struct cua_judge *J, const char *msg)
{
	fprintf(stderr, "cuarena __judge: %s\n", msg);
	cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "runner usage: %s", msg);
}

static void parse_job(struct cua_judge *J, int argc, char **argv, struct job *job)
{
	memset(job, 0, sizeof(*job));
	job->max_time_s = 3.0;
	job->timeout_s = 180;
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
			usage_exit(J, "option without a value");
		i++;
		/* the options that name a string, in one sorted table */
		static const struct { const char *name; size_t at; } strs[] = {
			{ "--checker", offsetof(struct job, checker_so) },
			{ "--checker-sha256", offsetof(struct job, checker_sha256) },
			{ "--dump", offsetof(struct job, dump_dir) },
			{ "--oracle", offsetof(struct job, oracle_so) },
			{ "--oracle-sha256", offsetof(struct job, oracle_sha256) },
			{ "--so", offsetof(struct job, so) },
			{ "--so-sha256", offsetof(struct job, so_sha256) },
			{ "--subject", offsetof(struct job, subject) },
			{ "--task", offsetof(struct job, task_dir) },
		};
		bool taken = false;
		for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]) && !taken; k++)
			if (!strcmp(a, strs[k].name)) {
				*(const char **)((char *)job + strs[k].at) = v;
				taken = true;
			}
		if (taken)
			continue;
		if (!strcmp(a, "--fd"))
			J->report_fd = atoi(v);
		else if (!strcmp(a, "--timeout"))
			job->timeout_s = atof(v);
		else if (!strcmp(a, "--max-time-s"))
			job->max_time_s = atof(v);
		else if (!strcmp(a, "--min-samples"))
			job->min_samples = atoi(v);
		else if (!strcmp(a, "--seeds")) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%s", v);
			for (char *tok = strtok(buf, ","); tok && job->n_seeds < 8;
			     tok = strtok(NULL, ","))
				if (!parse_u64(tok, &job->seeds[job->n_seeds++]))
					usage_exit(J, "bad --seeds");
		} else {
			char msg[128];
			snprintf(msg, sizeof(msg), "unknown option %.60s", a);
			usage_exit(J, msg);
		}
	}
	if (!job->task_dir || !job->oracle_so || job->n_seeds < 1 ||
	    (!job->so && !job->degeneracy && !job->dump_dir))
		usage_exit(J, "--task, --so, --oracle and --seeds are required");
}

static void emit_device(struct cua_judge *J, const cudaDeviceProp *p)
{
	int drv = 0, rt = 0;
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	struct cua_device d;
	memset(&d, 0, sizeof(d));
	d.known = true;
	snprintf(d.name, sizeof(d.name), "%.127s", p->name);
	d.cc_major = p->major;
	d.cc_minor = p->minor;
	d.sms = p->multiProcessorCount;
	d.l2_bytes = p->l2CacheSize;
	d.mem_bytes = (double)p->totalGlobalMem;
	d.driver = drv;
	d.runtime = rt;
	/* peak clocks, as `__probe` reports them: part of a stored baseline's key */
	int dev = 0, clk = 0, mclk = 0;
	cudaGetDevice(&dev);
	if (cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev) == cudaSuccess)
		d.sm_clock_peak_mhz = clk / 1000.0;
	if (cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
		d.mem_clock_peak_mhz = mclk / 1000.0;
	cudaGetLastError();
	/* The kernel module's version ("580.159.04"); the CUDA calls only give the
	 * CUDA version the driver supports. */
	cua_driver_version(d.driver_version, sizeof(d.driver_version));
	cJSON *o = cua_device_to_json(&d);   /* the one codec of a device (device.h) */
	cJSON_AddStringToObject(o, "event", "device");
	cua_judge_emit(J, o);
}

/* ---- one job, and a judge that serves many ------------------------------------- */

/* CUDA, once per process: a serving judge keeps its context for every job. */
static void judge_cuda_up(struct cua_judge *J)
{
	if (!J->cuda_up) {
		int ndev = 0;
		cudaError_t e = cudaGetDeviceCount(&ndev);
		if (e != cudaSuccess || ndev < 1)
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "no CUDA device: %s",
			       e != cudaSuccess ? cudaGetErrorString(e) : "none found");
		HARNESS_TRY(J, cudaSetDevice(0));
		HARNESS_TRY(J, cudaGetDeviceProperties(&J->prop, 0));
		if (!cua_vmm_init(&J->mem.vmm))
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "the driver offers no shareable device "
			       "memory (cuMemCreate with POSIX descriptors)");
		HARNESS_TRY(J, cudaMalloc((void **)&J->mem.d_counter, sizeof(*J->mem.d_counter)));
		HARNESS_TRY(J, cudaMalloc((void **)&J->d_acc, sizeof(*J->d_acc)));
		HARNESS_TRY(J, cudaStreamCreate(&J->stream));
		size_t total_b = 0;
		HARNESS_TRY(J, cudaMemGetInfo(&J->free_at_start, &total_b));
		J->cuda_up = true;
	}
	emit_device(J, &J->prop);
	/* No persisting-L2 window may survive from anything before this job. */
	cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
	cudaCtxResetPersistingL2Cache();
	cudaGetLastError();
}

/* The oracle's and the checker's objects: our own copy, checked against its
 * build's digest, is what we load, under a name of its digest (a serving judge
 * keeps what it loaded: the same reference for the next kernel of a task is
 * not loaded twice, and a changed one is another file). */
static void *load_lib(struct cua_judge *J, const char *from, const char *sha, const char *what)
{
	bool named = sha && strlen(sha) == 64;
	for (int i = 0; named && i < J->nlibs; i++)
		if (!strcmp(J->libs[i].sha, sha))
			return J->libs[i].h;
	char name[128];
	if (named)
		snprintf(name, sizeof(name), "./lib-%s.so", sha);
	else
		snprintf(name, sizeof(name), "./lib-unnamed-%d.so", J->unnamed++);
	cua_cand_ctl_stage(&J->cand, from, name, sha, 0400);
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "cannot load the %s: %s", what, dlerror());
	if (named && J->nlibs < MAX_LIBS) {
		snprintf(J->libs[J->nlibs].sha, sizeof(J->libs[0].sha), "%s", sha);
		J->libs[J->nlibs++].h = h;
	} else
		J->unnamed += MAX_LIBS;   /* one not kept: this judge ends after the job */
	return h;
}

/* After a serving judge's job (from cua_judge_finish, the kernel's process already
 * stopped): frees everything the job held. Returns whether this process can
 * judge another kernel as if it were fresh: not after a failure of its own or a
 * sticky CUDA error, nor with memory missing, nor with too much loaded. */
static bool job_reset(struct cua_judge *J, enum cua_verdict v)
{
	bool fit = v != CUA_VERDICT_HARNESS_ERROR;
	for (int i = 0; i < J->mem.nlive; i++) {
		if (J->mem.live[i].shared)
			cua_vmm_free(&J->mem.vmm, (CUdeviceptr)(uintptr_t)J->mem.live[i].base, J->mem.live[i].alloc);
		else
			cudaFree(J->mem.live[i].base);
	}
	J->mem.nlive = 0;
	if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess)
		fit = false;
	void *keep[5] = { J->tm.flush, J->tm.wd, J->tm.wd_host, J->tm.accs, J->tm.accs_host };
	memset(&J->tm, 0, sizeof(J->tm));
	J->tm.flush = keep[0];
	J->tm.wd = (unsigned long long *)keep[1];
	J->tm.wd_host = (unsigned long long *)keep[2];
	J->tm.accs = (cmp_acc *)keep[3];
	J->tm.accs_host = (cmp_acc *)keep[4];
	cua_cand_ctl_end_job(&J->cand);
	cua_task_free(J->task_owned);
	J->task_owned = NULL;
	J->task = NULL;
	J->oracle = J->checker = NULL;
	J->mem.after_load = false;
	J->free_at_load = J->mem.post_load_bytes = 0;
	size_t free_b = 0, total_b = 0;
	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
	    free_b + ((size_t)2 << 30) < J->free_at_start)
		fit = false;   /* something kept 2 GiB: a fresh judge has it back */
	if (++J->jobs >= 1000 || J->unnamed >= MAX_LIBS)
		fit = false;
	return fit;
}

/* One judgement, to its cua_judge_finish (which never returns). */
static void judge_job(struct cua_judge *J, struct job *job) __attribute__((noreturn));
static void judge_job(struct cua_judge *J, struct job *job)
{
	char err[CUA_ERR_LEN];
	struct cua_task *task = NULL;
	double started = J->t0;

	if (!draw_master(job))
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "getrandom: %s", strerror(errno));
	if (cua_task_load(job->task_dir, &task, err, sizeof(err)) != CUA_OK)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
	J->task = J->task_owned = task;

	bool oracle_only = job->degeneracy || job->dump_dir;
	/* The candidate's process first: it brings up its CUDA while we do ours
	 * (when we have not yet: a serving judge has it from its first job). */
	if (!oracle_only)
		cua_cand_ctl_start(&J->cand, job->so, job->so_sha256, job->timeout_s, J->serving);
	J->cand.cur.deadline = started + (job->timeout_s > 10 ? job->timeout_s - 5 : job->timeout_s);
	mark(J, "spawned");
	judge_cuda_up(J);
	check_memory(J, task);
	cudaDeviceProp prop = J->prop;
	mark(J, "cuda");

	void *oh = load_lib(J, job->oracle_so, job->oracle_sha256, "oracle");
	if (!(J->oracle = (solve_fn)dlsym(oh, "cua_oracle")))
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "cannot load the oracle: %s", dlerror());
	/* The timed samples' answers: a trusted kernel (the task's fastest library
	 * baseline when the parent names one, else the reference itself). */
	void *ch = job->checker_so ? load_lib(J, job->checker_so, job->checker_sha256, "checker")
	                           : oh;
	if (!(J->checker = (solve_fn)dlsym(ch, "cua_solve")))
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "cannot load the checker: %s", dlerror());
	cua_judge_phase(J, "load");
	cudaStream_t s = J->stream;
	if (oracle_only) {
		if (job->dump_dir)
			cua_selftest_dump(J, job, s);
		if (job->degeneracy)
			cua_selftest_degeneracy(J, job, s);
		cua_judge_finish(J, CUA_VERDICT_OK, "%s", "");
	}

	cua_cand_ctl_ready(&J->cand, "start-up of the kernel's process");
	mark(J, "kernel-process");
	char jail[160];
	cua_jail_describe(&J->cand.cur.info, jail, sizeof(jail));
	{
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "event", "jail");
		cJSON_AddStringToObject(o, "what", jail);
		cJSON_AddBoolToObject(o, "pid_ns", J->cand.cur.info.pid_ns);
		cJSON_AddBoolToObject(o, "net_ns", J->cand.cur.info.net_ns);
		cJSON_AddBoolToObject(o, "unprivileged", J->cand.cur.info.user_dropped);
		cua_judge_emit(J, o);
	}
	int timed = cua_task_timed_shape(task);
	if (job->time) {
		cua_clock_alloc(J, (size_t)prop.l2CacheSize, s);
		mark(J, "alloc");
		cua_clock_calibrate(J, job, s);
		mark(J, "calibrated");
	}

	/* Every buffer of the checks exists before the kernel does (cua_judge_shape_alloc
	 * after it could find the device's memory taken by it). */
	struct shape_bufs checks[CUA_MAX_SHAPES];
	for (int sh = 0; sh < task->n_shapes; sh++)
		if (sh != timed || !J->tm.on)
			cua_judge_shape_alloc(J, &checks[sh], sh);

	/* Now, and only now, the kernel's code enters its process. */
	{
		uint32_t flags = job->trusted ? CUA_WIRE_TRUSTED : 0;
		if (J->cand.cur.info.pid_ns && !J->cand.cur.info.user_ns && geteuid() == 0)
			flags |= CUA_WIRE_VIEW;
		for (int i = 0; i < task->n_libraries && !job->trusted; i++) {
			if (!strcmp(task->libraries[i], "cublas"))
				flags |= CUA_WIRE_LIB_CUBLAS;
			else if (!strcmp(task->libraries[i], "cudnn"))
				flags |= CUA_WIRE_LIB_CUDNN;
		}
		size_t total_b = 0;
		if (cudaMemGetInfo(&J->free_at_load, &total_b) != cudaSuccess)
			J->free_at_load = 0;
		J->mem.after_load = true;
		cua_cand_ctl_load(&J->cand, flags);
		mark(J, "loaded");
	}

	struct cua_verdict_box box;
	box.v = CUA_VERDICT_OK;
	box.msg[0] = '\0';
	double t0 = cua_now();
	/* Check shapes first (small, odd), the timed shape last. A shape that fails
	 * ends the check once all its seeds are reported: the verdict is settled, and
	 * the rest (above all the fp64 oracle at the large timed shape) would only
	 * cost GPU time. On the H200 a kernel that writes nothing took 1.7 s of
	 * checking, most of it at the timed shape. */
	for (int pass = 0; pass < 2 && box.v == CUA_VERDICT_OK; pass++)
		for (int sh = 0; sh < task->n_shapes && box.v == CUA_VERDICT_OK; sh++) {
			if ((sh == timed) != (pass == 1))
				continue;
			/* at the timed shape, the timing's buffers (oracle included) */
			struct shape_bufs *bp = sh == timed && J->tm.on ? &J->tm.sets[0] : &checks[sh];
			/* Precision is judged on every case at a check shape, and at the
			 * timed shape on the secret case (and a timed sample's spot
			 * check): a kernel can recognise the public cases there, whose
			 * inputs anyone can compute, and its precision is what it does
			 * when it cannot. */
			for (int k = 0; k < job->n_seeds; k++) {
				struct case_key c = public_case(job->seeds[k], sh != timed);
				run_case(J, bp, &c, s, &box);
			}
			struct case_key c = secret_case(job, CUA_RNG_CHECK, (uint64_t)sh);
			c.precision = true;
			run_case(J, bp, &c, s, &box);
		}
	mark(J, "checked");
	cJSON *ck = cJSON_CreateObject();
	cJSON_AddStringToObject(ck, "event", "checked");
	cJSON_AddNumberToObject(ck, "seconds", cua_now() - t0);
	cua_judge_emit(J, ck);
	if (box.v != CUA_VERDICT_OK)
		cua_judge_finish(J, box.v, "%s", box.msg);

	if (job->time) {
		double t1 = cua_now();
		cua_clock_alloc_rest(J, s);
		mark(J, "sets");
		cua_clock_run(J, job, s, &box);
		mark(J, "timed");
		/* A kernel that turns lazy after many calls fails here. */
		struct case_key c = secret_case(job, CUA_RNG_RECHECK, 0);
		run_case(J, &J->tm.sets[0], &c, s, &box);
		cJSON *tm = cJSON_CreateObject();
		cJSON_AddStringToObject(tm, "event", "timed");
		cJSON_AddNumberToObject(tm, "seconds", cua_now() - t1);
		cua_judge_emit(J, tm);
		if (box.v != CUA_VERDICT_OK)
			cua_judge_finish(J, box.v, "after timing: %s", box.msg);
	}
	cua_judge_finish(J, CUA_VERDICT_OK, "%s", "");
}

/* A job for a serving judge, on its stdin: a header (CUA_JOB_MAGIC, payload
 * length) and the payload, NUL-separated strings: "KEY=<64 hex>" (the report
 * channel's key for this job), "SECRETS=S,R", then the job's options as a
 * one-shot judge takes them on its command line. */
static bool read_full(int fd, void *buf, size_t len)
{
	char *p = (char *)buf;
	while (len > 0) {
		ssize_t r = read(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		len -= (size_t)r;
	}
	return true;
}

static int judge_serve(struct cua_judge *J, int argc, char **argv)
{
	static char payload[CUA_JOB_MAX];
	static char *jargv[64];
	static struct job job;

	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--fd"))
			J->report_fd = atoi(argv[i + 1]);
	if (J->report_fd < 3 || !getcwd(J->cand.home, sizeof(J->cand.home))) {
		fprintf(stderr, "cuarena __judge --serve: no report channel (--fd N)\n");
		_exit(2);
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	J->serving = true;
	for (;;) {
		uint32_t hdr[2];
		if (!read_full(0, hdr, sizeof(hdr)))
			_exit(0);                       /* the parent is done with us */
		if (hdr[0] != CUA_JOB_MAGIC || hdr[1] >= sizeof(payload) ||
		    !read_full(0, payload, hdr[1])) {
			fprintf(stderr, "cuarena __judge --serve: a malformed job\n");
			_exit(2);
		}
		payload[hdr[1]] = '\0';
		int n = 0;
		jargv[n++] = (char *)"__judge";
		static const char *key;   /* static: setjmp below */
		key = NULL;
		for (char *p = payload; p < payload + hdr[1] && n < 63; p += strlen(p) + 1) {
			if (!strncmp(p, "KEY=", 4) && !key)
				key = p + 4;
			else
				jargv[n++] = p;
		}
		jargv[n] = NULL;
		J->have_key = key && cua_channel_key_parse(key, &J->key);
		if (key)
			memset((char *)key, 0, strlen(key));
		if (!J->have_key) {
			fprintf(stderr, "cuarena __judge --serve: a job without a channel key\n");
			_exit(2);
		}
		J->seq = 0;
		J->t0 = cua_now();
		J->profile[0] = '\0';
		if (setjmp(J->next_job) == 0) {
			parse_job(J, n, jargv, &job);
			J->cand.jobdir[0] = '\0';
			mark(J, "job");
			judge_job(J, &job);
		}
		memset(&job, 0, sizeof(job));
		J->quiet = true;
		if (setjmp(J->next_job) == 0)
			cua_cand_ctl_spare(&J->cand);
		J->quiet = false;
		J->cand.jobdir[0] = '\0';
	}
}

/* The one judge of this process. */
static struct cua_judge the_judge;

extern "C" int cua_judge_main(int argc, char **argv)
{
	struct cua_judge *J = &the_judge;
	struct job job;
	J->report_fd = -1;
	J->mem.judge = J;
	cua_cand_ctl_init(&J->cand, J);
	J->t0 = cua_now();

	if (argc > 1 && !strcmp(argv[1], "--serve"))
		return judge_serve(J, argc, argv);
	take_channel_key(J);
	parse_job(J, argc, argv, &job);
	if (!J->have_key) {
		fprintf(stderr, "cuarena __judge: no report channel key in %s\n",
		        CUA_CHANNEL_KEY_ENV);
		_exit(2);
	}
	/* No process of the same user may read our memory (the job's secret key) or
	 * ptrace us. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (!getcwd(J->cand.home, sizeof(J->cand.home)))
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "getcwd: %s", strerror(errno));
	snprintf(J->cand.jobdir, sizeof(J->cand.jobdir), "%.*s", (int)sizeof(J->cand.home),
	         J->cand.home);
	judge_job(J, &job);
}
