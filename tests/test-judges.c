/* test-judges.c — the long-lived judges (harness/judge/judges.c) over the real
 * serving protocol, with tests/fakes/fake-judge.c standing in for the GPU
 * judge: one process answers job after job, and a judge that says it is
 * done, dies, dies between jobs or hangs is replaced without losing a job. */
#include <criterion/criterion.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "judge/judges.h"
#include "cuarena-test.h"

#define FD 3

static char exe[4096];
static struct cua_channel_key key;
static struct cua_sandbox_opts so;

static void setup(void)
{
	snprintf(exe, sizeof exe, "%s", built("tests/fake-judge", X_OK));
	char err[CUA_ERR_LEN];
	cr_assert(cua_channel_key_new(&key, err, sizeof err) == CUA_OK);
	cua_sandbox_opts_init(&so);
	so.channel_fd = FD;
	so.channel_max = 1 << 20;
	so.capture_max = 1 << 16;
	so.isolate_net = false;
}

static void teardown(void)
{
	cua_judges_shutdown();
}

TestSuite(judges, .init = setup, .fini = teardown, .timeout = 60);

/* One job saying `word` on device `dev`; the result's message ("pid N job K")
 * in msg. Returns how the exchange ended. */
static enum cua_child_how job(const char *dev, const char *word, double timeout_s, char *msg,
                             size_t len, struct cua_child_result *keep)
{
	char hex[65], payload[256], err[CUA_ERR_LEN];
	cua_channel_key_hex(&key, hex);
	int n = snprintf(payload, sizeof payload, "KEY=%s%c%s", hex, 0, word);
	struct cua_child_result r;
	cr_assert(cua_judges_run(exe, dev, &so, payload, (size_t)n + 1, timeout_s, &key, &r,
	                         err, sizeof err) == CUA_OK, "%s", err);
	msg[0] = '\0';
	const char *m = r.channel ? strstr(r.channel, "\"message\":\"") : NULL;
	if (m)
		snprintf(msg, len, "%.*s", (int)strcspn(m + 11, "\""), m + 11);
	enum cua_child_how how = r.how;
	if (keep)
		*keep = r;
	else
		cua_child_result_clear(&r);
	return how;
}

/* A judge that answers and then exits may be seen gone by the time its answer
 * is read: either way the answer counts. */
static bool answered(enum cua_child_how how)
{
	return how == CUA_CHILD_ALIVE || how == CUA_CHILD_NORMAL;
}

static int pid_of(const char *msg)
{
	int pid = -1, k = -1;
	cr_assert(sscanf(msg, "pid %d job %d", &pid, &k) == 2, "message: '%s'", msg);
	return pid;
}

Test(judges, one_process_answers_job_after_job_with_each_jobs_own_output)
{
	char a[128], b[128], c[128];
	int started = cua_judges_started();
	struct cua_child_result r;
	cr_assert_eq(job("0", "ok", 10, a, sizeof a, NULL), CUA_CHILD_ALIVE);
	cr_assert_eq(job("0", "ok", 10, b, sizeof b, &r), CUA_CHILD_ALIVE);
	cr_assert_eq(job("0", "ok", 10, c, sizeof c, NULL), CUA_CHILD_ALIVE);
	cr_assert_eq(pid_of(a), pid_of(b));
	cr_assert_eq(pid_of(b), pid_of(c));
	cr_assert(strstr(c, "job 2"), "%s", c);
	cr_assert_eq(cua_judges_started() - started, 1);
	/* the second job's channel and stderr hold that job alone */
	cr_assert(strstr(r.channel, "job 1") && !strstr(r.channel, "job 0"), "%s", r.channel);
	cr_assert_str_eq(r.err, "stderr of job 1\n");
	cua_child_result_clear(&r);
}

Test(judges, a_judge_that_says_last_is_replaced)
{
	char a[128], b[128];
	int started = cua_judges_started();
	cr_assert(answered(job("0", "last", 10, a, sizeof a, NULL)));
	cr_assert_eq(job("0", "ok", 10, b, sizeof b, NULL), CUA_CHILD_ALIVE);
	cr_assert_neq(pid_of(a), pid_of(b));
	cr_assert(strstr(b, "job 0"), "%s", b);
	cr_assert_eq(cua_judges_started() - started, 2);
}

Test(judges, a_judge_that_dies_in_a_job_is_that_jobs_end_and_the_next_gets_a_fresh_one)
{
	char a[128], b[128], c[128];
	struct cua_child_result r;
	cr_assert_eq(job("0", "ok", 10, a, sizeof a, NULL), CUA_CHILD_ALIVE);
	/* it said something about this job before dying: no second try */
	cr_assert_eq(job("0", "die", 10, b, sizeof b, &r), CUA_CHILD_NORMAL);
	cr_assert_eq(r.code, 1);
	cr_assert(strstr(r.channel, "phase") && !strstr(r.channel, "result"), "%s", r.channel);
	cua_child_result_clear(&r);
	cr_assert_eq(job("0", "ok", 10, c, sizeof c, NULL), CUA_CHILD_ALIVE);
	cr_assert_neq(pid_of(a), pid_of(c));
}

Test(judges, a_judge_gone_between_jobs_costs_no_job)
{
	char a[128], b[128];
	int started = cua_judges_started();
	cr_assert(answered(job("0", "quit", 10, a, sizeof a, NULL)));
	usleep(100 * 1000);   /* it has exited by now */
	cr_assert_eq(job("0", "ok", 10, b, sizeof b, NULL), CUA_CHILD_ALIVE);
	cr_assert_neq(pid_of(a), pid_of(b));
	cr_assert_eq(cua_judges_started() - started, 2);
}

Test(judges, a_hanging_judge_is_killed_at_the_jobs_deadline)
{
	char a[128], b[128];
	double t0 = cua_now();
	cr_assert_eq(job("0", "hang", 0.5, a, sizeof a, NULL), CUA_CHILD_TIMEOUT);
	double took = cua_now() - t0;
	cr_assert(took >= 0.5 && took < 5, "%.2f s", took);
	cr_assert_eq(job("0", "ok", 10, b, sizeof b, NULL), CUA_CHILD_ALIVE);
}

Test(judges, each_device_has_its_own_judge)
{
	char a[128], b[128], c[128];
	cr_assert_eq(job("0", "ok", 10, a, sizeof a, NULL), CUA_CHILD_ALIVE);
	cr_assert_eq(job("1", "ok", 10, b, sizeof b, NULL), CUA_CHILD_ALIVE);
	cr_assert_eq(job("0", "ok", 10, c, sizeof c, NULL), CUA_CHILD_ALIVE);
	cr_assert_neq(pid_of(a), pid_of(b));
	cr_assert_eq(pid_of(a), pid_of(c));
}

struct worker {
	int pid[20];
	bool ok;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	w->ok = true;
	for (int i = 0; i < 20; i++) {
		char m[128];
		if (job("0", "ok", 10, m, sizeof m, NULL) != CUA_CHILD_ALIVE || !m[0])
			w->ok = false;
		else
			w->pid[i] = pid_of(m);
	}
	return NULL;
}

Test(judges, threads_sharing_a_device_take_turns)
{
	pthread_t th[4];
	struct worker w[4];
	int started = cua_judges_started();
	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, worker_main, &w[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 4; i++) {
		cr_assert(w[i].ok, "worker %d lost a job", i);
		for (int k = 0; k < 20; k++)
			cr_assert_eq(w[i].pid[k], w[0].pid[0]);
	}
	cr_assert_eq(cua_judges_started() - started, 1);
}
