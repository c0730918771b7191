/* test-reward.c — reward schedules with hand-computed values (harness/episode/reward.c). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "episode/reward.h"

struct rcase {
	int kind;
	bool correct;
	double nvcc, library, want;
};

ParameterizedTestParameters(reward, immediate_rewards_match_the_papers)
{
	/* cuda-agent (CUDA Agent Eq. 1): b(t, t0) = (t0 - t)/t0 > 5 % <=> speedup > 1/0.95 */
	static struct rcase cases[] = {
		{CUA_REWARD_CUDA_AGENT, false, 3.0, 3.0, -1},   /* incorrect, however fast */
		{CUA_REWARD_CUDA_AGENT, true, 1.06, 1.06, 3},   /* > 5 % faster than both */
		{CUA_REWARD_CUDA_AGENT, true, 1.06, 1.04, 2},   /* nvcc only */
		{CUA_REWARD_CUDA_AGENT, true, 1.05, 2.00, 1},   /* 1.05 < 1/0.95 = 1.0526 */
		{CUA_REWARD_CUDA_AGENT, true, 1.0527, 1.0527, 3},
		{CUA_REWARD_CUDA_AGENT, true, 0.5, 0.5, 1},     /* correct but slower */
		{CUA_REWARD_CUDA_AGENT, true, 2.0, 0, 2},       /* no library baseline: at most 2 */
		/* kevin: 0.3 * correct + speedup * correct */
		{CUA_REWARD_KEVIN, true, 1.2, 0, 1.5},
		{CUA_REWARD_KEVIN, false, 1.2, 0, 0},
		/* log-speedup */
		{CUA_REWARD_LOG_SPEEDUP, true, 2.0, 0, 0.69314718055994531},
		{CUA_REWARD_LOG_SPEEDUP, true, 0.5, 0, -0.69314718055994531},
		{CUA_REWARD_LOG_SPEEDUP, false, 2.0, 0, -1},
	};
	return cr_make_param_array(struct rcase, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct rcase *c, reward, immediate_rewards_match_the_papers)
{
	struct cua_turn_outcome o = {c->correct, c->nvcc, c->library};
	double got = cua_reward_turn((enum cua_reward_kind)c->kind, &o);
	cr_expect(fabs(got - c->want) < 1e-12, "%s(correct %d, %g, %g) = %.17g, want %.17g",
	          cua_reward_name((enum cua_reward_kind)c->kind), c->correct, c->nvcc,
	          c->library, got, c->want);
}

Test(reward, kevin_discounts_later_turns_with_gamma_0_4)
{
	/* scores 1.5, 0 (incorrect), 2.3: R3 = 2.3, R2 = 0 + 0.4*2.3 = 0.92,
	 * R1 = 1.5 + 0.4*0.92 = 1.868 */
	double r[3] = {1.5, 0, 2.3};
	cua_reward_finish(CUA_REWARD_KEVIN, r, 3);
	cr_expect(fabs(r[2] - 2.3) < 1e-12);
	cr_expect(fabs(r[1] - 0.92) < 1e-12, "%.17g", r[1]);
	cr_expect(fabs(r[0] - 1.868) < 1e-12, "%.17g", r[0]);
}

Test(reward, other_schedules_keep_immediate_rewards)
{
	double r[3] = {-1, 2, 3};
	cua_reward_finish(CUA_REWARD_CUDA_AGENT, r, 3);
	cr_expect(r[0] == -1 && r[1] == 2 && r[2] == 3);
	cua_reward_finish(CUA_REWARD_LOG_SPEEDUP, r, 3);
	cr_expect(r[0] == -1 && r[1] == 2 && r[2] == 3);
}

Test(reward, names_round_trip_and_unknown_names_fail)
{
	const char *names[] = {"cuda-agent", "kevin", "log-speedup"};
	for (int i = 0; i < 3; i++) {
		enum cua_reward_kind k;
		cr_assert(cua_reward_parse(names[i], &k));
		cr_expect_str_eq(cua_reward_name(k), names[i]);
	}
	enum cua_reward_kind k;
	cr_expect_not(cua_reward_parse("speedup", &k));
	cr_expect_not(cua_reward_parse(NULL, &k));
}
