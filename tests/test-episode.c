/* test-episode.c — the episode engine's evaluation options (harness/episode/episode.c):
 * candidates get the ceilings of the GPU their baselines ran on, so %SOL and the
 * faster-than-light check apply to them as to the baselines. A run on the H200
 * once recorded every candidate with pct_sol 0 (and no speed-of-light check)
 * while its baselines had theirs. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "episode/episode.h"
#include "cuarena-test.h"

TestSuite(episode, .init = tmp_make, .fini = tmp_remove);

/* Begins an episode of L1/019-relu whose baselines ran on `gpu` (NULL: unknown). */
static void begin(struct cua_episode *ep, struct cua_task **t, struct cua_report *base,
                  struct cua_eval_opts *o, const char *gpu)
{
	char dir[4200], err[CUA_ERR_LEN], work[4200];
	snprintf(dir, sizeof(dir), "%s/tasks/L1/019-relu", root());
	cr_assert_eq(cua_task_load(dir, t, err, sizeof(err)), CUA_OK, "%s", err);
	memset(base, 0, sizeof(*base));
	base->task = *t;
	if (gpu) {
		base->device.known = true;
		snprintf(base->device.name, sizeof(base->device.name), "%s", gpu);
	}
	cua_eval_opts_init(o, root(), "/bin/false", tmp);
	snprintf(work, sizeof(work), "%s/work", tmp);
	cr_assert_eq(cua_episode_begin(ep, *t, o, base, CUA_REWARD_CUDA_AGENT, 2, work, NULL, err,
	                               sizeof(err)), CUA_OK, "%s", err);
}

Test(episode, candidates_get_the_ceilings_of_the_baselines_gpu)
{
	struct cua_episode ep;
	struct cua_task *t;
	struct cua_report base;
	struct cua_eval_opts o;
	begin(&ep, &t, &base, &o, "NVIDIA H200");   /* data/devices/NVIDIA-H200.json */
	cr_assert_null(o.ceilings, "the caller's options are not changed");
	cr_assert_not_null(ep.opts->ceilings);
	cr_expect(ep.opts->ceilings->known);
	cr_expect_gt(ep.opts->ceilings->copy_gbs, 1000);
	cr_expect_gt(cua_sol_ms(t, ep.opts->ceilings), 0, "ReLU has a speed of light on the H200");
	cua_episode_clear(&ep);
	cua_task_free(t);
}

Test(episode, no_ceilings_without_a_known_gpu_or_file)
{
	struct cua_episode ep;
	struct cua_task *t;
	struct cua_report base;
	struct cua_eval_opts o;
	begin(&ep, &t, &base, &o, NULL);
	cr_expect_null(ep.opts->ceilings);
	cua_episode_clear(&ep);
	cua_task_free(t);
	begin(&ep, &t, &base, &o, "Some Other GPU");
	cr_expect_null(ep.opts->ceilings);
	cua_episode_clear(&ep);
	cua_task_free(t);
}

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stop_flag;

static void *set_stop_later(void *arg)
{
	(void)arg;
	usleep(200 * 1000);
	stop_flag = 1;
	return NULL;
}

/* Ctrl-C stops a run at once: a kernel waiting for the GPU is not evaluated.
 * (The H200 replay run, told to stop, went on evaluating every built kernel
 * queued for the GPU and was killed 30 s later.) */
Test(episode, a_wait_for_the_gpu_gives_up_when_told_to_stop)
{
	pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
	stop_flag = 0;
	cr_assert_eq(cua_gpu_lock(&free_lock, &stop_flag), CUA_OK);
	pthread_mutex_unlock(&free_lock);
	cr_assert_eq(cua_gpu_lock(&free_lock, NULL), CUA_OK);
	pthread_mutex_unlock(&free_lock);

	pthread_mutex_lock(&held);                  /* another evaluation holds the GPU */
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, set_stop_later, NULL), 0);
	double t0 = cua_now();
	cr_expect_eq(cua_gpu_lock(&held, &stop_flag), CUA_E_INTERRUPTED);
	double waited = cua_now() - t0;
	pthread_join(th, NULL);
	cr_expect(waited >= 0.15 && waited < 5, "gave up after %.3f s", waited);
	pthread_mutex_unlock(&held);
	cr_expect_eq(cua_gpu_lock(&held, &stop_flag), CUA_E_INTERRUPTED,
	             "a stopped run does not take even a free GPU");
}

Test(episode, an_interrupted_turn_is_not_taken)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the step builds the candidate before the GPU wait");
	struct cua_episode ep;
	struct cua_task *t;
	struct cua_report base;
	struct cua_eval_opts o;
	begin(&ep, &t, &base, &o, NULL);
	char path[4200], *code = NULL, err[CUA_ERR_LEN] = "";
	snprintf(path, sizeof(path), "%s/tasks/L1/019-relu/reference.cu", root());
	cr_assert_eq(cua_read_file(path, 1 << 20, &code, NULL, err, sizeof(err)), CUA_OK, "%s",
	             err);
	pthread_mutex_lock(&held);
	stop_flag = 1;
	ep.gpu_lock = &held;
	ep.stop = &stop_flag;
	struct cua_step step;
	cr_expect_eq(cua_episode_step(&ep, code, NULL, &step, err, sizeof(err)),
	             CUA_E_INTERRUPTED);
	cr_expect(strstr(err, "interrupted") && strstr(err, "turn 1"), "%s", err);
	cr_expect_eq(ep.turn, 0, "the turn is taken again on resume");
	cr_expect_not(ep.done);
	cua_step_clear(&step);
	pthread_mutex_unlock(&held);
	free(code);
	cua_episode_clear(&ep);
	cua_task_free(t);
}

/* A client of `cuarena serve` that leaves stops its step's build: the turn is not
 * taken, and the episode goes on at that turn. (Before, a build that stopped or
 * failed left ep->turn counted: the next step was "turn 2" of nothing.) */
Test(episode, a_stopped_build_does_not_take_the_turn)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the build is what is stopped");
	struct cua_episode ep;
	struct cua_task *t;
	struct cua_report base;
	struct cua_eval_opts o;
	begin(&ep, &t, &base, &o, NULL);
	char err[CUA_ERR_LEN] = "";
	static volatile sig_atomic_t stop_build = 1;
	ep.own.build.stop = &stop_build;
	struct cua_step step;
	const char *code = "#include \"cuarena.h\"\nint x = this is not C;\n";
	cr_expect_eq(cua_episode_step(&ep, code, NULL, &step, err, sizeof(err)),
	             CUA_E_INTERRUPTED, "%s", err);
	cr_expect(strstr(err, "stopped"), "%s", err);
	cr_expect_eq(ep.turn, 0);
	cua_step_clear(&step);
	stop_build = 0;
	cr_assert_eq(cua_episode_step(&ep, code, NULL, &step, err, sizeof(err)), CUA_OK, "%s",
	             err);
	cr_expect_eq(step.turn, 1, "the next step is turn 1 again");
	cr_expect_eq(step.eval.verdict, CUA_VERDICT_COMPILE_ERROR);
	cua_step_clear(&step);
	cua_episode_clear(&ep);
	cua_task_free(t);
}
