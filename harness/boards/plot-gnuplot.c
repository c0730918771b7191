/* plot-gnuplot.c — runs gnuplot on a script of plots/ (plot-gnuplot.h). */
#include "boards/plot-gnuplot.h"
#include "results/results.h"
#include "run-command.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>               /* WIFEXITED */
#include <unistd.h>

bool cua_plot_find_gnuplot(char *path, size_t len)
{
	const char *env = getenv("CUARENA_GNUPLOT");
	path[0] = '\0';
	if (env && env[0]) {
		if (access(env, X_OK) != 0)
			return false;
		snprintf(path, len, "%s", env);
		return true;
	}
	const char *p = getenv("PATH");
	if (!p)
		p = "/usr/bin:/bin";
	while (*p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char cand[CUA_PATH_BUF];
		snprintf(cand, sizeof(cand), "%.*s/gnuplot", (int)n, n ? p : ".");
		if (access(cand, X_OK) == 0) {
			snprintf(path, len, "%s", cand);
			return true;
		}
		p += n + (colon != NULL);
	}
	return false;
}

void cua_plot_data_path(const struct cua_plot *p, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.dat", p->out, name);
}

/* gnuplot string literal */
static void gp_str(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s = \"", key);
	cua_fput_esc(f, val, CUA_ESC_GNUPLOT);
	fputs("\"\n", f);
}

enum cua_status cua_plot_run(const struct cua_plot *p, const char *name, const char *vars,
                             char *err, size_t errlen)
{
	char gnuplot[CUA_PATH_BUF], vpath[CUA_PATH_BUF], script[CUA_PATH_BUF], logp[CUA_PATH_BUF], data[CUA_PATH_BUF], img[CUA_PATH_BUF],
	    dir[CUA_PATH_BUF];
	if (!cua_plot_find_gnuplot(gnuplot, sizeof(gnuplot))) {
		cua_errf(err, errlen, "no gnuplot (install gnuplot-nox: tools/deps.sh, or set "
		                      "CUARENA_GNUPLOT)");
		return CUA_E_NOT_FOUND;
	}
	snprintf(vpath, sizeof(vpath), "%s/%s.vars.gp", p->out, name);
	snprintf(script, sizeof(script), "%s/plots/%s.gp", p->root, name);
	snprintf(dir, sizeof(dir), "%s/plots", p->root);
	snprintf(logp, sizeof(logp), "%s/%s.log", p->out, name);
	snprintf(img, sizeof(img), "%s/%s.%s", p->out, name, p->format);
	cua_plot_data_path(p, name, data, sizeof(data));
	if (access(script, R_OK) != 0) {
		cua_errf(err, errlen, "%s: cannot read: %s", script, strerror(errno));
		return CUA_E_NOT_FOUND;
	}
	FILE *f = fopen(vpath, "w");
	if (!f) {
		cua_errf(err, errlen, "%s: cannot write: %s", vpath, strerror(errno));
		return CUA_E_IO;
	}
	fprintf(f, "# written by cuarena; run: gnuplot %s %s\n", vpath, script);
	gp_str(f, "datafile", data);
	gp_str(f, "outfile", img);
	gp_str(f, "fmt", p->format);
	gp_str(f, "plotdir", dir);
	fputs(vars ? vars : "", f);
	if (fclose(f) != 0) {
		cua_errf(err, errlen, "%s: cannot write", vpath);
		return CUA_E_IO;
	}

	/* gnuplot's stdout and stderr both go to its log, its stdin is /dev/null */
	int logfd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		cua_errf(err, errlen, "%s: cannot run: %s", gnuplot, strerror(errno));
		return CUA_E_SYSTEM;
	}
	char *argv[] = {gnuplot, vpath, script, NULL};
	char why[CUA_ERR_LEN];
	struct cua_child c;
	cua_child_init(&c);
	c.path = gnuplot;
	c.argv = argv;
	c.in = CUA_CHILD_NULL;
	c.out = c.err = CUA_CHILD_FD;
	c.out_fd = c.err_fd = logfd;
	enum cua_status rc = cua_child_start(&c, why, sizeof(why));
	close(logfd);
	if (rc != CUA_OK) {
		cua_errf(err, errlen, "%s: cannot run: %s", gnuplot, strerror(c.failed_errno));
		return CUA_E_SYSTEM;
	}
	if (cua_child_wait(&c, why, sizeof(why)) != CUA_OK) {
		cua_errf(err, errlen, "%s", why);
		return CUA_E_SYSTEM;
	}
	int status = c.wstatus;
	struct stat st;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(img, &st) != 0 ||
	    st.st_size == 0) {
		char *log = NULL, line[512] = "";
		if (cua_read_file(logp, 1 << 20, &log, NULL, NULL, 0) == CUA_OK) {
			/* gnuplot's error is its last non-blank lines; keep the last one */
			char *save = NULL;
			for (char *l = strtok_r(log, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
				if (strspn(l, " \t^") != strlen(l))
					snprintf(line, sizeof(line), "%.500s", l);
		}
		free(log);
		cua_errf(err, errlen, "gnuplot failed on %s (log %s): %s", script, logp,
		         line[0] ? line : "no image written");
		return CUA_E_SYSTEM;
	}
	return CUA_OK;
}
