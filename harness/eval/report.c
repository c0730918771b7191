/* report.c — one task's report: its nvcc reference, every library baseline and
 * the imported torch figures, and a candidate when given, with speedups (report.h). */
#include "eval/report.h"
#include "eval/precheck.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <cjson/cJSON.h>

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
	char path[CUA_PATH_BUF];

	if (!src_path && o->bstore)
		return cua_report_run_stored(t, o, r, err, errlen);
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
		cua_sol_apply(t, oo.ceilings, &r->base[0]);
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
		st = cua_eval_built(t, src_path, o, &cb.b, &r->candidate, &r->device, err,
		                    errlen);
	}
out:
	if (threaded)
		pthread_join(cb.thread, NULL);
	cua_build_clear(&cb.b);
	return st;
}

void cua_report_clear(struct cua_report *r)
{
	if (!r)
		return;
	cua_eval_clear(&r->candidate);
	for (int i = 0; i < r->n_base; i++)
		cua_eval_clear(&r->base[i]);
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

int cua_report_find(const struct cua_report *r, const char *subject)
{
	for (int i = 0; i < r->n_base; i++)
		if (!strcmp(r->base[i].subject, subject))
			return i;
	return -1;
}

bool cua_report_complete(const struct cua_task *t, const struct cua_report *r,
                         const char *root, const char *gpu, char *missing, size_t len)
{
	const char *gone = NULL;
	if (cua_report_find(r, "nvcc") < 0)
		gone = "nvcc";
	for (int i = 0; !gone && i < t->n_baselines; i++)
		if (cua_report_find(r, t->baselines[i]) < 0)
			gone = t->baselines[i];
	struct cua_report torch;
	memset(&torch, 0, sizeof(torch));
	torch.task = t;
	if (!gone && gpu && gpu[0])
		cua_report_import_torch(root, gpu, &torch);
	for (int i = 0; !gone && i < torch.n_base; i++)
		if (cua_report_find(r, torch.base[i].subject) < 0)
			gone = torch.base[i].subject;
	snprintf(missing, len, "%s", gone ? gone : "");
	bool complete = !gone;
	cua_report_clear(&torch);
	return complete;
}

void cua_report_import_torch(const char *root, const char *gpu, struct cua_report *r)
{
	char name[128], path[CUA_PATH_BUF], *buf = NULL;
	size_t len = 0;
	static const char *const keys[][2] = {{"eager_ms", "torch-eager"},
	                                      {"compile_ms", "torch-compile"}};

	cua_gpu_file_name(gpu, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/baselines/torch/%s.json", root, name);
	if (cua_read_file(path, 16 << 20, &buf, &len, NULL, 0) != CUA_OK)
		return;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "tasks"), r->task->id);
	const char *ver = cua_json_str(j, "torch");
	for (size_t k = 0; k < CUA_ARRAY_LEN(keys); k++) {
		double ms = cua_json_num(task, keys[k][0]);
		if (!(ms > 0) || r->n_base >= (int)CUA_ARRAY_LEN(r->base))
			continue;
		struct cua_eval *e = &r->base[r->n_base++];
		cua_eval_init(e, keys[k][1]);
		e->imported = true;
		snprintf(e->message, sizeof(e->message), "imported from baselines/torch/%.100s.json "
		         "(torch %.40s)", name, ver);
		e->timing.done = true;
		e->timing.event_ms.n = cua_to_int(cua_json_num(task, "samples"));
		e->timing.event_ms.median = ms;
	}
	cJSON_Delete(j);
}
