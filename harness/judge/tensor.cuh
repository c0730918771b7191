/* tensor.cuh — the judge's device tensors with guard bands (included by its .cu
 * files, judge.cuh): allocated private or shared (a VMM allocation the
 * kernel's process maps, vmm.cuh), every one in a registry so that a serving
 * judge frees all of a job's wherever the job was cut short; poisoned, their
 * guard bands counted, their inputs generated and verified from a key
 * (gen.cuh). State is the tensor_pool passed in; a failure ends the job
 * (cua_judge_finish). Header-only (static inline). */
#ifndef CUA_TENSOR_CUH
#define CUA_TENSOR_CUH

#include <cuda_runtime.h>
#include <string.h>
#include <unistd.h>

#include "cuarena.h"
extern "C" {
#include "common.h"
#include "catalogue/task.h"
#include "judge/judge.h"
}
#include "rng.h"
#include "judge/gen.cuh"
#include "judge/kernels.cuh"
#include "judge/vmm.cuh"

static const size_t GUARD_BYTES = 64 * 1024;

struct dev_tensor {
	char *base;               /* allocation: guard | data | guard (to the end) */
	struct cua_tensor t;
	int64_t n;
	size_t bytes;             /* data bytes */
	size_t alloc;             /* bytes of the allocation */
	bool shared;              /* a VMM allocation the candidate maps */
	int fd;                   /* its exported descriptor until sent (-1 after) */
	const struct cua_init *init; /* inputs only */
	uint32_t index;           /* RNG stream id of an input */
};

/* Every tensor allocation of the job, so that a judge that serves the next job
 * frees all of this one's wherever cua_judge_finish cut it short (judge.cu's
 * job_reset). */
#define MAX_LIVE 4096
struct live_alloc {
	char *base;
	size_t alloc;
	bool shared;
};

struct tensor_pool {
	struct cua_judge *judge;  /* whose job a failure ends */
	struct cua_vmm vmm;
	struct live_alloc live[MAX_LIVE];
	int nlive;
	unsigned long long *d_counter;   /* device: one count (guards, mutations) */
	/* Set when the kernel is loaded: what the judge allocates itself from then
	 * on is counted, so that memory missing beyond it is known to be the
	 * kernel's process's (cua_judge_finish). */
	bool after_load;
	size_t post_load_bytes;
};

static inline void live_add(struct tensor_pool *p, char *base, size_t alloc, bool shared)
{
	if (p->nlive == MAX_LIVE) {
		if (shared)
			cua_vmm_free(&p->vmm, (CUdeviceptr)(uintptr_t)base, alloc);
		else
			cudaFree(base);
		cua_judge_finish(p->judge, CUA_VERDICT_HARNESS_ERROR, "more than %d device buffers",
		                 MAX_LIVE);
	}
	p->live[p->nlive++] = live_alloc{ base, alloc, shared };
}

static inline void live_del(struct tensor_pool *p, const char *base)
{
	for (int i = 0; i < p->nlive; i++)
		if (p->live[i].base == base) {
			p->live[i] = p->live[--p->nlive];
			return;
		}
}

/* A tensor's data sits GUARD_BYTES into its allocation: 256-byte aligned (the
 * ABI's promise) since allocations are. A shared tensor's trailing guard runs
 * to the end of its allocation (VMM granularity, 2 MiB), so a write anywhere
 * past the data in what the candidate can map is seen. */
static inline void tensor_alloc(struct tensor_pool *p, struct dev_tensor *d,
                                enum cua_dtype dtype, int ndim, const int64_t *shape,
                                bool shared)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->t.dtype = dtype;
	d->t.ndim = ndim;
	d->n = 1;
	for (int i = 0; i < ndim; i++) {
		d->t.shape[i] = shape[i];
		d->n *= shape[i];
	}
	d->bytes = (size_t)d->n * cua_dtype_size(dtype);
	size_t padded = (d->bytes + 3) & ~(size_t)3;
	d->alloc = padded + 2 * GUARD_BYTES;
	if (p->after_load)
		p->post_load_bytes += d->alloc;
	if (shared) {
		d->shared = true;
		d->alloc = cua_vmm_round(&p->vmm, d->alloc);
		CUdeviceptr ptr = 0;
		CUresult r = cua_vmm_alloc(&p->vmm, d->alloc, &ptr, &d->fd);
		if (r != CUDA_SUCCESS)
			cua_judge_finish(p->judge, CUA_VERDICT_HARNESS_ERROR, "cannot allocate %zu "
			                 "bytes of shared device memory: CUresult %d", d->alloc, (int)r);
		d->base = (char *)(uintptr_t)ptr;
	} else
		HARNESS_TRY(p->judge, cudaMalloc((void **)&d->base, d->alloc));
	live_add(p, d->base, d->alloc, d->shared);
	d->t.data = d->base + GUARD_BYTES;
}

static inline void tensor_free(struct tensor_pool *p, struct dev_tensor *d)
{
	if (d->base) {
		live_del(p, d->base);
		if (d->shared)
			cua_vmm_free(&p->vmm, (CUdeviceptr)(uintptr_t)d->base, d->alloc);
		else
			cudaFree(d->base);
	}
	if (d->fd >= 0)
		close(d->fd);
	d->base = NULL;
	d->fd = -1;
}

static inline size_t total_words(const struct dev_tensor *d)
{
	return d->alloc / 4;
}

static inline int64_t data_words(const struct dev_tensor *d)
{
	return (int64_t)(((d->bytes + 3) & ~(size_t)3) / 4);
}

/* Poisons the guard bands, and the data too when `data` is true. */
static inline void poison(struct tensor_pool *p, struct dev_tensor *d, bool data,
                          cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4, dw = data_words(d);
	int64_t tail = (int64_t)total_words(d) - gw - dw;
	if (data) {
		int64_t n = (int64_t)total_words(d);
		fill32_kernel<<<grid_for(n), 256, 0, s>>>(w, n, CUA_POISON32);
	} else {
		fill32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32);
		fill32_kernel<<<grid_for(tail), 256, 0, s>>>(w + gw + dw, tail, CUA_POISON32);
	}
	HARNESS_TRY(p->judge, cudaGetLastError());
}

/* Words of d's guard bands that are no longer poison. */
static inline unsigned long long guard_damage(struct tensor_pool *p, const struct dev_tensor *d,
                                              cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4, dw = data_words(d);
	int64_t tail = (int64_t)total_words(d) - gw - dw;
	unsigned long long h = 0;
	HARNESS_TRY(p->judge, cudaMemsetAsync(p->d_counter, 0, sizeof(*p->d_counter), s));
	count_not32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32, p->d_counter);
	count_not32_kernel<<<grid_for(tail), 256, 0, s>>>(w + gw + dw, tail, CUA_POISON32,
	                                                  p->d_counter);
	HARNESS_TRY(p->judge, cudaMemcpyAsync(&h, p->d_counter, sizeof(h), cudaMemcpyDeviceToHost,
	                                      s));
	HARNESS_TRY(p->judge, cudaStreamSynchronize(s));
	return h;
}

/* Input d's segments (gen.cuh) for task t: one for a plain input; for a
 * layered input each parameter's, and a constant-zero one for each gap between
 * them, so that the table covers the whole tensor. Uploaded on stream s for
 * one kernel (a serving judge's next job may be another task: a few KiB per
 * call); *nblocks is the tensor's block count. The caller frees the table
 * (cudaFreeAsync) right after the launch. */
static inline gen_seg *segment_table(struct tensor_pool *p, const struct cua_task *t,
                                     const struct dev_tensor *d, unsigned wpe, int *nseg,
                                     int64_t *nblocks, cudaStream_t s)
{
	const struct cua_tensor_spec *spec = &t->inputs[d->index];
	const unsigned per = CUA_RNG_BLOCK_WORDS / wpe;
	int cap = 2 * spec->n_segments + 2, n = 0;
	gen_seg *h = (gen_seg *)cua_xmalloc((size_t)cap * sizeof(gen_seg)), *dev = NULL;
	int64_t at = 0, blocks = 0;
	auto add = [&](int64_t off, int64_t numel, int dist, double a, double b, uint32_t st) {
		if (numel <= 0)
			return;
		h[n++] = gen_seg{off, numel, blocks, a, b, dist, st};
		blocks += (numel + per - 1) / per;
	};
	if (!spec->n_segments)
		add(0, d->n, (int)d->init->dist, d->init->a, d->init->b, d->index);
	for (int k = 0; k < spec->n_segments; k++) {
		const struct cua_segment *g = &spec->segments[k];
		add(at, g->offset - at, CUA_RNG_CONST, 0, 0, 0);   /* the padding before it */
		add(g->offset, g->numel, (int)g->init.dist, g->init.a, g->init.b, g->stream);
		at = g->offset + g->numel;
	}
	if (spec->n_segments)
		add(at, d->n - at, CUA_RNG_CONST, 0, 0, 0);
	size_t bytes = (size_t)(n ? n : 1) * sizeof(gen_seg);
	cudaError_t e = cudaMallocAsync((void **)&dev, bytes, s);
	/* from pageable memory: staged before the call returns, so h may go */
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(dev, h, bytes, cudaMemcpyHostToDevice, s);
	free(h);
	HARNESS_TRY(p->judge, e);
	*nseg = n;
	*nblocks = blocks;
	return dev;
}

/* Words per element: two for the 8-byte dtypes (53-bit uniforms, wide integer
 * ranges), else one (rng.h). */
static inline unsigned words_per(enum cua_dtype dt)
{
	return cua_dtype_size(dt) == 8 ? 2 : 1;
}

static inline int gen_grid(int64_t nblocks)
{
	int64_t g = (nblocks + 32 * GEN_WARPS - 1) / (32 * GEN_WARPS);
	if (g > 132 * 16)
		g = 132 * 16;
	return g < 1 ? 1 : (int)g;
}

/* Writes d as key generates it (verify false), or counts into *bad the
 * elements that differ from that (verify true), writing what it generates into
 * copy (a tensor of d's shape) as well when copy is not NULL. */
static inline void gen_run(struct tensor_pool *p, const struct cua_task *t,
                           const struct dev_tensor *d, const struct cua_rng_key *key,
                           bool verify, unsigned long long *bad, cudaStream_t s,
                           const struct dev_tensor *copy = NULL)
{
	unsigned wpe = words_per(d->t.dtype);
	int nseg = 0;
	int64_t nblocks = 0;
	gen_seg *tab = segment_table(p, t, d, wpe, &nseg, &nblocks, s);
	if (nseg) {
		const int grid = gen_grid(nblocks), threads = 32 * GEN_WARPS;
		if (verify) {
			DISPATCH_TYPES(p->judge, d->t.dtype, gen_kernel<T, true><<<grid, threads, 0, s>>>(
			                   (T *)d->t.data, tab, nseg, nblocks, wpe, *key, bad,
			                   copy ? (T *)copy->t.data : (T *)NULL));
		} else {
			DISPATCH_TYPES(p->judge, d->t.dtype, gen_kernel<T, false><<<grid, threads, 0, s>>>(
			                   (T *)d->t.data, tab, nseg, nblocks, wpe, *key, bad));
		}
		HARNESS_TRY(p->judge, cudaGetLastError());
	}
	HARNESS_TRY(p->judge, cudaFreeAsync(tab, s));
}

/* Input d of task t as key generates it. */
static inline void generate(struct tensor_pool *p, const struct cua_task *t,
                            struct dev_tensor *d, const struct cua_rng_key *key, cudaStream_t s)
{
	gen_run(p, t, d, key, false, NULL, s);
}

/* Elements of d that differ from what key generates; with copy, the generated
 * tensor is written there in the same pass. */
static inline unsigned long long mutated(struct tensor_pool *p, const struct cua_task *t,
                                         const struct dev_tensor *d,
                                         const struct cua_rng_key *key, cudaStream_t s,
                                         const struct dev_tensor *copy = NULL)
{
	unsigned long long h = 0;
	HARNESS_TRY(p->judge, cudaMemsetAsync(p->d_counter, 0, sizeof(*p->d_counter), s));
	gen_run(p, t, d, key, true, p->d_counter, s, copy);
	HARNESS_TRY(p->judge, cudaMemcpyAsync(&h, p->d_counter, sizeof(h), cudaMemcpyDeviceToHost,
	                                      s));
	HARNESS_TRY(p->judge, cudaStreamSynchronize(s));
	return h;
}

#endif /* CUA_TENSOR_CUH */
