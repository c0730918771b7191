/* baseline-dry-shim.c — the calls of a library baseline whose answers matter, answered on
 * the CPU as the libraries would for shapes (no device, no data: pointers are made up and
 * never read), and counted where they are per-call host work (baseline-dry.h). The rest
 * of the libraries' calls are baseline-dry-stubs.c's.
 *
 * The stream-ordered pool is modelled as the driver documents it: cudaMallocAsync is
 * served from memory the pool holds and not in use, else the pool grows (memory mapped
 * anew); at a synchronisation the pool gives back what it holds above its release
 * threshold (default 0), so a baseline whose scratch is freed at the end of a call maps it
 * again at the next one unless the threshold keeps it. */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cublas_v2.h>
#include <cublasLt.h>

#include "baseline-dry.h"

/* ---- the state of one baseline's process ---------------------------------------------- */

#define MAX_OBJS 16384       /* handles, descriptors, events */
#define MAX_BLOCKS 4096      /* live cudaMalloc / cudaMallocAsync blocks */

/* One handle or descriptor: what the calls that read it back need. */
struct obj {
	int nb;                  /* tensor or filter: rank and extents */
	int dims[8];
	int nsp;                 /* convolution: spatial rank, padding, stride, dilation */
	int pad[6], stride[6], dil[6];
	int window[6];           /* pooling (pad, stride above) */
	int rnn_in, rnn_h, rnn_layers, rnn_dirs, rnn_gates;
	const void *stream;      /* a cuDNN or cuBLAS handle: its stream */
	int is_handle;
};

struct block {
	uintptr_t p;
	size_t n;
	int pooled;              /* cudaMallocAsync's */
};

static struct {
	struct obj objs[MAX_OBJS];
	int n_objs;
	struct block blocks[MAX_BLOCKS];
	int n_blocks;
	uintptr_t next_addr;     /* made-up device addresses, never reused */
	size_t pool_held, pool_used;
	uint64_t pool_threshold;
	const void *stream;      /* the call's stream */
	int in_call;
	int counts[SHIM_KINDS];
	const char *what[SHIM_KINDS];
	dim3 cfg_grid, cfg_block;
	size_t cfg_shmem;
	void *cfg_stream;
} S;

static const char *const kind_names[SHIM_KINDS] = {
	[SHIM_ALLOC] = "allocation", [SHIM_FREE] = "free", [SHIM_POOL_GROW] = "pool growth",
	[SHIM_SYNC] = "synchronisation", [SHIM_CREATE] = "create/destroy",
	[SHIM_SEARCH] = "algorithm search", [SHIM_STREAM] = "another stream",
};

const char *shim_kind_name(enum shim_kind k)
{
	return k < SHIM_KINDS ? kind_names[k] : "?";
}

static void note(int kind, const char *name)
{
	if (kind < 0 || kind >= SHIM_KINDS)
		return;
	if (S.counts[kind]++ == 0)
		S.what[kind] = name;
}

static void on_stream(const void *stream, const char *name)
{
	if (S.in_call && stream != S.stream)
		note(SHIM_STREAM, name);
}

/* The device synchronised: the pool keeps only what is in use or under its threshold. */
static void pool_trim(void)
{
	size_t keep = S.pool_used > S.pool_threshold ? S.pool_used : (size_t)S.pool_threshold;
	if (S.pool_held > keep)
		S.pool_held = keep;
}

void shim_reset(void)
{
	memset(&S, 0, sizeof(S));
	S.next_addr = (uintptr_t)1 << 40;
}

void shim_call_begin(void *stream)
{
	memset(S.counts, 0, sizeof(S.counts));
	memset(S.what, 0, sizeof(S.what));
	S.stream = stream;
	S.in_call = 1;
}

void shim_call_end(int counts[SHIM_KINDS], const char *what[SHIM_KINDS])
{
	S.in_call = 0;
	pool_trim();   /* the kernel's process: cudaDeviceSynchronize after the call */
	memcpy(counts, S.counts, sizeof(S.counts));
	memcpy(what, S.what, sizeof(S.what));
}

int shim_plain(const char *name, int kind)
{
	note(kind, name);
	if (kind == SHIM_SYNC)
		pool_trim();
	return 0;
}

static struct obj *obj_of(const void *h)
{
	const struct obj *o = (const struct obj *)h;
	return o >= S.objs && o < S.objs + S.n_objs ? (struct obj *)o : NULL;
}

int shim_lib(const void *h, const char *name)
{
	struct obj *o = obj_of(h);
	if (o == NULL || !o->is_handle) {
		fprintf(stderr, "baseline-dry: %s on %p, not a handle the shim made\n", name, h);
		return 1;
	}
	on_stream(o->stream, name);
	return 0;
}

/* A new handle or descriptor (kind SHIM_CREATE); NULL when the shim's table is full. */
static void *obj_new(const char *name)
{
	note(SHIM_CREATE, name);
	if (S.n_objs == MAX_OBJS) {
		fprintf(stderr, "baseline-dry: more than %d handles and descriptors\n", MAX_OBJS);
		return NULL;
	}
	struct obj *o = &S.objs[S.n_objs++];
	memset(o, 0, sizeof(*o));
	return o;
}

static uintptr_t addr_new(size_t n)
{
	uintptr_t p = S.next_addr;
	S.next_addr += (n + 511) & ~(uintptr_t)255;
	return p;
}

static int block_add(uintptr_t p, size_t n, int pooled)
{
	if (S.n_blocks == MAX_BLOCKS) {
		fprintf(stderr, "baseline-dry: more than %d live allocations\n", MAX_BLOCKS);
		return 1;
	}
	S.blocks[S.n_blocks++] = (struct block){p, n, pooled};
	return 0;
}

/* The live block at p, removed; its size, or (size_t)-1 when p is none. */
static size_t block_take(uintptr_t p, int pooled)
{
	for (int i = 0; i < S.n_blocks; i++)
		if (S.blocks[i].p == p && S.blocks[i].pooled == pooled) {
			size_t n = S.blocks[i].n;
			S.blocks[i] = S.blocks[--S.n_blocks];
			return n;
		}
	return (size_t)-1;
}

/* ---- the CUDA runtime -------------------------------------------------------------------- */

cudaError_t cudaGetDevice(int *dev)
{
	*dev = 0;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev)
{
	*pool = (cudaMemPool_t)&S.pool_held;   /* the one pool */
	return dev == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev)
{
	return cudaDeviceGetMemPool(pool, dev);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value)
{
	if (pool != (cudaMemPool_t)&S.pool_held)
		return cudaErrorInvalidValue;
	if (attr == cudaMemPoolAttrReleaseThreshold)
		S.pool_threshold = *(const uint64_t *)value;
	return cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t n)
{
	note(SHIM_ALLOC, "cudaMalloc");
	uintptr_t a = addr_new(n);
	if (block_add(a, n, 0))
		return cudaErrorMemoryAllocation;
	*p = (void *)a;
	return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
	note(SHIM_FREE, "cudaFree");
	if (p == NULL)
		return cudaSuccess;
	return block_take((uintptr_t)p, 0) == (size_t)-1 ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	on_stream(s, "cudaMallocAsync");
	if (S.pool_used + n > S.pool_held) {
		note(SHIM_POOL_GROW, "cudaMallocAsync");
		S.pool_held = S.pool_used + n;
	}
	uintptr_t a = addr_new(n);
	if (block_add(a, n, 1))
		return cudaErrorMemoryAllocation;
	S.pool_used += n;
	*p = (void *)a;
	return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
	on_stream(s, "cudaFreeAsync");
	size_t n = block_take((uintptr_t)p, 1);
	if (n == (size_t)-1)
		return cudaErrorInvalidValue;
	S.pool_used -= n;
	return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t s)
{
	on_stream(s, "cudaMemcpyAsync");
	return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t s)
{
	on_stream(s, "cudaMemcpy2DAsync");
	return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s)
{
	on_stream(s, "cudaMemsetAsync");
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	return (cudaError_t)shim_plain("cudaDeviceSynchronize", SHIM_SYNC);
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	return (cudaError_t)shim_plain("cudaStreamSynchronize", SHIM_SYNC);
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
	return (cudaError_t)shim_plain("cudaEventSynchronize", SHIM_SYNC);
}

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
	*e = (cudaEvent_t)obj_new("cudaEventCreate");
	return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
	on_stream(s, "cudaEventRecord");
	return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = 1.0f;
	return cudaSuccess;
}

const char *cudaGetErrorString(cudaError_t e)
{
	return "error (baseline-dry shim)";
}

/* What nvcc's host code calls: registration (nothing to register) and launches. */
void **__cudaRegisterFatBinary(void *fatCubin)
{
	static void *handle;
	return &handle;
}

void __cudaRegisterFatBinaryEnd(void **h)
{
}

void __cudaUnregisterFatBinary(void **h)
{
}

char __cudaInitModule(void **h)
{
	return 1;
}

void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
}

void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global)
{
}

cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fn)
{
	*k = (cudaKernel_t)fn;
	return cudaSuccess;
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream)
{
	S.cfg_grid = grid;
	S.cfg_block = block;
	S.cfg_shmem = shmem;
	S.cfg_stream = stream;
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream)
{
	*grid = S.cfg_grid;
	*block = S.cfg_block;
	*shmem = S.cfg_shmem;
	*(void **)stream = S.cfg_stream;
	return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args,
                               size_t shmem, cudaStream_t s)
{
	on_stream(s, "a kernel launch");
	if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
	    block.z == 0)
		return cudaErrorInvalidConfiguration;
	return cudaSuccess;
}

/* ---- cuDNN --------------------------------------------------------------------------------- */

#define DNN_NEW(out, name)                                     \
	do {                                                       \
		*(out) = (void *)obj_new(name);                        \
		return *(out) ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_ALLOC_FAILED; \
	} while (0)

cudnnStatus_t cudnnCreate(cudnnHandle_t *h)
{
	struct obj *o = obj_new("cudnnCreate");
	if (o)
		o->is_handle = 1;
	*h = (cudnnHandle_t)o;
	return o ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_ALLOC_FAILED;
}

cudnnStatus_t cudnnSetStream(cudnnHandle_t h, cudaStream_t s)
{
	struct obj *o = obj_of(h);
	if (o == NULL || !o->is_handle)
		return CUDNN_STATUS_BAD_PARAM;
	o->stream = s;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateTensorDescriptor");
}

cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateFilterDescriptor");
}

cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateConvolutionDescriptor");
}

cudnnStatus_t cudnnCreatePoolingDescriptor(cudnnPoolingDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreatePoolingDescriptor");
}

cudnnStatus_t cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateActivationDescriptor");
}

cudnnStatus_t cudnnCreateReduceTensorDescriptor(cudnnReduceTensorDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateReduceTensorDescriptor");
}

cudnnStatus_t cudnnCreateDropoutDescriptor(cudnnDropoutDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateDropoutDescriptor");
}

cudnnStatus_t cudnnCreateRNNDescriptor(cudnnRNNDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateRNNDescriptor");
}

cudnnStatus_t cudnnCreateRNNDataDescriptor(cudnnRNNDataDescriptor_t *d)
{
	DNN_NEW(d, "cudnnCreateRNNDataDescriptor");
}

/* Rank nb with extents dims into descriptor d. */
static cudnnStatus_t set_dims(void *d, int nb, const int *dims)
{
	struct obj *o = obj_of(d);
	if (o == NULL || nb < 1 || nb > 8)
		return CUDNN_STATUS_BAD_PARAM;
	o->nb = nb;
	for (int i = 0; i < nb; i++) {
		if (dims[i] < 1)
			return CUDNN_STATUS_BAD_PARAM;
		o->dims[i] = dims[i];
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t d, cudnnTensorFormat_t f,
                                         cudnnDataType_t t, int n, int c, int h, int w)
{
	const int dims[4] = {n, c, h, w};
	return set_dims(d, 4, dims);
}

cudnnStatus_t cudnnSetTensorNdDescriptor(cudnnTensorDescriptor_t d, cudnnDataType_t t, int nb,
                                         const int dims[], const int strides[])
{
	return set_dims(d, nb, dims);
}

cudnnStatus_t cudnnSetTensorNdDescriptorEx(cudnnTensorDescriptor_t d, cudnnTensorFormat_t f,
                                           cudnnDataType_t t, int nb, const int dims[])
{
	return set_dims(d, nb, dims);
}

cudnnStatus_t cudnnGetTensorNdDescriptor(const cudnnTensorDescriptor_t d, int req,
                                         cudnnDataType_t *t, int *nb, int dims[], int strides[])
{
	const struct obj *o = obj_of(d);
	if (o == NULL || req < o->nb)
		return CUDNN_STATUS_BAD_PARAM;
	*t = CUDNN_DATA_FLOAT;
	*nb = o->nb;
	for (int i = o->nb - 1, s = 1; i >= 0; s *= o->dims[i--]) {
		dims[i] = o->dims[i];
		strides[i] = s;
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t t,
                                         cudnnTensorFormat_t f, int k, int c, int h, int w)
{
	const int dims[4] = {k, c, h, w};
	return set_dims(d, 4, dims);
}

cudnnStatus_t cudnnSetFilterNdDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t t,
                                         cudnnTensorFormat_t f, int nb, const int dims[])
{
	return set_dims(d, nb, dims);
}

cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t d, int ph, int pw,
                                              int sh, int sw, int dh, int dw,
                                              cudnnConvolutionMode_t m, cudnnDataType_t t)
{
	struct obj *o = obj_of(d);
	if (o == NULL)
		return CUDNN_STATUS_BAD_PARAM;
	o->nsp = 2;
	o->pad[0] = ph, o->pad[1] = pw;
	o->stride[0] = sh, o->stride[1] = sw;
	o->dil[0] = dh, o->dil[1] = dw;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionNdDescriptor(cudnnConvolutionDescriptor_t d, int n,
                                              const int pad[], const int stride[],
                                              const int dil[], cudnnConvolutionMode_t m,
                                              cudnnDataType_t t)
{
	struct obj *o = obj_of(d);
	if (o == NULL || n < 1 || n > 6)
		return CUDNN_STATUS_BAD_PARAM;
	o->nsp = n;
	for (int i = 0; i < n; i++) {
		o->pad[i] = pad[i];
		o->stride[i] = stride[i];
		o->dil[i] = dil[i];
	}
	return CUDNN_STATUS_SUCCESS;
}

/* A forward convolution's output extents: [N, K, (in + 2p − d(k − 1) − 1)/s + 1 ...]. */
static cudnnStatus_t conv_out(const void *conv, const void *x, const void *w, int nb, int *out)
{
	const struct obj *c = obj_of(conv), *xt = obj_of(x), *wt = obj_of(w);
	if (c == NULL || xt == NULL || wt == NULL || xt->nb != nb || wt->nb != nb ||
	    c->nsp != nb - 2)
		return CUDNN_STATUS_BAD_PARAM;
	out[0] = xt->dims[0];
	out[1] = wt->dims[0];
	for (int i = 0; i < c->nsp; i++) {
		int e = xt->dims[2 + i] + 2 * c->pad[i] - c->dil[i] * (wt->dims[2 + i] - 1) - 1;
		if (e < 0 || c->stride[i] < 1)
			return CUDNN_STATUS_BAD_PARAM;
		out[2 + i] = e / c->stride[i] + 1;
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t conv,
                                                    const cudnnTensorDescriptor_t x,
                                                    const cudnnFilterDescriptor_t w, int *n,
                                                    int *c, int *h, int *v)
{
	int out[4];
	cudnnStatus_t st = conv_out(conv, x, w, 4, out);
	*n = out[0], *c = out[1], *h = out[2], *v = out[3];
	return st;
}

cudnnStatus_t cudnnGetConvolutionNdForwardOutputDim(const cudnnConvolutionDescriptor_t conv,
                                                    const cudnnTensorDescriptor_t x,
                                                    const cudnnFilterDescriptor_t w, int nb,
                                                    int out[])
{
	return conv_out(conv, x, w, nb, out);
}

/* Workspaces: 1 MiB for the first algorithm, 4 MiB for the others (a Find workspace, then
 * the chosen one's, both made and shrunk in a first call). */
static size_t ws_of(int algo)
{
	return algo == 1 ? (size_t)1 << 20 : (size_t)4 << 20;
}

cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t h,
                                                      const cudnnTensorDescriptor_t x,
                                                      const cudnnFilterDescriptor_t w,
                                                      const cudnnConvolutionDescriptor_t c,
                                                      const cudnnTensorDescriptor_t y,
                                                      cudnnConvolutionFwdAlgo_t a, size_t *n)
{
	*n = ws_of((int)a);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionBackwardDataWorkspaceSize(
	cudnnHandle_t h, const cudnnFilterDescriptor_t w, const cudnnTensorDescriptor_t dy,
	const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t dx,
	cudnnConvolutionBwdDataAlgo_t a, size_t *n)
{
	*n = ws_of((int)a);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnFindConvolutionForwardAlgorithmEx(
	cudnnHandle_t h, const cudnnTensorDescriptor_t xd, const void *x,
	const cudnnFilterDescriptor_t wd, const void *w, const cudnnConvolutionDescriptor_t cd,
	const cudnnTensorDescriptor_t yd, void *y, const int req, int *n,
	cudnnConvolutionFwdAlgoPerf_t *perf, void *ws, size_t ws_size)
{
	note(SHIM_SEARCH, "cudnnFindConvolutionForwardAlgorithmEx");
	shim_lib(h, "cudnnFindConvolutionForwardAlgorithmEx");
	memset(perf, 0, sizeof(*perf));
	perf[0].algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
	perf[0].status = CUDNN_STATUS_SUCCESS;
	perf[0].memory = ws_of((int)perf[0].algo);
	perf[0].mathType = CUDNN_FMA_MATH;
	*n = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnFindConvolutionBackwardDataAlgorithmEx(
	cudnnHandle_t h, const cudnnFilterDescriptor_t wd, const void *w,
	const cudnnTensorDescriptor_t dyd, const void *dy, const cudnnConvolutionDescriptor_t cd,
	const cudnnTensorDescriptor_t dxd, void *dx, const int req, int *n,
	cudnnConvolutionBwdDataAlgoPerf_t *perf, void *ws, size_t ws_size)
{
	note(SHIM_SEARCH, "cudnnFindConvolutionBackwardDataAlgorithmEx");
	shim_lib(h, "cudnnFindConvolutionBackwardDataAlgorithmEx");
	memset(perf, 0, sizeof(*perf));
	perf[0].algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
	perf[0].status = CUDNN_STATUS_SUCCESS;
	perf[0].memory = ws_of((int)perf[0].algo);
	perf[0].mathType = CUDNN_FMA_MATH;
	*n = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t d, cudnnPoolingMode_t m,
                                          cudnnNanPropagation_t nan, int wh, int ww, int ph,
                                          int pw, int sh, int sw)
{
	const int win[2] = {wh, ww}, pad[2] = {ph, pw}, str[2] = {sh, sw};
	return cudnnSetPoolingNdDescriptor(d, m, nan, 2, win, pad, str);
}

cudnnStatus_t cudnnSetPoolingNdDescriptor(cudnnPoolingDescriptor_t d, const cudnnPoolingMode_t m,
                                          const cudnnNanPropagation_t nan, int n,
                                          const int win[], const int pad[], const int str[])
{
	struct obj *o = obj_of(d);
	if (o == NULL || n < 1 || n > 6)
		return CUDNN_STATUS_BAD_PARAM;
	o->nsp = n;
	for (int i = 0; i < n; i++) {
		o->window[i] = win[i];
		o->pad[i] = pad[i];
		o->stride[i] = str[i];
	}
	return CUDNN_STATUS_SUCCESS;
}

/* A pooling's output extents: [N, C, (in + 2p − k)/s + 1 ...]. */
static cudnnStatus_t pool_out(const void *pool, const void *x, int nb, int *out)
{
	const struct obj *p = obj_of(pool), *xt = obj_of(x);
	if (p == NULL || xt == NULL || xt->nb != nb || p->nsp != nb - 2)
		return CUDNN_STATUS_BAD_PARAM;
	out[0] = xt->dims[0];
	out[1] = xt->dims[1];
	for (int i = 0; i < p->nsp; i++) {
		int e = xt->dims[2 + i] + 2 * p->pad[i] - p->window[i];
		if (e < 0 || p->stride[i] < 1)
			return CUDNN_STATUS_BAD_PARAM;
		out[2 + i] = e / p->stride[i] + 1;
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetPooling2dForwardOutputDim(const cudnnPoolingDescriptor_t pool,
                                                const cudnnTensorDescriptor_t x, int *n, int *c,
                                                int *h, int *w)
{
	int out[4];
	cudnnStatus_t st = pool_out(pool, x, 4, out);
	*n = out[0], *c = out[1], *h = out[2], *w = out[3];
	return st;
}

cudnnStatus_t cudnnGetPoolingNdForwardOutputDim(const cudnnPoolingDescriptor_t pool,
                                                const cudnnTensorDescriptor_t x, int nb,
                                                int out[])
{
	return pool_out(pool, x, nb, out);
}

cudnnStatus_t cudnnGetReductionWorkspaceSize(cudnnHandle_t h,
                                             const cudnnReduceTensorDescriptor_t r,
                                             const cudnnTensorDescriptor_t a,
                                             const cudnnTensorDescriptor_t c, size_t *n)
{
	*n = (size_t)1 << 20;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetRNNDescriptor_v8(cudnnRNNDescriptor_t d, cudnnRNNAlgo_t algo,
                                       cudnnRNNMode_t cell, cudnnRNNBiasMode_t bias,
                                       cudnnDirectionMode_t dir, cudnnRNNInputMode_t in,
                                       cudnnDataType_t t, cudnnDataType_t prec,
                                       cudnnMathType_t math, int32_t input, int32_t hidden,
                                       int32_t proj, int32_t layers,
                                       cudnnDropoutDescriptor_t drop, uint32_t aux)
{
	struct obj *o = obj_of(d);
	if (o == NULL)
		return CUDNN_STATUS_BAD_PARAM;
	o->rnn_in = input;
	o->rnn_h = hidden;
	o->rnn_layers = layers;
	o->rnn_dirs = dir == CUDNN_BIDIRECTIONAL ? 2 : 1;
	o->rnn_gates = cell == CUDNN_LSTM ? 4 : cell == CUDNN_GRU ? 3 : 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetRNNWeightSpaceSize(cudnnHandle_t h, cudnnRNNDescriptor_t d, size_t *n)
{
	*n = (size_t)64 << 20;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetRNNTempSpaceSizes(cudnnHandle_t h, cudnnRNNDescriptor_t d,
                                        cudnnForwardMode_t m, cudnnRNNDataDescriptor_t x,
                                        size_t *work, size_t *reserve)
{
	*work = (size_t)1 << 20;
	*reserve = 0;
	return CUDNN_STATUS_SUCCESS;
}

/* Gate matrix lin of pseudo-layer pl: [H, in] (input weights) or [H, H] (recurrent), at a
 * made-up place in the weight space; its bias [H] after it. */
cudnnStatus_t cudnnGetRNNWeightParams(cudnnHandle_t h, cudnnRNNDescriptor_t d, int32_t pl,
                                      size_t wsize, const void *wspace, int32_t lin,
                                      cudnnTensorDescriptor_t md, void **ma,
                                      cudnnTensorDescriptor_t bd, void **ba)
{
	const struct obj *r = obj_of(d);
	if (r == NULL || r->rnn_h < 1 || pl < 0 || pl >= r->rnn_layers * r->rnn_dirs || lin < 0 ||
	    lin >= 2 * r->rnn_gates)
		return CUDNN_STATUS_BAD_PARAM;
	const int H = r->rnn_h, in = pl < r->rnn_dirs ? r->rnn_in : r->rnn_dirs * H;
	const int cols = lin >= r->rnn_gates ? H : in;
	const int mdims[3] = {1, H, cols}, bdims[3] = {1, H, 1};
	const size_t at = ((size_t)pl * 2 * r->rnn_gates + (size_t)lin) * 4096;
	if (set_dims(md, 3, mdims) || set_dims(bd, 3, bdims))
		return CUDNN_STATUS_BAD_PARAM;
	*ma = (char *)wspace + at;
	*ba = (char *)wspace + at + 2048;
	return CUDNN_STATUS_SUCCESS;
}

/* ---- cuBLAS and cuBLASLt ------------------------------------------------------------------- */

cublasStatus_t cublasCreate_v2(cublasHandle_t *h)
{
	struct obj *o = obj_new("cublasCreate");
	if (o)
		o->is_handle = 1;
	*h = (cublasHandle_t)o;
	return o ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s)
{
	struct obj *o = obj_of(h);
	if (o == NULL || !o->is_handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	o->stream = s;
	return CUBLAS_STATUS_SUCCESS;
}

#define LT_NEW(out, name)                                      \
	do {                                                       \
		*(out) = (void *)obj_new(name);                        \
		return *(out) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED; \
	} while (0)

cublasStatus_t cublasLtCreate(cublasLtHandle_t *h)
{
	LT_NEW(h, "cublasLtCreate");
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t c,
                                        cudaDataType_t t)
{
	LT_NEW(d, "cublasLtMatmulDescCreate");
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *d, cudaDataType t,
                                          uint64_t rows, uint64_t cols, int64_t ld)
{
	LT_NEW(d, "cublasLtMatrixLayoutCreate");
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *d)
{
	LT_NEW(d, "cublasLtMatmulPreferenceCreate");
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t op,
                                              cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                              cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                                              cublasLtMatmulPreference_t pref, int req,
                                              cublasLtMatmulHeuristicResult_t *res, int *n)
{
	note(SHIM_SEARCH, "cublasLtMatmulAlgoGetHeuristic");
	memset(res, 0, sizeof(*res) * (size_t)(req < 2 ? req : 2));
	for (int i = 0; i < req && i < 2; i++)
		res[i].state = CUBLAS_STATUS_SUCCESS;
	*n = req < 2 ? req : 2;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t op, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t ad, const void *B,
                              cublasLtMatrixLayout_t bd, const void *beta, const void *C,
                              cublasLtMatrixLayout_t cd, void *D, cublasLtMatrixLayout_t dd,
                              const cublasLtMatmulAlgo_t *algo, void *ws, size_t ws_size,
                              cudaStream_t s)
{
	on_stream(s, "cublasLtMatmul");
	return CUBLAS_STATUS_SUCCESS;
}
