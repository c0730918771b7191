/* cuarena.h — the candidate ABI: the only header a candidate kernel sees.
 *
 * A candidate is one CUDA source file that includes this header and defines
 * cua_solve() below. It is built by the harness as
 *     nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared -cudart shared
 * and loaded into a fresh sandboxed process. See docs/CANDIDATE-ABI.md.
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

/* A dense tensor in device memory, contiguous and row-major (last index
 * fastest) unless the task's description says otherwise. The harness owns the
 * memory: a candidate must not free it, keep it, or touch bytes outside
 * [data, data + numel * element size). */
struct cua_tensor {
	void *data;                     /* device pointer */
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
int cua_solve(const struct cua_tensor *in, int n_in,
              struct cua_tensor *out, int n_out, cudaStream_t stream);

/* Defined only by a task's reference.cu: the same function computed in double
 * from the same (fp32) inputs. Floating-point outputs are CUA_F64 tensors of the
 * task's output shapes; integer outputs keep their integer dtype. */
int cua_oracle(const struct cua_tensor *in, int n_in,
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
