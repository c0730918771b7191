/* L1/094-mseloss reference: loss = (1/N) Σ_i (predictions[i] − targets[i])²
 * over all N = B·D elements (torch.nn.functional.mse_loss, reduction 'mean'),
 * predictions, targets [B,D] f32, loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, each thread a
 * grid-stride sum of squared differences, one block sum per block into a static
 * device array, then one block sums the partials and divides by N (loss.cuh;
 * deterministic, no atomics); cua_oracle runs the same launches in double and
 * writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-094.so tasks/L1/094-mseloss/reference.cu
 * Napkin math (timed B=32768, D=32768): 3.22 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 0, rtol 1e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "loss.cuh"

struct mse_term {
	const float *p, *t;
	template <typename Acc> __device__ Acc at(int64_t i) const
	{
		Acc d = (Acc)p[i] - (Acc)t[i];
		return d * d;
	}
};

template <typename Acc, typename Out>
static int mse_loss(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                    cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *p = &in[0], *t = &in[1];
	struct cua_tensor *loss = &out[0];
	CUA_CHECK(cua_check_tensor(p, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(t, CUA_F32, 2));
	CUA_CHECK(cua_check_same_shape(p, t));
	CUA_CHECK(cua_check_tensor(loss, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_dim(loss, 0, 1));

	const int64_t n = cua_numel(p);
	struct mse_term term = {(const float *)p->data, (const float *)t->data};
	cua_loss_mean<Acc, Out>(n, term, n, (Out *)loss->data, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return mse_loss<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return mse_loss<double, double>(in, n_in, out, n_out, stream);
}
