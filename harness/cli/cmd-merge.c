/* cmd-merge.c — `cuarena merge SHARD... --out DIR`: the shards of one run (`run
 * --shard I/N`, e.g. a Slurm job array) joined into one run folder of the same
 * format (docs/RESULTS-FORMAT.md "Merged runs", docs/SCALE-OUT.md). */
#include "cli/cli.h"
#include "episode/episode.h"
#include "results/prior.h"
#include "results/writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

struct shard {
	const char *dir;
	cJSON *run;                 /* run.json; NULL when the folder has none */
	struct cua_prior_run meta;  /* run, decoded */
	int index, count;           /* from "shard"; -1 without one */
	int n_tasks;
	const char **tasks;         /* run.json's "tasks" (meta's) */
	struct cua_prior *held;     /* what its files hold: lines kept, tasks' ends */
	int n_open;                 /* tasks not ended */
};

static void shard_free(struct shard *s)
{
	cua_prior_run_clear(&s->meta);
	cJSON_Delete(s->run);
	cua_prior_free(s->held);
}

static int task_pos(const struct shard *s, const char *id)
{
	for (int i = 0; i < s->n_tasks; i++)
		if (!strcmp(s->tasks[i], id))
			return i;
	return -1;
}

/* Whether task k of the shard has ended (its last end line is final). */
static bool ended(const struct shard *s, int k)
{
	struct cua_prior_task *t = cua_prior_task(s->held, s->tasks[k]);
	return t && t->ended;
}

/* Reads DIR/run.json: *missing when the folder has none (a shard that never
 * started). Other faults are errors naming the file and field. */
static int load_meta(struct shard *s, bool *missing, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, s->dir);
	s->index = s->count = -1;
	*missing = access(path, F_OK) != 0;
	if (*missing)
		return CUA_OK;
	enum cua_status st = cua_results_read_run_json(s->dir, &s->run, err, errlen);
	if (st != CUA_OK)
		return st;
	cua_prior_run_decode(s->run, &s->meta);
	if (s->meta.n_tasks < 0) {
		cua_errf(err, errlen, "%s: tasks: missing (a run folder lists its tasks)", path);
		return CUA_E_PARSE;
	}
	s->tasks = s->meta.tasks;
	for (; s->n_tasks < s->meta.n_tasks; s->n_tasks++) {
		const char *t = s->tasks[s->n_tasks];
		if (!t) {
			cua_errf(err, errlen, "%s: tasks[%d]: not a string", path, s->n_tasks);
			return CUA_E_PARSE;
		}
		if (task_pos(s, t) >= 0) {
			cua_errf(err, errlen, "%s: tasks: %s is listed twice", path, t);
			return CUA_E_PARSE;
		}
	}
	if (s->meta.shard && !s->meta.shard_valid) {
		cua_errf(err, errlen, "%s: shard: index, count and selected must be there, "
		         "0 <= index < count", path);
		return CUA_E_PARSE;
	}
	s->index = s->meta.shard_index;
	s->count = s->meta.shard_count;
	return CUA_OK;
}

/* Reads what the shard's three files hold (a missing one is empty), each line
 * kept as it is: every line's task must be one of the shard's; torn lines are
 * left out, each named in a warning. A shard still being written is refused. */
static int load_lines(struct shard *s, char *err, size_t errlen)
{
	char holder[512], say[CUA_ERR_LEN], path[CUA_PATH_BUF];
	if (cua_writer_held(s->dir, holder, sizeof(holder))) {
		cua_errf(err, errlen, "%s is still being written (%s): merge it once that run "
		         "has stopped", s->dir, holder);
		return CUA_E_USAGE;
	}
	struct cua_prior_want want = {.tasks = s->tasks, .n_tasks = s->n_tasks, .lines = true};
	enum cua_status st = cua_prior_load(s->dir, &want, &s->held, err, errlen);
	if (st != CUA_OK)
		return st;
	if (s->held->foreign_line) {
		cua_errf(err, errlen, "%s/%s: line %d: task %s is not one of this run's (run.json "
		         "tasks)", s->dir, s->held->foreign_file, s->held->foreign_line,
		         s->held->foreign_task);
		return CUA_E_PARSE;
	}
	for (int f = 0; f < CUA_RESULTS_N_FILES; f++) {
		const struct cua_results_tears *t = &s->held->tears[f];
		snprintf(path, sizeof(path), "%s/%s", s->dir, cua_results_file_names[f]);
		for (int i = 0; i < t->n && i < CUA_RESULTS_TEARS; i++)
			fprintf(stderr, "cuarena merge: warning: %s\n",
			        cua_results_tear_text(path, &t->at[i], say, sizeof(say)));
		if (t->n > CUA_RESULTS_TEARS)
			fprintf(stderr, "cuarena merge: warning: %s: %d more torn lines left out (%ld "
			        "bytes in all)\n", path, t->n - CUA_RESULTS_TEARS, t->bytes);
	}
	for (int i = 0; i < s->n_tasks; i++)
		s->n_open += !ended(s, i);
	return CUA_OK;
}

/* A field every shard of one run has alike: its run.json path, what to call it. */
static const struct {
	const char *path[2];
	const char *what;
} same[] = {
	{{"agent", "name"}, "agent"},
	{{"agent", "version"}, "agent version"},
	{{"agent", "config"}, "agent config"},
	{{"agent", "prompts_sha256"}, "prompt templates"},
	{{"turns", NULL}, "turn limit"},
	{{"reward", NULL}, "reward"},
	{{"harness", "git"}, "harness commit"},
	{{"harness", "version"}, "harness version"},
	{{"catalogue_hash", NULL}, "catalogue digest"},
	{{"nvcc", NULL}, "nvcc"},
	{{"max_time_s", NULL}, "timing cap"},
	{{"public_seeds", NULL}, "public seeds"},
};

static const cJSON *at(const cJSON *run, const char *const path[2])
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, path[0]);
	return path[1] ? cJSON_GetObjectItemCaseSensitive(v, path[1]) : v;
}

static void show(const cJSON *v, char *buf, size_t len)
{
	char *s = v ? cJSON_PrintUnformatted(v) : NULL;
	snprintf(buf, len, "%s", s ? s : "(absent)");
	if (strlen(buf) > 80)
		strcpy(buf + 77, "...");
	free(s);
}

/* Refuses shards that are not of one run: a field of `same`, the GPU model, the
 * split (count and selection). Returns 0 or prints and returns 2. */
static int check_alike(struct shard *sh, int n)
{
	const struct shard *a = NULL;
	for (int i = 0; i < n; i++) {
		if (!sh[i].run)
			continue;
		if (!a) {
			a = &sh[i];
			continue;
		}
		const struct shard *b = &sh[i];
		for (size_t k = 0; k < CUA_ARRAY_LEN(same); k++) {
			const cJSON *x = at(a->run, same[k].path), *y = at(b->run, same[k].path);
			if ((!x && !y) || (x && y && cJSON_Compare(x, y, true)))
				continue;
			char sx[96], sy[96], field[64];
			show(x, sx, sizeof(sx));
			show(y, sy, sizeof(sy));
			snprintf(field, sizeof(field), "%s%s%s", same[k].path[0],
			         same[k].path[1] ? "." : "", same[k].path[1] ? same[k].path[1] : "");
			fprintf(stderr, "cuarena merge: %s/run.json: %s %s differs from %s/run.json's "
			        "%s (%s): the shards of one run share their %s\n", b->dir, field, sy,
			        a->dir, sx, same[k].what, same[k].what);
			return CUA_EXIT_USAGE;
		}
		const char *da = a->meta.device.name, *db = b->meta.device.name;
		if (a->meta.device.known && b->meta.device.known && strcmp(da, db)) {
			fprintf(stderr, "cuarena merge: %s ran on %s, %s on %s: a run's speedups are of "
			        "one GPU model (constrain the job array to one, e.g. sbatch "
			        "--constraint)\n", a->dir, da, b->dir, db);
			return CUA_EXIT_USAGE;
		}
		if ((a->count < 0) != (b->count < 0)) {
			fprintf(stderr, "cuarena merge: %s is a shard (run --shard) and %s is not\n",
			        a->count < 0 ? b->dir : a->dir, a->count < 0 ? a->dir : b->dir);
			return CUA_EXIT_USAGE;
		}
		if (a->count < 0)
			continue;
		if (a->count != b->count ||
		    !cJSON_Compare(a->meta.shard_selected, b->meta.shard_selected, true)) {
			fprintf(stderr, "cuarena merge: %s (shard %d/%d) and %s (shard %d/%d) split "
			        "different selections of tasks: not shards of one run\n", a->dir,
			        a->index, a->count, b->dir, b->index, b->count);
			return CUA_EXIT_USAGE;
		}
	}
	/* every task once */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; sh[i].run && j < n; j++) {
			if (!sh[j].run)
				continue;
			if (sh[i].count >= 0 && sh[i].index == sh[j].index) {
				fprintf(stderr, "cuarena merge: %s and %s are both shard %d/%d\n",
				        sh[i].dir, sh[j].dir, sh[i].index, sh[i].count);
				return CUA_EXIT_USAGE;
			}
			for (int k = 0; k < sh[j].n_tasks; k++)
				if (task_pos(&sh[i], sh[j].tasks[k]) >= 0) {
					fprintf(stderr, "cuarena merge: task %s is in both %s and %s: each "
					        "task must be in one shard\n", sh[j].tasks[k], sh[i].dir,
					        sh[j].dir);
					return CUA_EXIT_USAGE;
				}
		}
	return CUA_EXIT_OK;
}

/* ---- the merged folder ------------------------------------------------------- */

/* Copies a folder's files and folders (not links) into dst, which exists. */
static int copy_tree(const char *src, const char *dst, int depth, char *err, size_t errlen)
{
	DIR *d = opendir(src);
	if (!d)
		return CUA_OK;       /* no work/ folder: nothing to copy */
	struct dirent *e;
	enum cua_status st = CUA_OK;
	while (st == CUA_OK && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char a[CUA_PATH_BUF], b[CUA_PATH_BUF];
		struct stat sb;
		snprintf(a, sizeof(a), "%s/%s", src, e->d_name);
		snprintf(b, sizeof(b), "%s/%s", dst, e->d_name);
		if (lstat(a, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode) && depth < 8) {
			if ((st = cua_mkdirs(b, err, errlen)) == CUA_OK)
				st = copy_tree(a, b, depth + 1, err, errlen);
		} else if (S_ISREG(sb.st_mode)) {
			char *buf = NULL;
			size_t len = 0;
			if ((st = cua_read_file(a, (size_t)1 << 30, &buf, &len, err, errlen)) == CUA_OK)
				st = cua_write_file(b, buf, len, err, errlen);
			free(buf);
		}
	}
	closedir(d);
	return st;
}

/* Writes the merged run into a fresh folder beside out, through its one writer,
 * then puts it in out's place: a merge stopped half-way leaves out as it was. */
static int write_merged(struct shard *sh, int n, const char *out, const cJSON *tasks,
                        char *err, size_t errlen)
{
	char tmp[CUA_PATH_BUF], old[CUA_PATH_BUF];
	struct cua_writer *w = NULL;
	snprintf(tmp, sizeof(tmp), "%s.merge-%ld", out, (long)getpid());
	snprintf(old, sizeof(old), "%s.old-%ld", out, (long)getpid());
	cua_rmtree(tmp);
	enum cua_status st = cua_writer_open(tmp, "merge", &w, NULL, err, errlen);
	if (st != CUA_OK)
		return st;
	const char *slash = strrchr(out, '/');
	char id[256];
	snprintf(id, sizeof(id), "%s", slash && slash[1] ? slash + 1 : out);
	struct cua_merge_part *parts = cua_xcalloc((size_t)n + 1, sizeof(*parts));
	int np = 0;
	for (int i = 0; i < n; i++) {
		if (!sh[i].run)
			continue;
		struct cua_merge_part *p = &parts[np++];
		p->run = sh[i].run;
		p->shard = sh[i].count >= 0 ? sh[i].index : -1;
		p->n_tasks = sh[i].n_tasks;
		for (int k = 0; k < sh[i].n_tasks; k++) {
			struct cua_prior_task *t = cua_prior_task(sh[i].held, sh[i].tasks[k]);
			p->tasks_done += t && t->ended;
			p->tasks_correct += t && t->ended && t->best_turn > 0;
		}
		p->evaluations = sh[i].held->evaluations;
		p->open = sh[i].n_open > 0;
	}
	cua_writer_run_merged(w, parts, np, id, tasks);
	free(parts);
	st = cua_writer_run_save(w, err, errlen);
	for (int f = 0; st == CUA_OK && f < CUA_RESULTS_N_FILES; f++)
		for (int i = 0; st == CUA_OK && i < n; i++)
			if (sh[i].run && sh[i].held->text[f].len)
				st = cua_writer_lines(w, (enum cua_results_file)f, sh[i].held->text[f].s,
				                      sh[i].held->text[f].len, err, errlen);
	for (int i = 0; st == CUA_OK && i < n; i++) {
		char src[CUA_PATH_BUF], dst[CUA_PATH_BUF];
		snprintf(src, sizeof(src), "%s/" CUA_RESULTS_WORK, sh[i].dir);
		if ((st = cua_pathf(dst, sizeof(dst), err, errlen, "%s/" CUA_RESULTS_WORK,
		                    tmp)) != CUA_OK)
			break;
		if (access(src, F_OK) == 0 && (st = cua_mkdirs(dst, err, errlen)) == CUA_OK)
			st = copy_tree(src, dst, 0, err, errlen);
	}
	cua_writer_close(w);
	if (st != CUA_OK) {
		cua_rmtree(tmp);
		return st;
	}
	bool had = access(out, F_OK) == 0;
	if ((had && rename(out, old) != 0) || rename(tmp, out) != 0) {
		cua_errf(err, errlen, "%s: cannot put the merged run in place: %s", out,
		         strerror(errno));
		if (had)
			rename(old, out);
		cua_rmtree(tmp);
		return CUA_E_IO;
	}
	if (had)
		cua_rmtree(old);
	return CUA_OK;
}

/* out may be new, empty, or an earlier merge (run.json with "merged"): never a
 * shard nor any other run. */
static bool out_ok(const char *out, struct shard *sh, int n)
{
	char ro[CUA_PATH_LEN], rs[CUA_PATH_LEN], why[CUA_ERR_LEN];
	struct stat st;
	if (stat(out, &st) != 0)
		return true;
	for (int i = 0; realpath(out, ro) && i < n; i++)
		if (realpath(sh[i].dir, rs) && !strcmp(ro, rs)) {
			fprintf(stderr, "cuarena merge: --out %s is one of the shards\n", out);
			return false;
		}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "cuarena merge: --out %s: exists and is not a folder\n", out);
		return false;
	}
	cJSON *j = NULL;
	enum cua_status got = cua_results_read_run_json(out, &j, why, sizeof(why));
	if (got != CUA_E_NOT_FOUND) {
		/* one that does not read is no merge either */
		struct cua_prior_run m;
		cua_prior_run_decode(j, &m);
		bool merged = got == CUA_OK && m.merged;
		cua_prior_run_clear(&m);
		cJSON_Delete(j);
		if (!merged)
			fprintf(stderr, "cuarena merge: --out %s holds a run that is not a merge: give "
			        "a new folder\n", out);
		return merged;
	}
	DIR *d = opendir(out);
	struct dirent *e;
	int entries = 0;
	while (d && (e = readdir(d)) != NULL)   /* an earlier merge's lock is no content */
		entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		           strcmp(e->d_name, CUA_RESULTS_LOCK);
	if (d)
		closedir(d);
	if (entries)
		fprintf(stderr, "cuarena merge: --out %s: a folder that is not empty and holds no "
		        "run.json: give a new folder\n", out);
	return entries == 0;
}

/* Names every shard missing or unfinished; into `list` (may be NULL) their
 * indices. Returns how many. */
static int report_missing(struct shard *sh, int n, const bool *none, int count,
                          const cJSON *selected, bool quiet, struct cua_buf *list)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		if (none[i] && !quiet)
			fprintf(stderr, "cuarena merge: %s: no run.json: the shard never started\n",
			        sh[i].dir);
		if (!sh[i].run || !sh[i].n_open)
			continue;
		bad++;
		if (list)
			cua_buf_printf(list, "%s%d", list->len ? "," : "", sh[i].index);
		if (quiet)
			continue;
		fprintf(stderr, "cuarena merge: %s", sh[i].dir);
		if (sh[i].count >= 0)
			fprintf(stderr, " (shard %d/%d)", sh[i].index, sh[i].count);
		fprintf(stderr, ": %d of %d task%s unfinished:", sh[i].n_open, sh[i].n_tasks,
		        sh[i].n_tasks == 1 ? "" : "s");
		for (int k = 0, shown = 0; k < sh[i].n_tasks; k++)
			if (!ended(&sh[i], k) && shown++ < 5)
				fprintf(stderr, " %s", sh[i].tasks[k]);
		fprintf(stderr, "%s; resume it with `cuarena run --resume %s`\n",
		        sh[i].n_open > 5 ? " ..." : "", sh[i].dir);
	}
	/* shards of the split that no folder given holds */
	for (int k = 0; k < count; k++) {
		bool have = false;
		for (int i = 0; i < n && !have; i++)
			have = sh[i].run && sh[i].index == k;
		if (have)
			continue;
		bad++;
		if (list)
			cua_buf_printf(list, "%s%d", list->len ? "," : "", k);
		if (quiet)
			continue;
		fprintf(stderr, "cuarena merge: shard %d/%d is missing", k, count);
		int left = 0;
		const cJSON *t;
		cJSON_ArrayForEach(t, selected) {
			bool in = false;
			for (int i = 0; i < n && !in && cJSON_IsString(t); i++)
				in = sh[i].run && task_pos(&sh[i], t->valuestring) >= 0;
			if (!in && cJSON_IsString(t) && left++ < 3)
				fprintf(stderr, "%s%s", left == 1 ? " (tasks " : ", ", t->valuestring);
		}
		fprintf(stderr, "%s\n", left > 3 ? ", ...)" : left ? ")" : "");
	}
	return bad;
}

/* Insertion sort by shard index; folders without a run last, as given. */
static void sort_shards(struct shard *sh, bool *none, int n)
{
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0; b--) {
			int kx = sh[b - 1].run ? sh[b - 1].index : INT_MAX;
			int ky = sh[b].run ? sh[b].index : INT_MAX;
			if (ky >= kx)
				break;
			struct shard t = sh[b];
			sh[b] = sh[b - 1];
			sh[b - 1] = t;
			bool u = none[b];
			none[b] = none[b - 1];
			none[b - 1] = u;
		}
}

int cmd_merge(struct cua_cli *cli, int argc, char **argv)
{
	const char *out = NULL;
	bool allow = false, print_missing = false;
	int expect = 0, n = 0, rc = CUA_EXIT_OK;
	char err[CUA_ERR_LEN];
	struct cua_writer *lock = NULL;   /* out's, while it is replaced */
	struct shard *sh = calloc((size_t)argc + 1, sizeof(*sh));
	bool *none = calloc((size_t)argc + 1, sizeof(bool));
	CUA_ASSERT(sh && none);
	(void)cli;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(a, "--allow-incomplete"))
			allow = true;
		else if (!strcmp(a, "--print-missing"))
			print_missing = true;
		else if (!strcmp(a, "--expect") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			ok = !*end && v >= 1 && v <= 65536;
			expect = (int)v;
		} else if (a[0] == '-' && a[1])
			ok = false;
		else
			sh[n++].dir = a;
		if (!ok) {
			fprintf(stderr, "cuarena merge: bad option or value: %s\n", a);
			rc = cua_cli_usage("merge");
			goto out;
		}
	}
	if (n == 0 || (!out && !print_missing)) {
		rc = cua_cli_usage("merge");
		goto out;
	}
	for (size_t len = out ? strlen(out) : 0; len > 1 && out[len - 1] == '/';)
		((char *)out)[--len] = '\0';
	for (int i = 0; i < n; i++) {
		size_t len = strlen(sh[i].dir);
		while (len > 1 && sh[i].dir[len - 1] == '/')
			((char *)sh[i].dir)[--len] = '\0';
		if (load_meta(&sh[i], &none[i], err, sizeof(err)) != CUA_OK ||
		    (!none[i] && load_lines(&sh[i], err, sizeof(err)) != CUA_OK)) {
			fprintf(stderr, "cuarena merge: %s\n", err);
			rc = CUA_EXIT_USAGE;
			goto out;
		}
	}
	if ((rc = check_alike(sh, n)) != CUA_EXIT_OK)
		goto out;
	/* shards in index order: the merged files do not depend on the order given */
	sort_shards(sh, none, n);
	int present = 0, count = expect;
	const cJSON *selected = NULL;
	for (int i = 0; i < n; i++)
		if (sh[i].run) {
			present++;
			if (sh[i].count >= 0) {
				if (expect && sh[i].count != expect) {
					fprintf(stderr, "cuarena merge: %s is shard %d/%d, not of %d shards "
					        "(--expect)\n", sh[i].dir, sh[i].index, sh[i].count, expect);
					rc = CUA_EXIT_USAGE;
					goto out;
				}
				count = sh[i].count;
				selected = sh[i].meta.shard_selected;
			}
		}
	if (print_missing) {
		struct cua_buf list = {0};
		/* no shard found: with --expect, every index is missing */
		report_missing(sh, n, none, present ? (selected ? count : 0) : expect, selected, true,
		               &list);
		printf("%s\n", list.s ? list.s : "");
		free(list.s);
		goto out;
	}
	int bad = report_missing(sh, n, none, selected ? count : 0, selected, false, NULL);
	for (int i = 0; i < n; i++)
		bad += none[i] && !selected;   /* unsharded: a folder without a run */
	if (!present) {
		fprintf(stderr, "cuarena merge: none of the %d folder%s holds a run\n", n,
		        n == 1 ? "" : "s");
		rc = CUA_EXIT_FAILED;
		goto out;
	}
	if (bad && !allow) {
		fprintf(stderr, "cuarena merge: %d shard%s missing or unfinished: nothing written "
		        "(--allow-incomplete merges what there is; the rest then counts as failed)\n",
		        bad, bad == 1 ? "" : "s");
		rc = CUA_EXIT_FAILED;
		goto out;
	}
	if (!out_ok(out, sh, n)) {
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	/* out's lock while it is replaced: no run or serve writes into it meanwhile,
	 * nor another merge */
	bool made = access(out, F_OK) != 0;
	if (cua_writer_lock(out, "merge", &lock, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena merge: %s\n", err);
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	/* the run's tasks: the whole selection of a split, else every folder's */
	cJSON *tasks = selected ? cJSON_Duplicate(selected, true) : cJSON_CreateArray();
	if (!selected)
		for (int i = 0; i < n; i++)
			for (int k = 0; sh[i].run && k < sh[i].n_tasks; k++)
				cJSON_AddItemToArray(tasks, cJSON_CreateString(sh[i].tasks[k]));
	if (write_merged(sh, n, out, tasks, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena merge: %s\n", err);
		rc = CUA_EXIT_FAILED;
		if (made)
			cua_rmtree(out);   /* the folder made for the lock: nothing was merged */
	} else {
		int done = 0, total = cJSON_GetArraySize(tasks);
		for (int i = 0; i < n; i++)
			done += sh[i].n_tasks - sh[i].n_open;
		printf("merge %s: %d folder%s, %d/%d tasks finished%s\n", out, present,
		       present == 1 ? "" : "s", done, total,
		       bad ? " (incomplete: see the lines above)" : "");
	}
	cJSON_Delete(tasks);
out:
	cua_writer_close(lock);
	for (int i = 0; i < n; i++)
		shard_free(&sh[i]);
	free(sh);
	free(none);
	return rc;
}
