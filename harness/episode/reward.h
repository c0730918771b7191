/* reward.h — reward schedules for episodes (DESIGN.md §5). A turn's immediate
 * score comes from its verdict and speedups; some schedules then discount over
 * the later turns of the episode. */
#ifndef CUA_REWARD_H
#define CUA_REWARD_H

#include "common.h"

enum cua_reward_kind {
	CUA_REWARD_CUDA_AGENT = 0,  /* CUDA Agent Eq. 1: -1 / 1 / 2 / 3 */
	CUA_REWARD_KEVIN = 1,       /* Kevin: s = 0.3*correct + speedup*correct, R_t = s_t + 0.4 R_t+1 */
	CUA_REWARD_LOG_SPEEDUP = 2, /* ln(speedup vs nvcc) if correct, -1 otherwise */
};

/* What one turn achieved. Speedups are time(baseline) / time(candidate), 0 when
 * the baseline does not exist or was not measured. */
struct cua_turn_outcome {
	bool correct;               /* verdict ok */
	double speedup_nvcc;
	double speedup_library;     /* vs the fastest library baseline of the task */
};

bool cua_reward_parse(const char *name, enum cua_reward_kind *k);
const char *cua_reward_name(enum cua_reward_kind k);

/* The immediate reward of one turn. cuda-agent: -1 incorrect; 3 when more than
 * 5 % faster than both nvcc and the library baseline ((t0 - t)/t0 > 0.05, i.e.
 * speedup > 1/0.95); 2 when more than 5 % faster than nvcc only; 1 otherwise.
 * A task without a library baseline cannot be faster than it: at most 2. */
double cua_reward_turn(enum cua_reward_kind k, const struct cua_turn_outcome *o);

/* Final per-turn rewards of an episode from the immediate ones, in place:
 * kevin discounts later turns into earlier ones (gamma 0.4); others keep them. */
void cua_reward_finish(enum cua_reward_kind k, double *rewards, int n);

#endif /* CUA_REWARD_H */
