/* clock.cu — the judge's clock: the timed shape's buffers (several input sets),
 * the calibration of a timed sample's fixed cost with the harness's empty
 * kernel, and the timing itself. Per sample: fresh inputs from a key of its
 * own made in private memory and the checker's answer to them, outputs
 * poisoned, the inputs published into the shared buffers under a watchdog
 * that sees any GPU work of the kernel's process before the clock starts, the
 * L2 flushed; the sample is the judge's clock from RUN until its own
 * comparison has found the outputs complete and right, minus the calibrated
 * fixed cost (docs/METHOD.md). Built with the judge (nvcc, sm_90a; judge.cuh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.cuh"
extern "C" {
#include "judge/stats.h"
}

static double measure_sm_mhz(struct cua_judge *J, cudaStream_t s)
{
	double *d, h = 0;
	HARNESS_TRY(J, cudaMalloc((void **)&d, sizeof(double)));
	clock_kernel<<<1, 1, 0, s>>>(d);
	HARNESS_TRY(J, cudaGetLastError());
	HARNESS_TRY(J, cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(J, cudaStreamSynchronize(s));
	cudaFree(d);
	return h;
}

static double median_of(double *v, int n)
{
	struct cua_stats st;
	cua_stats_compute(v, n, &st);
	return st.median;
}

/* The judge's watchdog before every timed sample: longer than a time slice. */
static const uint64_t WATCHDOG_NS = 2500000;
/* A gap in it this long means our context was switched out (slices are ~2 ms). */
static const double GAP_LIMIT_MS = 0.2;

struct sample {
	double raw_ms;            /* judge: "run" sent → its comparison complete */
	double event_ms, host_ms; /* the candidate's claims */
	double pre_ms, gap_ms;    /* watchdog */
	bool ok;
	cmp_acc acc[CUA_MAX_TENSORS];
};

void cua_clock_alloc(struct cua_judge *J, size_t l2_bytes, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	int timed = cua_task_timed_shape(t);
	char err[CUA_ERR_LEN];
	int64_t dims[CUA_MAX_DIMS];
	size_t per_set = 0, extra = 0;

	/* Several input sets, each with its own output: rotating them spreads the
	 * median over several physical placements of the buffers (on the H200 one
	 * placement of ReLU's buffers ran 5 % slower than another, run to run). As
	 * many as fit in half the free memory, after the private buffers. */
	for (int i = 0; i < t->n_inputs; i++) {
		if (cua_task_tensor_shape(t, timed, &t->inputs[i], dims, err, sizeof(err)))
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&J->mem, &J->tm.stage[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, false);
		J->tm.stage[i].init = &t->inputs[i].init;
		J->tm.stage[i].index = (uint32_t)i;
		per_set += J->tm.stage[i].bytes;
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *o = &t->outputs[i];
		if (cua_task_tensor_shape(t, timed, o, dims, err, sizeof(err)))
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&J->mem, &J->tm.expect[i], o->dtype, o->ndim, dims, false);
		per_set += J->tm.expect[i].bytes;
		extra += 2 * J->tm.expect[i].bytes;   /* set 0's fp64 oracle buffer */
	}
	size_t free_b = 0, total_b = 0;
	HARNESS_TRY(J, cudaMemGetInfo(&free_b, &total_b));
	for (J->tm.n_sets = MAX_SETS; J->tm.n_sets > 1; J->tm.n_sets--)
		if ((double)per_set * J->tm.n_sets + (double)extra < 0.5 * (double)free_b)
			break;
	/* Set 0 now (the calibration and the checks at the timed shape use it); the
	 * others once the kernel has passed its checks (cua_clock_alloc_rest): most
	 * kernels an agent writes fail them, and ReLU's sets are 6.4 GB each. */
	cua_judge_shape_alloc(J, &J->tm.sets[0], timed, true, false);
	J->tm.sets[0].priv = J->tm.stage;
	J->tm.sets[0].chk = J->tm.expect;
	for (int i = 0; i < t->n_inputs; i++)
		poison(&J->mem, &J->tm.sets[0].in[i], false, s);
	J->tm.flush_bytes = 2 * l2_bytes;
	if (J->tm.flush_bytes < (size_t)256 << 20)
		J->tm.flush_bytes = (size_t)256 << 20;
	/* the same for every job of a serving judge: made once, kept (job_reset) */
	if (!J->tm.flush) {
		HARNESS_TRY(J, cudaMalloc(&J->tm.flush, J->tm.flush_bytes));
		HARNESS_TRY(J, cudaMalloc((void **)&J->tm.wd, 4 * sizeof(unsigned long long)));
		HARNESS_TRY(J, cudaMallocHost((void **)&J->tm.wd_host, 4 * sizeof(unsigned long long)));
		HARNESS_TRY(J, cudaMalloc((void **)&J->tm.accs, CUA_MAX_TENSORS * sizeof(cmp_acc)));
		HARNESS_TRY(J, cudaMallocHost((void **)&J->tm.accs_host,
		                           CUA_MAX_TENSORS * sizeof(cmp_acc)));
	}
	HARNESS_TRY(J, cudaDeviceSynchronize());
	J->tm.on = true;
}

void cua_clock_alloc_rest(struct cua_judge *J, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	int timed = cua_task_timed_shape(t);
	for (int k = 1; k < J->tm.n_sets; k++) {
		cua_judge_shape_alloc(J, &J->tm.sets[k], timed, false);
		J->tm.sets[k].priv = J->tm.stage;   /* a spot check's case (cua_clock_run) */
		J->tm.sets[k].chk = J->tm.expect;
		for (int i = 0; i < t->n_inputs; i++)
			poison(&J->mem, &J->tm.sets[k].in[i], false, s);
	}
	HARNESS_TRY(J, cudaDeviceSynchronize());
}

/* The in-window check: every output against the checker's, within three times
 * the task's tolerance (both are within it of the exact answer, so their
 * distance is within twice it, up to second-order terms; the third is margin: a
 * false rejection costs as much as a missed exploit, and an incomplete or
 * garbage output misses by far more). Complete, or the sample fails.
 * Data-independent cost: every element is read. */
#define WINDOW_TOL 3
static void window_compare(struct cua_judge *J, struct shape_bufs *b, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	for (int i = 0; i < t->n_outputs; i++) {
		J->tm.accs_host[i] = cmp_acc{0, 0, 0, 0, 0, ULLONG_MAX};
		struct dev_tensor *o = &b->out[i], *x = &J->tm.expect[i];
		switch (o->t.dtype) {
		case CUA_F32:
			compare_float_kernel<float, float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const float *)x->t.data, o->n, WINDOW_TOL * t->atol,
			    WINDOW_TOL * t->rtol, J->tm.accs + i);
			break;
		case CUA_F64:
			compare_float_kernel<double, double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)x->t.data, o->n, WINDOW_TOL * t->atol,
			    WINDOW_TOL * t->rtol, J->tm.accs + i);
			break;
		default:
			DISPATCH_TYPES(J, o->t.dtype,
			               compare_int_kernel<T><<<grid_for(o->n), 256, 0, s>>>(
			                   (const T *)o->t.data, (const T *)x->t.data, o->n,
			                   J->tm.accs + i));
		}
	}
	(void)cudaGetLastError();
}

/* One timed sample on set b (or, with calib, the empty kernel: the outputs are
 * then given the right answer beforehand, so the check costs what it costs when
 * a kernel passes). See the file's head comment for the order of work. */
static void run_sample(struct cua_judge *J, struct shape_bufs *b, const struct cua_rng_key *key,
                       bool calib, cudaStream_t s, struct sample *o, bool same_inputs = false)
{
	const struct cua_task *t = J->task;
	struct cua_tensor in[CUA_MAX_TENSORS], ex[CUA_MAX_TENSORS];

	/* (calibration after its first sample keeps the staged inputs and their
	 * answer: no kernel code is loaded yet, and what the window costs does not
	 * depend on them; a slow checker, 70 ms for some naive references, would
	 * otherwise run eight times for nothing) */
	if (!same_inputs) {
		for (int i = 0; i < t->n_inputs; i++) {
			generate(&J->mem, J->task, &J->tm.stage[i], key, s);
			in[i] = J->tm.stage[i].t;
		}
		for (int i = 0; i < t->n_outputs; i++)
			ex[i] = J->tm.expect[i].t;
		int rc = J->checker(in, t->n_inputs, ex, t->n_outputs, s);
		cudaError_t e = cudaStreamSynchronize(s);
		if (rc != 0 || e != cudaSuccess)
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "the checker kernel failed: rc %d, %s", rc,
			       cudaGetErrorString(e));
	}
	for (int i = 0; i < t->n_outputs; i++) {
		poison(&J->mem, &b->out[i], true, s);
		if (calib)
			HARNESS_TRY(J, cudaMemcpyAsync(b->out[i].t.data, J->tm.expect[i].t.data,
			                            b->out[i].bytes, cudaMemcpyDeviceToDevice, s));
	}
	/* From the stamp on, the inputs are where the candidate can see them. */
	stamp_kernel<<<1, 1, 0, s>>>(J->tm.wd);
	for (int i = 0; i < t->n_inputs; i++)
		HARNESS_TRY(J, cudaMemcpyAsync(b->in[i].t.data, J->tm.stage[i].t.data, b->in[i].bytes,
		                            cudaMemcpyDeviceToDevice, s));
	/* Lines a kernel made persisting (an access-policy window set through launch
	 * attributes, a set-aside reached through the driver) would survive the
	 * flush: demote every persisting line of the L2 to normal first. */
	(void)cudaCtxResetPersistingL2Cache();
	(void)cudaGetLastError();
	HARNESS_TRY(J, cudaMemsetAsync(J->tm.flush, (int)(key->w[0] & 0xff), J->tm.flush_bytes, s));
	watchdog_kernel<<<1, 1, 0, s>>>(J->tm.wd, WATCHDOG_NS);
	HARNESS_TRY(J, cudaGetLastError());
	HARNESS_TRY(J, cudaMemcpyAsync(J->tm.wd_host, J->tm.wd, 4 * sizeof(unsigned long long),
	                            cudaMemcpyDeviceToHost, s));
	cua_cand_ctl_wake(&J->cand);
	HARNESS_TRY(J, cudaStreamSynchronize(s));

	/* The window: the judge's clock, the candidate's answer, the judge's check.
	 * (t0 is taken in cua_cand_ctl_timed, after the command is built, just
	 * before it is sent.) */
	static struct cua_wire_msg m;
	/* the accumulators start from zero, before the window: the host copy holds the
	 * last sample's counts, of this job or (a serving judge keeps the buffers) of
	 * the job before, whose failed sample would otherwise fail this one */
	for (int i = 0; i < t->n_outputs; i++)
		J->tm.accs_host[i] = cmp_acc{0, 0, 0, 0, 0, ULLONG_MAX};
	HARNESS_TRY(J, cudaMemcpyAsync(J->tm.accs, J->tm.accs_host, t->n_outputs * sizeof(cmp_acc),
	                               cudaMemcpyHostToDevice, s));
	HARNESS_TRY(J, cudaStreamSynchronize(s));
	double t0;
	cua_cand_ctl_timed(&J->cand, b->slot, calib, &t0, &m);
	for (int i = 0; i < t->n_outputs; i++)
		J->tm.accs_host[i] = cmp_acc{0, 0, 0, 0, 0, ULLONG_MAX};
	window_compare(J, b, s);
	cudaError_t ce = cudaMemcpyAsync(J->tm.accs_host, J->tm.accs, t->n_outputs * sizeof(cmp_acc),
	                                 cudaMemcpyDeviceToHost, s);
	if (ce == cudaSuccess)
		ce = cudaStreamSynchronize(s);
	double t1 = cua_now();
	HARNESS_TRY(J, ce);
	cua_cand_ctl_done(&J->cand, &m, calib ? "calibration" : "timing");

	o->raw_ms = (t1 - t0) * 1e3;
	o->event_ms = m.event_ms;
	o->host_ms = m.host_ms;
	o->pre_ms = (double)(J->tm.wd_host[2] - J->tm.wd_host[0]) / 1e6;
	o->gap_ms = (double)J->tm.wd_host[3] / 1e6;
	o->ok = true;
	for (int i = 0; i < t->n_outputs; i++) {
		o->acc[i] = J->tm.accs_host[i];
		if (o->acc[i].n_bad || o->acc[i].n_nan || o->acc[i].n_unwritten)
			o->ok = false;
	}
}

/* The fixed cost of a sample, from the empty kernel, before the candidate's
 * code is in its process: what the judge's clock sees around any kernel (the
 * socket, two context switches, the comparison). */
void cua_clock_calibrate(struct cua_judge *J, const struct job *job, cudaStream_t s)
{
	enum { WARM = 1, N = 7 };   /* its spread is microseconds (IQR 0.01 ms on ReLU) */
	double raw[N], host[N], pre[N];
	cua_judge_phase(J, "calibration");
	for (int k = 0; k < WARM + N; k++) {
		struct sample o;
		struct case_key c = secret_case(job, CUA_RNG_CALIB, (uint64_t)k);
		run_sample(J, &J->tm.sets[0], &c.key, true, s, &o, k > 0);
		if (!o.ok)
			cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "calibration: the judge's own check "
			       "failed on the right answer");
		if (k >= WARM) {
			raw[k - WARM] = o.raw_ms;
			host[k - WARM] = o.host_ms;
			pre[k - WARM] = o.pre_ms;
		}
	}
	J->tm.overhead_ms = median_of(raw, N);
	J->tm.claim_overhead_ms = median_of(host, N);
	J->tm.pre_ref_ms = median_of(pre, N);
}

static void sample_failed(struct cua_judge *J, const struct sample *o, int n, struct cua_verdict_box *box)
{
	const struct cua_task *t = J->task;
	for (int i = 0; i < t->n_outputs; i++) {
		const cmp_acc *h = &o->acc[i];
		if (!h->n_bad && !h->n_nan && !h->n_unwritten)
			continue;
		cua_judge_finish(J, CUA_VERDICT_WRONG_OUTPUT,
		       "timed call %d: output '%s' was not complete and right when the judge "
		       "checked it after the kernel's answer: %llu wrong, %llu NaN, %llu still "
		       "poison (compared with a trusted kernel's output within three times "
		       "the tolerance)", n + 1, t->outputs[i].name, h->n_bad, h->n_nan,
		       h->n_unwritten);
	}
	(void)box;
}

/* Times the kernel at the timed shape; emits a timing event. */
void cua_clock_run(struct cua_judge *J, const struct job *job, cudaStream_t s,
                   struct cua_verdict_box *box)
{
	const struct cua_task *t = J->task;
	cua_judge_phase(J, "timing");

	/* Warm-up: module load, library handles, autotuning stay out of the numbers. */
	double t_warm = cua_now();
	for (int w = 0; w < 3 || (w < 20 && cua_now() - t_warm < 0.05); w++) {
		struct sample o;
		struct case_key c = secret_case(job, CUA_RNG_WARM, (uint64_t)w);
		run_sample(J, &J->tm.sets[w % J->tm.n_sets], &c.key, false, s, &o);
		if (!o.ok)
			sample_failed(J, &o, w, box);
	}

	struct cua_stop_rule rule;
	cua_stop_rule_init(&rule);
	rule.max_time_s = job->max_time_s;
	if (job->min_samples > 0)
		rule.min_samples = job->min_samples;
	if (rule.min_samples < 3 * J->tm.n_sets)
		rule.min_samples = 3 * J->tm.n_sets;   /* every set timed several times */
	double *jv = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	double *ev = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	double *hv = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	CUA_ASSERT(jv && ev && hv);
	double mhz0 = measure_sm_mhz(J, s);
	double spent = 0, pre_max = 0, gap_max = 0;
	int n = 0, spot_checks = 0;
	struct case_key choice = secret_case(job, CUA_RNG_CHOICE, 0);
	const int spot_at = (int)(choice.key.w[0] % (uint32_t)rule.min_samples);
	while (!cua_stop_now(&rule, jv, n, spent)) {
		struct shape_bufs *b = &J->tm.sets[n % J->tm.n_sets];
		/* Fresh inputs from a key of the sample's own for every sample, outputs
		 * poisoned: nothing a kernel cached (by pointer or by content) is ever
		 * right again, and no sample's inputs say anything of another's. */
		struct case_key c = secret_case(job, CUA_RNG_SAMPLE, (uint64_t)n);
		c.precision = true;   /* the spot check judges precision too */
		struct sample o;
		run_sample(J, b, &c.key, false, s, &o);
		if (!o.ok)
			sample_failed(J, &o, n, box);
		if (o.gap_ms > GAP_LIMIT_MS || o.pre_ms > J->tm.pre_ref_ms + 1.0)
			cua_judge_finish(J, CUA_VERDICT_TIMING_ANOMALY,
			       "timed call %d: GPU work of the kernel's process ran before the "
			       "judge's clock started (the judge was switched out for %.3f ms while "
			       "it published the inputs; %.3f ms for what takes %.3f ms)", n + 1,
			       o.gap_ms, o.pre_ms, J->tm.pre_ref_ms);
		pre_max = fmax(pre_max, o.pre_ms);
		gap_max = fmax(gap_max, o.gap_ms);
		jv[n] = o.raw_ms - J->tm.overhead_ms;
		ev[n] = o.event_ms;
		hv[n] = o.host_ms - J->tm.claim_overhead_ms;
		spent += o.raw_ms / 1e3;
		/* After the clock: guard bands; on one call chosen by the secret among
		 * those every evaluation times, the inputs and the fp64 oracle at the
		 * task's own tolerance as well. (Every other sample's inputs are not
		 * re-read: its expected answer came from the private copy, so changing
		 * the shared one gains nothing there, and every check case and this spot
		 * check still verify the inputs bit for bit.) */
		char where[96];
		snprintf(where, sizeof(where), "timed call %d", n + 1);
		if (n == spot_at) {
			struct shape_bufs view = *b;
			for (int i = 0; i < t->n_outputs; i++)
				view.ref[i] = J->tm.sets[0].ref[i];
			snprintf(where, sizeof(where), "timed call %d, checked at random", n + 1);
			if (!cua_judge_case(J, &view, &c, where, s, box))
				cua_judge_finish(J, box->v, "%s", box->msg);
			spot_checks++;
		} else
			cua_judge_guards(J, b, where, s);
		n++;
	}
	double mhz1 = measure_sm_mhz(J, s);

	struct cua_timing tm;
	memset(&tm, 0, sizeof(tm));
	tm.done = true;
	cua_stats_compute(jv, n, &tm.judge_ms);
	cua_stats_compute(ev, n, &tm.event_ms);
	cua_stats_compute(hv, n, &tm.host_ms);
	tm.overhead_ms = J->tm.overhead_ms;
	tm.claim_overhead_ms = J->tm.claim_overhead_ms;
	tm.pre_ms = J->tm.pre_ref_ms;
	tm.pre_max_ms = pre_max;
	tm.gap_max_ms = gap_max;
	tm.sm_mhz_before = mhz0;
	tm.sm_mhz_after = mhz1;
	tm.input_sets = J->tm.n_sets;
	/* Per-set medians: sample k used set k % n_sets. */
	for (int k = 0; k < J->tm.n_sets && k < (int)CUA_ARRAY_LEN(tm.set_median_ms); k++) {
		double v[1000];
		int m = 0;
		for (int i = k; i < n && m < 1000; i += J->tm.n_sets)
			v[m++] = jv[i];
		tm.set_median_ms[k] = m ? median_of(v, m) : 0;
	}
	tm.flush_bytes = (double)J->tm.flush_bytes;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "timing");
	cua_timing_to_json(o, &tm);    /* the one codec of a timing (verdict.h) */
	cJSON_AddNumberToObject(o, "spot_checks", spot_checks);
	cua_judge_emit(J, o);

	/* The candidate's process says how long it took; the judge measured. The
	 * claim decides nothing, so only a gross lie is an anomaly: on the H200 an
	 * honest warp-shuffle softmax claimed 2.50 ms where the judge measured 2.16
	 * (its own CUDA events said 2.48), so a 10 % rule rejected correct work; a
	 * process whose timers are hooked claimed 0.08 ms of 2.16. */
	double claim = tm.host_ms.median, judged = tm.judge_ms.median;
	if (claim < 0.5 * judged - 0.05 || claim > 2 * judged + 0.5)
		cua_judge_finish(J, CUA_VERDICT_TIMING_ANOMALY,
		       "the kernel's process claimed %.4f ms per call, the judge measured %.4f ms",
		       claim, judged);
	free(jv);
	free(ev);
	free(hv);
}
