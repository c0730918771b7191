/* L1/100-hingeloss reference: loss = (1/N) Σ_{b,d} max(0, 1 − predictions[b,d]·t[d]),
 * t[d] = 2·targets[d] − 1 ∈ {−1, +1}, over all N = B·D elements (KernelBench's
 * torch.mean(torch.clamp(1 − predictions * targets, min=0)) with ±1 targets of shape [D],
 * broadcast along the rows), predictions [B,D] f32, targets [D] u8 (0 or 1), loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, each thread a
 * grid-stride sum of terms, one block sum per block into a static device array,
 * then one block sums the partials and divides by N (loss.cuh; deterministic, no
 * atomics); cua_oracle runs the same launches in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-100.so tasks/L1/100-hingeloss/reference.cu
 * Napkin math (timed B=32768, D=32768): 3.22 GFLOP, 4.3 GB moved at the floor (1 ms at 4.3 TB/s).
 * Tolerance atol 0, rtol 5e-07 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "loss.cuh"

/* targets are [D], broadcast along the rows: element i = b·D + d takes targets[d] */
struct hinge_term {
	const float *p;
	const uint8_t *t;
	int64_t D;
	template <typename Acc> __device__ Acc at(int64_t i) const
	{
		const Acc y = t[i % D] != 0 ? Acc(1) : Acc(-1);
		const Acc h = Acc(1) - (Acc)p[i] * y;
		return h > Acc(0) ? h : Acc(0);
	}
};

template <typename Acc, typename Out>
static int hinge_loss(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *p = &in[0], *t = &in[1];
	struct cua_tensor *loss = &out[0];
	CUA_CHECK(cua_check_tensor(p, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(t, CUA_U8, 1));
	CUA_CHECK(cua_check_dim(t, 0, p->shape[1]));
	CUA_CHECK(cua_check_tensor(loss, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_dim(loss, 0, 1));

	const int64_t n = cua_numel(p);
	struct hinge_term term = {(const float *)p->data, (const uint8_t *)t->data, p->shape[1]};
	cua_loss_mean<Acc, Out>(n, term, n, (Out *)loss->data, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return hinge_loss<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return hinge_loss<double, double>(in, n_in, out, n_out, stream);
}
