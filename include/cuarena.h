/* cuarena.h — the candidate ABI: the only header a candidate kernel sees.
 *
 * A candidate is one CUDA source file that includes this header and defines
 * cua_solve() below. It is built by the harness as
 *     nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared -cudart shared
 *       -Xcompiler=-fvisibility=hidden,-ffunction-sections,-fdata-sections
 *       -Xlinker=--gc-sections -DNVTX_DISABLE
 * and loaded into a fresh sandboxed process. See docs/CANDIDATE-ABI.md.
 *
 * What the harness promises every call:
 *  - every tensor's data pointer is aligned to CUA_TENSOR_ALIGN (256) bytes, as
 *    cudaMalloc's are: float4 / 16-byte vector access from the start of a tensor
 *    needs no alignment check;
 *  - outputs arrive filled with a NaN poison pattern, never zeros: write every
 *    element (one still holding the pattern is "unwritten");
 *  - a kernel may allocate scratch: cudaMallocAsync/cudaFreeAsync on `stream`
 *    (or cudaMalloc/cudaFree), freed before cua_solve returns or kept in a
 *    static for reuse across calls; never results.
 */
#ifndef CUARENA_H
#define CUARENA_H

#include <stdint.h>
#include <cuda_runtime_api.h>

/* Bumped whenever anything below changes meaning. Appended-to, never renumbered. */
#define CUA_ABI_VERSION 1

/* Element types. Values are part of the ABI: appended, never renumbered. */
enum cua_dtype {
	CUA_F32 = 0,
	CUA_F64 = 1,
	CUA_F16 = 2,
	CUA_BF16 = 3,
	CUA_I32 = 4,
	CUA_I64 = 5,
	CUA_U8 = 6,
};

#define CUA_MAX_DIMS 8

/* Every tensor's data pointer is a multiple of this many bytes. */
#define CUA_TENSOR_ALIGN 256

/* Candidates are built with hidden visibility: only what is marked with this is
 * exported from the shared object (cua_solve and cua_oracle, below). */
#define CUA_EXPORT __attribute__((visibility("default")))

/* A dense tensor in device memory, contiguous and row-major (last index
 * fastest) unless the task's description says otherwise. The harness owns the
 * memory: a candidate must not free it, keep it, or touch bytes outside
 * [data, data + numel * element size). */
struct cua_tensor {
	void *data;                     /* device pointer, CUA_TENSOR_ALIGN-aligned */
	enum cua_dtype dtype;
	int ndim;
	int64_t shape[CUA_MAX_DIMS];    /* shape[0] is the slowest index */
};

#ifdef __cplusplus
extern "C" {
#endif

/* The one function a candidate defines.
 * in[0..n_in) are the task's inputs and are read-only (mutating one is a
 * failure); out[0..n_out) are its outputs, to be written in full. Shapes come
 * from the tensors: the same source must work for every shape set of the task.
 * Scalar hyper-parameters are fixed by the task and stated in its prompt.
 * Work may be enqueued on `stream`; all of it must be complete when an event
 * recorded on `stream` after the call completes (work that escapes the stream
 * is a timing anomaly). Return 0 on success, anything else is a runtime error. */
CUA_EXPORT int cua_solve(const struct cua_tensor *in, int n_in,
                         struct cua_tensor *out, int n_out, cudaStream_t stream);

/* Defined only by a task's reference.cu: the same function computed in double
 * from the same (fp32) inputs. Floating-point outputs are CUA_F64 tensors of the
 * task's output shapes; integer outputs keep their integer dtype. */
CUA_EXPORT int cua_oracle(const struct cua_tensor *in, int n_in,
                          struct cua_tensor *out, int n_out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Number of elements of a tensor (host or device code). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int64_t cua_numel(const struct cua_tensor *t)
{
	int64_t n = 1;
	for (int i = 0; i < t->ndim; i++)
		n *= t->shape[i];
	return n;
}

#endif /* CUARENA_H */
