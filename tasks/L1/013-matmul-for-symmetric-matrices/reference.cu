/* L1/013-matmul-for-symmetric-matrices reference: C = S·T for the symmetric matrices held in
 * the lower triangles of A and B, S[i,k] = A[max(i,k), min(i,k)], T likewise;
 * A, B, C [N,N] f32 row-major.
 * cua_solve is the nvcc baseline: it first expands S and T into full matrices in
 * a workspace (a mirror read straight from the triangle would make half of the
 * loads of T a 32-row gather in a one-thread-per-output kernel), then runs the
 * naive GEMM (one thread per output, fp32 FMA in k order). cua_oracle does the
 * same expansion (an exact copy) and the GEMM in double, writing f64.
 * Workspace: 8·N² bytes, allocated on the first call that needs more and kept
 * (one per entry point), so timed calls allocate nothing.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-013.so tasks/L1/013-matmul-for-symmetric-matrices/reference.cu
 * Napkin math (timed N=4096): 137 GFLOP, 201 MB moved at the floor (0.047 ms at 4.3 TB/s; 2.1 ms at the 67 TFLOP/s FFMA peak).
 * Tolerance atol 0.001, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "gemm.cuh"

#define SYM_THREADS 256

/* S[i,j] = X[max(i,j), min(i,j)] for an N×N row-major X: grid y over rows i,
 * x over columns j; the upper half reads X's columns (strided), once. */
__global__ void expand_lower_kernel(const float *__restrict__ X, float *__restrict__ S,
                                    int64_t N)
{
	for (int64_t i = blockIdx.y; i < N; i += gridDim.y)
		for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < N;
		     j += (int64_t)gridDim.x * blockDim.x)
			S[i * N + j] = j <= i ? X[i * N + j] : X[j * N + i];
}

/* A device buffer that only grows; freed and reallocated (after the device is
 * idle, so no queued kernel still uses it) when a call needs more. */
struct workspace {
	float *p;
	size_t bytes;
};

static int workspace_reserve(struct workspace *w, size_t bytes)
{
	if (w->bytes >= bytes)
		return 0;
	if (w->p != NULL) {
		cudaError_t e = cudaDeviceSynchronize();
		if (e == cudaSuccess)
			e = cudaFree(w->p);
		w->p = NULL;
		w->bytes = 0;
		if (e != cudaSuccess)
			return (int)e;
	}
	cudaError_t e = cudaMalloc((void **)&w->p, bytes);
	if (e != cudaSuccess) {
		w->p = NULL;
		return (int)e;
	}
	w->bytes = bytes;
	return 0;
}

template <typename Acc, typename Out>
static int symm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                cudaStream_t stream)
{
	static struct workspace ws;      /* one per instantiation: solve and oracle */
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	const int64_t N = A->shape[0];
	CUA_CHECK(cua_check_dim(A, 1, N));
	CUA_CHECK(cua_check_same_shape(A, B));
	CUA_CHECK(cua_check_same_shape(A, C));
	if (N * N > (INT64_C(1) << 58))     /* 8·N² bytes must not overflow */
		return CUA_CHECK_E_SHAPE;

	CUA_CHECK(workspace_reserve(&ws, 2 * (size_t)N * (size_t)N * sizeof(float)));
	float *S = ws.p, *T = ws.p + N * N;
	dim3 grid(cua_blocks_1d(N, SYM_THREADS), cua_blocks_yz(N, 1));
	expand_lower_kernel<<<grid, SYM_THREADS, 0, stream>>>((const float *)A->data, S, N);
	expand_lower_kernel<<<grid, SYM_THREADS, 0, stream>>>((const float *)B->data, T, N);
	CUA_CHECK((int)cudaGetLastError());

	struct cua_gemm_desc d = cua_gemm_desc_nn(N, N, N);
	cua_gemm_naive<float, Acc, Out>(S, T, (Out *)C->data, d, Acc(1), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return symm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return symm<double, double>(in, n_in, out, n_out, stream);
}
