/* eval.c — one kernel on one task: build, static check, sandboxed run, verdict. */
#include "eval/eval.h"
#include "judge/channel.h"
#include "judge/judges.h"
#include "judge/runner.h"
#include "eval/precheck.h"
#include "sandbox.h"
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
}

void cua_baseline_path(const char *root, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/baselines/%s.cu", root, name);
}

/* ---- reading the child's report ------------------------------------------- */

struct channel_state {
	const struct cua_channel_key *key;
	uint64_t seq;         /* lines verified so far */
	int forged;           /* complete lines that did not verify */
	bool have_result;
	char last_phase[256];
	struct cua_degeneracy *degen;   /* optional */
	char bad[CUA_ERR_LEN];          /* the first event its codec refused ("" if none) */
};

/* The judge's events are read with the same codecs as evals.jsonl: one it wrote
 * that they refuse is the harness's fault, and says which. */
static void bad_event(struct channel_state *cs, const char *kind, const char *err)
{
	if (!cs->bad[0])
		snprintf(cs->bad, sizeof(cs->bad), "the judge's %.16s event: %.900s", kind, err);
}

static void take_event(const cJSON *ev, struct cua_eval *e, struct cua_device *dev,
                       struct channel_state *cs)
{
	const char *kind = cua_json_str(ev, "event");
	char err[CUA_ERR_LEN];

	if (!strcmp(kind, "device") && dev) {
		cua_device_from_json(ev, dev);
	} else if (!strcmp(kind, "profile")) {
		snprintf(e->profile, sizeof(e->profile), "%s", cua_json_str(ev, "what"));
	} else if (!strcmp(kind, "jail")) {
		snprintf(e->jail, sizeof(e->jail), "%s", cua_json_str(ev, "what"));
	} else if (!strcmp(kind, "phase")) {
		snprintf(cs->last_phase, sizeof(cs->last_phase), "%s", cua_json_str(ev, "what"));
	} else if (!strcmp(kind, "case") && e->n_cases < CUA_MAX_CASES) {
		if (cua_case_from_json(ev, &e->cases[e->n_cases++], err, sizeof(err)) != CUA_OK)
			bad_event(cs, kind, err);
	} else if (!strcmp(kind, "timing")) {
		if (cua_timing_from_json(ev, &e->timing, err, sizeof(err)) != CUA_OK)
			bad_event(cs, kind, err);
	} else if (!strcmp(kind, "degeneracy") && cs->degen &&
	           cs->degen->n < CUA_MAX_DEGEN) {
		struct cua_degeneracy *d = cs->degen;
		snprintf(d->c[d->n].shape, sizeof(d->c[0].shape), "%s", cua_json_str(ev, "shape"));
		snprintf(d->c[d->n].check, sizeof(d->c[0].check), "%s", cua_json_str(ev, "check"));
		snprintf(d->c[d->n].output, sizeof(d->c[0].output), "%s", cua_json_str(ev, "output"));
		d->c[d->n].differ = cua_json_num(ev, "differ");
		d->c[d->n].n = cua_json_num(ev, "n");
		d->c[d->n].ok = cJSON_IsTrue(cJSON_GetObjectItem(ev, "ok"));
		d->n++;
	} else if (!strcmp(kind, "checked")) {
		e->check_s = cua_json_num(ev, "seconds");
	} else if (!strcmp(kind, "timed")) {
		e->timing_s = cua_json_num(ev, "seconds");
	} else if (!strcmp(kind, "result") && !cs->have_result) {
		cs->have_result = true;
		enum cua_verdict v;
		if (!cua_verdict_parse(cua_json_str(ev, "verdict"), &v))
			v = CUA_VERDICT_HARNESS_ERROR;
		e->verdict = v;
		snprintf(e->message, sizeof(e->message), "%s", cua_json_str(ev, "message"));
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

/* The serving judge's file-size limit: room for --dump's files (each job's own
 * limit is set at the judge's start, once for all its jobs). */
#define SERVING_FSIZE (8L << 30)

/* Runs `cuarena __judge` on one task in the sandbox and reads its report into
 * e (and dev, degen when given). so may be NULL for the oracle-only modes named
 * in extra (NULL-terminated extra arguments); file_max: the largest file the job
 * writes (--dump), 0 for none. A child that dies before its
 * result line is judged from how it ended and the last phase it announced. */
static enum cua_status run_child(const struct cua_task *t, const char *so_path,
                                 const char *oracle_so, const char *subject,
                                 const struct cua_eval_opts *o, const char *const *extra,
                                 int64_t file_max, struct cua_eval *e, struct cua_device *dev,
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
	env[ne] = NULL;

	struct cua_sandbox_opts so;
	struct cua_child_result r;
	cua_sandbox_opts_init(&so);
	so.timeout_s = o->run_timeout_s;
	so.cpu_s = (long)o->run_timeout_s + 30;
	/* Kernels write no files; the judge stages the kernel's object (at most
	 * CUA_OBJECT_MAX, the build's own limit: an object the build let through
	 * never exceeds the judge's) and --dump (trusted) writes check-shape tensors. */
	so.fsize_bytes = so_path ? (long)CUA_OBJECT_MAX + (64L << 20) : SERVING_FSIZE;
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
	/* A file over the serving judge's file-size limit (--dump writes each tensor
	 * as one: L3/002's params are 8.6 GB, and it died of SIGXFSZ) is written by a
	 * judge of its own, whose limit is that file. */
	const long want = file_max > 0 ? (long)file_max + (64L << 20) : 0;
	if (want > so.fsize_bytes)
		so.fsize_bytes = want;
	if ((mode && !strcmp(mode, "fresh")) || want > SERVING_FSIZE) {
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
		char kitem[4 + 65];
		memcpy(kitem, "KEY=", 4);
		cua_channel_key_hex(&key, kitem + 4);
		items[ni++] = kitem;
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
		env[ne - 1] = NULL;   /* not the key */
		so.cpu_s = 0;
		so.fsize_bytes = SERVING_FSIZE;
		const char *dev = o->gpu ? o->gpu : getenv("CUDA_VISIBLE_DEVICES");
		st = cua_judges_run(o->self_exe, dev ? dev : "", &so, job, jn, o->run_timeout_s,
		                    &key, &r, err, errlen);
		memset(job, 0, sizeof(job));
		memset(kitem, 0, sizeof(kitem));
	}
	memset(key_env, 0, sizeof(key_env));
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
	if (r.how == CUA_CHILD_TIMEOUT)
		cua_eval_fail(e, CUA_VERDICT_TIMEOUT, "no verdict within %.0f s; killed during %s",
		              o->run_timeout_s, during);
	/* The judge runs none of the kernel's code (that runs in a process of its
	 * own, which the judge judges): a judge that ends without a verdict is the
	 * harness's failure, never the kernel's. */
	else if (!cs.have_result && r.how == CUA_CHILD_SIGNALED)
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR, "the judge died of %s during %s",
		              cua_signal_desc(r.sig), during);
	else if (!cs.have_result)
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR,
		              "the judge exited (status %d) during %s without a verdict", r.code,
		              during);
	else if (cs.bad[0])
		cua_eval_fail(e, CUA_VERDICT_HARNESS_ERROR, "%s", cs.bad);
	/* Whatever the channel said, someone else wrote on it too. */
	if (cs.forged)
		cua_eval_fail(e, CUA_VERDICT_SANDBOX_VIOLATION,
		              "%d line%s on the judge's report channel %s not written by the "
		              "judge (a forged report)", cs.forged, cs.forged == 1 ? "" : "s",
		              cs.forged == 1 ? "was" : "were");
	cua_child_result_clear(&r);
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
	char ref_src[CUA_PATH_BUF];
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
		char cpath[CUA_PATH_BUF];
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
	st = run_child(t, b.so_path, ref.so_path, subject, o, extra, 0, e, dev, NULL, err,
	               errlen);
	cua_build_clear(&chk);
	if (st != CUA_OK)
		goto out;
	/* Wrong values in a strict task, and the machine code says why: the verdict
	 * names the tensor-core or half instruction (what forbidden_instruction has
	 * always meant), decided now by the values rather than before the run. */
	if (e->verdict == CUA_VERDICT_WRONG_OUTPUT && e->sass_note[0] &&
	    t->precision == CUA_PREC_FP32_STRICT) {
		char msg[CUA_MSG_LEN];
		snprintf(msg, sizeof(msg), "%.400s, and the outputs are not fp32-accurate: %.560s",
		         e->sass_note, e->message);
		e->verdict = CUA_VERDICT_FORBIDDEN_INSTRUCTION;
		snprintf(e->message, sizeof(e->message), "%s", msg);
	}
	cua_sol_apply(t, o->ceilings, e);
	st = CUA_OK;
out:
	cua_build_clear(&ref);
	cua_build_clear(&b);
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
	char ref_src[CUA_PATH_BUF], dump_abs[CUA_PATH_BUF];
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
		cua_build_clear(&ref);
		return CUA_OK;
	}
	if (dump_dir) {
		/* the child runs in a private temp dir: give it an absolute path */
		if (dump_dir[0] != '/') {
			char cwd[CUA_PATH_LEN];
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
	st = run_child(t, NULL, ref.so_path, "degeneracy", o, extra,
	               dump_dir ? cua_task_dump_file_max(t) : 0, e, dev, d, err, errlen);
	cua_build_clear(&ref);
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
	char path[CUA_PATH_BUF];
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
		cua_build_clear(&b);
	}
	return CUA_OK;
}

