/* cmd-slurm.c — `cuarena slurm --shards N --out DIR --agent ...`: writes a Slurm
 * job array (one array task per shard, `run --shard`), a merge job that depends
 * on it and re-runs unfinished shards with --resume, and the script that submits
 * both (docs/SCALE-OUT.md). Nothing here links Slurm: sbatch is the interface. */
#include "cli/cli.h"
#include "episode/run.h"
#include "episode/shard.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* `run` options passed on to every shard as they are: those that take a value. */
static const char *const run_opts[] = {
	"--agent", "--agent-config", "--agent-version", "--baseline-store", "--costs", "--jobs",
	"--level", "--max-time-s", "--reward", "--tasks", "--turns",
};

struct job {
	int shards, throttle, retries;
	const char *out, *jobdir, *gres, *partition, *time, *cpus, *name;
	const char *extra[16];        /* --sbatch: more #SBATCH lines */
	int n_extra;
	const char *run[2 * CUA_ARRAY_LEN(run_opts)];   /* option, value pairs */
	int n_run;
	const char *agent, *tasks;
	int level, turns;
	bool submit;
};

/* path made absolute against the current directory (the scripts run elsewhere)
 * into buf[CUA_PATH_LEN]; false, with the reason in err, when it would not fit. */
static bool absolute(const char *path, char *buf, char *err, size_t errlen)
{
	char cwd[CUA_PATH_LEN];
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return cua_pathf(buf, CUA_PATH_LEN, err, errlen, "%s", path) == CUA_OK;
	return cua_pathf(buf, CUA_PATH_LEN, err, errlen, "%s/%s", cwd, path) == CUA_OK;
}

/* s in single quotes for the shell */
static void q(struct cua_buf *b, const char *s)
{
	cua_buf_printf(b, "'");
	for (; *s; s++)
		if (*s == '\'')
			cua_buf_printf(b, "'\\''");
		else
			cua_buf_printf(b, "%c", *s);
	cua_buf_printf(b, "'");
}

static void sbatch_common(struct cua_buf *b, const struct job *j)
{
	if (j->partition)
		cua_buf_printf(b, "#SBATCH --partition=%s\n", j->partition);
	for (int i = 0; i < j->n_extra; i++)
		cua_buf_printf(b, "#SBATCH %s\n", j->extra[i]);
}

/* cuarena --root ROOT */
static void self(struct cua_buf *b, const struct cua_cli *cli)
{
	q(b, cli->self);
	cua_buf_printf(b, " --root ");
	q(b, cli->root);
}

static char *array_script(const struct job *j, const struct cua_cli *cli)
{
	struct cua_buf b = {0};
	cua_buf_printf(&b, "#!/bin/bash\n"
	               "# written by `cuarena slurm` (docs/SCALE-OUT.md): shard $SLURM_ARRAY_TASK_ID "
	               "of %d; a requeued or re-run task resumes its shard\n", j->shards);
	cua_buf_printf(&b, "#SBATCH --job-name=%s\n", j->name);
	cua_buf_printf(&b, "#SBATCH --array=0-%d%%%d\n", j->shards - 1, j->throttle);
	cua_buf_printf(&b, "#SBATCH --gres=%s\n", j->gres);
	cua_buf_printf(&b, "#SBATCH --ntasks=1\n");
	if (j->cpus)
		cua_buf_printf(&b, "#SBATCH --cpus-per-task=%s\n", j->cpus);
	if (j->time)
		cua_buf_printf(&b, "#SBATCH --time=%s\n", j->time);
	cua_buf_printf(&b, "#SBATCH --requeue\n#SBATCH --open-mode=append\n");
	cua_buf_printf(&b, "#SBATCH --output=%s/logs/shard-%%a.log\n", j->jobdir);
	sbatch_common(&b, j);
	cua_buf_printf(&b, "set -u\ni=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\n"
	               "dir=");
	q(&b, j->jobdir);
	cua_buf_printf(&b, "/shard-$i-of-%d\n", j->shards);
	/* a time limit, scancel and preemption send SIGTERM to every process of
	 * the job: the run stops as on Ctrl-C (its segment marked interrupted);
	 * the shell outlives it to log how it ended */
	cua_buf_printf(&b, "run() {\n"
	               "\ttrap : TERM INT\n"
	               "\t\"$@\" &\n\tpid=$!\n"
	               "\twait \"$pid\"; rc=$?\n"
	               "\twhile kill -0 \"$pid\" 2>/dev/null; do wait \"$pid\"; rc=$?; done\n"
	               "\techo \"cuarena slurm: shard $i on $(hostname) ended with exit $rc\"\n"
	               "\texit \"$rc\"\n}\n");
	cua_buf_printf(&b, "echo \"cuarena slurm: shard $i of %d on $(hostname), job "
	               "${SLURM_JOB_ID:-}, CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-}\"\n",
	               j->shards);
	cua_buf_printf(&b, "if [ -f \"$dir/run.json\" ]; then\n\trun ");
	self(&b, cli);
	cua_buf_printf(&b, " run --resume \"$dir\"\nfi\nrun ");
	self(&b, cli);
	cua_buf_printf(&b, " run");
	for (int i = 0; i < j->n_run; i += 2) {
		cua_buf_printf(&b, " %s ", j->run[i]);
		q(&b, j->run[i + 1]);
	}
	cua_buf_printf(&b, " --shard \"$i/%d\" --out \"$dir\"\n", j->shards);
	return b.s;
}

static char *merge_script(const struct job *j, const struct cua_cli *cli)
{
	struct cua_buf b = {0};
	cua_buf_printf(&b, "#!/bin/bash\n"
	               "# written by `cuarena slurm` (docs/SCALE-OUT.md): after the array, merges "
	               "its %d shards;\n# shards missing or unfinished are re-run with --resume "
	               "(at most %d times) first\n", j->shards, j->retries);
	cua_buf_printf(&b, "#SBATCH --job-name=%s-merge\n#SBATCH --ntasks=1\n", j->name);
	cua_buf_printf(&b, "#SBATCH --open-mode=append\n#SBATCH --output=%s/logs/merge.log\n",
	               j->jobdir);
	sbatch_common(&b, j);
	cua_buf_printf(&b, "set -u\njobdir=");
	q(&b, j->jobdir);
	cua_buf_printf(&b, "\nattempt=${CUARENA_ATTEMPT:-0}\ndirs=()\n"
	               "for i in $(seq 0 %d); do dirs+=(\"$jobdir/shard-$i-of-%d\"); done\n",
	               j->shards - 1, j->shards);
	cua_buf_printf(&b, "missing=$(");
	self(&b, cli);
	cua_buf_printf(&b, " merge --expect %d --print-missing \"${dirs[@]}\") || exit 2\n",
	               j->shards);
	cua_buf_printf(&b, "if [ -n \"$missing\" ] && [ \"$attempt\" -lt %d ]; then\n"
	               "\techo \"cuarena slurm: shards $missing missing or unfinished: re-running "
	               "them with --resume (attempt $((attempt + 1)) of %d)\"\n"
	               "\tjid=$(sbatch --parsable --array=\"$missing%%%d\" \"$jobdir/array.sbatch\") "
	               "|| exit 1\n"
	               "\tmid=$(sbatch --parsable --dependency=afterany:\"${jid%%%%;*}\" "
	               "--export=ALL,CUARENA_ATTEMPT=$((attempt + 1)) \"$jobdir/merge.sbatch\") "
	               "|| exit 1\n"
	               "\techo \"cuarena slurm: array job ${jid%%%%;*}, then merge job ${mid%%%%;*}\"\n"
	               "\texit 0\nfi\n", j->retries, j->retries, j->throttle);
	cua_buf_printf(&b, "exec ");
	self(&b, cli);
	cua_buf_printf(&b, " merge --expect %d \"${dirs[@]}\" --out ", j->shards);
	q(&b, j->out);
	cua_buf_printf(&b, "\n");
	return b.s;
}

static char *submit_script(const struct job *j)
{
	struct cua_buf b = {0};
	cua_buf_printf(&b, "#!/bin/bash\n# written by `cuarena slurm`: submits the array and "
	               "its merge job\nset -eu\njobdir=");
	q(&b, j->jobdir);
	cua_buf_printf(&b, "\njid=$(sbatch --parsable \"$jobdir/array.sbatch\")\njid=${jid%%%%;*}\n"
	               "mid=$(sbatch --parsable --dependency=afterany:\"$jid\" "
	               "\"$jobdir/merge.sbatch\")\n"
	               "echo \"cuarena slurm: array job $jid (%d shards, %d at a time), merge job "
	               "${mid%%%%;*} into \"", j->shards, j->throttle);
	q(&b, j->out);
	cua_buf_printf(&b, "\n");
	return b.s;
}

/* Writes the file unless it is there with other contents (another job's). */
static int put(const char *dir, const char *name, const char *text, bool *differs)
{
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN], *old = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (cua_read_file(path, 1 << 20, &old, NULL, NULL, 0) == CUA_OK) {
		*differs |= strcmp(old, text) != 0;
		free(old);
		if (*differs)
			return CUA_EXIT_USAGE;
	}
	if (cua_write_file(path, text, strlen(text), err, sizeof(err)) != CUA_OK ||
	    chmod(path, 0755) != 0) {
		fprintf(stderr, "cuarena slurm: %s\n", err);
		return CUA_EXIT_ENV;
	}
	return CUA_EXIT_OK;
}

static bool to_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

/* Checks what can be checked before N array tasks fail alike: the agent, the
 * numbers, and that the selection has at least N tasks. */
static int check_job(struct cua_cli *cli, struct job *j)
{
	char err[CUA_ERR_LEN];
	if (!j->agent || !cua_agent_find(j->agent)) {
		fprintf(stderr, "cuarena slurm: %s\n", j->agent ? "unknown agent (see `cuarena run`)"
		        : "--agent is required");
		return CUA_EXIT_USAGE;
	}
	struct cua_catalogue cat;
	enum cua_status st = cua_catalogue_load(cli->root, &cat, err, sizeof(err));
	if (st != CUA_OK && st != CUA_E_PARSE) {
		fprintf(stderr, "cuarena slurm: %s\n", err);
		return CUA_EXIT_ENV;
	}
	int n = 0;
	for (int i = 0; i < cat.n; i++)
		n += cua_run_selects(cat.tasks[i], j->level, j->tasks);
	cua_catalogue_clear(&cat);
	if (n < j->shards) {
		fprintf(stderr, "cuarena slurm: --shards %d: the selection has %d task%s (give at "
		        "most %d shards)\n", j->shards, n, n == 1 ? "" : "s", n);
		return CUA_EXIT_USAGE;
	}
	return CUA_EXIT_OK;
}

int cmd_slurm(struct cua_cli *cli, int argc, char **argv)
{
	struct job j;
	static char out[CUA_PATH_LEN], jobdir[CUA_PATH_LEN], paths[CUA_ARRAY_LEN(run_opts)][CUA_PATH_LEN];
	char name[128];
	memset(&j, 0, sizeof(j));
	j.gres = "gpu:1";
	j.retries = 2;
	j.turns = 8;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = v != NULL;
		size_t k = 0;
		while (k < CUA_ARRAY_LEN(run_opts) && strcmp(a, run_opts[k]))
			k++;
		if (k < CUA_ARRAY_LEN(run_opts) && ok) {
			i++;
			if (!strcmp(a, "--agent-config") || !strcmp(a, "--costs")) {
				char perr[CUA_ERR_LEN];
				if (!absolute(v, paths[k], perr, sizeof(perr))) {
					fprintf(stderr, "cuarena slurm: %s: %s\n", a, perr);
					return CUA_EXIT_USAGE;
				}
				v = paths[k];
			}
			if (!strcmp(a, "--agent"))
				j.agent = v;
			else if (!strcmp(a, "--tasks"))
				j.tasks = v;
			else if (!strcmp(a, "--level"))
				ok = to_int(v, 1, 9, &j.level);
			else if (!strcmp(a, "--turns"))
				ok = to_int(v, 1, CUA_MAX_TURNS, &j.turns);
			for (int r = 0; r < j.n_run; r += 2)
				ok &= strcmp(j.run[r], a) != 0;      /* once each */
			j.run[j.n_run++] = a;
			j.run[j.n_run++] = v;
		} else if (!strcmp(a, "--shards") && ok)
			ok = to_int(argv[++i], 1, CUA_SHARD_MAX, &j.shards);
		else if (!strcmp(a, "--throttle") && ok)
			ok = to_int(argv[++i], 1, CUA_SHARD_MAX, &j.throttle);
		else if (!strcmp(a, "--retries") && ok)
			ok = to_int(argv[++i], 0, 100, &j.retries);
		else if (!strcmp(a, "--out") && ok)
			j.out = argv[++i];
		else if (!strcmp(a, "--jobdir") && ok)
			j.jobdir = argv[++i];
		else if (!strcmp(a, "--gres") && ok)
			j.gres = argv[++i];
		else if (!strcmp(a, "--partition") && ok)
			j.partition = argv[++i];
		else if (!strcmp(a, "--time") && ok)
			j.time = argv[++i];
		else if (!strcmp(a, "--cpus-per-task") && ok)
			j.cpus = argv[++i];
		else if (!strcmp(a, "--sbatch") && ok && j.n_extra < (int)CUA_ARRAY_LEN(j.extra))
			j.extra[j.n_extra++] = argv[++i];
		else if (!strcmp(a, "--submit"))
			j.submit = true;
		else
			ok = false;
		/* every value lands in a script line: one line each */
		ok = ok && !strpbrk(a, "\n\r") && !(i > 0 && strpbrk(argv[i], "\n\r"));
		if (!ok) {
			fprintf(stderr, "cuarena slurm: bad option or value: %s\n", a);
			return cua_cli_usage("slurm");
		}
	}
	if (!j.shards || !j.out) {
		fprintf(stderr, "cuarena slurm: --shards and --out are required\n");
		return cua_cli_usage("slurm");
	}
	if (!j.throttle || j.throttle > j.shards)
		j.throttle = j.shards;
	int rc = check_job(cli, &j);
	if (rc != CUA_EXIT_OK)
		return rc;
	char perr[CUA_ERR_LEN];
	if (!absolute(j.out, out, perr, sizeof(perr))) {
		fprintf(stderr, "cuarena slurm: --out: %s\n", perr);
		return CUA_EXIT_USAGE;
	}
	j.out = out;
	size_t len = strlen(out);
	while (len > 1 && out[len - 1] == '/')
		out[--len] = '\0';
	const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	bool fits = j.jobdir ? absolute(j.jobdir, jobdir, perr, sizeof(perr))
	            /* beside the run, hidden: `history` over the folder skips it */
	            : cua_pathf(jobdir, sizeof(jobdir), perr, sizeof(perr), "%.*s/.%s.slurm",
	                        (int)(base - out - 1), out, base) == CUA_OK;
	if (!fits) {
		fprintf(stderr, "cuarena slurm: --jobdir: %s\n", perr);
		return CUA_EXIT_USAGE;
	}
	j.jobdir = jobdir;
	snprintf(name, sizeof(name), "cuarena-%.100s", base);
	for (char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'))
			*c = '_';
	j.name = name;

	char logs[CUA_PATH_BUF], err[CUA_ERR_LEN];
	snprintf(logs, sizeof(logs), "%s/logs", jobdir);
	if (cua_mkdirs(logs, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena slurm: %s\n", err);
		return CUA_EXIT_ENV;
	}
	char *s[3] = {array_script(&j, cli), merge_script(&j, cli), submit_script(&j)};
	static const char *const names[] = {"array.sbatch", "merge.sbatch", "submit.sh"};
	bool differs = false;
	for (int i = 0; i < 3 && rc == CUA_EXIT_OK; i++)
		rc = put(jobdir, names[i], s[i], &differs);
	for (int i = 0; i < 3; i++)
		free(s[i]);
	if (differs) {
		fprintf(stderr, "cuarena slurm: %s holds the job of other settings (its shards would "
		        "resume as they were): remove it or give another --jobdir\n", jobdir);
		return CUA_EXIT_USAGE;
	}
	if (rc != CUA_EXIT_OK)
		return rc;
	char submit[CUA_PATH_BUF];
	snprintf(submit, sizeof(submit), "%s/submit.sh", jobdir);
	if (!j.submit) {
		printf("cuarena slurm: wrote %s/{array.sbatch,merge.sbatch,submit.sh}: %d shards, %d "
		       "at a time, --gres=%s; submit with: %s\n", jobdir, j.shards, j.throttle, j.gres,
		       submit);
		return CUA_EXIT_OK;
	}
	fflush(stdout);
	execl("/bin/bash", "bash", submit, (char *)NULL);
	fprintf(stderr, "cuarena slurm: cannot run %s\n", submit);
	return CUA_EXIT_ENV;
}
