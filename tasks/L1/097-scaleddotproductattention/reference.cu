/* L1/097-scaleddotproductattention reference: scaled dot-product attention without mask,
 * dropout or causality, O = softmax(Q·Kᵀ / sqrt(D))·V per (batch, head)
 * (torch.nn.functional.scaled_dot_product_attention(Q, K, V) with its defaults), Q, K, V,
 * O [B,H,S,D] f32 (KernelBench v0.1 ran it in fp16; fp32 here: tasks/L1/DEPARTURES.md).
 * cua_solve is the nvcc baseline (attention.cuh): the S×S scores of a chunk of heads are
 * materialised in a cached scratch buffer by a 32×32 shared-memory tiled GEMM (scale
 * applied to each dot product), softmaxed in place one block per row, and multiplied by V
 * with the same tiled GEMM. cua_oracle runs the same launches in double and writes f64.
 * Scratch: ≤ 512 MiB per accumulation type (or one head's S² if larger), allocated on the
 * first call that needs more, kept for later calls (calls must not overlap; the harness
 * makes one at a time).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-097.so tasks/L1/097-scaleddotproductattention/reference.cu
 * Napkin math (timed B=H=32, S=512, D=1024): 4·B·H·S²·D = 1.10 TFLOP in the two GEMMs:
 * 16 ms at the 66.9 TFLOP/s FFMA peak (D = 1024 makes it compute-bound: a flash kernel
 * keeps no score tile of useful size on chip, so cuBLAS-style GEMMs around a softmax are
 * the fast form); 16·B·H·S·D = 8.6 GB of Q, K, V, O (2.0 ms). This kernel: the tiled GEMMs
 * at ~5 TFLOP/s, ~0.2 s; the oracle about twice that.
 * Tolerance (Q, K, V ~ U[0, 1): the 1024-term dot products are ≈ 256 ± 7, the scores
 * ≈ 8 ± 0.2 after the 1/32 scale, so P is within a factor ~e of uniform over the 512 keys
 * and O ≈ 0.5 ± 0.01): the fp32 scores err by ~1e-5, P by as much relative, O by ~1e-7;
 * atol 1e-6 + rtol 2e-5·|O| (1e-5) passes that with a wide margin and fails TF32 scores
 * (errors ~4e-3, O off by ~5e-5). */
#include "cuarena.h"
#include "attention.cuh"

#define SDPA_SCRATCH_BYTES (INT64_C(512) << 20)

/* The scores scratch of one accumulation type, grown to at least `elems`. */
template <typename Acc>
static cudaError_t sdpa_scratch(int64_t elems, Acc **out)
{
	static Acc *buf = NULL;
	static int64_t cap = 0;
	if (elems > cap) {
		if (buf != NULL)
			cudaFree(buf);            /* synchronises: earlier work is done with it */
		buf = NULL;
		cap = 0;
		cudaError_t e = cudaMalloc((void **)&buf, (size_t)elems * sizeof(Acc));
		if (e != cudaSuccess) {
			buf = NULL;
			return e;
		}
		cap = elems;
	}
	*out = buf;
	return cudaSuccess;
}

template <typename Acc, typename Out>
static int sdpa(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	const struct cua_tensor *q = &in[0], *k = &in[1], *v = &in[2];
	struct cua_tensor *o = &out[0];
	CUA_CHECK(cua_check_tensor(q, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(k, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(v, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(o, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(q, k));
	CUA_CHECK(cua_check_same_shape(q, v));
	CUA_CHECK(cua_check_same_shape(q, o));

	const int64_t heads = q->shape[0] * q->shape[1], S = q->shape[2], D = q->shape[3];
	if (S > (INT64_C(1) << 28))                  /* S² elements must fit in int64_t */
		return CUA_CHECK_E_SHAPE;
	const int64_t per_head = S * S;
	int64_t chunk = SDPA_SCRATCH_BYTES / (per_head * (int64_t)sizeof(Acc));
	if (chunk < 1)
		chunk = 1;
	if (chunk > heads)
		chunk = heads;
	Acc *scores = NULL;
	cudaError_t e = sdpa_scratch<Acc>(chunk * per_head, &scores);
	if (e != cudaSuccess)
		return (int)e;

	const Acc scale = (Acc)(1.0 / sqrt((double)D));
	cua_sdpa_naive<Acc, Out>((const float *)q->data, (const float *)k->data,
	                         (const float *)v->data, (Out *)o->data, heads, S, D, scale,
	                         scores, chunk, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return sdpa<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return sdpa<double, double>(in, n_in, out, n_out, stream);
}
