/* gen-bench.cu — what the input generator costs on the GPU: the harness's keyed
 * generator (ChaCha20, harness/judge/gen.cuh, one block per 16 elements shared
 * through shared memory) against the splitmix64 generator it replaced, writing
 * and verifying ReLU's timed input (800 M floats, 3.2 GB) and SGEMM's (2 × 16.8 M).
 * Build: make build/gen-bench; run on the GPU machine: build/gen-bench.
 * Memory ceiling: 3.2 GB written at ~4 TB/s is ~0.8 ms. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/gen.cuh"

/* the old generator, as rng.h had it until 2026-12-01 */
__device__ static uint64_t old_bits(uint64_t seed, uint32_t tensor, uint64_t index)
{
	uint64_t stream = ((uint64_t)tensor << 1) * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL;
	uint64_t key = cua_mix64(cua_mix64(seed) ^ stream);
	return cua_mix64(key + index * 0x9e3779b97f4a7c15ULL);
}

__global__ void old_gen(float *p, int64_t n, uint64_t seed)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = (float)(-1.0 + 2.0 * ((double)(old_bits(seed, 0, i) >> 11) * 0x1p-53));
}

static float ms_of(void (*run)(float *, int64_t, unsigned long long *), float *p, int64_t n,
                   unsigned long long *bad)
{
	cudaEvent_t a, b;
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	run(p, n, bad);   /* warm */
	float best = 1e30f;
	for (int r = 0; r < 7; r++) {
		cudaEventRecord(a);
		run(p, n, bad);
		cudaEventRecord(b);
		cudaEventSynchronize(b);
		float ms;
		cudaEventElapsedTime(&ms, a, b);
		best = ms < best ? ms : best;
	}
	return best;
}

static gen_seg *g_tab;
static struct cua_rng_key g_key;

static void setup(int64_t n)
{
	gen_seg h = { 0, n, 0, -1.0, 1.0, CUA_RNG_UNIFORM, 0 };
	cudaMemcpy(g_tab, &h, sizeof(h), cudaMemcpyHostToDevice);
}

static int grid_of(int64_t n)
{
	int64_t nb = (n + 15) / 16, g = (nb + 32 * GEN_WARPS - 1) / (32 * GEN_WARPS);
	return (int)(g > 132 * 16 ? 132 * 16 : g);
}

static void run_new(float *p, int64_t n, unsigned long long *bad)
{
	gen_kernel<float, false><<<grid_of(n), 32 * GEN_WARPS>>>(p, g_tab, 1, (n + 15) / 16, 1,
	                                                        g_key, bad);
}

static void run_verify(float *p, int64_t n, unsigned long long *bad)
{
	gen_kernel<float, true><<<grid_of(n), 32 * GEN_WARPS>>>(p, g_tab, 1, (n + 15) / 16, 1,
	                                                       g_key, bad);
}

static void run_old(float *p, int64_t n, unsigned long long *bad)
{
	(void)bad;
	old_gen<<<132 * 32, 256>>>(p, n, 1);
}

int main(void)
{
	const int64_t sizes[] = { 800000000, 16777216 };
	const char *names[] = { "relu input (800 M)", "sgemm operand (16.8 M)" };
	float *p;
	unsigned long long *bad;
	if (cudaMalloc(&p, sizes[0] * 4) || cudaMalloc(&bad, 8) ||
	    cudaMalloc(&g_tab, sizeof(gen_seg))) {
		fprintf(stderr, "gen-bench: no GPU memory\n");
		return 3;
	}
	cua_rng_public(1, &g_key);
	for (int k = 0; k < 2; k++) {
		int64_t n = sizes[k];
		setup(n);
		float t_new = ms_of(run_new, p, n, bad);
		cudaMemset(bad, 0, 8);
		float t_ver = ms_of(run_verify, p, n, bad);
		unsigned long long h = 1;
		cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost);
		float t_old = ms_of(run_old, p, n, bad);
		printf("%-24s chacha%d %.3f ms (verify %.3f ms, %llu differ), splitmix64 %.3f ms, "
		       "%.1f GB/s written\n", names[k], CUA_RNG_ROUNDS, t_new, t_ver, h, t_old,
		       n * 4 / (t_new * 1e6));
	}
	cudaError_t e = cudaGetLastError();
	if (e != cudaSuccess) {
		fprintf(stderr, "gen-bench: %s\n", cudaGetErrorString(e));
		return 1;
	}
	return 0;
}
