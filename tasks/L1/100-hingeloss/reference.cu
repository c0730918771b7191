/* L1/099-hinge-loss reference: loss = (1/N) Σ_i max(0, 1 − predictions[i]·y[i]),
 * y[i] = 2·targets[i] − 1 ∈ {−1, +1}, over all N = B·D elements (KernelBench's
 * torch.mean(torch.clamp(1 − predictions * targets, min=0)) with ±1 targets),
 * predictions [B,D] f32, targets [B,D] u8 (0 or 1), loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, each thread a
 * grid-stride sum of terms, one block sum per block into a static device array,
 * then one block sums the partials and divides by N (loss.cuh; deterministic, no
 * atomics); cua_oracle runs the same launches in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o hinge-loss.so tasks/L1/099-hinge-loss/reference.cu
 * Napkin math (timed B=23040, D=32768, N = 755 M): 5·N = 3.77 GB read: 0.89 ms
 * at 4.26 TB/s, ~1.2 ms for a good kernel; 3·N flops. This kernel: ~2-3 ms.
 * Tolerance (predictions N(0, 2²): the loss is E max(0, 1 − 2z) ≈ 1.396, a mean
 * of non-negative terms): this reduction errs by ~1e-7 relative (loss.cuh); rtol
 * 1e-5 also admits float atomics of up to ~1e4 block partials.
 * Non-degeneracy at the timed shape: a new seed for one input moves a mean of
 * 7.5e8 terms by only ~5e-5 relative (rms; the std of 2 rather than 1 doubles
 * what a new draw of the targets does), so B was chosen with the exact losses
 * computed on the host for the selftest's seeds 1 and 2: the changes are 7.7x
 * (seeds), 11.7x (predictions alone) and 3.9x (targets alone) the tolerance. */
#include "cuarena.h"
#include "loss.cuh"

struct hinge_term {
	const float *p;
	const uint8_t *t;
	template <typename Acc> __device__ Acc at(int64_t i) const
	{
		const Acc y = t[i] != 0 ? Acc(1) : Acc(-1);
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
	CUA_CHECK(cua_check_tensor(t, CUA_U8, 2));
	CUA_CHECK(cua_check_same_shape(p, t));
	CUA_CHECK(cua_check_tensor(loss, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_dim(loss, 0, 1));

	const int64_t n = cua_numel(p);
	struct hinge_term term = {(const float *)p->data, (const uint8_t *)t->data};
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
