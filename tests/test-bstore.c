/* test-bstore.c — the baseline store without a GPU (harness/judge/bstore.c): keys and
 * their canonical text, entries put and got, corrupt and misfiled entries ignored
 * and named, writers racing on one key, and the decision of what is reused, measured
 * and re-timed (hit, miss, --fresh-baselines, the drift check) with a fake clock. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "judge/bstore.h"
#include "results/results.h"
#include "results/writer.h"
#include "catalogue/catalogue.h"
#include "cuarena-test.h"

TestSuite(bstore, .init = tmp_make, .fini = tmp_remove, .timeout = 60);

/* A correct, timed evaluation whose median is ms. */
static void timed(struct cua_eval *e, const char *subject, double ms)
{
	cua_eval_init(e, subject);
	e->verdict = CUA_VERDICT_OK;
	e->timing.done = true;
	e->timing.judge_ms.n = 10;
	e->timing.judge_ms.median = ms;
	e->timing.judge_ms.mean = ms;
}

static void key_of(struct cua_bstore_key *k, const char *subject, const char *clock)
{
	memset(k, 0, sizeof(*k));
	cua_bstore_key_set(k, "task", "L1/019-relu");
	cua_bstore_key_set(k, "subject", "%s", subject);
	cua_bstore_key_set(k, "build_sha256", "%064d", 7);
	cua_bstore_key_set(k, "gpu_name", "NVIDIA H200");
	cua_bstore_key_set(k, "gpu_sm_clock_peak_mhz", "%s", clock);
	cua_bstore_key_set(k, "timing_method", "1");
}

/* A store in tmp/store whose warnings go to a memory stream read by warnings(). */
static char *log_buf;
static size_t log_len;
static struct cua_bstore *store(bool fresh)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/store", tmp);
	struct cua_bstore *s = cua_bstore_new(dir, fresh, NULL, 0);
	cr_assert_not_null(s);
	s->log = open_memstream(&log_buf, &log_len);
	return s;
}

static const char *warnings(struct cua_bstore *s)
{
	fflush(s->log);
	return log_buf ? log_buf : "";
}

static void done(struct cua_bstore *s)
{
	fclose(s->log);
	free(log_buf);
	log_buf = NULL;
	cua_bstore_free(s);
}

static void entry_file(const struct cua_bstore_key *k, char *path, size_t len)
{
	char sha[65];
	cua_bstore_key_sha256(k, sha);
	snprintf(path, len, "%s/store/%s.json", tmp, sha);
}

Test(bstore, a_key_is_the_same_whatever_the_order_its_fields_were_set_in)
{
	struct cua_bstore_key a = {0}, b = {0};
	cua_bstore_key_set(&a, "task", "L1/019-relu");
	cua_bstore_key_set(&a, "gpu_name", "NVIDIA H200");
	cua_bstore_key_set(&b, "gpu_name", "NVIDIA H200");
	cua_bstore_key_set(&b, "task", "L1/019-relu");
	char sa[65], sb[65];
	cua_bstore_key_sha256(&a, sa);
	cua_bstore_key_sha256(&b, sb);
	cr_expect_str_eq(sa, sb);
	char *text = cua_bstore_key_text(&a);
	cr_expect_str_eq(text, "cuarena-baseline-key\ngpu_name=NVIDIA H200\ntask=L1/019-relu\n");
	free(text);
	/* setting a field again replaces it */
	cua_bstore_key_set(&b, "task", "L1/001-square-matrix-multiplication");
	cr_expect_eq(b.n, 2);
	cua_bstore_key_sha256(&b, sb);
	cr_expect_str_neq(sa, sb);
}

Test(bstore, a_newline_in_a_value_cannot_forge_another_field)
{
	struct cua_bstore_key a = {0}, b = {0};
	cua_bstore_key_set(&a, "a", "x\nb=y");
	cua_bstore_key_set(&b, "a", "x");
	cua_bstore_key_set(&b, "b", "y");
	char sa[65], sb[65];
	cua_bstore_key_sha256(&a, sa);
	cua_bstore_key_sha256(&b, sb);
	cr_expect_str_neq(sa, sb);
	char *text = cua_bstore_key_text(&a);
	cr_expect_str_eq(text, "cuarena-baseline-key\na=x\\nb=y\n");
	free(text);
}

Test(bstore, a_stored_measurement_is_found_under_its_key_and_no_other)
{
	struct cua_bstore *s = store(false);
	struct cua_bstore_key k, other;
	struct cua_eval e, got;
	char err[CUA_ERR_LEN] = "", path[512];
	key_of(&k, "nvcc", "1980");
	key_of(&other, "nvcc", "1755");   /* the same device at another clock */
	timed(&e, "nvcc", 2.5);
	cr_assert_eq(cua_bstore_put(s, &k, &e, err, sizeof(err)), CUA_OK, "%s", err);
	entry_file(&k, path, sizeof(path));
	cr_expect_eq(access(path, R_OK), 0, "the entry is %s", path);
	cr_assert(cua_bstore_get(s, &k, "nvcc", &got));
	cr_expect_str_eq(got.subject, "nvcc");
	cr_expect_float_eq(cua_timing_stats(&got.timing)->median, 2.5, 1e-12);
	cua_eval_clear(&got);
	cr_expect_not(cua_bstore_get(s, &other, "nvcc", &got));
	cr_expect_str_eq(warnings(s), "", "a plain miss says nothing");
	cua_eval_clear(&got);
	cua_eval_clear(&e);
	done(s);
}

Test(bstore, only_a_correct_timed_measurement_is_stored)
{
	struct cua_bstore *s = store(false);
	struct cua_bstore_key k;
	struct cua_eval e;
	char err[CUA_ERR_LEN] = "";
	key_of(&k, "nvcc", "1980");
	timed(&e, "nvcc", 2.5);
	e.verdict = CUA_VERDICT_WRONG_OUTPUT;
	cr_expect_eq(cua_bstore_put(s, &k, &e, err, sizeof(err)), CUA_E_INVALID);
	timed(&e, "nvcc", 2.5);
	e.timing.done = false;
	cr_expect_eq(cua_bstore_put(s, &k, &e, err, sizeof(err)), CUA_E_INVALID);
	done(s);
}

/* Entries that must never be trusted: each is a miss, named in a warning. */
static const struct {
	const char *what, *text, *why;
} bad_entries[] = {
	{"truncated", "{\"store\": 1, \"key\": {\"task\": \"L1/0", "not a JSON object"},
	{"empty", "", "not a JSON object"},
	{"another format", "{\"store\": 2}", "\"store\" is not 1"},
	{"no key", "{\"store\": 1, \"eval\": {}}", "not the key it is filed under"},
	{"garbage", "\x01\x02\xff not json", "not a JSON object"},
};

Test(bstore, a_corrupt_or_truncated_entry_is_ignored_and_named)
{
	struct cua_bstore_key k;
	struct cua_eval got;
	char path[512];
	key_of(&k, "nvcc", "1980");
	entry_file(&k, path, sizeof(path));
	for (size_t i = 0; i < CUA_ARRAY_LEN(bad_entries); i++) {
		struct cua_bstore *s = store(false);
		char rel[128];
		snprintf(rel, sizeof(rel), "store/%s", strrchr(path, '/') + 1);
		tmp_write(rel, bad_entries[i].text);
		cr_expect_not(cua_bstore_get(s, &k, "nvcc", &got), "%s", bad_entries[i].what);
		cua_eval_clear(&got);
		cr_expect(strstr(warnings(s), path), "%s: the file is named: %s",
		          bad_entries[i].what, warnings(s));
		cr_expect(strstr(warnings(s), bad_entries[i].why), "%s: %s", bad_entries[i].what,
		          warnings(s));
		done(s);
	}
}

Test(bstore, an_entry_filed_under_another_key_is_not_taken_for_it)
{
	struct cua_bstore *s = store(false);
	struct cua_bstore_key k, other;
	struct cua_eval e, got;
	char err[CUA_ERR_LEN] = "", from[512], to[512];
	key_of(&k, "nvcc", "1980");
	key_of(&other, "nvcc", "1755");
	timed(&e, "nvcc", 2.5);
	cr_assert_eq(cua_bstore_put(s, &other, &e, err, sizeof(err)), CUA_OK, "%s", err);
	entry_file(&other, from, sizeof(from));
	entry_file(&k, to, sizeof(to));
	cr_assert_eq(rename(from, to), 0);
	cr_expect_not(cua_bstore_get(s, &k, "nvcc", &got));
	cr_expect(strstr(warnings(s), "not the key it is filed under"), "%s", warnings(s));
	cua_eval_clear(&got);
	cua_eval_clear(&e);
	done(s);
}

Test(bstore, a_stored_failure_or_another_subject_is_not_reused)
{
	struct cua_bstore *s = store(false);
	struct cua_bstore_key k;
	struct cua_eval e, got;
	char err[CUA_ERR_LEN] = "", path[512];
	key_of(&k, "nvcc", "1980");
	timed(&e, "nvcc", 2.5);
	cr_assert_eq(cua_bstore_put(s, &k, &e, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_not(cua_bstore_get(s, &k, "cublas/sgemm", &got));
	cr_expect(strstr(warnings(s), "holds subject \"nvcc\""), "%s", warnings(s));
	cua_eval_clear(&got);
	/* the same entry with its verdict edited to a failure */
	entry_file(&k, path, sizeof(path));
	char *buf = NULL;
	cr_assert_eq(cua_read_file(path, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
	cJSON *j = cJSON_Parse(buf);
	free(buf);
	cJSON *ev = cJSON_GetObjectItem(j, "eval");
	cJSON_ReplaceItemInObject(ev, "verdict", cJSON_CreateString("wrong_output"));
	char *text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	cr_assert_eq(cua_write_file(path, text, strlen(text), NULL, 0), CUA_OK);
	free(text);
	cr_expect_not(cua_bstore_get(s, &k, "nvcc", &got));
	cr_expect(strstr(warnings(s), "not a correct, timed measurement"), "%s", warnings(s));
	cua_eval_clear(&got);
	cua_eval_clear(&e);
	done(s);
}

Test(bstore, writers_racing_on_one_key_leave_one_whole_entry_and_no_temporaries)
{
	struct cua_bstore_key k;
	key_of(&k, "nvcc", "1980");
	enum { WRITERS = 4, ROUNDS = 40 };
	pid_t pid[WRITERS];
	for (int w = 0; w < WRITERS; w++) {
		pid[w] = fork();
		cr_assert_geq(pid[w], 0);
		if (pid[w] == 0) {
			struct cua_bstore *s = cua_bstore_new(tmp, false, NULL, 0);
			snprintf(s->dir, sizeof(s->dir), "%s/store", tmp);
			for (int r = 0; r < ROUNDS; r++) {
				struct cua_eval e;
				timed(&e, "nvcc", 1.0 + w);
				e.compile_log = cua_xstrdup("a log to make the entry longer than one page "
				                            "................................................"
				                            "................................................");
				if (cua_bstore_put(s, &k, &e, NULL, 0) != CUA_OK)
					_exit(1);
				cua_eval_clear(&e);
			}
			cua_bstore_free(s);
			_exit(0);
		}
	}
	/* a reader meanwhile: every entry it finds is whole and one writer's */
	struct cua_bstore *s = store(false);
	int hits = 0;
	for (int r = 0; r < 200; r++) {
		struct cua_eval got;
		if (cua_bstore_get(s, &k, "nvcc", &got)) {
			double m = cua_timing_stats(&got.timing)->median;
			cr_expect(m == 1.0 || m == 2.0 || m == 3.0 || m == 4.0, "median %g", m);
			hits++;
		}
		cua_eval_clear(&got);
	}
	for (int w = 0; w < WRITERS; w++) {
		int status = 0;
		cr_assert_eq(waitpid(pid[w], &status, 0), pid[w]);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d", w);
	}
	cr_expect_str_eq(warnings(s), "", "no reader ever saw a torn entry");
	struct cua_eval got;
	cr_expect(cua_bstore_get(s, &k, "nvcc", &got));
	cua_eval_clear(&got);
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/store", tmp);
	DIR *d = opendir(dir);
	cr_assert_not_null(d);
	int files = 0;
	for (struct dirent *de; (de = readdir(d));)
		if (de->d_name[0] != '.' || (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")))
			files++;
	closedir(d);
	cr_expect_eq(files, 1, "one entry, no temporary left behind");
	done(s);
}

/* ---- the decision, with a fake measurement ----------------------------------------- */

/* The fake GPU: subject i times base[i] * scale; calls counted per subject. */
struct fake {
	double base[4], scale;
	int calls[4];
	bool fail[4];          /* this subject's measurement fails (a verdict) */
	bool no_store;
};

static enum cua_status fake_measure(void *ctx, int i, struct cua_bstore_item *it, char *err,
                                    size_t errlen)
{
	struct fake *f = ctx;
	f->calls[i]++;
	timed(it->e, it->subject, f->base[i] * f->scale);
	if (f->fail[i])
		it->e->verdict = CUA_VERDICT_WRONG_OUTPUT;
	it->no_store = f->no_store;
	return CUA_OK;
}

static const char *const subjects[3] = {"nvcc", "cudnn/relu", "cublas/sgemm"};

/* One task's three baselines through s on device gpu; evals cleared by caller. */
static void obtain(struct cua_bstore *s, const char *gpu, bool fresh, struct fake *f,
                   struct cua_bstore_item items[3], struct cua_eval evals[3])
{
	char err[CUA_ERR_LEN] = "";
	memset(items, 0, 3 * sizeof(items[0]));
	for (int i = 0; i < 3; i++) {
		cua_eval_init(&evals[i], subjects[i]);
		items[i].subject = subjects[i];
		items[i].e = &evals[i];
		key_of(&items[i].key, subjects[i], "1980");
	}
	cr_assert_eq(cua_bstore_obtain(s, cua_bstore_device(s, gpu), fresh, "L1/019-relu", items,
	                               3, fake_measure, f, err, sizeof(err)), CUA_OK, "%s", err);
}

static void clear3(struct cua_eval evals[3])
{
	for (int i = 0; i < 3; i++)
		cua_eval_clear(&evals[i]);
}

Test(bstore, a_miss_measures_and_stores_and_the_next_run_reuses_after_one_drift_check)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];

	struct cua_bstore *s = store(false);   /* the first run */
	obtain(s, "0", false, &f, items, evals);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(f.calls[i], 1);
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_MEASURED);
		cr_expect_eq(strlen(items[i].origin.key_sha256), 64);
	}
	cr_expect_eq(s->stored, 3);
	clear3(evals);
	done(s);

	s = store(false);                      /* the next run: a new invocation */
	f.scale = 1.01;                        /* 1 % slower: within the check's 2 % */
	obtain(s, "0", false, &f, items, evals);
	/* the drift check re-times the cheapest reused baseline, cudnn/relu (2 ms) */
	cr_expect_eq(f.calls[0], 1, "nvcc reused");
	cr_expect_eq(f.calls[1], 2, "cudnn/relu re-timed");
	cr_expect_eq(f.calls[2], 1, "cublas/sgemm reused");
	cr_expect_eq(items[0].origin.how, CUA_BSTORE_REUSED);
	cr_expect_eq(items[2].origin.how, CUA_BSTORE_REUSED);
	cr_expect_eq(items[1].origin.how, CUA_BSTORE_MEASURED);
	cr_expect(items[1].origin.drift_check);
	cr_expect_not(items[1].origin.drifted);
	cr_expect_float_eq(items[1].origin.stored_ms, 2.0, 1e-12);
	cr_expect_float_eq(items[1].origin.retimed_ms, 2.02, 1e-12);
	cr_expect_float_eq(cua_timing_stats(&evals[0].timing)->median, 9.0, 1e-12,
	                   "a reused baseline is its stored measurement");
	cr_expect_float_eq(cua_timing_stats(&evals[1].timing)->median, 2.02, 1e-12,
	                   "the re-timed one is the new measurement");
	cr_expect(strstr(warnings(s), "within 2 %"), "%s", warnings(s));
	clear3(evals);

	/* the next task of the same run on that device: no second drift check */
	obtain(s, "0", false, &f, items, evals);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_REUSED);
	cr_expect_eq(f.calls[1], 2);
	cr_expect_eq(s->reused, 5, "two, then three");
	clear3(evals);
	/* another device of the run checks its own drift */
	obtain(s, "1", false, &f, items, evals);
	cr_expect_eq(f.calls[1], 3);
	cr_expect(items[1].origin.drift_check);
	cr_expect_eq(s->drift_passed, 2, "one check passed on each device");
	cr_expect_eq(s->drift_drifted, 0);
	clear3(evals);
	done(s);
}

Test(bstore, a_drift_beyond_two_percent_measures_everything_again)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];
	struct cua_bstore *s = store(false);
	obtain(s, "", false, &f, items, evals);
	clear3(evals);
	done(s);

	s = store(false);
	f.scale = 1.05;                        /* the clocks changed: 5 % slower */
	obtain(s, "", false, &f, items, evals);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(f.calls[i], 2, "subject %d measured again", i);
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_MEASURED);
		cr_expect_float_eq(cua_timing_stats(&evals[i].timing)->median, f.base[i] * 1.05,
		                   1e-12);
	}
	cr_expect(items[1].origin.drift_check && items[1].origin.drifted);
	cr_expect(cua_bstore_device(s, "")->drifted);
	cr_expect(strstr(warnings(s), "outside 2 %"), "%s", warnings(s));
	clear3(evals);
	/* nothing more is reused on that device in this invocation ... */
	obtain(s, "", false, &f, items, evals);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_MEASURED);
	cr_expect_eq(s->drift_drifted, 1, "one device drifted, counted once");
	cr_expect_eq(s->drift_passed, 0);
	clear3(evals);
	done(s);
	/* ... and the store holds the new times: the next run reuses them */
	s = store(false);
	obtain(s, "", false, &f, items, evals);
	cr_expect_eq(items[0].origin.how, CUA_BSTORE_REUSED);
	cr_expect_float_eq(cua_timing_stats(&evals[0].timing)->median, 9.0 * 1.05, 1e-12);
	clear3(evals);
	done(s);
}

Test(bstore, a_drift_check_that_fails_its_measurement_counts_as_drift)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];
	struct cua_bstore *s = store(false);
	obtain(s, "", false, &f, items, evals);
	clear3(evals);
	done(s);
	s = store(false);
	f.fail[1] = true;
	obtain(s, "", false, &f, items, evals);
	cr_expect(items[1].origin.drifted);
	cr_expect(isnan(items[1].origin.retimed_ms));
	cr_expect_eq(f.calls[0], 2);
	cr_expect_eq(f.calls[2], 2);
	clear3(evals);
	done(s);
}

Test(bstore, a_drift_check_measured_on_another_device_counts_as_drift)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];
	struct cua_bstore *s = store(false);
	obtain(s, "", false, &f, items, evals);
	clear3(evals);
	done(s);
	s = store(false);
	f.no_store = true;                     /* the judge saw another device than the probe */
	obtain(s, "", false, &f, items, evals);
	cr_expect(items[1].origin.drift_check && items[1].origin.drifted);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_MEASURED);
	cr_expect(cua_bstore_device(s, "")->drifted);
	cr_expect_eq(s->drift_drifted, 1, "counted once, however many said so");
	clear3(evals);
	done(s);
}

Test(bstore, fresh_baselines_measure_all_and_refresh_the_store)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];
	struct cua_bstore *s = store(false);
	obtain(s, "", false, &f, items, evals);
	clear3(evals);
	done(s);

	s = store(true);                       /* --fresh-baselines */
	f.scale = 1.5;
	obtain(s, "", false, &f, items, evals);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(f.calls[i], 2);
		cr_expect_eq(items[i].origin.how, CUA_BSTORE_MEASURED);
		cr_expect_not(items[i].origin.drift_check);
	}
	clear3(evals);
	/* a call's own fresh (serve's remeasure) likewise */
	obtain(s, "", true, &f, items, evals);
	cr_expect_eq(f.calls[0], 3);
	clear3(evals);
	done(s);

	s = store(false);
	obtain(s, "", false, &f, items, evals);
	cr_expect_eq(items[0].origin.how, CUA_BSTORE_REUSED);
	cr_expect_float_eq(cua_timing_stats(&evals[0].timing)->median, 9.0 * 1.5, 1e-12,
	                   "the store holds the fresh measurement");
	clear3(evals);
	done(s);
}

Test(bstore, a_failed_or_unkeyed_or_unstorable_baseline_is_measured_every_time)
{
	struct fake f = {.base = {9.0, 2.0, 4.0}, .scale = 1.0};
	struct cua_bstore_item items[3];
	struct cua_eval evals[3];
	f.fail[2] = true;
	struct cua_bstore *s = store(false);
	obtain(s, "", false, &f, items, evals);
	cr_expect_eq(s->stored, 2, "the failing baseline is not stored");
	clear3(evals);
	done(s);
	s = store(false);
	obtain(s, "", false, &f, items, evals);
	cr_expect_eq(f.calls[2], 2);
	cr_expect_eq(items[2].origin.how, CUA_BSTORE_MEASURED);
	clear3(evals);
	done(s);

	/* measured by a device other than the key's: nothing stored */
	tmp_remove();
	tmp_make();
	struct fake g = {.base = {9.0, 2.0, 4.0}, .scale = 1.0, .no_store = true};
	s = store(false);
	obtain(s, "", false, &g, items, evals);
	cr_expect_eq(s->stored, 0);
	clear3(evals);
	done(s);
}

Test(bstore, a_baselines_line_says_how_and_the_results_reader_takes_it)
{
	struct cua_bstore_origin o = {.how = CUA_BSTORE_REUSED};
	snprintf(o.key_sha256, sizeof(o.key_sha256), "%064d", 1);
	cJSON *line = cJSON_CreateObject();
	cua_bstore_origin_to_json(line, &o);
	cJSON *st = cJSON_GetObjectItem(line, "store");
	cr_assert_not_null(st);
	cr_expect_str_eq(cJSON_GetObjectItem(st, "how")->valuestring, "reused");
	cr_expect_null(cJSON_GetObjectItem(st, "drift_check"));
	cJSON_Delete(line);
	line = cJSON_CreateObject();
	struct cua_bstore_origin none = {0};
	cua_bstore_origin_to_json(line, &none);
	cr_expect_null(cJSON_GetObjectItem(line, "store"), "without a store, nothing is said");
	cJSON_Delete(line);

	/* a run folder whose baselines lines carry it reads as one without */
	struct cua_catalogue cat;
	char err[CUA_ERR_LEN] = "", out[256];
	cr_assert_eq(cua_catalogue_load(root(), &cat, err, sizeof(err)), CUA_OK, "%s", err);
	const struct cua_task *t = cua_catalogue_find(&cat, "L1/019-relu", NULL, 0);
	cr_assert_not_null(t);
	snprintf(out, sizeof(out), "%s/run", tmp);
	struct cua_writer *w = NULL;
	cr_assert_eq(cua_writer_open(out, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_eval e;
	timed(&e, "nvcc", 3.0);
	cr_assert_eq(cua_writer_baseline(w, t, &e, NULL, &o, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_bstore_origin m = {.how = CUA_BSTORE_MEASURED, .drift_check = true,
	                              .stored_ms = 2.0, .retimed_ms = 2.01};
	timed(&e, "cudnn/relu", 2.01);
	cr_assert_eq(cua_writer_baseline(w, t, &e, NULL, &m, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	char *text = tmp_read("run/baselines.jsonl");
	cr_expect(strstr(text, "\"store\":{\"how\":\"reused\""), "%s", text);
	cr_expect(strstr(text, "\"drift_check\":{\"stored_ms\":2"), "%s", text);
	free(text);
	tmp_write("run/run.json", "{\"schema\": 2, \"agent\": {\"name\": \"test\"}}");
	struct cua_results *run = NULL;
	cr_assert_eq(cua_results_load(out, &run, err, sizeof(err)), CUA_OK, "%s", err);
	const struct cua_results_task *rt = cua_results_find(run, "L1/019-relu");
	cr_assert_not_null(rt);
	cr_expect_eq(rt->n_baselines, 2);
	cua_results_free(run);
	cua_eval_clear(&e);
	cua_catalogue_clear(&cat);
}

/* ---- a run's baselines through the store, on a fake GPU --------------------------- */

#include "compile/compile.h"
#include "episode/run.h"

/* A replay run of L1/019-relu (nvcc and cudnn/relu) whose one turn does not compile,
 * into tmp/OUT, judged by tests/fake-gpu: its probe names a device, its judge times
 * every baseline at a median fixed by the baseline. */
static void fake_run(const char *out, bool fresh, struct cua_bstore **sp)
{
	static char cache[512], dir[512], exe[4200], cfgtxt[600];
	char err[CUA_ERR_LEN] = "";
	snprintf(exe, sizeof(exe), "%s", built("tests/fake-gpu", X_OK));
	snprintf(cache, sizeof(cache), "%s/cache", tmp);
	snprintf(dir, sizeof(dir), "%s/%s", tmp, out);
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"dir\": \"%s/replay\"}", tmp);
	tmp_write("replay/L1/019-relu/turn-1.cu", "this is not CUDA\n");
	cJSON *cfg = cJSON_Parse(cfgtxt);
	struct cua_run_opts o;
	cua_run_opts_init(&o, root(), exe, cache);
	o.agent = cua_agent_find("replay");
	o.agent_config = cfg;
	o.tasks_glob = "L1/019-relu";
	o.turns = 1;
	o.jobs = 1;
	o.out_dir = dir;
	o.require_gpu = false;
	char sdir[512];
	snprintf(sdir, sizeof(sdir), "%s/store", tmp);
	struct cua_bstore *s = cua_bstore_new(sdir, fresh, NULL, 0);
	s->log = open_memstream(&log_buf, &log_len);
	o.eval.bstore = s;
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	*sp = s;
}

/* The "store" object of the baselines line of subject in tmp/OUT. */
static cJSON *line_store(const char *out, const char *subject, cJSON **all)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/baselines.jsonl", out);
	char *text = tmp_read(rel);
	cJSON *found = NULL;
	*all = cJSON_CreateArray();
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		cJSON *l = cJSON_Parse(p);
		cr_assert_not_null(l, "%s: %s", rel, p);
		cJSON_AddItemToArray(*all, l);
		const cJSON *ev = cJSON_GetObjectItem(l, "eval");
		const cJSON *sj = cJSON_GetObjectItem(ev, "subject");
		if (cJSON_IsString(sj) && !strcmp(sj->valuestring, subject))
			found = cJSON_GetObjectItem(l, "store");
	}
	free(text);
	cr_assert_not_null(found, "%s has a store for %s", rel, subject);
	return found;
}

/* A number of tmp/OUT/run.json's summary.baseline_store (sub: of its drift_checks),
 * checked to be the latest segment's too; NAN when absent. */
static double run_store(const char *out, const char *key, bool sub)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/run.json", out);
	char *text = tmp_read(rel);
	cJSON *j = cJSON_Parse(text);
	free(text);
	cr_assert_not_null(j, "%s", rel);
	const cJSON *segs = cJSON_GetObjectItem(j, "segments");
	const cJSON *seg = cJSON_GetArrayItem(segs, cJSON_GetArraySize(segs) - 1);
	const cJSON *sum = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summary"), "baseline_store");
	const cJSON *bs = cJSON_GetObjectItem(seg, "baseline_store");
	cr_assert_not_null(bs, "%s: the segment records the store", rel);
	cr_expect(cJSON_Compare(bs, sum, true), "%s: one segment, its summary the same", rel);
	if (sub)
		bs = cJSON_GetObjectItem(bs, "drift_checks");
	const cJSON *v = cJSON_GetObjectItem(bs, key);
	double d = cJSON_IsNumber(v) ? v->valuedouble : cJSON_IsBool(v) ? cJSON_IsTrue(v) : NAN;
	cJSON_Delete(j);
	return d;
}

static const char *how(const cJSON *store)
{
	const cJSON *h = cJSON_GetObjectItem(store, "how");
	return cJSON_IsString(h) ? h->valuestring : "";
}

Test(bstore, a_second_run_reuses_the_first_runs_baselines_after_a_drift_check,
     .timeout = 300)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run builds the task's baselines");
	struct cua_bstore *s;
	cJSON *all;
	fake_run("run1", false, &s);
	cr_expect_eq(s->measured, 2, "%s", warnings(s));
	cr_expect_eq(s->stored, 2, "%s", warnings(s));
	cr_expect_str_eq(how(line_store("run1", "nvcc", &all)), "measured");
	cJSON_Delete(all);
	cr_expect_str_eq(how(line_store("run1", "cudnn/relu", &all)), "measured");
	cJSON_Delete(all);
	/* run.json says what the store did, as the lines do */
	cr_expect_eq(run_store("run1", "on", false), 1);
	cr_expect_eq(run_store("run1", "fresh_baselines", false), 0);
	cr_expect_eq(run_store("run1", "measured", false), 2);
	cr_expect_eq(run_store("run1", "reused", false), 0);
	cr_expect_eq(run_store("run1", "stored", false), 2);
	cr_expect_eq(run_store("run1", "passed", true), 0);
	done(s);

	fake_run("run2", false, &s);
	cr_expect_eq(s->reused, 1, "%s", warnings(s));
	/* nvcc (1.5 ms) is the cheaper one: re-timed, within 2 %, cudnn/relu reused */
	const cJSON *n = line_store("run2", "nvcc", &all);
	cr_expect_str_eq(how(n), "measured");
	const cJSON *dc = cJSON_GetObjectItem(n, "drift_check");
	cr_assert_not_null(dc);
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(dc, "drifted")));
	cJSON_Delete(all);
	const cJSON *r = line_store("run2", "cudnn/relu", &all);
	cr_expect_str_eq(how(r), "reused");
	cr_expect_eq(strlen(cJSON_GetObjectItem(r, "key_sha256")->valuestring), 64);
	cJSON_Delete(all);
	/* the reader takes the reused line as a measured one */
	char dir[512], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/run2", tmp);
	struct cua_results *run = NULL;
	cr_assert_eq(cua_results_load(dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	const struct cua_results_task *rt = cua_results_find(run, "L1/019-relu");
	cr_assert_not_null(rt);
	cr_expect_eq(rt->n_baselines, 2);
	cua_results_free(run);
	cr_expect_eq(run_store("run2", "measured", false), 1);
	cr_expect_eq(run_store("run2", "reused", false), 1);
	cr_expect_eq(run_store("run2", "passed", true), 1);
	cr_expect_eq(run_store("run2", "drifted", true), 0);
	done(s);

	fake_run("run3", true, &s);            /* --fresh-baselines */
	cr_expect_eq(s->reused, 0);
	cr_expect_eq(s->measured, 2);
	cr_expect_str_eq(how(line_store("run3", "cudnn/relu", &all)), "measured");
	cJSON_Delete(all);
	cr_expect_eq(run_store("run3", "fresh_baselines", false), 1);
	cr_expect_eq(run_store("run3", "measured", false), 2);
	cr_expect_eq(run_store("run3", "reused", false), 0);
	done(s);
}
