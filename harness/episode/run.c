/* run.c — the run engine: worker threads each drive one episode at a time; builds
 * overlap, GPU evaluations take a lock; every line of results is appended and
 * fsynced as soon as it exists, so a killed run keeps what it measured. */
#include "episode/run.h"
#include "episode/resume.h"
#include "catalogue/catalogue.h"
#include "catalogue/prompts.h"
#include "results/prior.h"
#include "results/writer.h"
#include "episode/shard.h"
#include "judge/bstore.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

static volatile sig_atomic_t interrupted;

void cua_run_interrupt(void)
{
	interrupted = 1;
}

static void on_sigint(int sig)
{
	(void)sig;
	if (interrupted)
		_exit(130);   /* a second Ctrl-C: leave now */
	interrupted = 1;
}

void cua_run_opts_init(struct cua_run_opts *o, const char *root, const char *self_exe,
                       const char *cache_dir)
{
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->turns = 8;
	o->reward = CUA_REWARD_CUDA_AGENT;
	o->jobs = cua_cpus();
	o->require_gpu = true;
	cua_eval_opts_init(&o->eval, root, self_exe, cache_dir);
}

int cua_run_parse_gpus(const char *list, char names[][64], char *err, size_t errlen)
{
	int n = 0;
	const char *p = list;
	if (!list || !*list) {
		cua_errf(err, errlen, "--gpus: an empty list (give device numbers like 0,1)");
		return -1;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= 64) {
			cua_errf(err, errlen, "--gpus: '%s': %s device", list,
			         len ? "a too long" : "an empty");
			return -1;
		}
		for (size_t i = 0; i < len; i++) {
			char c = p[i];
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			      (c >= 'A' && c <= 'Z') || c == '-')) {
				cua_errf(err, errlen, "--gpus: '%s': '%c' is not allowed in a device "
				         "(numbers or GPU-UUIDs, comma-separated)", list, c);
				return -1;
			}
		}
		if (n == CUA_MAX_GPUS) {
			cua_errf(err, errlen, "--gpus: more than %d devices", CUA_MAX_GPUS);
			return -1;
		}
		memcpy(names[n], p, len);
		names[n][len] = '\0';
		for (int k = 0; k < n; k++)
			if (!strcmp(names[k], names[n])) {
				cua_errf(err, errlen, "--gpus: device %s is listed twice", names[n]);
				return -1;
			}
		n++;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

/* ---- the shared state of a run ------------------------------------------------ */

struct run {
	const struct cua_run_opts *o;
	const struct cua_task **tasks;
	int n_tasks, next;
	pthread_mutex_t lock;               /* next, counters, progress */
	int n_gpus;                         /* >= 1 */
	char gpu_name[CUA_MAX_GPUS][64];    /* "" = the device this process sees */
	pthread_mutex_t gpu[CUA_MAX_GPUS];  /* one evaluation at a time on each */
	void *agent;
	struct cua_writer *w;               /* the folder's one writer */
	bool write_failed;                  /* a line or run.json could not be written:
	                                     * the run stops, nothing more is written */
	char write_err[CUA_ERR_LEN];
	struct cua_device device;
	int done, correct, evaluations, in_flight;   /* evaluations: all the run kept */
	int agent_failed;                   /* episodes of this invocation that ended
	                                     * because the agent failed */
	/* This invocation is one segment of the run (a resumed run has several):
	 * its evaluations, GPU time and wall time, recorded in run.json's
	 * "segments" after every evaluation, so a killed one still counts. */
	int seg_evals;
	double t0, gpu_busy, cand_busy;                /* cand_busy: candidates' share */
	struct cua_prior_segments before;              /* earlier segments' sums */
	double max_time_s;                             /* timing cap, run.json's */
	char started[64];                              /* when this segment began */
	bool tty;
	char run_dir[CUA_PATH_LEN];
	struct cua_resume_task *prior;      /* per task, when resuming */
};

static void progress(struct run *r, const char *line)
{
	pthread_mutex_lock(&r->lock);
	double el = cua_now() - r->t0;
	if (r->tty) {
		int width = 30, fill = r->n_tasks ? r->done * width / r->n_tasks : width;
		double eta = r->done ? el / r->done * (r->n_tasks - r->done) : 0;
		fprintf(stderr, "\r[%.*s%.*s] %d/%d tasks, pass %d%%, %d evals, ETA %.0f s   ",
		        fill, "##############################", width - fill,
		        "..............................", r->done, r->n_tasks,
		        r->done ? 100 * r->correct / r->done : 0, r->evaluations, eta);
		if (r->done == r->n_tasks)
			fputc('\n', stderr);
	} else if (line)
		fprintf(stderr, "[%6.1f s] %s\n", el, line);
	pthread_mutex_unlock(&r->lock);
}

/* A write that failed: the run stops (as on Ctrl-C) and writes nothing more, so
 * its files end at their last whole line and a resume goes on from there. The
 * first failure is the run's error. */
static void write_failed(struct run *r, const char *why)
{
	pthread_mutex_lock(&r->lock);
	if (!r->write_failed) {
		r->write_failed = true;
		snprintf(r->write_err, sizeof(r->write_err), "%s", why);
		fprintf(stderr, "cuarena run: %s: stopping (--resume goes on from the last whole "
		        "line)\n", why);
	}
	interrupted = 1;
	pthread_mutex_unlock(&r->lock);
}

/* Whether lines may still be written; false after a failed write. */
static bool writing(struct run *r)
{
	pthread_mutex_lock(&r->lock);
	bool ok = !r->write_failed;
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* What this invocation's baseline store did so far (off: no store). */
static void store_record(struct cua_bstore *s, struct cua_run_store *out)
{
	memset(out, 0, sizeof(*out));
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	*out = (struct cua_run_store){
		.on = true, .fresh = s->fresh, .measured = s->measured, .reused = s->reused,
		.stored = s->stored, .drift_passed = s->drift_passed,
		.drift_drifted = s->drift_drifted,
	};
	pthread_mutex_unlock(&s->lock);
}

/* Brings this segment's record up to date and rewrites run.json (with the
 * summary, at the end). Holds r->lock while workers run. */
static void checkpoint(struct run *r, const struct cua_run_summary *sum)
{
	char err[CUA_ERR_LEN];
	struct cua_run_store store;
	store_record(r->o->eval.bstore, &store);
	struct cua_run_segment seg = {
		.started = r->started, .gpus = r->n_gpus, .wall_s = cua_now() - r->t0,
		.evaluations = r->seg_evals, .gpu_busy_s = r->gpu_busy,
		.candidate_gpu_s = r->cand_busy, .interrupted = interrupted != 0,
		.store = &store,
	};
	cua_writer_run_segment(r->w, &seg);
	cua_writer_run_device(r->w, &r->device);
	if (sum) {
		struct cua_run_totals t = {
			.tasks_done = sum->tasks_done, .tasks_correct = sum->tasks_correct,
			.evaluations = sum->evaluations, .wall_s = sum->wall_s,
			.gpu_busy_s = sum->gpu_busy_s, .gpu_s = sum->gpu_s,
			.candidate_gpu_s = sum->candidate_gpu_s, .segments = sum->segments,
			.gpus = sum->gpus, .elapsed_s = -1, .interrupted = sum->interrupted,
		};
		cua_writer_run_summary(r->w, &t);
	}
	/* a whole-file rewrite: tried even after a line failed (it is the run's tally) */
	if (cua_writer_run_save(r->w, err, sizeof(err)) != CUA_OK && !r->write_failed) {
		/* r->lock is held: write_failed's work, inline */
		r->write_failed = true;
		snprintf(r->write_err, sizeof(r->write_err), "%s", err);
		fprintf(stderr, "cuarena run: %s: stopping (--resume goes on from the last whole "
		        "line)\n", err);
		interrupted = 1;
	}
}

/* Measures the task's baselines once (holding the GPU) and records them. */
static enum cua_status measure_baselines(struct run *r, const struct cua_task *t, int slot,
                                         const struct cua_eval_opts *eo,
                                         struct cua_report *rep, char *err,
                                         size_t errlen)
{
	/* nvcc on the CPU first: the GPU is not held while baselines compile (a
	 * failure here is left to the measurement, which reports it). Ctrl-C kills
	 * these builds: on the H200 a run otherwise waited 14.7 s for them. */
	int built;
	char ignored[CUA_ERR_LEN];
	struct cua_eval_opts po = *eo;
	po.build.stop = &interrupted;
	cua_prebuild_baselines(t, &po, &built, ignored, sizeof(ignored));
	if (cua_gpu_lock(&r->gpu[slot], &interrupted) != CUA_OK) {
		cua_errf(err, errlen, "interrupted before the baselines of %s were measured",
		         t->id);
		return CUA_E_INTERRUPTED;
	}
	double g0 = cua_now();
	enum cua_status st = cua_report_run(t, NULL, eo, rep, err, errlen);
	double busy = cua_now() - g0;
	pthread_mutex_unlock(&r->gpu[slot]);
	pthread_mutex_lock(&r->lock);
	r->gpu_busy += busy;
	if (rep->device.known && !r->device.known)
		r->device = rep->device;   /* written now: a run cut short names its GPU */
	checkpoint(r, NULL);
	pthread_mutex_unlock(&r->lock);
	if (st == CUA_OK && interrupted) {
		/* asked to stop while measuring: under Slurm the signal reached the
		 * judge too, so these figures may be of a killed process; a resume
		 * measures them again */
		cua_errf(err, errlen, "interrupted while the baselines of %s were measured", t->id);
		st = CUA_E_INTERRUPTED;
	}
	if (st != CUA_OK)
		return st;
	for (int i = 0; i < rep->n_base; i++)
		if (!writing(r) ||
		    cua_writer_baseline(r->w, t, &rep->base[i], eo->gpu, &rep->origin[i], err,
		                        errlen) != CUA_OK) {
			if (writing(r))
				write_failed(r, err);
			cua_errf(err, errlen, "interrupted: the baselines of %s could not be written",
			         t->id);
			return CUA_E_INTERRUPTED;
		}
	return CUA_OK;
}

/* A trajectory's end line (when lines may still be written). */
static void write_end(struct run *r, const char *task, int turns, const char *reason,
                      int best_turn, const double *rewards)
{
	char err[CUA_ERR_LEN];
	struct cua_end_line l = {.task = task, .turns = turns, .reason = reason,
	                         .best_turn = best_turn, .rewards = rewards};
	if (writing(r) && cua_writer_end(r->w, &l, err, sizeof(err)) != CUA_OK)
		write_failed(r, err);
}

/* A trajectory's turn line; false when it could not be written. */
static bool write_turn(struct run *r, const struct cua_task *t, const struct cua_step *step,
                       const char *prompt_sha, const char *observation,
                       const struct cua_action *act, bool recovered)
{
	char err[CUA_ERR_LEN];
	/* the agent's words and code as valid UTF-8 (the source's own bytes are on
	 * disk, and code_sha256 is theirs) */
	char *reply = act->reply ? cua_utf8_clean(act->reply, strlen(act->reply), NULL) : NULL;
	char *code = act->code ? cua_utf8_clean(act->code, strlen(act->code), NULL) : NULL;
	struct cua_turn_line l = {
		.task = t->id, .turn = step->turn, .prompt_sha256 = prompt_sha,
		.observation = observation, .reply = reply, .code = code,
		.verdict = step->eval.verdict, .reward = step->reward, .agent = !recovered,
		.prompt_tokens = act->prompt_tokens, .completion_tokens = act->completion_tokens,
		.latency_s = act->latency_s, .recovered = recovered,
	};
	bool ok = writing(r);
	if (ok && cua_writer_turn(r->w, &l, err, sizeof(err)) != CUA_OK) {
		write_failed(r, err);
		ok = false;
	}
	free(reply);
	free(code);
	return ok;
}

/* Restores what a killed run left for a task; returns how many steps of its
 * episode were already evaluated (0 when nothing). */
static int restore_prior(struct run *r, const struct cua_task *t, struct cua_episode *ep,
                         struct cua_resume_task *p)
{
	cua_episode_restore(ep, p->steps, p->n_steps);
	for (int i = 0; i < p->n_steps; i++) {
		int k = p->steps[i].turn;
		if (k < 1 || k > CUA_MAX_TURNS || p->have_traj[k])
			continue;
		/* killed between the eval line and the turn line: the source is on disk */
		struct cua_action act;
		memset(&act, 0, sizeof(act));
		char path[CUA_PATH_BUF];
		snprintf(path, sizeof(path), "%s/turn-%d.cu", ep->workdir, k);
		size_t len = 0;
		if (cua_read_file(path, 1 << 20, &act.code, &len, NULL, 0) != CUA_OK)
			act.code = NULL;
		write_turn(r, t, &p->steps[i], "", "", &act, true);
		cua_action_clear(&act);
	}
	return p->n_steps;
}

/* One episode of one task, start to end. */
static void run_episode(struct run *r, const struct cua_task *t, int slot,
                        struct cua_resume_task *p)
{
	const struct cua_agent_i *ai = r->o->agent;
	char err[CUA_ERR_LEN], reason[512] = "", workdir[CUA_PATH_BUF];
	struct cua_report base;
	struct cua_episode ep;
	void *aep = NULL;
	enum cua_status st;

	memset(&ep, 0, sizeof(ep));
	memset(&base, 0, sizeof(base));
	/* this task's baselines and candidates all run on one device */
	struct cua_eval_opts eo = r->o->eval;
	eo.max_time_s = r->max_time_s;      /* the run's own, also when resumed */
	if (r->gpu_name[slot][0])
		eo.gpu = r->gpu_name[slot];
	if (p && p->ended) {
		/* finished before the restart: nothing to do, nothing repeated */
		pthread_mutex_lock(&r->lock);
		r->done++;
		r->correct += p->best_turn > 0;
		pthread_mutex_unlock(&r->lock);
		return;
	}
	bool measured = false;
	if (p && p->have_base) {
		base = p->base;            /* measured before the restart: not again */
		memset(&p->base, 0, sizeof(p->base));
		p->have_base = false;
		pthread_mutex_lock(&r->lock);
		if (!base.device.known)
			base.device = r->device;
		pthread_mutex_unlock(&r->lock);
		/* unless killed between two of its baselines lines: a speedup against
		 * each baseline is the point of measuring them */
		char missing[128];
		measured = cua_report_complete(t, &base, eo.root,
		                               base.device.known ? base.device.name : NULL,
		                               missing, sizeof(missing));
		if (!measured) {
			fprintf(stderr, "cuarena run: %s: the run was killed before its %s baseline "
			        "was written: its baselines are measured again\n", t->id, missing);
			cua_report_clear(&base);
			memset(&base, 0, sizeof(base));
		}
	}
	if (!measured &&
	    (st = measure_baselines(r, t, slot, &eo, &base, err, sizeof(err))) != CUA_OK) {
		snprintf(reason, sizeof(reason), st == CUA_E_INTERRUPTED ? "interrupted"
		         : "harness failed: %.480s", err);
		goto out_report;
	}
	const char *folder = strrchr(t->id, '/');
	snprintf(workdir, sizeof(workdir), "%s/work/%s", r->run_dir,
	         folder ? folder + 1 : t->id);
	if (cua_episode_begin(&ep, t, &eo, &base, r->o->reward, r->o->turns,
	                      workdir, &r->gpu[slot], err, sizeof(err)) != CUA_OK) {
		snprintf(reason, sizeof(reason), "harness failed: %.480s", err);
		goto out_report;
	}
	ep.stop = &interrupted;
	if (p && p->n_steps)
		restore_prior(r, t, &ep, p);
	if (ai->begin && ai->begin(r->agent, t->id, r->o->root, &aep, err, sizeof(err))) {
		snprintf(reason, sizeof(reason), "agent failed: %.480s", err);
		goto out_end;
	}
	/* the agent's side of the turns taken before the restart */
	for (int i = 0; p && ai->restore && i < p->n_steps; i++) {
		int k = p->steps[i].turn;
		struct cua_observation obs = {
			.task_id = t->id, .turn = k, .max_turns = ep.max_turns,
			.text = k >= 1 && k <= CUA_MAX_TURNS && p->shown[k] ? p->shown[k] : "",
		};
		const char *said = k >= 1 && k <= CUA_MAX_TURNS && p->reply[k] ? p->reply[k] : "";
		if (ai->restore(r->agent, aep, &obs, said, err, sizeof(err)) != CUA_OK) {
			snprintf(reason, sizeof(reason), "agent failed: %.480s", err);
			goto out_end;
		}
	}
	while (!ep.done) {
		if (interrupted) {
			snprintf(reason, sizeof(reason), "interrupted");
			break;
		}
		struct cua_observation obs = {
			.task_id = t->id, .turn = ep.turn + 1, .max_turns = ep.max_turns,
			.text = ep.obs_text, .json = ep.obs_json,
		};
		struct cua_action act;
		memset(&act, 0, sizeof(act));
		char prompt_sha[65];
		cua_sha256_hex(ep.obs_text, strlen(ep.obs_text), prompt_sha);
		char *observation = strdup(ep.obs_text);
		st = ai->propose(r->agent, aep, &obs, &act, err, sizeof(err));
		if (st != CUA_OK) {
			/* a stop signal reaches the agent too (Slurm signals every
			 * process of the job, Ctrl-C the process group): its death is
			 * then the interruption, whether or not our own handler has run
			 * yet (the agent may die first: it said 'agent failed' then) */
			snprintf(reason, sizeof(reason),
			         interrupted || st == CUA_E_INTERRUPTED ? "interrupted"
			         : "agent failed: %.480s", err);
			free(observation);
			cua_action_clear(&act);
			break;
		}
		if (act.stop) {
			snprintf(reason, sizeof(reason), "agent stopped");
			free(observation);
			cua_action_clear(&act);
			break;
		}
		struct cua_step step;
		st = cua_episode_step(&ep, act.code, act.note, &step, err, sizeof(err));
		if (st == CUA_OK && interrupted && !cua_step_no_code(&step)) {
			/* the stop came while this kernel was judged, and may have
			 * killed its judge: the turn is not kept; a resume asks for
			 * it and judges it again */
			st = CUA_E_INTERRUPTED;
		}
		if (st != CUA_OK) {
			snprintf(reason, sizeof(reason), st == CUA_E_INTERRUPTED ? "interrupted"
			         : "harness failed: %.480s", err);
			free(observation);
			cua_action_clear(&act);
			cua_step_clear(&step);
			break;
		}
		struct cua_eval_where at = {.task = t->id, .level = t->level, .gpu = eo.gpu};
		if (!writing(r) ||
		    cua_writer_eval(r->w, &at, cua_step_to_json(&step), err, sizeof(err)) != CUA_OK) {
			/* not recorded, so not kept: a resume judges the turn again */
			if (writing(r))
				write_failed(r, err);
			snprintf(reason, sizeof(reason), "interrupted");
			free(observation);
			cua_action_clear(&act);
			cua_step_clear(&step);
			break;
		}
		pthread_mutex_lock(&r->lock);
		/* a reply without code is a turn, not a candidate: nothing was built or run */
		bool candidate = !cua_step_no_code(&step);
		r->evaluations += candidate;
		r->seg_evals += candidate;
		r->gpu_busy += step.eval.run_s;
		r->cand_busy += step.eval.run_s;
		checkpoint(r, NULL);
		pthread_mutex_unlock(&r->lock);

		write_turn(r, t, &step, prompt_sha, observation, &act, false);
		free(observation);
		cua_action_clear(&act);
		cua_step_clear(&step);
	}
out_end:
	if (!reason[0])
		snprintf(reason, sizeof(reason), "%s", ep.end_reason[0] ? ep.end_reason : "turn limit");
	cua_episode_end(&ep, reason);
	if (ep.task)
		write_end(r, t->id, ep.turn, reason, ep.best_turn, ep.rewards);
	if (ai->end && aep)
		ai->end(r->agent, aep);
	cua_episode_clear(&ep);
out_report:
	cua_report_clear(&base);
	if (!ep.task)   /* the episode never started: still say so in the trajectory */
		write_end(r, t->id, 0, reason, 0, NULL);
	char line[768];
	snprintf(line, sizeof(line), "%s: %s after %d turn(s)%s", t->id, reason, ep.turn,
	         ep.best_turn ? "" : ", no correct kernel");
	if (ep.best_turn)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
		         ", best turn %d at %.3fx vs nvcc", ep.best_turn, ep.best_speedup);
	pthread_mutex_lock(&r->lock);
	r->done++;
	r->correct += ep.best_turn > 0;
	r->agent_failed += !strncmp(reason, "agent failed", 12);
	pthread_mutex_unlock(&r->lock);
	progress(r, line);
}

static void *worker(void *arg)
{
	struct run *r = arg;
	for (;;) {
		pthread_mutex_lock(&r->lock);
		int i = !interrupted && r->next < r->n_tasks ? r->next++ : -1;
		pthread_mutex_unlock(&r->lock);
		if (i < 0)
			return NULL;
		run_episode(r, r->tasks[i], r->prior ? r->prior[i].slot : i % r->n_gpus,
		            r->prior ? &r->prior[i] : NULL);
	}
}

bool cua_run_selects(const struct cua_task *t, int level, const char *glob)
{
	if (level && t->level != level)
		return false;
	if (!glob)
		return true;
	const char *folder = strrchr(t->id, '/');
	return fnmatch(glob, t->id, FNM_EXTMATCH) == 0 ||
	       (folder && fnmatch(glob, folder + 1, FNM_EXTMATCH) == 0);
}

static bool task_selected(const struct cua_task *t, const struct cua_run_opts *o)
{
	return cua_run_selects(t, o->level, o->tasks_glob);
}

enum cua_status cua_run(const struct cua_run_opts *o, struct cua_run_summary *sum,
                        char *err, size_t errlen)
{
	struct cua_catalogue cat;
	struct run r;
	enum cua_status st;
	cJSON *shard = NULL;                /* run.json's "shard" (--shard) */

	memset(sum, 0, sizeof(*sum));
	memset(&r, 0, sizeof(r));
	r.o = o;
	pthread_mutex_init(&r.lock, NULL);
	interrupted = 0;
	r.n_gpus = 1;
	if (o->gpus && (r.n_gpus = cua_run_parse_gpus(o->gpus, r.gpu_name, err, errlen)) < 1)
		return CUA_E_USAGE;
	if (o->require_gpu && !cua_have_gpu()) {
		cua_errf(err, errlen, "no NVIDIA GPU on this machine (no /dev/nvidia*): a run "
		                      "evaluates kernels and needs a CUDA device");
		return CUA_E_NO_GPU;
	}
	st = cua_catalogue_load(o->root, &cat, err, errlen);
	if (st != CUA_OK && st != CUA_E_PARSE)
		return st;
	r.tasks = calloc((size_t)cat.n + 1, sizeof(*r.tasks));
	CUA_ASSERT(r.tasks);
	if (o->task_ids) {
		for (int k = 0; k < o->n_task_ids; k++) {
			const struct cua_task *t = NULL;
			for (int i = 0; i < cat.n && !t; i++)
				if (!strcmp(cat.tasks[i]->id, o->task_ids[k]))
					t = cat.tasks[i];
			if (!t) {
				cua_errf(err, errlen, "task %s of the run is not in the catalogue",
				         o->task_ids[k]);
				st = CUA_E_NOT_FOUND;
				goto out_cat;
			}
			r.tasks[r.n_tasks++] = t;
		}
	} else
		for (int i = 0; i < cat.n; i++)
			if (task_selected(cat.tasks[i], o))
				r.tasks[r.n_tasks++] = cat.tasks[i];
	if (r.n_tasks == 0) {
		cua_errf(err, errlen, "no task matches (level %d, tasks '%s')", o->level,
		         o->tasks_glob ? o->tasks_glob : "*");
		st = CUA_E_USAGE;
		goto out_cat;
	}
	if (o->shard_count && !o->task_ids &&
	    (st = cua_shard_apply(r.tasks, &r.n_tasks, o->shard_index, o->shard_count,
	                          o->shard_costs, o->turns, &shard, err, errlen)) != CUA_OK)
		goto out_cat;

	/* results/<run-id> */
	char run_id[128], when[64];
	time_t now = time(NULL);
	struct tm tmv;
	gmtime_r(&now, &tmv);
	strftime(run_id, sizeof(run_id), "%Y%m%d-%H%M%S", &tmv);
	snprintf(run_id + strlen(run_id), sizeof(run_id) - strlen(run_id), "-%s",
	         o->agent->name);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
	if (o->out_dir)
		snprintf(r.run_dir, sizeof(r.run_dir), "%s", o->out_dir);
	else
		snprintf(r.run_dir, sizeof(r.run_dir), "%.3900s/results/%s", o->root, run_id);
	snprintf(sum->out_dir, sizeof(sum->out_dir), "%s", r.run_dir);
	/* the folder's one writer from here on: a second is refused (its pid named),
	 * and the torn tails are cut before anything is read or appended */
	struct cua_writer_opened opened;
	st = cua_writer_open(r.run_dir, "run", &r.w, &opened, err, errlen);
	if (st != CUA_OK)
		goto out_cat;
	snprintf(r.started, sizeof(r.started), "%s", when);
	r.t0 = cua_now();

	st = o->agent->init(o->agent_config, &r.agent, err, errlen);
	if (st != CUA_OK)
		goto out_cat;

	if (o->resume) {
		st = cua_writer_run_continue(r.w, when, err, errlen);
		if (st != CUA_OK)
			goto out_agent;
		/* the GPU the run was measured on: restored baselines are of it, and the
		 * candidates that follow them get its ceilings (%SOL, speed of light) */
		struct cua_prior_run m;
		cua_prior_run_decode(cua_writer_run(r.w), &m);
		r.device = m.device;
		cua_prior_run_clear(&m);
		const char **ids = cua_xcalloc((size_t)r.n_tasks + 1, sizeof(*ids));
		for (int i = 0; i < r.n_tasks; i++)
			ids[i] = r.tasks[i]->id;
		struct cua_prior_want want = {.tasks = ids, .n_tasks = r.n_tasks, .evals = true,
		                              .texts = true};
		struct cua_prior *found = NULL;
		st = cua_prior_load(r.run_dir, &want, &found, err, errlen);
		if (st == CUA_OK)
			st = cua_resume_load(found, r.tasks, r.n_tasks, r.gpu_name, r.n_gpus, &r.prior,
			                     &r.evaluations, err, errlen);
		if (st == CUA_OK) {
			struct cua_buf said = {0};
			cua_prior_say(found, opened.cut, &said);
			fprintf(stderr, "cuarena run: resuming %s: %s\n", r.run_dir, said.s);
			free(said.s);
		}
		cua_prior_free(found);
		free(ids);
		if (st != CUA_OK)
			goto out_agent;
	} else {
		char prompts[65];
		const char *slash = strrchr(r.run_dir, '/');
		const char *nv = cua_nvcc_version(o->eval.build.nvcc);
		const char **ids = cua_xcalloc((size_t)r.n_tasks + 1, sizeof(*ids));
		for (int i = 0; i < r.n_tasks; i++)
			ids[i] = r.tasks[i]->id;
		struct cua_run_meta m = {
			.run_id = slash ? slash + 1 : r.run_dir, .created = when,
			.catalogue_hash = cat.hash, .catalogue_version = cat.version, .nvcc = nv,
			.agent = o->agent->name,
			.agent_version = o->agent_version ? o->agent_version : o->agent->version,
			.agent_config = o->agent_config,
			.prompts_sha256 = cua_prompts_hash(o->root, prompts, NULL, 0) == CUA_OK
			                  ? prompts : NULL,
			.turns = o->turns, .reward = cua_reward_name(o->reward),
			.max_time_s = o->eval.max_time_s, .public_seeds = o->eval.seeds,
			.tasks = ids, .n_tasks = r.n_tasks,
		};
		cua_writer_run_new(r.w, &m);
		free(ids);
		if (shard) {
			cua_writer_run_shard(r.w, shard);
			shard = NULL;
		}
	}
	/* every kernel of a run is timed alike: a resume keeps the run's cap */
	r.max_time_s = o->eval.max_time_s;
	struct cua_prior_run m;
	cua_prior_run_decode(cua_writer_run(r.w), &m);
	double cap = m.max_time_s;
	cua_prior_run_clear(&m);
	if (cap > 0) {
		if (o->max_time_given && fabs(cap - o->eval.max_time_s) > 1e-9) {
			cua_errf(err, errlen, "--max-time-s %g: the run in %s timed its kernels with "
			         "%g s (run.json max_time_s); resume without --max-time-s or with that",
			         o->eval.max_time_s, r.run_dir, cap);
			st = CUA_E_USAGE;
			goto out_agent;
		}
		r.max_time_s = cap;
	} else
		cua_writer_run_max_time(r.w, r.max_time_s);
	if ((st = cua_prior_segments(cua_writer_run(r.w), r.run_dir, &r.before, err,
	                             errlen)) != CUA_OK)
		goto out_agent;
	if (o->gpus)
		cua_writer_run_gpus(r.w, r.gpu_name, r.n_gpus);
	pthread_mutex_lock(&r.lock);
	checkpoint(&r, NULL);
	pthread_mutex_unlock(&r.lock);
	if (r.write_failed) {
		cua_errf(err, errlen, "%s", r.write_err);
		st = CUA_E_IO;
		goto out_agent;
	}
	for (int g = 0; g < r.n_gpus; g++)
		pthread_mutex_init(&r.gpu[g], NULL);
	r.tty = o->progress && isatty(STDERR_FILENO);

	struct sigaction sa, old, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	/* SIGTERM as Ctrl-C: what Slurm sends at a time limit, on scancel and
	 * before preempting, so a shard stops cleanly and resumes */
	sigaction(SIGTERM, &sa, &old_term);

	int jobs = o->jobs < 1 ? 1 : o->jobs > 256 ? 256 : o->jobs;
	if (jobs > r.n_tasks)
		jobs = r.n_tasks;
	pthread_t *th = calloc((size_t)jobs, sizeof(*th));
	CUA_ASSERT(th);
	int started = 0;
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&th[started], NULL, worker, &r) == 0)
			started++;
	if (!started)
		worker(&r);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	sigaction(SIGINT, &old, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	sum->tasks = r.n_tasks;
	sum->tasks_done = r.done;
	sum->tasks_correct = r.correct;
	sum->evaluations = r.evaluations;
	sum->agent_failed = r.agent_failed;
	/* the whole run, every segment: a resumed run's throughput is its total */
	double wall = cua_now() - r.t0;
	sum->wall_s = r.before.wall_s + wall;
	sum->gpu_busy_s = r.before.gpu_busy_s + r.gpu_busy;
	sum->gpu_s = r.before.gpu_s + wall * r.n_gpus;
	sum->candidate_gpu_s = r.before.cand_known ? r.before.candidate_gpu_s + r.cand_busy : -1;
	sum->segments = r.before.n + 1;
	sum->gpus = r.n_gpus;
	sum->interrupted = interrupted != 0;
	pthread_mutex_lock(&r.lock);
	checkpoint(&r, sum);
	pthread_mutex_unlock(&r.lock);
	if (r.write_failed) {
		cua_errf(err, errlen, "%s", r.write_err);
		st = CUA_E_IO;
	} else
		st = CUA_OK;
	for (int g = 0; g < r.n_gpus; g++)
		pthread_mutex_destroy(&r.gpu[g]);
out_agent:
	cua_resume_free(r.prior, r.n_tasks);
	if (o->agent->free)
		o->agent->free(r.agent);
out_cat:
	cua_writer_close(r.w);   /* the folder's lock goes with it */
	pthread_mutex_destroy(&r.lock);
	cJSON_Delete(shard);
	free(r.tasks);
	cua_catalogue_clear(&cat);
	return st;
}
