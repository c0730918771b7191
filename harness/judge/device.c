/* device.c — the GPU a judge saw, the ceilings `doctor --measure` recorded for
 * it, and a task's speed of light on it (device.h). */
#include "judge/device.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

void cua_gpu_file_name(const char *gpu, char *name, size_t len)
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

/* Speed of light: faster than the ceilings allow is an anomaly, not a win. The
 * margin (110 %) covers a kernel that beats the copy engine we measured by a little. */
void cua_sol_apply(const struct cua_task *t, const struct cua_ceilings *c,
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
	if (d->sm_clock_peak_mhz > 0)
		cJSON_AddNumberToObject(o, "sm_clock_peak_mhz", d->sm_clock_peak_mhz);
	if (d->mem_clock_peak_mhz > 0)
		cJSON_AddNumberToObject(o, "mem_clock_peak_mhz", d->mem_clock_peak_mhz);
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
	double sm = cua_json_num(o, "sm_clock_peak_mhz"), mc = cua_json_num(o, "mem_clock_peak_mhz");
	d->sm_clock_peak_mhz = sm > 0 ? sm : 0;
	d->mem_clock_peak_mhz = mc > 0 ? mc : 0;
}

void cua_ceilings_path(const char *root, const char *gpu, char *buf, size_t len)
{
	char name[128];
	cua_gpu_file_name(gpu, name, sizeof(name));
	snprintf(buf, len, "%s/data/devices/%s.json", root, name);
}

enum cua_status cua_ceilings_load(const char *root, const char *gpu,
                                  struct cua_ceilings *c, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF], *buf = NULL;
	size_t len = 0;
	enum cua_status st;

	memset(c, 0, sizeof(*c));
	cua_ceilings_path(root, gpu, path, sizeof(path));
	if (access(path, F_OK) != 0) {
		/* a root laid out before 2026-12-02 kept them in results/device/ (an earlier
		 * catalogue that bench/ab.sh or TASKS_ROOT runs) */
		char name[128], old[CUA_PATH_BUF];
		cua_gpu_file_name(gpu, name, sizeof(name));
		snprintf(old, sizeof(old), "%s/results/device/%s.json", root, name);
		if (access(old, F_OK) == 0)
			snprintf(path, sizeof(path), "%s", old);
	}
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
	c->copy_gbs = cua_json_num(m, "copy_gbs");
	c->ffma_tflops = cua_json_num(m, "ffma_peak_tflops");
	c->sgemm_fp32_tflops = cua_json_num(m, "sgemm_fp32_tflops");
	c->sgemm_tf32_tflops = cua_json_num(m, "sgemm_tf32_tflops");
	c->gemm_bf16_tflops = cua_json_num(m, "gemm_bf16_tflops");
	c->known = c->copy_gbs > 0 && c->ffma_tflops > 0;
	if (!c->known)
		cua_errf(err, errlen, "%s: ceilings are missing or not positive", path);
	cJSON_Delete(j);
	return c->known ? CUA_OK : CUA_E_PARSE;
}
