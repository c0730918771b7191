/* verdict.c — verdict names, evaluation records, and the one JSON codec of each
 * (an evaluation, its cases, its timing, sample statistics). */
#include "judge/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <cjson/cJSON.h>

static const char *const names[CUA_VERDICT_COUNT] = {
	[CUA_VERDICT_OK] = "ok",
	[CUA_VERDICT_COMPILE_ERROR] = "compile_error",
	[CUA_VERDICT_COMPILE_TIMEOUT] = "compile_timeout",
	[CUA_VERDICT_FORBIDDEN_SYMBOL] = "forbidden_symbol",
	[CUA_VERDICT_LOAD_ERROR] = "load_error",
	[CUA_VERDICT_LAUNCH_ERROR] = "launch_error",
	[CUA_VERDICT_RUNTIME_ERROR] = "runtime_error",
	[CUA_VERDICT_TIMEOUT] = "timeout",
	[CUA_VERDICT_CRASH] = "crash",
	[CUA_VERDICT_WRONG_OUTPUT] = "wrong_output",
	[CUA_VERDICT_NAN_OUTPUT] = "nan_output",
	[CUA_VERDICT_INPUT_MUTATED] = "input_mutated",
	[CUA_VERDICT_OUT_OF_BOUNDS] = "out_of_bounds",
	[CUA_VERDICT_TIMING_ANOMALY] = "timing_anomaly",
	[CUA_VERDICT_HARNESS_ERROR] = "harness_error",
	[CUA_VERDICT_SANDBOX_VIOLATION] = "sandbox_violation",
	[CUA_VERDICT_FORBIDDEN_INSTRUCTION] = "forbidden_instruction",
	[CUA_VERDICT_NO_CODE] = "no_code",
};

const char *cua_verdict_name(enum cua_verdict v)
{
	return (unsigned)v < CUA_VERDICT_COUNT ? names[v] : "unknown";
}

bool cua_verdict_parse(const char *name, enum cua_verdict *out)
{
	for (int i = 0; i < CUA_VERDICT_COUNT; i++)
		if (name && !strcmp(name, names[i])) {
			*out = (enum cua_verdict)i;
			return true;
		}
	return false;
}

const struct cua_stats *cua_timing_stats(const struct cua_timing *t)
{
	return t->judge_ms.n > 0 ? &t->judge_ms : &t->event_ms;
}

void cua_eval_init(struct cua_eval *e, const char *subject)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->subject, sizeof(e->subject), "%s", subject ? subject : "");
	e->verdict = CUA_VERDICT_OK;
}

void cua_eval_clear(struct cua_eval *e)
{
	if (!e)
		return;
	free(e->compile_log);
	free(e->output_tail);
	e->compile_log = NULL;
	e->output_tail = NULL;
}

void cua_eval_fail(struct cua_eval *e, enum cua_verdict v, const char *fmt, ...)
{
	va_list ap;

	e->verdict = v;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
}

void cua_eval_max_errors(const struct cua_eval *e, double *max_abs, double *max_rel)
{
	double ma = 0, mr = 0;
	for (int i = 0; i < e->n_cases; i++) {
		if (isfinite(e->cases[i].max_abs))
			ma = fmax(ma, e->cases[i].max_abs);
		if (isfinite(e->cases[i].max_rel))
			mr = fmax(mr, e->cases[i].max_rel);
	}
	*max_abs = ma;
	*max_rel = mr;
}

void cua_eval_accuracy(const struct cua_eval *e, struct cua_accuracy_summary *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < e->n_cases; i++) {
		const struct cua_case *k = &e->cases[i];
		if (!k->accuracy.judged)
			continue;
		snprintf(s->vs, sizeof(s->vs), "%s", k->accuracy.vs);
		s->judged++;
		s->exposed += k->accuracy.exposed;
		s->failed += !k->accuracy.ok;
		if (isfinite(k->accuracy.rho))
			s->max_rho = fmax(s->max_rho, fabs(k->accuracy.rho));
		if (isfinite(k->accuracy.explained))
			s->max_explained = fmax(s->max_explained, k->accuracy.explained);
		if (isfinite(k->accuracy.err_ratio)) {
			s->max_err_ratio = fmax(s->max_err_ratio, k->accuracy.err_ratio);
			if (k->accuracy.exposed)
				s->max_err_ratio_exposed =
				    fmax(s->max_err_ratio_exposed, k->accuracy.err_ratio);
		}
	}
}

/* Numbers that JSON cannot hold (NaN, inf) are written as null. */
static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* ---- one codec per record ----------------------------------------------------
 * Each record below has one writer and one reader, side by side: the judge writes
 * its case, timing and device events with them and the parent reads those events
 * with them; evals.jsonl holds the same objects inside each evaluation. */

void cua_stats_to_json(cJSON *parent, const char *key, const struct cua_stats *s)
{
	cJSON *j = cJSON_AddObjectToObject(parent, key);
	cJSON_AddNumberToObject(j, "n", s->n);
	add_num(j, "median", s->median);
	add_num(j, "q1", s->q1);
	add_num(j, "q3", s->q3);
	add_num(j, "iqr", s->iqr);
	add_num(j, "mean", s->mean);
	add_num(j, "stdev", s->stdev);
	add_num(j, "min", s->min);
	add_num(j, "max", s->max);
	add_num(j, "rel_sem", s->rel_sem);
}

void cua_case_to_json(cJSON *j, const struct cua_case *k)
{
	cJSON_AddStringToObject(j, "shape", k->shape);
	if (k->secret)
		cJSON_AddStringToObject(j, "seed", "secret");
	else
		cJSON_AddNumberToObject(j, "seed", (double)k->seed);
	cJSON_AddBoolToObject(j, "recheck", k->recheck);
	cJSON_AddBoolToObject(j, "ok", k->ok);
	cJSON_AddNumberToObject(j, "n", (double)k->n_elems);
	cJSON_AddNumberToObject(j, "bad", (double)k->n_bad);
	cJSON_AddNumberToObject(j, "nan", (double)k->n_nan);
	cJSON_AddNumberToObject(j, "unwritten", (double)k->n_unwritten);
	add_num(j, "max_abs", k->max_abs);
	add_num(j, "max_rel", k->max_rel);
	if (!k->ok) {
		cJSON_AddStringToObject(j, "output", k->output);
		cJSON_AddNumberToObject(j, "first_bad", (double)k->first_bad);
		cJSON_AddStringToObject(j, "first_bad_at", k->first_bad_at);
		add_num(j, "got", k->got);
		add_num(j, "want", k->want);
	}
	if (k->accuracy.judged) {
		cJSON *a = cJSON_AddObjectToObject(j, "accuracy");
		cJSON_AddStringToObject(a, "vs", k->accuracy.vs);
		cJSON_AddStringToObject(a, "output", k->accuracy.output);
		cJSON_AddBoolToObject(a, "ok", k->accuracy.ok);
		cJSON_AddBoolToObject(a, "exposed", k->accuracy.exposed);
		add_num(a, "rho", k->accuracy.rho);
		add_num(a, "rho_sd", k->accuracy.rho_sd);
		add_num(a, "explained", k->accuracy.explained);
		add_num(a, "err_ratio", k->accuracy.err_ratio);
		add_num(a, "chk_ratio", k->accuracy.chk_ratio);
	}
}

void cua_timing_to_json(cJSON *j, const struct cua_timing *t)
{
	if (t->judge_ms.n > 0)
		cua_stats_to_json(j, "judge_ms", &t->judge_ms);
	cua_stats_to_json(j, "event_ms", &t->event_ms);
	cua_stats_to_json(j, "host_ms", &t->host_ms);
	add_num(j, "overhead_ms", t->overhead_ms);
	if (t->judge_ms.n > 0) {
		add_num(j, "claim_overhead_ms", t->claim_overhead_ms);
		add_num(j, "pre_ms", t->pre_ms);
		add_num(j, "pre_max_ms", t->pre_max_ms);
		add_num(j, "gap_max_ms", t->gap_max_ms);
	}
	add_num(j, "sm_mhz_before", t->sm_mhz_before);
	add_num(j, "sm_mhz_after", t->sm_mhz_after);
	cJSON_AddNumberToObject(j, "input_sets", t->input_sets);
	cJSON *sm = cJSON_AddArrayToObject(j, "set_median_ms");
	for (int i = 0; i < t->input_sets && i < (int)CUA_ARRAY_LEN(t->set_median_ms); i++)
		cJSON_AddItemToArray(sm, cJSON_CreateNumber(t->set_median_ms[i]));
	cJSON_AddNumberToObject(j, "flush_bytes", t->flush_bytes);
}

cJSON *cua_eval_to_json(const struct cua_eval *e)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "subject", e->subject);
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(e->verdict));
	cua_json_add_text(o, "message", e->message);
	if (e->imported)
		cJSON_AddBoolToObject(o, "imported", true);
	cJSON *c = cJSON_AddObjectToObject(o, "compile");
	cJSON_AddBoolToObject(c, "cache_hit", e->cache_hit);
	cJSON_AddNumberToObject(c, "seconds", e->compile_s);
	cJSON_AddStringToObject(c, "so_sha256", e->so_sha);
	if (e->compile_log)
		cua_json_add_text(c, "log", e->compile_log);
	cJSON *vs = cJSON_AddArrayToObject(o, "violations");
	for (int i = 0; i < e->n_violations && i < (int)CUA_ARRAY_LEN(e->violations); i++) {
		cJSON *v = cJSON_CreateObject();
		cua_json_add_text(v, "symbol", e->violations[i].symbol);
		cua_json_add_text(v, "reason", e->violations[i].reason);
		cJSON_AddItemToArray(vs, v);
	}
	cJSON *cs = cJSON_AddArrayToObject(o, "cases");
	for (int i = 0; i < e->n_cases; i++) {
		cJSON *j = cJSON_CreateObject();
		cua_case_to_json(j, &e->cases[i]);
		cJSON_AddItemToArray(cs, j);
	}
	if (e->timing.done)
		cua_timing_to_json(cJSON_AddObjectToObject(o, "timing"), &e->timing);
	add_num(o, "sol_ms", e->sol_ms);
	add_num(o, "pct_sol", e->pct_sol);
	cJSON *p = cJSON_AddObjectToObject(o, "seconds");
	cJSON_AddNumberToObject(p, "check", e->check_s);
	cJSON_AddNumberToObject(p, "timing", e->timing_s);
	cJSON_AddNumberToObject(p, "run", e->run_s);
	if (e->profile[0])
		cJSON_AddStringToObject(p, "judge", e->profile);
	cJSON_AddBoolToObject(o, "net_isolated", e->net_isolated);
	if (e->jail[0])
		cJSON_AddStringToObject(o, "jail", e->jail);
	if (e->output_tail)
		cua_json_add_text(o, "output", e->output_tail);
	if (e->sass_note[0])   /* names the kernel's own functions */
		cua_json_add_text(o, "sass", e->sass_note);
	return o;
}

/* ---- reading back ---------------------------------------------------------- */

struct rd {
	char *err;
	size_t errlen;
	bool bad;
};

static double get_num(struct rd *r, const cJSON *o, const char *k, bool required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsNumber(v))
		return v->valuedouble;
	if (cJSON_IsNull(v))
		return NAN;
	if (required && !r->bad) {
		cua_errf(r->err, r->errlen, "%s: expected a number", k);
		r->bad = true;
	}
	return 0;
}

static void get_str(struct rd *r, const cJSON *o, const char *k, char *dst,
                    size_t len, bool required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsString(v)) {
		snprintf(dst, len, "%s", v->valuestring);
		return;
	}
	dst[0] = '\0';
	if (required && !r->bad) {
		cua_errf(r->err, r->errlen, "%s: expected a string", k);
		r->bad = true;
	}
}

static bool get_bool(const cJSON *o, const char *k)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void stats_from(struct rd *r, const cJSON *parent, const char *key,
                       struct cua_stats *s)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);
	memset(s, 0, sizeof(*s));
	if (!cJSON_IsObject(o)) {
		if (!r->bad)
			cua_errf(r->err, r->errlen, "%s: expected an object", key);
		r->bad = true;
		return;
	}
	s->n = cua_to_int(get_num(r, o, "n", true));
	s->median = get_num(r, o, "median", true);
	s->q1 = get_num(r, o, "q1", false);
	s->q3 = get_num(r, o, "q3", false);
	s->iqr = get_num(r, o, "iqr", false);
	s->mean = get_num(r, o, "mean", false);
	s->stdev = get_num(r, o, "stdev", false);
	s->min = get_num(r, o, "min", false);
	s->max = get_num(r, o, "max", false);
	s->rel_sem = get_num(r, o, "rel_sem", false);
}

static void case_from(struct rd *r, const cJSON *v, struct cua_case *k)
{
	memset(k, 0, sizeof(*k));
	get_str(r, v, "shape", k->shape, sizeof(k->shape), true);
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(v, "seed");
	k->secret = cJSON_IsString(sd);
	k->seed = cJSON_IsNumber(sd) ? cua_to_u64(sd->valuedouble) : 0;
	k->recheck = get_bool(v, "recheck");
	k->ok = get_bool(v, "ok");
	k->n_elems = cua_to_u64(get_num(r, v, "n", false));
	k->n_bad = cua_to_u64(get_num(r, v, "bad", false));
	k->n_nan = cua_to_u64(get_num(r, v, "nan", false));
	k->n_unwritten = cua_to_u64(get_num(r, v, "unwritten", false));
	k->max_abs = get_num(r, v, "max_abs", false);
	k->max_rel = get_num(r, v, "max_rel", false);
	k->first_bad = -1;
	if (!k->ok) {
		get_str(r, v, "output", k->output, sizeof(k->output), false);
		k->first_bad = cua_to_i64(get_num(r, v, "first_bad", false));
		get_str(r, v, "first_bad_at", k->first_bad_at, sizeof(k->first_bad_at), false);
		k->got = get_num(r, v, "got", false);
		k->want = get_num(r, v, "want", false);
	}
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "accuracy");
	if (cJSON_IsObject(a)) {   /* since 2026-12-01; optional */
		k->accuracy.judged = true;
		get_str(r, a, "vs", k->accuracy.vs, sizeof(k->accuracy.vs), false);
		get_str(r, a, "output", k->accuracy.output, sizeof(k->accuracy.output), false);
		k->accuracy.ok = get_bool(a, "ok");
		k->accuracy.exposed = get_bool(a, "exposed");
		k->accuracy.rho = get_num(r, a, "rho", false);
		k->accuracy.rho_sd = get_num(r, a, "rho_sd", false);
		k->accuracy.explained = get_num(r, a, "explained", false);
		k->accuracy.err_ratio = get_num(r, a, "err_ratio", false);
		k->accuracy.chk_ratio = get_num(r, a, "chk_ratio", false);
	}
}

static void timing_from(struct rd *r, const cJSON *t, struct cua_timing *tm)
{
	memset(tm, 0, sizeof(*tm));
	tm->done = true;
	if (cJSON_GetObjectItemCaseSensitive(t, "judge_ms"))
		stats_from(r, t, "judge_ms", &tm->judge_ms);
	tm->claim_overhead_ms = get_num(r, t, "claim_overhead_ms", false);
	tm->pre_ms = get_num(r, t, "pre_ms", false);
	tm->pre_max_ms = get_num(r, t, "pre_max_ms", false);
	tm->gap_max_ms = get_num(r, t, "gap_max_ms", false);
	stats_from(r, t, "event_ms", &tm->event_ms);
	stats_from(r, t, "host_ms", &tm->host_ms);
	tm->overhead_ms = get_num(r, t, "overhead_ms", false);
	tm->sm_mhz_before = get_num(r, t, "sm_mhz_before", false);
	tm->sm_mhz_after = get_num(r, t, "sm_mhz_after", false);
	tm->input_sets = cua_to_int(get_num(r, t, "input_sets", false));
	int k = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(t, "set_median_ms"))
		if (k < (int)CUA_ARRAY_LEN(tm->set_median_ms) && cJSON_IsNumber(x))
			tm->set_median_ms[k++] = x->valuedouble;
	tm->flush_bytes = get_num(r, t, "flush_bytes", false);
}

enum cua_status cua_case_from_json(const cJSON *o, struct cua_case *k, char *err,
                                   size_t errlen)
{
	struct rd r = {err, errlen, false};
	case_from(&r, o, k);
	return r.bad ? CUA_E_PARSE : CUA_OK;
}

enum cua_status cua_timing_from_json(const cJSON *o, struct cua_timing *t, char *err,
                                     size_t errlen)
{
	struct rd r = {err, errlen, false};
	timing_from(&r, o, t);
	return r.bad ? CUA_E_PARSE : CUA_OK;
}

enum cua_status cua_eval_from_json(const cJSON *j, struct cua_eval *e, char *err,
                                   size_t errlen)
{
	struct rd r = {err, errlen, false};
	char vname[64];

	cua_eval_init(e, "");
	if (!cJSON_IsObject(j)) {
		cua_errf(err, errlen, "evaluation: expected an object");
		return CUA_E_PARSE;
	}
	get_str(&r, j, "subject", e->subject, sizeof(e->subject), true);
	get_str(&r, j, "verdict", vname, sizeof(vname), true);
	if (!r.bad && !cua_verdict_parse(vname, &e->verdict)) {
		cua_errf(err, errlen, "verdict: unknown verdict '%s'", vname);
		return CUA_E_PARSE;
	}
	get_str(&r, j, "message", e->message, sizeof(e->message), false);
	e->imported = get_bool(j, "imported");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "compile");
	if (cJSON_IsObject(c)) {
		e->cache_hit = get_bool(c, "cache_hit");
		e->compile_s = get_num(&r, c, "seconds", false);
		get_str(&r, c, "so_sha256", e->so_sha, sizeof(e->so_sha), false);
		const cJSON *lg = cJSON_GetObjectItemCaseSensitive(c, "log");
		if (cJSON_IsString(lg))
			e->compile_log = strdup(lg->valuestring);
	}
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "violations"))
	{
		if (e->n_violations >= (int)CUA_ARRAY_LEN(e->violations))
			break;
		struct cua_violation *x = &e->violations[e->n_violations++];
		get_str(&r, v, "symbol", x->symbol, sizeof(x->symbol), true);
		get_str(&r, v, "reason", x->reason, sizeof(x->reason), true);
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "cases"))
	{
		if (e->n_cases >= CUA_MAX_CASES)
			break;
		case_from(&r, v, &e->cases[e->n_cases++]);
	}
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "timing");
	if (cJSON_IsObject(t))
		timing_from(&r, t, &e->timing);
	get_str(&r, j, "jail", e->jail, sizeof(e->jail), false);
	e->sol_ms = get_num(&r, j, "sol_ms", false);
	e->pct_sol = get_num(&r, j, "pct_sol", false);
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "seconds");
	if (cJSON_IsObject(p)) {
		e->check_s = get_num(&r, p, "check", false);
		e->timing_s = get_num(&r, p, "timing", false);
		e->run_s = get_num(&r, p, "run", false);
		get_str(&r, p, "judge", e->profile, sizeof(e->profile), false);
	}
	e->net_isolated = get_bool(j, "net_isolated");
	const cJSON *out = cJSON_GetObjectItemCaseSensitive(j, "output");
	if (cJSON_IsString(out))
		e->output_tail = strdup(out->valuestring);
	get_str(&r, j, "sass", e->sass_note, sizeof(e->sass_note), false);
	if (r.bad) {
		cua_eval_clear(e);
		return CUA_E_PARSE;
	}
	return CUA_OK;
}
