/* episode.c — a multi-turn episode: evaluate the agent's code, reward it, and
 * say what happened in words an agent can act on. */
#include "episode/episode.h"
#include "catalogue/prompts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>

#define LOG_FEEDBACK_MAX 4000   /* compile log bytes fed back */

void cua_step_clear(struct cua_step *s)
{
	if (s)
		cua_eval_clear(&s->eval);
}

enum cua_status cua_episode_begin(struct cua_episode *ep, const struct cua_task *t,
                                  const struct cua_eval_opts *o,
                                  const struct cua_report *baselines,
                                  enum cua_reward_kind reward, int max_turns,
                                  const char *workdir, pthread_mutex_t *gpu_lock,
                                  char *err, size_t errlen)
{
	memset(ep, 0, sizeof(*ep));
	if (max_turns < 1 || max_turns > CUA_MAX_TURNS) {
		cua_errf(err, errlen, "turns must be 1 to %d, not %d", CUA_MAX_TURNS, max_turns);
		return CUA_E_INVALID;
	}
	ep->task = t;
	ep->own = *o;
	ep->opts = &ep->own;
	if (!o->ceilings && baselines && baselines->device.known &&
	    cua_ceilings_load(o->root, baselines->device.name, &ep->ceilings, NULL, 0) == CUA_OK)
		ep->own.ceilings = &ep->ceilings;
	ep->base = baselines;
	ep->gpu_lock = gpu_lock;
	ep->reward_kind = reward;
	ep->max_turns = max_turns;
	snprintf(ep->workdir, sizeof(ep->workdir), "%s", workdir);
	enum cua_status st = cua_mkdirs(workdir, err, errlen);
	if (st != CUA_OK)
		return st;
	ep->obs_text = cua_prompts_render(t, o->root);
	ep->obs_json = cJSON_CreateObject();
	cJSON_AddStringToObject(ep->obs_json, "task", t->id);
	cJSON_AddNumberToObject(ep->obs_json, "turn", 1);
	cJSON_AddNumberToObject(ep->obs_json, "max_turns", max_turns);
	cJSON_AddStringToObject(ep->obs_json, "kind", "prompt");
	return CUA_OK;
}

/* The words an agent reads after a turn: valid UTF-8 whatever the kernel, the
 * compiler or the agent's note put in them, since they are sent and stored as
 * JSON (env, serve, trajectories.jsonl). */
static char *feedback(const struct cua_episode *ep, const struct cua_step *st)
{
	const struct cua_eval *e = &st->eval;
	struct cua_buf b = {0};

	cua_buf_printf(&b, "# Turn %d of %d: %s\n\n", st->turn, ep->max_turns,
	    cua_verdict_name(e->verdict));
	if (e->message[0])
		cua_buf_printf(&b, "%s\n\n", e->message);
	if ((e->verdict == CUA_VERDICT_COMPILE_ERROR ||
	     e->verdict == CUA_VERDICT_COMPILE_TIMEOUT) && e->compile_log) {
		size_t n = strlen(e->compile_log);
		char *cut = cua_trim_text(e->compile_log, n, LOG_FEEDBACK_MAX);
		cua_buf_printf(&b, "Compiler output:\n```\n%s\n```\n\n", cut);
		free(cut);
	}
	for (int i = 0; i < e->n_violations; i++)
		cua_buf_printf(&b, "Forbidden: `%s`: %s\n", e->violations[i].symbol, e->violations[i].reason);
	int bad = 0;
	for (int i = 0; i < e->n_cases; i++)
		bad += !e->cases[i].ok;
	if (e->n_cases) {
		cua_buf_printf(&b, "Correctness: %d of %d cases passed.\n", e->n_cases - bad, e->n_cases);
		for (int i = 0; i < e->n_cases && bad; i++) {
			const struct cua_case *c = &e->cases[i];
			if (c->ok)
				continue;
			cua_buf_printf(&b, "- shape %s, %s seed: %llu wrong, %llu NaN, %llu unwritten of %llu "
			        "in '%s'; first at %s: got %.9g, want %.9g\n",
			    c->shape, c->secret ? "secret" : c->recheck ? "re-check" : "public",
			    (unsigned long long)c->n_bad, (unsigned long long)c->n_nan,
			    (unsigned long long)c->n_unwritten, (unsigned long long)c->n_elems,
			    c->output, c->first_bad_at, c->got, c->want);
		}
		double ma, mr;
		cua_eval_max_errors(e, &ma, &mr);
		cua_buf_printf(&b, "Max abs error %.3g, max rel error %.3g (atol %g, rtol %g).\n", ma, mr,
		    ep->task->atol, ep->task->rtol);
	}
	if (e->verdict == CUA_VERDICT_OK && e->timing.done) {
		const struct cua_stats *s = cua_timing_stats(&e->timing);
		cua_buf_printf(&b, "\nTiming: median %.4f ms (IQR %.4f, n %d)", s->median, s->iqr, s->n);
		if (e->pct_sol > 0)
			cua_buf_printf(&b, ", %.1f%% of the speed of light (%.4f ms)", e->pct_sol, e->sol_ms);
		cua_buf_printf(&b, ".\n");
		for (int i = 0; i < st->n_speedup; i++) {
			const struct cua_eval *base = &ep->base->base[i];
			if (base->verdict != CUA_VERDICT_OK || !base->timing.done)
				continue;
			cua_buf_printf(&b, "- vs %s%s (%.4f ms): %.3fx\n", st->speedup_name[i],
			    base->imported ? " (imported)" : "", cua_timing_stats(&base->timing)->median,
			    st->speedup[i]);
		}
	}
	cua_buf_printf(&b, "\nReward: %g.", st->reward);
	if (ep->best_turn)
		cua_buf_printf(&b, " Best so far: turn %d (%.3fx vs nvcc).", ep->best_turn, ep->best_speedup);
	if (!st->done)
		cua_buf_printf(&b, "\n\nSubmit an improved kernel (one CUDA source defining cua_solve), "
		        "or stop.\n");
	else
		cua_buf_printf(&b, "\n\nThat was the last turn.\n");
	char *text = cua_utf8_clean(b.s, b.len, NULL);
	free(b.s);
	return text;
}

static void account(struct cua_episode *ep, const struct cua_step *step);

enum cua_status cua_gpu_lock(pthread_mutex_t *lock, const volatile sig_atomic_t *stop)
{
	if (!stop)
		return pthread_mutex_lock(lock) == 0 ? CUA_OK : CUA_E_SYSTEM;
	for (;;) {
		if (*stop)
			return CUA_E_INTERRUPTED;
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50 * 1000 * 1000;   /* look at *stop every 50 ms */
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		int rc = pthread_mutex_timedlock(lock, &until);
		if (rc == 0) {
			if (!*stop)
				return CUA_OK;
			pthread_mutex_unlock(lock);
			return CUA_E_INTERRUPTED;
		}
		if (rc != ETIMEDOUT)
			return CUA_E_SYSTEM;
	}
}

static enum cua_status write_source(const char *path, const char *code, char *err,
                                    size_t errlen)
{
	return cua_write_file(path, code, strlen(code), err, errlen);
}

enum cua_status cua_episode_step(struct cua_episode *ep, const char *code,
                                 const char *note, struct cua_step *step, char *err,
                                 size_t errlen)
{
	const struct cua_task *t = ep->task;
	enum cua_status st = CUA_OK;
	char src[CUA_PATH_BUF];

	memset(step, 0, sizeof(*step));
	if (ep->done || ep->turn >= ep->max_turns) {
		cua_errf(err, errlen, "the episode of %s is over", t->id);
		return CUA_E_INVALID;
	}
	step->turn = ++ep->turn;
	cua_eval_init(&step->eval, "candidate");
	if (!code) {
		cua_eval_fail(&step->eval, CUA_VERDICT_NO_CODE, "no code: %s",
		              note && note[0] ? note : "the reply had no kernel");
	} else {
		cua_sha256_hex(code, strlen(code), step->code_sha);
		snprintf(src, sizeof(src), "%s/turn-%d.cu", ep->workdir, step->turn);
		st = write_source(src, code, err, errlen);
		struct cua_build b;
		/* nvcc on the CPU, in parallel with other episodes... */
		if (st == CUA_OK)
			st = cua_build_candidate(t, src, ep->opts, &b, err, errlen);
		if (st != CUA_OK) {
			/* nothing was judged (a build told to stop, a harness failure):
			 * the turn is not taken, as when the GPU lock is given up */
			ep->turn--;
			step->turn = 0;
			return st;
		}
		/* ...the GPU one evaluation at a time. */
		st = ep->gpu_lock ? cua_gpu_lock(ep->gpu_lock, ep->stop) : CUA_OK;
		if (st != CUA_OK) {
			cua_build_clear(&b);
			ep->turn--;
			step->turn = 0;
			cua_errf(err, errlen, "%s while turn %d of %s waited for the GPU",
			         st == CUA_E_INTERRUPTED ? "interrupted" : "the GPU lock failed",
			         ep->turn + 1, t->id);
			return st;
		}
		st = cua_eval_built(t, src, ep->opts, &b, &step->eval, NULL, err, errlen);
		if (ep->gpu_lock)
			pthread_mutex_unlock(ep->gpu_lock);
		cua_build_clear(&b);
		if (st != CUA_OK) {
			ep->turn--;
			step->turn = 0;
			return st;
		}
	}

	/* Speedups against every baseline of the task, measured once for the run. */
	struct cua_turn_outcome out = {.correct = step->eval.verdict == CUA_VERDICT_OK};
	const struct cua_eval *lib = cua_report_best_library(ep->base);
	for (int i = 0; i < ep->base->n_base && i < (int)CUA_ARRAY_LEN(step->speedup); i++) {
		snprintf(step->speedup_name[i], sizeof(step->speedup_name[i]), "%s",
		         ep->base->base[i].subject);
		step->speedup[i] = cua_speedup(&ep->base->base[i], &step->eval);
		step->n_speedup = i + 1;
	}
	out.speedup_nvcc = step->n_speedup ? step->speedup[0] : 0;
	out.speedup_library = lib ? cua_speedup(lib, &step->eval) : 0;
	step->reward = cua_reward_turn(ep->reward_kind, &out);
	account(ep, step);
	step->done = ep->done;
	return CUA_OK;
}

/* Books a finished turn: reward, best turn, the end at the turn limit, and the
 * next observation (the feedback on it). */
static void account(struct cua_episode *ep, const struct cua_step *step)
{
	ep->rewards[step->turn - 1] = step->reward;
	double nvcc = step->n_speedup ? step->speedup[0] : 0;
	if (step->eval.verdict == CUA_VERDICT_OK &&
	    (ep->best_turn == 0 || nvcc > ep->best_speedup)) {
		ep->best_turn = step->turn;
		ep->best_speedup = nvcc;
	}
	if (ep->turn >= ep->max_turns) {
		ep->done = true;
		snprintf(ep->end_reason, sizeof(ep->end_reason), "turn limit");
	}
	struct cua_step shown = *step;
	shown.done = ep->done;
	free(ep->obs_text);
	cJSON_Delete(ep->obs_json);
	ep->obs_text = feedback(ep, &shown);
	ep->obs_json = cJSON_CreateObject();
	cJSON_AddStringToObject(ep->obs_json, "task", ep->task->id);
	cJSON_AddNumberToObject(ep->obs_json, "turn", ep->turn + 1);
	cJSON_AddNumberToObject(ep->obs_json, "max_turns", ep->max_turns);
	cJSON_AddStringToObject(ep->obs_json, "kind", "feedback");
	cJSON_AddItemToObject(ep->obs_json, "result", cua_step_to_json(&shown));
}

bool cua_step_no_code(const struct cua_step *s)
{
	/* runs written before the no_code verdict said compile_error "no code: ..." */
	return s->eval.verdict == CUA_VERDICT_NO_CODE ||
	       (s->eval.verdict == CUA_VERDICT_COMPILE_ERROR &&
	        !strncmp(s->eval.message, "no code: ", 9));
}

void cua_episode_restore(struct cua_episode *ep, const struct cua_step *steps, int n)
{
	for (int i = 0; i < n && ep->turn < ep->max_turns; i++) {
		ep->turn = steps[i].turn;
		account(ep, &steps[i]);
	}
}

enum cua_status cua_step_from_json(const cJSON *j, struct cua_step *s, char *err,
                                   size_t errlen)
{
	memset(s, 0, sizeof(*s));
	const cJSON *turn = cJSON_GetObjectItemCaseSensitive(j, "turn");
	const cJSON *reward = cJSON_GetObjectItemCaseSensitive(j, "reward");
	const cJSON *sha = cJSON_GetObjectItemCaseSensitive(j, "code_sha256");
	if (!cJSON_IsNumber(turn) || turn->valuedouble < 1 || turn->valuedouble > CUA_MAX_TURNS ||
	    !cJSON_IsNumber(reward)) {
		cua_errf(err, errlen, "turn and reward: expected numbers");
		return CUA_E_PARSE;
	}
	s->turn = (int)turn->valuedouble;
	s->reward = reward->valuedouble;
	if (cJSON_IsString(sha))
		snprintf(s->code_sha, sizeof(s->code_sha), "%s", sha->valuestring);
	const cJSON *sp;
	cJSON_ArrayForEach(sp, cJSON_GetObjectItemCaseSensitive(j, "speedup"))
	{
		if (s->n_speedup >= (int)CUA_ARRAY_LEN(s->speedup))
			break;
		snprintf(s->speedup_name[s->n_speedup], sizeof(s->speedup_name[0]), "%s",
		         sp->string ? sp->string : "");
		s->speedup[s->n_speedup++] = cJSON_IsNumber(sp) ? sp->valuedouble : 0;
	}
	return cua_eval_from_json(cJSON_GetObjectItemCaseSensitive(j, "eval"), &s->eval, err,
	                          errlen);
}

cJSON *cua_step_to_json(const struct cua_step *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "turn", s->turn);
	cJSON_AddStringToObject(o, "code_sha256", s->code_sha);
	cJSON_AddNumberToObject(o, "reward", s->reward);
	cJSON *sp = cJSON_AddObjectToObject(o, "speedup");
	for (int i = 0; i < s->n_speedup; i++) {
		if (s->speedup[i] > 0)
			cJSON_AddNumberToObject(sp, s->speedup_name[i], s->speedup[i]);
		else
			cJSON_AddNullToObject(sp, s->speedup_name[i]);
	}
	cJSON_AddItemToObject(o, "eval", cua_eval_to_json(&s->eval));
	return o;
}

void cua_episode_end(struct cua_episode *ep, const char *reason)
{
	if (!ep->done || !ep->end_reason[0])
		snprintf(ep->end_reason, sizeof(ep->end_reason), "%s", reason ? reason : "ended");
	ep->done = true;
	cua_reward_finish(ep->reward_kind, ep->rewards, ep->turn);
}

void cua_episode_clear(struct cua_episode *ep)
{
	if (!ep)
		return;
	free(ep->obs_text);
	cJSON_Delete(ep->obs_json);
	ep->obs_text = NULL;
	ep->obs_json = NULL;
}
