/* probe.cu — device facts and measured ceilings, run in a child process.
 *
 *   cuarena __probe     one JSON line: name, compute capability, SMs, L2, memory,
 *                       peak SM and memory clocks, driver and runtime versions
 *   cuarena __measure   the same plus ceilings measured on random data:
 *                       device-to-device copy (bytes read + written per second),
 *                       cuBLAS SGEMM strict fp32, TF32 and BF16 GEMM rates (8192^3),
 *                       and the FFMA peak from SM count x 128 lanes x 2 x clock.
 * The parent (cmd-doctor.c) caches the result per GPU model under data/devices/.
 */
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <string.h>
#include <cjson/cJSON.h>

extern "C" {
#include "common.h"
#include "judge/stats.h"
#include "judge/runner.h"
}
#include "rng.h"

static cJSON *device_json(void)
{
	cudaDeviceProp p;
	int drv = 0, rt = 0, clk = 0, mclk = 0, bus = 0, n = 0;
	cJSON *o = cJSON_CreateObject();

	if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1 ||
	    cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
		cJSON_AddStringToObject(o, "error", "no CUDA device is visible");
		cudaGetLastError();
		return o;
	}
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
	cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
	cJSON_AddStringToObject(o, "name", p.name);
	cJSON_AddNumberToObject(o, "cc_major", p.major);
	cJSON_AddNumberToObject(o, "cc_minor", p.minor);
	cJSON_AddNumberToObject(o, "sms", p.multiProcessorCount);
	cJSON_AddNumberToObject(o, "l2_bytes", p.l2CacheSize);
	cJSON_AddNumberToObject(o, "mem_bytes", (double)p.totalGlobalMem);
	cJSON_AddNumberToObject(o, "sm_clock_peak_mhz", clk / 1000.0);
	cJSON_AddNumberToObject(o, "mem_clock_peak_mhz", mclk / 1000.0);
	cJSON_AddNumberToObject(o, "bus_width_bits", bus);
	cJSON_AddNumberToObject(o, "driver", drv);
	cJSON_AddNumberToObject(o, "runtime", rt);
	char ver[64];
	cua_driver_version(ver, sizeof(ver));
	cJSON_AddStringToObject(o, "driver_version", ver);
	return o;
}

static void print_json(cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o);
	printf("%s\n", s ? s : "{}");
	free(s);
	cJSON_Delete(o);
}

extern "C" int cua_probe_main(int argc, char **argv)
{
	cJSON *o = device_json();
	int rc = cJSON_GetObjectItem(o, "error") ? 3 : 0;
	print_json(o);
	return rc;
}

/* Uniform(-1, 1) from a public seed: one ChaCha20 block per 16 elements. */
__global__ void fill_kernel(float *p, int64_t n, struct cua_rng_key key)
{
	int64_t nb = (n + 15) / 16;
	for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < nb;
	     b += (int64_t)gridDim.x * blockDim.x) {
		uint32_t w[16];
		cua_rng_block(&key, 0, (uint64_t)b, w);
		for (int j = 0; j < 16 && b * 16 + j < n; j++)
			p[b * 16 + j] = (float)cua_rng_map(CUA_RNG_UNIFORM, -1.0, 1.0, w, j, 1);
	}
}

__global__ void to_bf16_kernel(const float *a, __nv_bfloat16 *b, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		b[i] = __float2bfloat16(a[i]);
}

#define TRY(call)                                                                \
	do {                                                                         \
		if ((call) != 0) {                                                       \
			fprintf(stderr, "cuarena __measure: %s failed at %s:%d\n", #call,   \
			        __FILE__, __LINE__);                                         \
			return 1;                                                            \
		}                                                                        \
	} while (0)

/* Median milliseconds of `reps` events-timed runs of fn after 2 warm-ups. */
template <typename F>
static double time_ms(F fn, int reps)
{
	cudaEvent_t a, b;
	double v[64];
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	fn();
	fn();
	cudaDeviceSynchronize();
	for (int i = 0; i < reps; i++) {
		cudaEventRecord(a);
		fn();
		cudaEventRecord(b);
		cudaEventSynchronize(b);
		float ms = 0;
		cudaEventElapsedTime(&ms, a, b);
		v[i] = ms;
	}
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	struct cua_stats st;
	cua_stats_compute(v, reps, &st);
	return st.median;
}

__global__ void clock_probe_kernel(double *mhz)
{
	uint64_t t0, t1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	long long c0 = clock64();
	do {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	} while (t1 - t0 < 5000000ull);
	long long c1 = clock64();
	*mhz = (double)(c1 - c0) / (double)(t1 - t0) * 1e3;
}

extern "C" int cua_measure_main(int argc, char **argv)
{
	cJSON *o = device_json();
	if (cJSON_GetObjectItem(o, "error")) {
		print_json(o);
		return 3;
	}
	cudaDeviceProp p;
	TRY(cudaGetDeviceProperties(&p, 0));

	/* Copy: 2 GiB device to device; bytes counted = read + written. */
	size_t bytes = (size_t)2 << 30;
	float *x = NULL, *y = NULL;
	TRY(cudaMalloc((void **)&x, bytes));
	TRY(cudaMalloc((void **)&y, bytes));
	struct cua_rng_key key;
	cua_rng_public(1, &key);
	fill_kernel<<<132 * 16, 256>>>(x, (int64_t)(bytes / 4), key);
	TRY(cudaDeviceSynchronize());
	double copy_ms = time_ms([&] { cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice); }, 20);
	double copy_gbs = 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9;

	/* GEMMs at 8192^3 on random data (not zeros: power depends on data). */
	const int n = 8192;
	int64_t nn = (int64_t)n * n;
	float *a = x, *b = x + nn, *c = y;
	__nv_bfloat16 *ah = (__nv_bfloat16 *)(y + nn), *bh = ah + nn;
	to_bf16_kernel<<<132 * 16, 256>>>(a, ah, nn);
	to_bf16_kernel<<<132 * 16, 256>>>(b, bh, nn);
	TRY(cudaDeviceSynchronize());
	cublasHandle_t h;
	TRY(cublasCreate(&h));
	float one = 1.0f, zero = 0.0f;
	double flops = 2.0 * n * (double)n * n;

	TRY(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
	double fp32_ms = time_ms([&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n); }, 10);
	double *mhz_d = NULL, mhz = 0;
	TRY(cudaMalloc((void **)&mhz_d, sizeof(double)));
	clock_probe_kernel<<<1, 1>>>(mhz_d);
	TRY(cudaMemcpy(&mhz, mhz_d, sizeof(double), cudaMemcpyDeviceToHost));

	TRY(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
	double tf32_ms = time_ms([&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n); }, 10);

	TRY(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
	double bf16_ms = time_ms([&] {
		cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ah, CUDA_R_16BF, n,
		             bh, CUDA_R_16BF, n, &zero, c, CUDA_R_32F, n,
		             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	}, 10);
	TRY(cudaGetLastError());
	cublasDestroy(h);

	cJSON *m = cJSON_AddObjectToObject(o, "ceilings");
	cJSON_AddNumberToObject(m, "copy_gbs", copy_gbs);
	cJSON_AddNumberToObject(m, "sgemm_fp32_tflops", flops / (fp32_ms * 1e-3) / 1e12);
	cJSON_AddNumberToObject(m, "sgemm_tf32_tflops", flops / (tf32_ms * 1e-3) / 1e12);
	cJSON_AddNumberToObject(m, "gemm_bf16_tflops", flops / (bf16_ms * 1e-3) / 1e12);
	cJSON_AddNumberToObject(m, "sm_mhz_loaded", mhz);
	/* Plain fp32: 128 FMA lanes per SM on sm_90, 2 flops each, per cycle. */
	cJSON_AddNumberToObject(m, "ffma_peak_tflops",
	                        p.multiProcessorCount * 128.0 * 2.0 * mhz * 1e6 / 1e12);
	cJSON_AddStringToObject(m, "method",
	                        "median of events-timed runs after 2 warm-ups; copy 2 GiB "
	                        "D2D x20 counting read+write; GEMMs 8192^3 random x10");
	print_json(o);
	cudaFree(x);
	cudaFree(y);
	cudaFree(mhz_d);
	return 0;
}
