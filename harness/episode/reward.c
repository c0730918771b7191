/* reward.c — reward schedules: cuda-agent, kevin, log-speedup. */
#include "episode/reward.h"

#include <math.h>
#include <string.h>

static const char *const names[] = {
	[CUA_REWARD_CUDA_AGENT] = "cuda-agent",
	[CUA_REWARD_KEVIN] = "kevin",
	[CUA_REWARD_LOG_SPEEDUP] = "log-speedup",
};

#define KEVIN_GAMMA 0.4
#define MARGIN (1.0 / 0.95)   /* (t0 - t) / t0 > 5 %  <=>  t0 / t > 1 / 0.95 */

bool cua_reward_parse(const char *name, enum cua_reward_kind *k)
{
	for (size_t i = 0; i < CUA_ARRAY_LEN(names); i++)
		if (name && !strcmp(name, names[i])) {
			*k = (enum cua_reward_kind)i;
			return true;
		}
	return false;
}

const char *cua_reward_name(enum cua_reward_kind k)
{
	return (unsigned)k < CUA_ARRAY_LEN(names) ? names[k] : "unknown";
}

double cua_reward_turn(enum cua_reward_kind k, const struct cua_turn_outcome *o)
{
	switch (k) {
	case CUA_REWARD_CUDA_AGENT:
		if (!o->correct)
			return -1;
		if (o->speedup_nvcc > MARGIN && o->speedup_library > MARGIN)
			return 3;
		if (o->speedup_nvcc > MARGIN)
			return 2;
		return 1;
	case CUA_REWARD_KEVIN:
		return o->correct ? 0.3 + o->speedup_nvcc : 0;
	case CUA_REWARD_LOG_SPEEDUP:
		return o->correct && o->speedup_nvcc > 0 ? log(o->speedup_nvcc) : -1;
	}
	return 0;
}

void cua_reward_finish(enum cua_reward_kind k, double *rewards, int n)
{
	if (k != CUA_REWARD_KEVIN)
		return;
	for (int i = n - 2; i >= 0; i--)
		rewards[i] += KEVIN_GAMMA * rewards[i + 1];
}
