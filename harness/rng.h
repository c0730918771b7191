/* rng.h — the harness's counter-based input generator, identical on host and device.
 *
 * Element i of input tensor t for seed s is a pure function of (s, t, i):
 * bits = mix64(s, t, i) (splitmix64 finaliser over a keyed counter), mapped to
 * the task's distribution. No state, so any element can be regenerated (the
 * input-mutation check does exactly that) and tools/ can reproduce inputs. */
#ifndef CUA_RNG_H
#define CUA_RNG_H

#include <stdint.h>
#include <math.h>

#ifdef __CUDACC__
#define CUA_HD __host__ __device__ __forceinline__
#else
#define CUA_HD static inline
#endif

CUA_HD uint64_t cua_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 64 random bits for (seed, tensor, index, lane); lane separates the two draws
 * Box–Muller needs. The seed and the (tensor, lane) pair are mixed into a key on
 * a path of their own, then the index walks a splitmix64 sequence from that key:
 * no two of seed, tensor, lane and index can trade places (an earlier version
 * mixed seed and index symmetrically, so element s of seed i equalled element i
 * of seed s). */
CUA_HD uint64_t cua_rng_bits(uint64_t seed, uint32_t tensor, uint64_t index,
                             uint32_t lane)
{
	uint64_t stream = ((uint64_t)tensor << 1 | (lane & 1u)) * 0xd1342543de82ef95ULL +
	                  0x2545f4914f6cdd1dULL;
	uint64_t key = cua_mix64(cua_mix64(seed) ^ stream);
	return cua_mix64(key + index * 0x9e3779b97f4a7c15ULL);
}

/* Uniform in [0, 1) with 53 random bits. */
CUA_HD double cua_rng_unit(uint64_t bits)
{
	return (double)(bits >> 11) * (1.0 / 9007199254740992.0);
}

/* Distribution codes mirror enum cua_dist in task.h. */
#define CUA_RNG_UNIFORM 0
#define CUA_RNG_NORMAL 1
#define CUA_RNG_INT 2
#define CUA_RNG_BERNOULLI 3
#define CUA_RNG_CONST 4

/* The value of one element as a double (integers are exact). */
CUA_HD double cua_rng_value(int dist, double a, double b, uint64_t seed,
                            uint32_t tensor, uint64_t index)
{
	if (dist == CUA_RNG_CONST)
		return a;
	uint64_t r0 = cua_rng_bits(seed, tensor, index, 0);
	if (dist == CUA_RNG_UNIFORM)
		return a + (b - a) * cua_rng_unit(r0);
	if (dist == CUA_RNG_NORMAL) {
		/* Box–Muller; u1 in (0, 1] so log() is finite. */
		double u1 = 1.0 - cua_rng_unit(r0);
		double u2 = cua_rng_unit(cua_rng_bits(seed, tensor, index, 1));
		return a + b * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
	}
	if (dist == CUA_RNG_INT) {
		uint64_t span = (uint64_t)((int64_t)b - (int64_t)a) + 1;
		return (double)((int64_t)a + (int64_t)(r0 % span));
	}
	return cua_rng_unit(r0) < a ? 1.0 : 0.0; /* bernoulli(p = a) */
}

#endif /* CUA_RNG_H */
