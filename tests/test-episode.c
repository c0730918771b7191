/* test-episode.c — the episode engine's evaluation options (harness/episode.c):
 * candidates get the ceilings of the GPU their baselines ran on, so %SOL and the
 * faster-than-light check apply to them as to the baselines. A run on the H200
 * once recorded every candidate with pct_sol 0 (and no speed-of-light check)
 * while its baselines had theirs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "episode.h"

static char tmp[4096];

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/cuarena-test-episode-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void)
{
	if (tmp[0])
		cua_rmtree(tmp);
}

TestSuite(episode, .init = setup, .fini = teardown);

static const char *root(void)
{
	const char *r = getenv("CUARENA_ROOT");
	return r ? r : ".";
}

/* Begins an episode of L1/021-relu whose baselines ran on `gpu` (NULL: unknown). */
static void begin(struct cua_episode *ep, struct cua_task **t, struct cua_report *base,
                  struct cua_eval_opts *o, const char *gpu)
{
	char dir[4200], err[CUA_ERR_LEN], work[4200];
	snprintf(dir, sizeof(dir), "%s/tasks/L1/021-relu", root());
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
	begin(&ep, &t, &base, &o, "NVIDIA H200");   /* results/device/NVIDIA-H200.json */
	cr_assert_null(o.ceilings, "the caller's options are not changed");
	cr_assert_not_null(ep.opts->ceilings);
	cr_expect(ep.opts->ceilings->known);
	cr_expect_gt(ep.opts->ceilings->copy_gbs, 1000);
	cr_expect_gt(cua_sol_ms(t, ep.opts->ceilings), 0, "ReLU has a speed of light on the H200");
	cua_episode_free(&ep);
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
	cua_episode_free(&ep);
	cua_task_free(t);
	begin(&ep, &t, &base, &o, "Some Other GPU");
	cr_expect_null(ep.opts->ceilings);
	cua_episode_free(&ep);
	cua_task_free(t);
}
