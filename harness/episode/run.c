/* run.c — the run engine: worker threads each drive one episode at a time; builds
 * overlap, GPU evaluations take a lock; every line of results is appended and
 * fsynced as soon as it exists, so a killed run keeps what it measured. */
#include "episode/run.h"
#include "episode/resume.h"
#include "catalogue/catalogue.h"
#include "catalogue/prompts.h"
#include "results/results.h"
#include "episode/shard.h"

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

/* ---- results files ------------------------------------------------------------ */

struct writer {
	int evals, traj, base;
	pthread_mutex_t lock;
	bool failed;
	char err[CUA_ERR_LEN];
};

/* Appends one JSON object as a line and fsyncs: a killed run loses at most it. */
static void put_line(struct writer *w, int fd, cJSON *obj)
{
	pthread_mutex_lock(&w->lock);
	int e = cua_results_append(fd, obj);
	if (e) {
		w->failed = true;
		snprintf(w->err, sizeof(w->err), "cannot append results: %s", strerror(e));
	}
	pthread_mutex_unlock(&w->lock);
}

static int open_append(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		cua_errf(err, errlen, "%s: %s", path, strerror(errno));
	return fd;
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
	struct writer w;
	struct cua_device device;
	int done, correct, evaluations, in_flight;   /* evaluations: all the run kept */
	int agent_failed;                   /* episodes of this invocation that ended
	                                     * because the agent failed */
	/* This invocation is one segment of the run (a resumed run has several):
	 * its evaluations, GPU time and wall time, recorded in run.json's
	 * "segments" after every evaluation, so a killed one still counts. */
	int seg_evals;
	double t0, gpu_busy, cand_busy;                /* cand_busy: candidates' share */
	double prior_wall, prior_busy, prior_gpu_s, prior_cand;  /* earlier segments' sums */
	bool prior_cand_known;                         /* every earlier segment had it */
	int n_prior_segments;
	double max_time_s;                             /* timing cap, run.json's */
	cJSON *segment;                                /* ours, in run_json */
	bool tty;
	char run_dir[CUA_PATH_LEN];
	cJSON *run_json;
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

static void write_run_json(struct run *r, const struct cua_run_summary *sum);

/* Brings this segment's record up to date and rewrites run.json (with the
 * summary, at the end). Holds r->lock while workers run. */
static void checkpoint(struct run *r, const struct cua_run_summary *sum)
{
	cJSON *g = r->segment;
	cJSON_ReplaceItemInObject(g, "wall_s", cJSON_CreateNumber(cua_now() - r->t0));
	cJSON_ReplaceItemInObject(g, "evaluations", cJSON_CreateNumber(r->seg_evals));
	cJSON_ReplaceItemInObject(g, "gpu_busy_s", cJSON_CreateNumber(r->gpu_busy));
	cJSON_ReplaceItemInObject(g, "candidate_gpu_s", cJSON_CreateNumber(r->cand_busy));
	cJSON_ReplaceItemInObject(g, "interrupted", cJSON_CreateBool(interrupted != 0));
	write_run_json(r, sum);
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
		put_line(&r->w, r->w.base, cua_results_baseline_line(t, &rep->base[i], eo->gpu));
	return CUA_OK;
}

static void write_end(struct run *r, const struct cua_episode *ep, const char *reason)
{
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "end");
	cJSON_AddStringToObject(l, "task", ep->task->id);
	cJSON_AddNumberToObject(l, "turns", ep->turn);
	cJSON_AddStringToObject(l, "reason", reason);
	cJSON_AddNumberToObject(l, "best_turn", ep->best_turn);
	cJSON_AddNumberToObject(l, "final_turn", ep->turn);
	cJSON *rw = cJSON_AddArrayToObject(l, "rewards");
	for (int i = 0; i < ep->turn; i++)
		cJSON_AddItemToArray(rw, cJSON_CreateNumber(ep->rewards[i]));
	put_line(&r->w, r->w.traj, l);
}

/* Writes a trajectory "turn" line. */
static void write_turn(struct run *r, const struct cua_task *t, const struct cua_step *step,
                       const char *prompt_sha, const char *observation,
                       const struct cua_action *act, bool recovered)
{
	cJSON *tl = cJSON_CreateObject();
	cJSON_AddStringToObject(tl, "kind", "turn");
	cJSON_AddStringToObject(tl, "task", t->id);
	cJSON_AddNumberToObject(tl, "turn", step->turn);
	cJSON_AddStringToObject(tl, "prompt_sha256", prompt_sha);
	cJSON_AddStringToObject(tl, "observation", observation);
	/* the agent's words and code as valid UTF-8 (the source's own bytes are on
	 * disk, and code_sha256 is theirs) */
	cua_json_add_text(tl, "reply", act->reply ? act->reply : "");
	if (act->code)
		cua_json_add_text(tl, "code", act->code);
	else
		cJSON_AddNullToObject(tl, "code");
	cJSON_AddStringToObject(tl, "verdict", cua_verdict_name(step->eval.verdict));
	cJSON_AddNumberToObject(tl, "reward", step->reward);
	cJSON *tok = cJSON_AddObjectToObject(tl, "tokens");
	cJSON_AddNumberToObject(tok, "prompt", act->prompt_tokens);
	cJSON_AddNumberToObject(tok, "completion", act->completion_tokens);
	cJSON_AddNumberToObject(tl, "latency_s", act->latency_s);
	if (recovered)
		cJSON_AddBoolToObject(tl, "recovered", true);
	put_line(&r->w, r->w.traj, tl);
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
		cJSON *ev = cua_step_to_json(&step);
		cJSON_AddStringToObject(ev, "task", t->id);
		cJSON_AddNumberToObject(ev, "level", t->level);
		if (eo.gpu)
			cJSON_AddStringToObject(ev, "gpu", eo.gpu);
		put_line(&r->w, r->w.evals, ev);
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
		write_end(r, &ep, reason);
	if (ai->end && aep)
		ai->end(r->agent, aep);
	cua_episode_clear(&ep);
out_report:
	cua_report_clear(&base);
	if (!ep.task) {
		/* the episode never started: still say so in the trajectory */
		cJSON *l = cJSON_CreateObject();
		cJSON_AddStringToObject(l, "kind", "end");
		cJSON_AddStringToObject(l, "task", t->id);
		cJSON_AddNumberToObject(l, "turns", 0);
		cJSON_AddStringToObject(l, "reason", reason);
		cJSON_AddNumberToObject(l, "best_turn", 0);
		cJSON_AddNumberToObject(l, "final_turn", 0);
		put_line(&r->w, r->w.traj, l);
	}
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

static void write_run_json(struct run *r, const struct cua_run_summary *sum)
{
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN];
	cJSON_DeleteItemFromObject(r->run_json, "device");
	cJSON_AddItemToObject(r->run_json, "device", cua_device_to_json(&r->device));
	if (sum) {
		cJSON_DeleteItemFromObject(r->run_json, "summary");
		cJSON *s = cJSON_AddObjectToObject(r->run_json, "summary");
		cJSON_AddNumberToObject(s, "tasks_done", sum->tasks_done);
		cJSON_AddNumberToObject(s, "tasks_correct", sum->tasks_correct);
		cJSON_AddNumberToObject(s, "evaluations", sum->evaluations);
		cJSON_AddNumberToObject(s, "wall_s", sum->wall_s);
		cJSON_AddNumberToObject(s, "gpu_busy_s", sum->gpu_busy_s);
		cJSON_AddNumberToObject(s, "gpu_s", sum->gpu_s);
		if (sum->candidate_gpu_s >= 0)
			cJSON_AddNumberToObject(s, "candidate_gpu_s", sum->candidate_gpu_s);
		cJSON_AddNumberToObject(s, "segments", sum->segments);
		cJSON_AddNumberToObject(s, "gpus", sum->gpus);
		cJSON_AddBoolToObject(s, "interrupted", sum->interrupted);
	}
	char *txt = cJSON_Print(r->run_json);
	snprintf(path, sizeof(path), "%s/run.json", r->run_dir);
	if (cua_write_file(path, txt, strlen(txt), err, sizeof(err)) != CUA_OK)
		fprintf(stderr, "cuarena run: %s\n", err);
	free(txt);
}

/* Where a segment ran: the host, and under Slurm the job and array task (a
 * preempted shard's segments then say which attempt measured what). */
static void add_where(cJSON *seg)
{
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0])
		cJSON_AddStringToObject(seg, "host", host);
	static const char *const env[][2] = {
		{"SLURM_JOB_ID", "job"}, {"SLURM_ARRAY_JOB_ID", "array_job"},
		{"SLURM_ARRAY_TASK_ID", "array_task"}, {"SLURM_RESTART_COUNT", "restart"},
	};
	cJSON *sl = NULL;
	for (size_t i = 0; i < CUA_ARRAY_LEN(env); i++) {
		const char *v = getenv(env[i][0]);
		if (!v || !*v || strlen(v) > 64)
			continue;
		if (!sl)
			sl = cJSON_AddObjectToObject(seg, "slurm");
		cJSON_AddStringToObject(sl, env[i][1], v);
	}
}

/* Sums the earlier segments of a resumed run and appends this invocation's. A
 * run.json from before segments were recorded has one in its summary. */
static enum cua_status open_segment(struct run *r, const char *when, char *err,
                                    size_t errlen)
{
	cJSON *segs = cJSON_GetObjectItemCaseSensitive(r->run_json, "segments");
	if (!segs) {
		segs = cJSON_AddArrayToObject(r->run_json, "segments");
		const cJSON *old = cJSON_GetObjectItemCaseSensitive(r->run_json, "summary");
		if (cJSON_IsObject(old)) {
			cJSON *g = cJSON_CreateObject();
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(r->run_json, "created");
			cJSON_AddStringToObject(g, "started", cJSON_IsString(c) ? c->valuestring : "");
			static const char *const keys[] = {"gpus", "wall_s", "evaluations",
			                                   "gpu_busy_s", "interrupted"};
			for (size_t k = 0; k < CUA_ARRAY_LEN(keys); k++) {
				const cJSON *v = cJSON_GetObjectItemCaseSensitive(old, keys[k]);
				if (v)
					cJSON_AddItemToObject(g, keys[k], cJSON_Duplicate(v, true));
			}
			cJSON_AddItemToArray(segs, g);
		}
	}
	if (!cJSON_IsArray(segs)) {
		cua_errf(err, errlen, "%s/run.json: segments: not an array", r->run_dir);
		return CUA_E_PARSE;
	}
	int i = 0;
	const cJSON *g;
	cJSON_ArrayForEach(g, segs) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(g, "wall_s");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(g, "gpu_busy_s");
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(g, "gpus");
		if (!cJSON_IsNumber(w) || !cJSON_IsNumber(b) || !(w->valuedouble >= 0) ||
		    !(b->valuedouble >= 0) || (n && !(cJSON_IsNumber(n) && n->valuedouble >= 1))) {
			cua_errf(err, errlen, "%s/run.json: segments[%d]: wall_s and gpu_busy_s must "
			         "be numbers >= 0 (gpus >= 1)", r->run_dir, i);
			return CUA_E_PARSE;
		}
		r->prior_wall += w->valuedouble;
		r->prior_busy += b->valuedouble;
		r->prior_gpu_s += w->valuedouble * (n ? n->valuedouble : 1);
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(g, "candidate_gpu_s");
		if (cJSON_IsNumber(c) && c->valuedouble >= 0)
			r->prior_cand += c->valuedouble;
		else
			r->prior_cand_known = false;   /* a segment from before it was kept */
		i++;
	}
	r->n_prior_segments = i;
	r->segment = cJSON_CreateObject();
	cJSON_AddStringToObject(r->segment, "started", when);
	add_where(r->segment);
	cJSON_AddNumberToObject(r->segment, "gpus", r->n_gpus);
	cJSON_AddNumberToObject(r->segment, "wall_s", 0);
	cJSON_AddNumberToObject(r->segment, "evaluations", 0);
	cJSON_AddNumberToObject(r->segment, "gpu_busy_s", 0);
	cJSON_AddNumberToObject(r->segment, "candidate_gpu_s", 0);
	cJSON_AddBoolToObject(r->segment, "interrupted", false);
	cJSON_AddItemToArray(segs, r->segment);
	return CUA_OK;
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
	r.prior_cand_known = true;
	r.o = o;
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
	st = cua_mkdirs(r.run_dir, err, errlen);
	if (st != CUA_OK)
		goto out_cat;

	st = o->agent->init(o->agent_config, &r.agent, err, errlen);
	if (st != CUA_OK)
		goto out_cat;

	if (o->resume) {
		st = cua_results_read_run_json(r.run_dir, &r.run_json, err, errlen);
		if (st != CUA_OK)
			goto out_agent;
		cJSON *res = cJSON_GetObjectItem(r.run_json, "resumed");
		if (!cJSON_IsArray(res))
			res = cJSON_AddArrayToObject(r.run_json, "resumed");
		cJSON_AddItemToArray(res, cJSON_CreateString(when));
		/* the GPU the run was measured on: restored baselines are of it, and the
		 * candidates that follow them get its ceilings (%SOL, speed of light) */
		cua_device_from_json(cJSON_GetObjectItemCaseSensitive(r.run_json, "device"),
		                     &r.device);
		st = cua_resume_load(r.run_dir, r.tasks, r.n_tasks, r.gpu_name, r.n_gpus, &r.prior,
		                     &r.evaluations, err, errlen);
		if (st != CUA_OK)
			goto out_agent;
		goto files;
	}
	r.run_json = cJSON_CreateObject();
	cJSON_AddNumberToObject(r.run_json, "schema", CUA_RESULTS_SCHEMA);
	const char *slash = strrchr(r.run_dir, '/');
	cJSON_AddStringToObject(r.run_json, "run_id", slash ? slash + 1 : r.run_dir);
	cJSON_AddStringToObject(r.run_json, "created", when);
	cJSON *h = cJSON_AddObjectToObject(r.run_json, "harness");
	cJSON_AddStringToObject(h, "version", CUA_VERSION);
	cJSON_AddStringToObject(h, "git", cua_git_sha);
	cJSON_AddStringToObject(r.run_json, "catalogue_hash", cat.hash);
	const char *nv = cua_nvcc_version(o->eval.build.nvcc);
	cJSON_AddStringToObject(r.run_json, "nvcc", nv ? nv : "");
	cJSON *a = cJSON_AddObjectToObject(r.run_json, "agent");
	cJSON_AddStringToObject(a, "name", o->agent->name);
	cJSON_AddStringToObject(a, "version",
	                        o->agent_version ? o->agent_version : o->agent->version);
	cJSON_AddItemToObject(a, "config", o->agent_config
	                                       ? cJSON_Duplicate(o->agent_config, true)
	                                       : cJSON_CreateObject());
	char prompts[65];
	if (cua_prompts_hash(o->root, prompts, NULL, 0) == CUA_OK)
		cJSON_AddStringToObject(a, "prompts_sha256", prompts);
	cJSON_AddNumberToObject(r.run_json, "turns", o->turns);
	cJSON_AddStringToObject(r.run_json, "reward", cua_reward_name(o->reward));
	cJSON_AddNumberToObject(r.run_json, "max_time_s", o->eval.max_time_s);
	cJSON *ps = cJSON_AddArrayToObject(r.run_json, "public_seeds");
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(ps, cJSON_CreateNumber((double)o->eval.seeds[i]));
	cJSON *tl = cJSON_AddArrayToObject(r.run_json, "tasks");
	for (int i = 0; i < r.n_tasks; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateString(r.tasks[i]->id));
	if (shard) {
		cJSON_AddItemToObject(r.run_json, "shard", shard);
		shard = NULL;
	}
files:
	/* every kernel of a run is timed alike: a resume keeps the run's cap */
	r.max_time_s = o->eval.max_time_s;
	const cJSON *mt = cJSON_GetObjectItemCaseSensitive(r.run_json, "max_time_s");
	if (cJSON_IsNumber(mt) && mt->valuedouble > 0) {
		if (o->max_time_given && fabs(mt->valuedouble - o->eval.max_time_s) > 1e-9) {
			cua_errf(err, errlen, "--max-time-s %g: the run in %s timed its kernels with "
			         "%g s (run.json max_time_s); resume without --max-time-s or with that",
			         o->eval.max_time_s, r.run_dir, mt->valuedouble);
			st = CUA_E_USAGE;
			goto out_agent;
		}
		r.max_time_s = mt->valuedouble;
	} else
		cJSON_AddNumberToObject(r.run_json, "max_time_s", r.max_time_s);
	if (open_segment(&r, when, err, errlen) != CUA_OK) {
		st = CUA_E_PARSE;
		goto out_agent;
	}
	if (o->gpus) {
		cJSON_DeleteItemFromObject(r.run_json, "gpus");
		cJSON *gl = cJSON_AddArrayToObject(r.run_json, "gpus");
		for (int g = 0; g < r.n_gpus; g++)
			cJSON_AddItemToArray(gl, cJSON_CreateString(r.gpu_name[g]));
	}
	write_run_json(&r, NULL);

	r.w.evals = open_append(r.run_dir, "evals.jsonl", err, errlen);
	r.w.traj = open_append(r.run_dir, "trajectories.jsonl", err, errlen);
	r.w.base = open_append(r.run_dir, "baselines.jsonl", err, errlen);
	if (r.w.evals < 0 || r.w.traj < 0 || r.w.base < 0) {
		st = CUA_E_IO;
		goto out_files;
	}
	pthread_mutex_init(&r.lock, NULL);
	for (int g = 0; g < r.n_gpus; g++)
		pthread_mutex_init(&r.gpu[g], NULL);
	pthread_mutex_init(&r.w.lock, NULL);
	r.tty = o->progress && isatty(STDERR_FILENO);
	r.t0 = cua_now();

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
	sum->wall_s = r.prior_wall + wall;
	sum->gpu_busy_s = r.prior_busy + r.gpu_busy;
	sum->gpu_s = r.prior_gpu_s + wall * r.n_gpus;
	sum->candidate_gpu_s = r.prior_cand_known ? r.prior_cand + r.cand_busy : -1;
	sum->segments = r.n_prior_segments + 1;
	sum->gpus = r.n_gpus;
	sum->interrupted = interrupted != 0;
	checkpoint(&r, sum);
	if (r.w.failed) {
		cua_errf(err, errlen, "%s", r.w.err);
		st = CUA_E_IO;
	} else
		st = CUA_OK;
	pthread_mutex_destroy(&r.lock);
	for (int g = 0; g < r.n_gpus; g++)
		pthread_mutex_destroy(&r.gpu[g]);
	pthread_mutex_destroy(&r.w.lock);
out_files:
	if (r.w.evals > 0)
		close(r.w.evals);
	if (r.w.traj > 0)
		close(r.w.traj);
	if (r.w.base > 0)
		close(r.w.base);
out_agent:
	cJSON_Delete(r.run_json);
	cua_resume_free(r.prior, r.n_tasks);
	if (o->agent->free)
		o->agent->free(r.agent);
out_cat:
	cJSON_Delete(shard);
	free(r.tasks);
	cua_catalogue_clear(&cat);
	return st;
}
