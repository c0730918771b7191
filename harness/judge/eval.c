/* eval.c — one kernel on one task: build, static check, sandboxed run, verdict. */
#include "judge/eval.h"
#include "judge/channel.h"
#include "judge/judges.h"
#include "judge/runner.h"
#include "compile/precheck.h"
#include "judge/sandbox.h"
#include "compile/symcheck.h"

#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#define CHANNEL_FD 3
#define OUTPUT_TAIL_MAX 4096

static uint64_t random_seed(void)
{
	uint64_t v = 0;
	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (uint64_t)(cua_now() * 1e9) ^ ((uint64_t)getpid() << 32);
	return v ? v : 0x5eed;
}

void cua_eval_opts_init(struct cua_eval_opts *o, const char *root,
                        const char *self_exe, const char *cache_dir)
{
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->self_exe = self_exe;
	cua_build_opts_init(&o->build, root, cache_dir);
	o->run_timeout_s = 180;
	o->time = true;
	o->max_time_s = 3;
	o->seeds[0] = 1;
	o->seeds[1] = 2;
	o->seeds[2] = 3;
	/* Secret: never printed, different every invocation. */
	/* 53 bits: seeds travel as JSON numbers (doubles) and must come back exact,
	 * so a failing re-check case can be reproduced from saved results. */
	o->secret = random_seed() >> 11;
	o->recheck = random_seed() >> 11;
}

void cua_baseline_path(const char *root, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/baselines/%s.cu", root, name);
}

double cua_sol_ms(const struct cua_task *t, const struct cua_ceilings *c)
{
	int64_t flops = 0, bytes = 0;
	int timed = cua_task_timed_shape(t);

	if (!c || !c->known)
		return 0;
	if (cua_task_eval(t, timed, t->flops, &flops, NULL, 0) != CUA_OK ||
	    cua_task_eval(t, timed, t->bytes, &bytes, NULL, 0) != CUA_OK)
		return 0;
	/* Arithmetic ceiling by policy: a strict task may use only FFMA; a TF32 task
	 * may use the tensor cores at the TF32 rate we measured. */
	double rate = t->precision == CUA_PREC_FP32_STRICT ? c->ffma_tflops
	              : t->precision == CUA_PREC_TF32_ALLOWED ? c->sgemm_tf32_tflops
	                                                      : c->gemm_bf16_tflops;
	if (!t->sol_bytes_only && !(rate > 0))
		return 0;   /* the ceiling this policy needs was not measured */
	double t_flop = t->sol_bytes_only ? 0 : (double)flops / (rate * 1e12);
	if (!(c->copy_gbs > 0))
		return 0;
	double t_mem = (double)bytes / (c->copy_gbs * 1e9);
	return 1e3 * (t_flop > t_mem ? t_flop : t_mem);
}

/* ---- reading the child's report ------------------------------------------- */

static void read_stats(const cJSON *o, struct cua_stats *s)
{
	const cJSON *v;
#define F(k) ((v = cJSON_GetObjectItemCaseSensitive(o, #k)) && cJSON_IsNumber(v) ? v->valuedouble : 0)
	s->n = cua_to_int(F(n));
	s->median = F(median);
	s->q1 = F(q1);
	s->q3 = F(q3);
	s->iqr = F(iqr);
	s->mean = F(mean);
	s->stdev = F(stdev);
	s->min = F(min);
	s->max = F(max);
	s->rel_sem = F(rel_sem);
#undef F
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

struct channel_state {
	const struct cua_channel_key *key;
	uint64_t seq;         /* lines verified so far */
	int forged;           /* complete lines that did not verify */
	bool have_result;
	char last_phase[256];
	struct cua_degeneracy *degen;   /* optional */
};

static void take_event(const cJSON *ev, struct cua_eval *e, struct cua_device *dev,
                       struct channel_state *cs)
{
	const char *kind = str(ev, "event");

	if (!strcmp(kind, "device") && dev) {
		dev->known = true;
		snprintf(dev->name, sizeof(dev->name), "%s", str(ev, "name"));
		dev->cc_major = cua_to_int(num(ev, "cc_major"));
		dev->cc_minor = cua_to_int(num(ev, "cc_minor"));
		dev->sms = cua_to_int(num(ev, "sms"));
		dev->driver = cua_to_int(num(ev, "driver"));
		snprintf(dev->driver_version, sizeof(dev->driver_version), "%s",
		         str(ev, "driver_version"));
		dev->runtime = cua_to_int(num(ev, "runtime"));
		dev->l2_bytes = num(ev, "l2_bytes");
		dev->mem_bytes = num(ev, "mem_bytes");
	} else if (!strcmp(kind, "profile")) {
		snprintf(e->profile, sizeof(e->profile), "%s", str(ev, "what"));
	} else if (!strcmp(kind, "jail")) {
		snprintf(e->jail, sizeof(e->jail), "%s", str(ev, "what"));
	} else if (!strcmp(kind, "phase")) {
		snprintf(cs->last_phase, sizeof(cs->last_phase), "%s", str(ev, "what"));
	} else if (!strcmp(kind, "case") && e->n_cases < CUA_MAX_CASES) {
		struct cua_case *k = &e->cases[e->n_cases++];
		memset(k, 0, sizeof(*k));
		snprintf(k->shape, sizeof(k->shape), "%s", str(ev, "shape"));
		k->secret = cJSON_IsTrue(cJSON_GetObjectItem(ev, "secret"));
		k->recheck = cJSON_IsTrue(cJSON_GetObjectItem(ev, "recheck"));
		k->seed = k->secret ? 0 : cua_to_u64(num(ev, "seed"));
		k->ok = cJSON_IsTrue(cJSON_GetObjectItem(ev, "ok"));
		k->n_elems = cua_to_u64(num(ev, "n"));
		k->n_bad = cua_to_u64(num(ev, "bad"));
		k->n_nan = cua_to_u64(num(ev, "nan"));
		k->n_unwritten = cua_to_u64(num(ev, "unwritten"));
		k->max_abs = num(ev, "max_abs");
		k->max_rel = num(ev, "max_rel");
		k->first_bad = -1;
		if (!k->ok) {
			snprintf(k->output, sizeof(k->output), "%s", str(ev, "output"));
			k->first_bad = cua_to_i64(num(ev, "first_bad"));
			snprintf(k->first_bad_at, sizeof(k->first_bad_at), "%s",
			         str(ev, "first_bad_at"));
			k->got = num(ev, "got");
			k->want = num(ev, "want");
		}
	} else if (!strcmp(kind, "timing")) {
		struct cua_timing *t = &e->timing;
		t->done = true;
		read_stats(cJSON_GetObjectItem(ev, "judge_ms"), &t->judge_ms);
		read_stats(cJSON_GetObjectItem(ev, "event_ms"), &t->event_ms);
		read_stats(cJSON_GetObjectItem(ev, "host_ms"), &t->host_ms);
		t->overhead_ms = num(ev, "overhead_ms");
		t->claim_overhead_ms = num(ev, "claim_overhead_ms");
		t->pre_ms = num(ev, "pre_ms");
		t->pre_max_ms = num(ev, "pre_max_ms");
		t->gap_max_ms = num(ev, "gap_max_ms");
		t->sm_mhz_before = num(ev, "sm_mhz_before");
		t->sm_mhz_after = num(ev, "sm_mhz_after");
		t->input_sets = cua_to_int(num(ev, "input_sets"));
		int k = 0;
		const cJSON *x;
		cJSON_ArrayForEach(x, cJSON_GetObjectItem(ev, "set_median_ms"))
			if (k < 8 && cJSON_IsNumber(x))
				t->set_median_ms[k++] = x->valuedouble;
		t->flush_bytes = num(ev, "flush_bytes");
	} else if (!strcmp(kind, "degeneracy") && cs->degen &&
	           cs->degen->n < CUA_MAX_DEGEN) {
		struct cua_degeneracy *d = cs->degen;
		snprintf(d->c[d->n].shape, sizeof(d->c[0].shape), "%s", str(ev, "shape"));
		snprintf(d->c[d->n].check, sizeof(d->c[0].check), "%s", str(ev, "check"));
		snprintf(d->c[d->n].output, sizeof(d->c[0].output), "%s", str(ev, "output"));
		d->c[d->n].differ = num(ev, "differ");
		d->c[d->n].n = num(ev, "n");
		d->c[d->n].ok = cJSON_IsTrue(cJSON_GetObjectItem(ev, "ok"));
		d->n++;
	} else if (!strcmp(kind, "checked")) {
		e->check_s = num(ev, "seconds");
	} else if (!strcmp(kind, "timed")) {
		e->timing_s = num(ev, "seconds");
	} else if (!strcmp(kind, "result") && !cs->have_result) {
		cs->have_result = true;
		enum cua_verdict v;
		if (!cua_verdict_parse(str(ev, "verdict"), &v))
			v = CUA_VERDICT_HARNESS_ERROR;
		e->verdict = v;
		snprintf(e->message, sizeof(e->message), "%s", str(ev, "message"));
	}
}

static void take_channel(const char *buf, size_t len, struct cua_eval *e,
                         struct cua_device *dev, struct channel_state *cs)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		if (!nl)
			break;   /* a line cut short (killed mid-write, or the cap): not news */
		size_t n = (size_t)(nl - (buf + i));
		const char *json;
		size_t jn;
		if (!cua_channel_verify(cs->key, cs->seq, buf + i, n, &json, &jn)) {
			cs->forged++;
		} else {
			cs->seq++;
			cJSON *ev = cJSON_ParseWithLength(json, jn);
			if (ev) {
				take_event(ev, e, dev, cs);
				cJSON_Delete(ev);
			}
		}
		i += n + 1;
	}
}

/* Speed of light: faster than the ceilings allow is an anomaly, not a win. The
 * margin (110 %) covers a kernel that beats the copy engine we measured by a little. */
static void apply_sol(const struct cua_task *t, const struct cua_ceilings *c,
                      struct cua_eval *e)
{
	if (e->verdict != CUA_VERDICT_OK || !e->timing.done)
		return;
	e->sol_ms = cua_sol_ms(t, c);
	double med = cua_timing_stats(&e->timing)->median;
	if (e->sol_ms > 0 && med > 0) {
		e->pct_sol = 100.0 * e->sol_ms / med;
		if (e->pct_sol > 110.0)
			cua_eval_fail(e, CUA_VERDICT_TIMING_ANOMALY,
			              "%.4f ms is faster than the speed of light of this task "
			              "(%.4f ms): %.0f%% of SOL", med, e->sol_ms, e->pct_sol);
	}
}

/* A scrubbed environment: nothing like NVIDIA_TF32_OVERRIDE gets through. */
void cua_child_env(const struct cua_eval_opts *o, struct cua_child_env *ce)
{
	int ne = 0;
	ce->env[ne++] = "PATH=/usr/local/bin:/usr/bin:/bin";
	ce->env[ne++] = "LANG=C";
	const char *v = getenv("LD_LIBRARY_PATH");
	if (v) {
		snprintf(ce->ld, sizeof(ce->ld), "LD_LIBRARY_PATH=%s", v);
		ce->env[ne++] = ce->ld;
	}
	v = o->gpu ? o->gpu : getenv("CUDA_VISIBLE_DEVICES");
	if (v) {
		snprintf(ce->vis, sizeof(ce->vis), "CUDA_VISIBLE_DEVICES=%s", v);
		ce->env[ne++] = ce->vis;
	}
	ce->env[ne] = NULL;
}

/* Runs `cuarena __runner` on one task in the sandbox and reads its report into
 * e (and dev, degen when given). so may be NULL for the oracle-only modes named
 * in extra (NULL-terminated extra arguments). A child that dies before its
 * result line is judged from how it ended and the last phase it announced. */
static enum cua_status run_child(const struct cua_task *t, const char *so_path,
                                 const char *oracle_so, const char *subject,
                                 const struct cua_eval_opts *o, const char *const *extra,
                                 struct cua_eval *e, struct cua_device *dev,
                                 struct cua_degeneracy *degen, char *err, size_t errlen)
{
	char seeds[96], maxt[32], mins[16], fd[8], tmo[32];
	const char *argv[40];
	int n = 0;
	enum cua_status st;

	snprintf(seeds, sizeof(seeds), "%llu,%llu,%llu",
	         (unsigned long long)o->seeds[0], (unsigned long long)o->seeds[1],
	         (unsigned long long)o->seeds[2]);
	snprintf(maxt, sizeof(maxt), "%g", o->max_time_s);
	snprintf(mins, sizeof(mins), "%d", o->min_samples);
	snprintf(fd, sizeof(fd), "%d", CHANNEL_FD);
	argv[n++] = o->self_exe;
	argv[n++] = "__judge";
	argv[n++] = "--task";
	argv[n++] = t->dir;
	if (so_path) {
		argv[n++] = "--so";
		argv[n++] = so_path;
	}
	argv[n++] = "--oracle";
	argv[n++] = oracle_so;
	argv[n++] = "--fd";
	argv[n++] = fd;
	argv[n++] = "--seeds";
	argv[n++] = seeds;
	snprintf(tmo, sizeof(tmo), "%g", o->run_timeout_s);
	argv[n++] = "--timeout";
	argv[n++] = tmo;
	argv[n++] = "--max-time-s";
	argv[n++] = maxt;
	argv[n++] = "--min-samples";
	argv[n++] = mins;
	argv[n++] = "--subject";
	argv[n++] = subject;
	if (o->time && so_path)
		argv[n++] = "--time";
	for (int i = 0; extra && extra[i] && n < 38; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;

	struct cua_child_env ce;
	cua_child_env(o, &ce);
	/* A key for this child alone: its report lines are sealed with it. */
	struct cua_channel_key key;
	st = cua_channel_key_new(&key, err, errlen);
	if (st != CUA_OK)
		return st;
	char key_env[sizeof(CUA_CHANNEL_KEY_ENV) + 65];
	memcpy(key_env, CUA_CHANNEL_KEY_ENV "=", sizeof(CUA_CHANNEL_KEY_ENV));
	cua_channel_key_hex(&key, key_env + sizeof(CUA_CHANNEL_KEY_ENV));
	const char *env[sizeof(ce.env) / sizeof(ce.env[0]) + 2];
	int ne = 0;
	while (ce.env[ne]) {
		env[ne] = ce.env[ne];
		ne++;
	}
	env[ne++] = key_env;
	/* the seeds nobody may predict: in the judge's environment, which it wipes */
	char secrets_env[sizeof(CUA_SECRETS_ENV) + 48];
	snprintf(secrets_env, sizeof(secrets_env), "%s=%llu,%llu", CUA_SECRETS_ENV,
	         (unsigned long long)o->secret, (unsigned long long)o->recheck);
	env[ne++] = secrets_env;
	env[ne] = NULL;

	struct cua_sandbox_opts so;
	struct cua_child_result r;
	cua_sandbox_opts_init(&so);
	so.timeout_s = o->run_timeout_s;
	so.cpu_s = (long)o->run_timeout_s + 30;
	/* Kernels write no files; only --dump (trusted) writes check-shape tensors. */
	so.fsize_bytes = so_path ? 64L << 20 : 8L << 30;
	so.nofile = 1024;
	/* Counts the user's processes and threads (CUDA starts a few): a ceiling
	 * on fork bombs for non-root users; root is exempt, and fork is a
	 * forbidden symbol anyway. */
	so.nproc = 4096;
	so.channel_fd = CHANNEL_FD;
	so.channel_max = 4 << 20;
	so.capture_max = 64 * 1024;
	so.env = env;
	const char *mode = getenv("CUARENA_JUDGE");
	if (mode && !strcmp(mode, "fresh")) {
		st = cua_sandbox_run(argv, &so, &r, err, errlen);
	} else {
		/* The device's long-lived judge: the same options, the key and the
		 * seeds in the job itself (its environment is the judge's, for all
		 * jobs), no CPU limit (a judge busy-polls through every timing; each
		 * job has its wall-clock limit), room for --dump's files. */
		char job[CUA_JOB_MAX];
		size_t jn = 0;
		const char *items[44];
		int ni = 0;
		char kitem[4 + 65], sec[64];
		memcpy(kitem, "KEY=", 4);
		cua_channel_key_hex(&key, kitem + 4);
		items[ni++] = kitem;
		snprintf(sec, sizeof(sec), "SECRETS=%llu,%llu", (unsigned long long)o->secret,
		         (unsigned long long)o->recheck);
		items[ni++] = sec;
		for (int i = 2; i < n; i++)
			items[ni++] = argv[i];
		for (int i = 0; i < ni; i++) {
			size_t l = strlen(items[i]) + 1;
			if (jn + l > sizeof(job)) {
				cua_errf(err, errlen, "eval: the judge's job is over %zu bytes", sizeof(job));
				return CUA_E_INVALID;
			}
			memcpy(job + jn, items[i], l);
			jn += l;
		}
		env[ne - 2] = NULL;   /* neither the key nor the seeds */
		so.cpu_s = 0;
		so.fsize_bytes = 8L << 30;
		const char *dev = o->gpu ? o->gpu : getenv("CUDA_VISIBLE_DEVICES");
		st = cua_judges_run(o->self_exe, dev ? dev : "", &so, job, jn, o->run_timeout_s,
		                    &key, &r, err, errlen);
		memset(job, 0, sizeof(job));
		memset(kitem, 0, sizeof(kitem));
		memset(sec, 0, sizeof(sec));
	}
	memset(key_env, 0, sizeof(key_env));
	memset(secrets_env, 0, sizeof(secrets_env));
	if (st != CUA_OK)
		return st;
	e->run_s = r.wall_s;
	e->net_isolated = r.net_isolated;
	struct channel_state cs;
	memset(&cs, 0, sizeof(cs));
	cs.key = &key;
	cs.degen = degen;
	if (r.channel)
		take_channel(r.channel, r.channel_len, e, dev, &cs);
	memset(&key, 0, sizeof(key));
	size_t n2 = r.out_len + r.err_len;
	if (n2) {
		char *all = malloc(n2 + 1);
		CUA_ASSERT(all);
		memcpy(all, r.out ? r.out : "", r.out_len);
		memcpy(all + r.out_len, r.err ? r.err : "", r.err_len);
		all[n2] = '\0';
		e->output_tail = cua_trim_text(all, n2, OUTPUT_TAIL_MAX);
		free(all);
	}
	const char *during = cs.last_phase[0] ? cs.last_phase : "start-up";
	if (r.how == CUA_EXIT_TIMEOUT)
		cua_eval_fail(e, CUA_VERDICT_TIMEOUT, "no verdict within %.0f s; killed during %s",
		              o->run_timeout_s, during);
	/* The judge runs none of the kernel's code (that runs in a process of its
	 * own, which the judge judges): a judge that ends without a verdict is the
	 * harness's failure, never the kernel's. */
	else if (!cs.have_result && r.how == CUA_EXIT_SIGNALED)
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR, "the judge died of %s during %s",
		              cua_signal_desc(r.sig), during);
	else if (!cs.have_result)
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR,
		              "the judge exited (status %d) during %s without a verdict", r.code,
		              during);
	/* Whatever the channel said, someone else wrote on it too. */
	if (cs.forged)
		cua_eval_fail(e, CUA_VERDICT_SANDBOX_VIOLATION,
		              "%d line%s on the judge's report channel %s not written by the "
		              "judge (a forged report)", cs.forged, cs.forged == 1 ? "" : "s",
		              cs.forged == 1 ? "was" : "were");
	cua_child_result_free(&r);
	return CUA_OK;
}

/* ---- one kernel -------------------------------------------------------------- */

/* Evaluates one kernel; `pre` (optional) is its build, already made (the
 * report compiles the candidate while the GPU runs the baselines). */
static enum cua_status eval_with(const struct cua_task *t, const char *src_path,
                                 enum cua_subject_kind kind, const char *subject,
                                 const struct cua_eval_opts *o, struct cua_build *pre,
                                 struct cua_eval *e, struct cua_device *dev,
                                 char *err, size_t errlen)
{
	enum cua_status st;
	struct cua_build ref, b, refb;
	char ref_src[4200];
	struct cua_build_opts bo = o->build;

	memset(&ref, 0, sizeof(ref));
	memset(&b, 0, sizeof(b));
	cua_eval_init(e, subject);

	/* The oracle lives in the reference; it must build, whoever is judged. */
	snprintf(ref_src, sizeof(ref_src), "%s/reference.cu", t->dir);
	st = cua_build_so(ref_src, &bo, &ref, err, errlen);
	if (st != CUA_OK)
		goto out;
	if (!ref.ok) {
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR,
		              "the task's reference does not compile:\n%s",
		              ref.log ? ref.log : "");
		goto out;
	}

	if (kind == CUA_SUBJECT_REFERENCE) {
		/* the reference judged as a kernel: its build, already made */
		refb = ref;
		memset(&ref, 0, sizeof(ref));
		snprintf(ref.so_path, sizeof(ref.so_path), "%s", refb.so_path);
		pre = &refb;
	}
	/* Build, static check, SASS precision check: everything decided on the CPU. */
	st = cua_precheck(t, src_path, kind, subject, o, pre, &b, e, err, errlen);
	if (st != CUA_OK || e->verdict != CUA_VERDICT_OK)
		goto out;

	/* The run: a judge in a fresh sandboxed child, the kernel in a jailed process
	 * of the judge's. Only the harness's own kernels run without the kernel
	 * process's system-call filter. The timed samples' answers come from a
	 * trusted kernel: a baseline checks itself; everything else is checked
	 * against the task's first library baseline (fast), else its reference. */
	const char *extra[11];
	int ne = 0;
	extra[ne++] = "--so-sha256";
	extra[ne++] = b.so_sha256;
	extra[ne++] = "--oracle-sha256";
	extra[ne++] = ref.so_sha256[0] ? ref.so_sha256 : b.so_sha256;
	struct cua_build chk;
	memset(&chk, 0, sizeof(chk));
	if (kind != CUA_SUBJECT_CANDIDATE)
		extra[ne++] = "--trusted";
	if (kind == CUA_SUBJECT_BASELINE) {
		extra[ne++] = "--checker";
		extra[ne++] = b.so_path;
		extra[ne++] = "--checker-sha256";
		extra[ne++] = b.so_sha256;
	} else if (t->n_baselines > 0 && o->time) {
		char cpath[4200];
		struct cua_build_opts cbo = o->build;
		struct cua_symcheck_policy cpol;
		cua_baseline_path(o->root, t->baselines[0], cpath, sizeof(cpath));
		cua_subject_libs(t, CUA_SUBJECT_BASELINE, t->baselines[0], &cbo, &cpol);
		if (cua_build_so(cpath, &cbo, &chk, NULL, 0) == CUA_OK && chk.ok) {
			extra[ne++] = "--checker";
			extra[ne++] = chk.so_path;
			extra[ne++] = "--checker-sha256";
			extra[ne++] = chk.so_sha256;
		}
	}
	extra[ne] = NULL;
	st = run_child(t, b.so_path, ref.so_path, subject, o, extra, e, dev, NULL, err,
	               errlen);
	cua_build_free(&chk);
	if (st != CUA_OK)
		goto out;
	apply_sol(t, o->ceilings, e);
	st = CUA_OK;
out:
	cua_build_free(&ref);
	cua_build_free(&b);
	return st;
}

enum cua_status cua_eval_source(const struct cua_task *t, const char *src_path,
                                enum cua_subject_kind kind, const char *subject,
                                const struct cua_eval_opts *o, struct cua_eval *e,
                                struct cua_device *dev, char *err, size_t errlen)
{
	return eval_with(t, src_path, kind, subject, o, NULL, e, dev, err, errlen);
}

enum cua_status cua_eval_degeneracy(const struct cua_task *t,
                                    const struct cua_eval_opts *o,
                                    const char *dump_dir, struct cua_eval *e,
                                    struct cua_degeneracy *d, struct cua_device *dev,
                                    char *err, size_t errlen)
{
	struct cua_build ref;
	char ref_src[4200], dump_abs[4200];
	enum cua_status st;
	const char *extra[6] = {"--degeneracy", NULL, NULL, NULL, NULL, NULL};

	cua_eval_init(e, "degeneracy");
	if (d)
		memset(d, 0, sizeof(*d));
	snprintf(ref_src, sizeof(ref_src), "%s/reference.cu", t->dir);
	st = cua_build_so(ref_src, &o->build, &ref, err, errlen);
	if (st != CUA_OK)
		return st;
	if (!ref.ok) {
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR,
		              "the task's reference does not compile:\n%s",
		              ref.log ? ref.log : "");
		cua_build_free(&ref);
		return CUA_OK;
	}
	if (dump_dir) {
		/* the child runs in a private temp dir: give it an absolute path */
		if (dump_dir[0] != '/') {
			char cwd[4096];
			if (!getcwd(cwd, sizeof(cwd)))
				cwd[0] = '\0';
			snprintf(dump_abs, sizeof(dump_abs), "%.2000s/%.2000s", cwd, dump_dir);
		} else
			snprintf(dump_abs, sizeof(dump_abs), "%s", dump_dir);
		extra[1] = "--dump";
		extra[2] = dump_abs;
	}
	int k = dump_dir ? 3 : 1;
	extra[k++] = "--oracle-sha256";
	extra[k++] = ref.so_sha256;
	st = run_child(t, NULL, ref.so_path, "degeneracy", o, extra, e, dev, d, err,
	               errlen);
	cua_build_free(&ref);
	return st;
}

enum cua_status cua_build_candidate(const struct cua_task *t, const char *src_path,
                                    const struct cua_eval_opts *o, struct cua_build *b,
                                    char *err, size_t errlen)
{
	struct cua_build_opts bo = o->build;
	struct cua_symcheck_policy pol;
	cua_subject_libs(t, CUA_SUBJECT_CANDIDATE, "candidate", &bo, &pol);
	enum cua_status st = cua_build_so(src_path, &bo, b, err, errlen);
	if (st == CUA_OK)
		cua_precheck_warm(b, bo.nvcc);   /* the SASS scan, before any GPU lock */
	return st;
}

enum cua_status cua_eval_built(const struct cua_task *t, const char *src_path,
                               const struct cua_eval_opts *o, struct cua_build *b,
                               struct cua_eval *e, struct cua_device *dev, char *err,
                               size_t errlen)
{
	return eval_with(t, src_path, CUA_SUBJECT_CANDIDATE, "candidate", o, b, e, dev, err,
	                 errlen);
}

enum cua_status cua_prebuild_baselines(const struct cua_task *t,
                                       const struct cua_eval_opts *o, int *built,
                                       char *err, size_t errlen)
{
	char path[4200];
	*built = 0;
	for (int i = -1; i < t->n_baselines; i++) {
		/* i = -1: the reference, with the options eval_with builds it with */
		struct cua_build_opts bo = o->build;
		struct cua_symcheck_policy pol;
		struct cua_build b;
		if (i < 0)
			snprintf(path, sizeof(path), "%s/reference.cu", t->dir);
		else {
			cua_baseline_path(o->root, t->baselines[i], path, sizeof(path));
			cua_subject_libs(t, CUA_SUBJECT_BASELINE, t->baselines[i], &bo, &pol);
		}
		enum cua_status st = cua_build_so(path, &bo, &b, err, errlen);
		if (st != CUA_OK)
			return st;
		if (i < 0)
			cua_precheck_warm(&b, bo.nvcc);   /* the reference's SASS is checked too */
		*built += !b.cached;
		cua_build_free(&b);
	}
	return CUA_OK;
}

const struct cua_eval *cua_report_best_library(const struct cua_report *r)
{
	const struct cua_eval *best = NULL;
	for (int i = 1; i < r->n_base; i++) {
		const struct cua_eval *b = &r->base[i];
		if (b->imported || b->verdict != CUA_VERDICT_OK || !b->timing.done)
			continue;
		if (!best || cua_timing_stats(&b->timing)->median <
		                 cua_timing_stats(&best->timing)->median)
			best = b;
	}
	return best;
}

double cua_speedup(const struct cua_eval *baseline, const struct cua_eval *cand)
{
	if (baseline->verdict != CUA_VERDICT_OK || cand->verdict != CUA_VERDICT_OK ||
	    !baseline->timing.done || !cand->timing.done ||
	    cua_timing_stats(&cand->timing)->median <= 0)
		return 0;
	return cua_timing_stats(&baseline->timing)->median /
	       cua_timing_stats(&cand->timing)->median;
}

struct cand_build {
	pthread_t thread;
	const char *src;
	struct cua_build_opts bo;
	struct cua_build b;
	enum cua_status st;
	char err[CUA_ERR_LEN];
};

static void *build_thread(void *arg)
{
	struct cand_build *cb = arg;
	cb->st = cua_build_so(cb->src, &cb->bo, &cb->b, cb->err, sizeof(cb->err));
	if (cb->st == CUA_OK)
		cua_precheck_warm(&cb->b, cb->bo.nvcc);   /* while the GPU runs the baselines */
	return NULL;
}

enum cua_status cua_report_run(const struct cua_task *t, const char *src_path,
                               const struct cua_eval_opts *o, struct cua_report *r,
                               char *err, size_t errlen)
{
	enum cua_status st;
	char path[4200];

	memset(r, 0, sizeof(*r));
	r->task = t;
	/* nvcc works on the CPU while the GPU times the baselines. */
	struct cand_build cb;
	memset(&cb, 0, sizeof(cb));
	bool threaded = false;
	if (src_path) {
		struct cua_symcheck_policy pol;
		cb.src = src_path;
		cb.bo = o->build;
		cua_subject_libs(t, CUA_SUBJECT_CANDIDATE, "candidate", &cb.bo, &pol);
		threaded = pthread_create(&cb.thread, NULL, build_thread, &cb) == 0;
	}
	st = cua_eval_source(t, NULL, CUA_SUBJECT_REFERENCE, "nvcc", o, &r->base[0],
	                     &r->device, err, errlen);
	if (st != CUA_OK)
		goto out;
	r->n_base = 1;
	/* Ceilings are per GPU model: known once the first child has seen the GPU. */
	struct cua_eval_opts oo = *o;
	struct cua_ceilings ceil;
	if (!oo.ceilings && r->device.known &&
	    cua_ceilings_load(o->root, r->device.name, &ceil, NULL, 0) == CUA_OK) {
		oo.ceilings = &ceil;
		apply_sol(t, oo.ceilings, &r->base[0]);
	}
	o = &oo;
	for (int i = 0; i < t->n_baselines; i++) {
		cua_baseline_path(o->root, t->baselines[i], path, sizeof(path));
		st = cua_eval_source(t, path, CUA_SUBJECT_BASELINE, t->baselines[i], o,
		                     &r->base[r->n_base], &r->device, err, errlen);
		if (st != CUA_OK)
			goto out;
		r->n_base++;
	}
	if (r->device.known)
		cua_report_import_torch(o->root, r->device.name, r);
	if (src_path) {
		if (threaded) {
			pthread_join(cb.thread, NULL);
			threaded = false;
		} else
			build_thread(&cb);
		if (cb.st != CUA_OK) {
			st = cb.st;
			cua_errf(err, errlen, "%s", cb.err);
			goto out;
		}
		r->has_candidate = true;
		st = eval_with(t, src_path, CUA_SUBJECT_CANDIDATE, "candidate", o, &cb.b,
		               &r->candidate, &r->device, err, errlen);
	}
out:
	if (threaded)
		pthread_join(cb.thread, NULL);
	cua_build_free(&cb.b);
	return st;
}

void cua_report_free(struct cua_report *r)
{
	if (!r)
		return;
	cua_eval_clear(&r->candidate);
	for (int i = 0; i < r->n_base; i++)
		cua_eval_clear(&r->base[i]);
}

cJSON *cua_device_to_json(const struct cua_device *d)
{
	cJSON *o = cJSON_CreateObject();
	if (!d->known)
		return o;
	cJSON_AddStringToObject(o, "name", d->name);
	cJSON_AddNumberToObject(o, "cc_major", d->cc_major);
	cJSON_AddNumberToObject(o, "cc_minor", d->cc_minor);
	cJSON_AddNumberToObject(o, "sms", d->sms);
	cJSON_AddNumberToObject(o, "l2_bytes", d->l2_bytes);
	cJSON_AddNumberToObject(o, "mem_bytes", d->mem_bytes);
	cJSON_AddStringToObject(o, "driver_version", d->driver_version);
	cJSON_AddNumberToObject(o, "driver", d->driver);
	cJSON_AddNumberToObject(o, "runtime", d->runtime);
	return o;
}

void cua_device_from_json(const cJSON *o, struct cua_device *d)
{
	memset(d, 0, sizeof(*d));
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	if (!cJSON_IsString(name) || !name->valuestring[0])
		return;
	d->known = true;
	snprintf(d->name, sizeof(d->name), "%s", name->valuestring);
	const cJSON *dv = cJSON_GetObjectItemCaseSensitive(o, "driver_version");
	if (cJSON_IsString(dv))
		snprintf(d->driver_version, sizeof(d->driver_version), "%s", dv->valuestring);
	static const struct { const char *key; size_t at; } ints[] = {
		{"cc_major", offsetof(struct cua_device, cc_major)},
		{"cc_minor", offsetof(struct cua_device, cc_minor)},
		{"sms", offsetof(struct cua_device, sms)},
		{"driver", offsetof(struct cua_device, driver)},
		{"runtime", offsetof(struct cua_device, runtime)},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(ints); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, ints[i].key);
		if (cJSON_IsNumber(v))
			*(int *)((char *)d + ints[i].at) = cua_to_int(v->valuedouble);
	}
	const cJSON *l2 = cJSON_GetObjectItemCaseSensitive(o, "l2_bytes");
	const cJSON *mem = cJSON_GetObjectItemCaseSensitive(o, "mem_bytes");
	d->l2_bytes = cJSON_IsNumber(l2) && l2->valuedouble > 0 ? l2->valuedouble : 0;
	d->mem_bytes = cJSON_IsNumber(mem) && mem->valuedouble > 0 ? mem->valuedouble : 0;
}

cJSON *cua_report_to_json(const struct cua_report *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "task", r->task->id);
	cJSON_AddStringToObject(o, "precision", cua_precision_name(r->task->precision));
	cJSON_AddItemToObject(o, "device", cua_device_to_json(&r->device));
	if (r->has_candidate) {
		cJSON *c = cua_eval_to_json(&r->candidate);
		cJSON *sp = cJSON_AddObjectToObject(c, "speedup");
		for (int i = 0; i < r->n_base; i++) {
			double s = cua_speedup(&r->base[i], &r->candidate);
			if (s > 0)
				cJSON_AddNumberToObject(sp, r->base[i].subject, s);
			else
				cJSON_AddNullToObject(sp, r->base[i].subject);
		}
		cJSON_AddItemToObject(o, "candidate", c);
	}
	cJSON *bs = cJSON_AddArrayToObject(o, "baselines");
	for (int i = 0; i < r->n_base; i++)
		cJSON_AddItemToArray(bs, cua_eval_to_json(&r->base[i]));
	return o;
}

static void gpu_file_name(const char *gpu, char *name, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; gpu[i] && j + 1 < len; i++) {
		char c = gpu[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '_';
		name[j++] = ok ? c : '-';
	}
	name[j] = '\0';
}

void cua_report_import_torch(const char *root, const char *gpu, struct cua_report *r)
{
	char name[128], path[4300], *buf = NULL;
	size_t len = 0;
	static const char *const keys[][2] = {{"eager_ms", "torch-eager"},
	                                      {"compile_ms", "torch-compile"}};

	gpu_file_name(gpu, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/baselines/torch/%s.json", root, name);
	if (cua_read_file(path, 16 << 20, &buf, &len, NULL, 0) != CUA_OK)
		return;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "tasks"), r->task->id);
	const char *ver = str(j, "torch");
	for (size_t k = 0; k < CUA_ARRAY_LEN(keys); k++) {
		double ms = num(task, keys[k][0]);
		if (!(ms > 0) || r->n_base >= (int)CUA_ARRAY_LEN(r->base))
			continue;
		struct cua_eval *e = &r->base[r->n_base++];
		cua_eval_init(e, keys[k][1]);
		e->imported = true;
		snprintf(e->message, sizeof(e->message), "imported from baselines/torch/%.100s.json "
		         "(torch %.40s)", name, ver);
		e->timing.done = true;
		e->timing.event_ms.n = cua_to_int(num(task, "samples"));
		e->timing.event_ms.median = ms;
	}
	cJSON_Delete(j);
}

void cua_ceilings_path(const char *root, const char *gpu, char *buf, size_t len)
{
	char name[128];
	gpu_file_name(gpu, name, sizeof(name));
	snprintf(buf, len, "%s/results/device/%s.json", root, name);
}

enum cua_status cua_ceilings_load(const char *root, const char *gpu,
                                  struct cua_ceilings *c, char *err, size_t errlen)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	enum cua_status st;

	memset(c, 0, sizeof(*c));
	cua_ceilings_path(root, gpu, path, sizeof(path));
	st = cua_read_file(path, 1 << 20, &buf, &len, err, errlen);
	if (st != CUA_OK)
		return st;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	const cJSON *m = j ? cJSON_GetObjectItem(j, "ceilings") : NULL;
	if (!cJSON_IsObject(m)) {
		cua_errf(err, errlen, "%s: no \"ceilings\" object", path);
		cJSON_Delete(j);
		return CUA_E_PARSE;
	}
	snprintf(c->gpu, sizeof(c->gpu), "%s", gpu);
	c->copy_gbs = num(m, "copy_gbs");
	c->ffma_tflops = num(m, "ffma_peak_tflops");
	c->sgemm_fp32_tflops = num(m, "sgemm_fp32_tflops");
	c->sgemm_tf32_tflops = num(m, "sgemm_tf32_tflops");
	c->gemm_bf16_tflops = num(m, "gemm_bf16_tflops");
	c->known = c->copy_gbs > 0 && c->ffma_tflops > 0;
	if (!c->known)
		cua_errf(err, errlen, "%s: ceilings are missing or not positive", path);
	cJSON_Delete(j);
	return c->known ? CUA_OK : CUA_E_PARSE;
}
