/* test-view.c — a file-system view of listed entries (harness/view.c). Each test
 * enters a view in a child of its own, in new mount and PID namespaces (as root,
 * the way CI and the GPU machine run; otherwise in a user namespace), checks
 * what it sees there, and reports the first failed check through a pipe. A
 * kernel that refuses both namespaces skips the tests and says so. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "view.h"
#include "cuarena-test.h"

TestSuite(view, .init = tmp_make, .fini = tmp_remove);

/* The child's report: "" when every check passed, else the first failure. */
static char report[1024];
static int report_fd = -1;

/* In the child: reports the first failed check and ends. */
__attribute__((format(printf, 1, 2))) static void fail_child(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (write(report_fd, msg, n > 0 ? (size_t)n : 0) < 0)
		_exit(3);
	_exit(1);
}

#define CHECK(cond, ...)                                                                     \
	do {                                                                                     \
		if (!(cond))                                                                         \
			fail_child(__VA_ARGS__);                                                         \
	} while (0)

static void write_map(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		_exit(77);
	close(fd);
}

/* New mount and PID namespaces (a user namespace too when not root), then a
 * grandchild, pid 1 there, which runs body(); its report comes back in
 * `report`. Skips the test when the kernel refuses the namespaces. */
static void in_namespaces(void (*body)(void))
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		close(p[0]);
		report_fd = p[1];
		uid_t uid = geteuid();
		gid_t gid = getegid();
		if (uid == 0) {
			if (unshare(CLONE_NEWNS | CLONE_NEWPID) < 0)
				_exit(77);
		} else {
			if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) < 0)
				_exit(77);
			char m[64];
			snprintf(m, sizeof(m), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
			write_map("/proc/self/uid_map", m);
			write_map("/proc/self/setgroups", "deny");
			snprintf(m, sizeof(m), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
			write_map("/proc/self/gid_map", m);
		}
		pid_t g = fork();
		if (g < 0)
			_exit(2);
		if (g == 0) {
			body();
			_exit(0);
		}
		int st;
		if (waitpid(g, &st, 0) != g)
			_exit(2);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 4);
	}
	close(p[1]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	ssize_t n = read(p[0], report, sizeof(report) - 1);
	report[n > 0 ? n : 0] = '\0';
	close(p[0]);
	cr_assert(WIFEXITED(st), "the child died of signal %d", WTERMSIG(st));
	if (WEXITSTATUS(st) == 77)
		cr_skip_test("the kernel refuses new mount/PID%s namespaces here",
		             geteuid() ? " and user" : "");
	cr_assert_eq(WEXITSTATUS(st), 0, "%s", report[0] ? report : "the child failed");
}

/* The host side of every view: tmp/a.txt, tmp/d/b.txt, tmp/rw/, links to a.txt. */
static char host_a[256], host_d[256], host_rw[256], host_abs_link[256], host_rel_link[256];

static void host_files(void)
{
	char p[300];
	tmp_write("a.txt", "alpha\n");
	tmp_write("d/b.txt", "beta\n");
	snprintf(p, sizeof(p), "%s/rw", tmp);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(host_a, sizeof(host_a), "%s/a.txt", tmp);
	snprintf(host_d, sizeof(host_d), "%s/d", tmp);
	snprintf(host_rw, sizeof(host_rw), "%s/rw", tmp);
	snprintf(host_abs_link, sizeof(host_abs_link), "%s/abs-link", tmp);
	cr_assert_eq(symlink(host_a, host_abs_link), 0);
	snprintf(host_rel_link, sizeof(host_rel_link), "%s/d/rel-link", tmp);
	cr_assert_eq(symlink("../a.txt", host_rel_link), 0);
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

/* The first line of a file in the view, or "" when it cannot be read. */
static const char *line_of(const char *p)
{
	static char buf[256];
	buf[0] = '\0';
	int fd = open(p, O_RDONLY);
	if (fd < 0)
		return buf;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	close(fd);
	return buf;
}

static void enter(const struct cua_view_entry *e, int n, bool proc)
{
	const char *stage = NULL;
	CHECK(cua_view_enter(e, n, proc, &stage) == 0, "cua_view_enter: %s: %s",
	      stage ? stage : "?", strerror(errno));
}

static void body_listed_entries_read_only(void)
{
	struct cua_view_entry e[] = {
		{ host_a, "/data/a.txt", 0 },
		{ host_d, "/data/d", 0 },
	};
	enter(e, 2, false);
	CHECK(!strcmp(line_of("/data/a.txt"), "alpha"), "/data/a.txt reads '%s'",
	      line_of("/data/a.txt"));
	CHECK(!strcmp(line_of("/data/d/b.txt"), "beta"), "/data/d/b.txt reads '%s'",
	      line_of("/data/d/b.txt"));
	int fd = open("/data/a.txt", O_WRONLY);
	CHECK(fd < 0 && errno == EROFS, "a read-only file opened for writing (%s)",
	      fd < 0 ? strerror(errno) : "it opened");
	fd = open("/data/d/new", O_WRONLY | O_CREAT, 0644);
	CHECK(fd < 0 && errno == EROFS, "a file was created in a read-only folder (%s)",
	      fd < 0 ? strerror(errno) : "it opened");
	CHECK(mkdir("/made-here", 0755) < 0 && errno == EROFS,
	      "the view's own root is writable (%s)", strerror(errno));
}

Test(view, listed_entries_are_there_and_read_only)
{
	host_files();
	in_namespaces(body_listed_entries_read_only);
}

static void body_nothing_else(void)
{
	struct cua_view_entry e[] = { { host_a, "/data/a.txt", 0 } };
	enter(e, 1, false);
	static const char *const gone[] = { "/etc/passwd", "/etc", "/usr", "/bin/sh", "/home",
	                                    "/root", "/proc/self", "/dev/null", "/tmp" };
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		CHECK(!exists(gone[i]), "%s is in the view", gone[i]);
	CHECK(!exists(host_a), "the host path %s is in the view too", host_a);
	/* the root holds exactly the one folder on the way to the entry */
	DIR *d = opendir("/");
	CHECK(d, "cannot list /: %s", strerror(errno));
	int n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		CHECK(!strcmp(de->d_name, "data"), "/%s is in the view", de->d_name);
		n++;
	}
	closedir(d);
	CHECK(n == 1, "the root holds %d entries", n);
	char cwd[64];
	CHECK(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/"), "the cwd is not /");
}

Test(view, everything_not_listed_is_gone)
{
	host_files();
	in_namespaces(body_nothing_else);
}

static char scratch[64];   /* a file in the view's private /tmp */

static void body_tmpfs_and_rw(void)
{
	struct cua_view_entry e[] = {
		{ NULL, "/tmp", CUA_VIEW_TMPFS },
		{ host_rw, "/out", CUA_VIEW_RW },
	};
	enter(e, 2, false);
	int fd = open(scratch, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "t\n", 2) == 2, "the private tmp is not writable: %s",
	      strerror(errno));
	close(fd);
	CHECK(!strcmp(line_of(scratch), "t"), "the private tmp lost what was written");
	struct stat st;
	CHECK(stat("/tmp", &st) == 0 && (st.st_mode & 07777) == 01777,
	      "the private tmp's mode is %o", st.st_mode & 07777);
	fd = open("/out/result", O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0 && write(fd, "r\n", 2) == 2, "a writable entry is not writable: %s",
	      strerror(errno));
	close(fd);
}

Test(view, a_tmpfs_entry_and_a_writable_entry_take_writes)
{
	host_files();
	snprintf(scratch, sizeof(scratch), "/tmp/cuarena-view-scratch-%ld", (long)getpid());
	in_namespaces(body_tmpfs_and_rw);
	char p[300];
	snprintf(p, sizeof(p), "%s/rw/result", tmp);
	cr_expect(exists(p), "what the view wrote to its writable entry is not on the host");
	char *s = tmp_read("a.txt");
	cr_expect_str_eq(s, "alpha\n");
	free(s);
	cr_expect(!exists(scratch), "the view's private tmp was the host's /tmp");
}

static void body_optional(void)
{
	struct cua_view_entry e[] = {
		{ "/no/such/path", "/maybe", CUA_VIEW_OPTIONAL },
		{ host_a, "/data/a.txt", 0 },
	};
	enter(e, 2, false);
	CHECK(!exists("/maybe"), "a skipped entry left its mount point");
	CHECK(!strcmp(line_of("/data/a.txt"), "alpha"), "the entry after a skipped one is missing");
}

Test(view, an_optional_entry_missing_on_the_host_is_skipped)
{
	host_files();
	in_namespaces(body_optional);
}

static void body_required_missing(void)
{
	struct cua_view_entry e[] = { { "/no/such/path", "/must", 0 } };
	const char *stage = NULL;
	int r = cua_view_enter(e, 1, false, &stage);
	CHECK(r == -1 && errno == ENOENT, "a missing entry: %d (%s)", r, strerror(errno));
	CHECK(stage && strstr(stage, "/no/such/path"), "the stage does not name the entry: %s",
	      stage ? stage : "(none)");
}

Test(view, a_required_entry_missing_on_the_host_fails_naming_it)
{
	in_namespaces(body_required_missing);
}

static void body_proc(void)
{
	struct cua_view_entry e[] = { { host_a, "/data/a.txt", 0 } };
	enter(e, 1, true);
	CHECK(strstr(line_of("/proc/self/status"), "Name:"), "/proc/self/status reads '%s'",
	      line_of("/proc/self/status"));
	char buf[64];
	ssize_t n = readlink("/proc/self/cwd", buf, sizeof(buf) - 1);
	CHECK(n == 1 && buf[0] == '/', "/proc/self/cwd is not the view's /");
	CHECK(getpid() == 1, "not pid 1 of the namespace");
	CHECK(!strcmp(line_of("/proc/1/comm"), line_of("/proc/self/comm")),
	      "/proc shows another PID namespace");
}

Test(view, a_fresh_proc_shows_the_process_itself)
{
	host_files();
	in_namespaces(body_proc);
}

static void body_links(void)
{
	struct cua_view_entry e[] = {
		{ host_abs_link, "/abs", 0 },
		{ host_rel_link, "/rel", 0 },
	};
	enter(e, 2, false);
	struct stat st;
	CHECK(lstat("/abs", &st) == 0 && S_ISREG(st.st_mode),
	      "an absolute link is not followed to its file");
	CHECK(!strcmp(line_of("/abs"), "alpha"), "/abs reads '%s'", line_of("/abs"));
	CHECK(!strcmp(line_of("/rel"), "alpha"), "/rel reads '%s'", line_of("/rel"));
}

Test(view, links_in_host_paths_are_followed_on_the_host)
{
	host_files();
	in_namespaces(body_links);
}

static void body_no_point_on_the_host(void)
{
	struct cua_view_entry e[] = {
		{ host_d, "/data/d", CUA_VIEW_RW },
		{ host_a, "/data/d/sub/a.txt", 0 },
	};
	const char *stage = NULL;
	int r = cua_view_enter(e, 2, false, &stage);
	CHECK(r == -1 && errno == EROFS, "a mount point beneath a bound folder: %d (%s)", r,
	      strerror(errno));
	CHECK(stage && strstr(stage, "/data/d/sub/a.txt"), "stage: %s", stage ? stage : "?");
}

/* A mount point under a folder bound from the host would be made on the host
 * (here a writable one): refused instead. */
Test(view, no_mount_point_is_made_inside_a_bound_host_folder)
{
	host_files();
	in_namespaces(body_no_point_on_the_host);
	char p[300];
	snprintf(p, sizeof(p), "%s/d/sub", tmp);
	cr_expect(!exists(p), "%s was made on the host", p);
}

static const char *bad_place;

static void body_bad_place(void)
{
	struct cua_view_entry e[] = { { host_a, bad_place, 0 } };
	int r = cua_view_enter(e, 1, false, NULL);
	CHECK(r == -1 && errno == EINVAL, "place '%s' was taken", bad_place);
}

Test(view, a_place_that_is_relative_or_climbs_is_refused)
{
	static const char *const bad[] = { "relative/x", "/data/../etc", "/./x", "/" };
	host_files();
	/* the view is undefined after a failure: one case per child */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bad_place = bad[i];
		in_namespaces(body_bad_place);
	}
}

static int held_fd = -1;

static void body_device_and_descriptors(void)
{
	struct cua_view_entry e[] = { { "/dev/null", NULL, 0 } };
	enter(e, 1, false);
	int fd = open("/dev/null", O_WRONLY);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1, "/dev/null does not take writes: %s",
	      strerror(errno));
	close(fd);
	char buf[16] = "";
	CHECK(pread(held_fd, buf, 5, 0) == 5 && !memcmp(buf, "alpha", 5),
	      "a descriptor opened before the view was lost");
}

Test(view, a_device_node_works_and_descriptors_stay)
{
	host_files();
	held_fd = open(host_a, O_RDONLY);
	cr_assert(held_fd >= 0);
	in_namespaces(body_device_and_descriptors);
	close(held_fd);
}

/* ---- the sandbox's jail (harness/sandbox.c), which the build runs in ---- */

#include "sandbox.h"

Test(view, a_jailed_child_sees_its_view_alone_and_writes_as_nobody)
{
	char why[CUA_ERR_LEN];
	if (cua_sandbox_jail_probe(NULL, why, sizeof(why)) != CUA_OK)
		cr_skip_test("the kernel refuses the jail here: %s", why);
	host_files();
	if (geteuid() == 0)
		cr_assert_eq(chown(host_rw, 65534, 65534), 0);
	struct cua_view_entry e[] = {
		{ "/bin/sh", NULL, 0 },
		{ "/usr/lib/" "x86_64-linux-gnu", NULL, CUA_VIEW_OPTIONAL },
		{ "/usr/lib/" "aarch64-linux-gnu", NULL, CUA_VIEW_OPTIONAL },
		{ "/lib64", NULL, CUA_VIEW_OPTIONAL },
		{ "/lib", NULL, CUA_VIEW_OPTIONAL },
		{ host_rw, "/tmp", CUA_VIEW_RW },
	};
	struct cua_sandbox_opts o;
	cua_sandbox_opts_init(&o);
	o.private_tmp = false;
	o.cwd = "/tmp";
	o.view = e;
	o.n_view = CUA_ARRAY_LEN(e);
	const char *env[] = { "PATH=/bin", NULL };
	o.env = env;
	const char *argv[] = { "/bin/sh", "-c",
	                       "for p in /etc/passwd /home /root /proc/self /usr/bin "
	                       "/work; do [ -e $p ] && echo \"$p is there\"; done; "
	                       "echo x > /tmp/made && echo wrote; echo y > /bin/z || echo refused",
	                       NULL };
	struct cua_child_result r;
	cr_assert_eq(cua_sandbox_run(argv, &o, &r, why, sizeof(why)), CUA_OK, "%s", why);
	cr_expect(r.jailed && r.net_isolated);
	cr_expect_eq(r.how, CUA_CHILD_NORMAL);
	cr_expect_str_eq(r.out, "wrote\nrefused\n", "stdout: %s\nstderr: %s", r.out, r.err);
	char made[300];
	snprintf(made, sizeof(made), "%s/made", host_rw);
	struct stat st;
	cr_assert_eq(stat(made, &st), 0, "what it wrote is not in the writable entry");
	cr_expect_eq(st.st_uid, geteuid() == 0 ? 65534u : geteuid(),
	             "it wrote as uid %u", (unsigned)st.st_uid);
	cua_child_result_clear(&r);
}

Test(view, a_jail_that_cannot_be_made_is_a_start_up_error_naming_the_step)
{
	char why[CUA_ERR_LEN];
	if (cua_sandbox_jail_probe(NULL, why, sizeof(why)) != CUA_OK)
		cr_skip_test("the kernel refuses the jail here: %s", why);
	struct cua_view_entry e[] = { { "/no/such/toolkit", NULL, 0 } };
	struct cua_sandbox_opts o;
	cua_sandbox_opts_init(&o);
	o.private_tmp = false;
	o.view = e;
	o.n_view = 1;
	const char *argv[] = { "/bin/true", NULL };
	struct cua_child_result r;
	cr_expect_eq(cua_sandbox_run(argv, &o, &r, why, sizeof(why)), CUA_E_SYSTEM);
	cr_expect_not_null(strstr(why, "finding /no/such/toolkit"), "%s", why);
}
