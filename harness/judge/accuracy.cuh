/* accuracy.cuh — the device half of precision by accuracy (accuracy.h): the
 * sums the rule needs, gathered in two passes over an output (included by
 * judge.cu alone).
 *
 * Pass A, after the oracle r on the case's inputs: Σ(c − r)² and Σ(k − r)²
 * (k: the trusted checker's output), and k's buffer is overwritten with
 * e = c − r (NaN where a term is not finite), since r is about to go. Pass B,
 * after the oracle r' on the rounded inputs (into r's buffer): d = r' − r =
 * r' − c + e, then Σd² and Σe·d. No buffer beyond those the case has. */
#ifndef CUA_ACCURACY_CUH
#define CUA_ACCURACY_CUH

#include "judge/accuracy.h"

struct prec_acc {
	double ee, kk, dd, ed, n;
};

__device__ __forceinline__ double warp_sum(double v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

template <typename T>
__global__ void prec_pass_a(const T *c, const double *r, T *k_to_e, int64_t n, prec_acc *acc)
{
	double ee = 0, kk = 0;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		double cv = (double)c[i], rv = r[i], kv = (double)k_to_e[i];
		if (isfinite(cv) && isfinite(rv) && isfinite(kv)) {
			double e = cv - rv, q = kv - rv;
			ee += e * e;
			kk += q * q;
			k_to_e[i] = (T)e;
		} else
			k_to_e[i] = (T)NAN;
	}
	ee = warp_sum(ee);
	kk = warp_sum(kk);
	if ((threadIdx.x & 31) == 0) {
		atomicAdd(&acc->ee, ee);
		atomicAdd(&acc->kk, kk);
	}
}

template <typename T>
__global__ void prec_pass_b(const T *c, const T *e, const double *r2, int64_t n, prec_acc *acc)
{
	double dd = 0, ed = 0, cnt = 0;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		double ev = (double)e[i];
		if (ev != ev)
			continue;
		double d = r2[i] - (double)c[i] + ev;
		if (!isfinite(d))
			continue;
		dd += d * d;
		ed += ev * d;
		cnt += 1;
	}
	dd = warp_sum(dd);
	ed = warp_sum(ed);
	cnt = warp_sum(cnt);
	if ((threadIdx.x & 31) == 0) {
		atomicAdd(&acc->dd, dd);
		atomicAdd(&acc->ed, ed);
		atomicAdd(&acc->n, cnt);
	}
}

#endif /* CUA_ACCURACY_CUH */
