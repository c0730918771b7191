/* cudnn-find.cu — what cuDNN's Find offers for a stride-1, unpadded 2-D transposed
 * convolution (the shape of X/008, formerly L1/088, by default), and how far each offer is from an
 * fp64 direct sum. A diagnostic for the strict-fp32 algorithm choice of
 * baselines/cudnn/algo-common.cuh: for every algorithm Find reports it prints the
 * status, math type, time, workspace, then runs the algorithm under that math type
 * and under CUDNN_FMA_MATH and prints the largest |cuDNN - fp64| and how many
 * outputs miss the task's tolerance (|d| <= atol + rtol*|ref|).
 *
 *   make build/cudnn-find     (here);   build/cudnn-find [N C F H W K atol rtol]
 */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cudnn.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                       \
	do {                                                                        \
		long long e_ = (long long)(x);                                      \
		if (e_) {                                                           \
			fprintf(stderr, "%s:%d: %s = %lld\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                                    \
		}                                                                   \
	} while (0)

/* y[n,f,i,j] = sum_{c,a,b} x[n,c,i-a,j-b] * w[c,f,a,b], in fp64 */
__global__ void ref_kernel(const float *x, const float *w, double *y, int N, int C, int F,
                           int H, int W, int K)
{
	int OH = H + K - 1, OW = W + K - 1;
	long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (idx >= (long long)N * F * OH * OW)
		return;
	int j = idx % OW, i = (idx / OW) % OH, f = (idx / OW / OH) % F, n = idx / OW / OH / F;
	double s = 0;
	for (int c = 0; c < C; c++)
		for (int a = 0; a < K; a++)
			for (int b = 0; b < K; b++) {
				int h = i - a, v = j - b;
				if (h >= 0 && h < H && v >= 0 && v < W)
					s += (double)x[(((long long)n * C + c) * H + h) * W + v] *
					     (double)w[((c * F + f) * K + a) * K + b];
			}
	y[idx] = s;
}

__global__ void diff_kernel(const float *y, const double *ref, long long n, double atol,
                            double rtol, unsigned long long *bad, unsigned long long *maxbits)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double d = fabs((double)y[i] - ref[i]);
	if (d > atol + rtol * fabs(ref[i]))
		atomicAdd(bad, 1ull);
	atomicMax(maxbits, (unsigned long long)__double_as_longlong(d));
}

static const char *math_name(cudnnMathType_t m)
{
	switch (m) {
	case CUDNN_DEFAULT_MATH: return "DEFAULT";
	case CUDNN_TENSOR_OP_MATH: return "TENSOR_OP";
	case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "TENSOR_OP_CONV";
	case CUDNN_FMA_MATH: return "FMA";
	}
	return "?";
}

int main(int argc, char **argv)
{
	int N = 12, C = 128, F = 128, H = 128, W = 128, K = 5;
	double atol = 1.7e-3, rtol = 1e-4;
	if (argc == 9) {
		N = atoi(argv[1]); C = atoi(argv[2]); F = atoi(argv[3]);
		H = atoi(argv[4]); W = atoi(argv[5]); K = atoi(argv[6]);
		atol = atof(argv[7]); rtol = atof(argv[8]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: cudnn-find [N C F H W K atol rtol]\n");
		return 2;
	}
	int OH = H + K - 1, OW = W + K - 1;
	size_t nx = (size_t)N * C * H * W, nw = (size_t)C * F * K * K, ny = (size_t)N * F * OH * OW;
	float *hx = (float *)malloc(nx * 4), *hw = (float *)malloc(nw * 4);
	srand(1);
	for (size_t i = 0; i < nx; i++)
		hx[i] = 2.0f * rand() / RAND_MAX - 1.0f;
	for (size_t i = 0; i < nw; i++)
		hw[i] = 2.0f * rand() / RAND_MAX - 1.0f;
	float *x, *w, *y;
	double *ref;
	unsigned long long *stats;
	CK(cudaMalloc(&x, nx * 4));
	CK(cudaMalloc(&w, nw * 4));
	CK(cudaMalloc(&y, ny * 4));
	CK(cudaMalloc(&ref, ny * 8));
	CK(cudaMalloc(&stats, 16));
	CK(cudaMemcpy(x, hx, nx * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(w, hw, nw * 4, cudaMemcpyHostToDevice));
	ref_kernel<<<(unsigned)((ny + 255) / 256), 256>>>(x, w, ref, N, C, F, H, W, K);
	CK(cudaDeviceSynchronize());

	cudnnHandle_t h;
	cudnnTensorDescriptor_t dy, dx;
	cudnnFilterDescriptor_t fd;
	cudnnConvolutionDescriptor_t cd;
	CK(cudnnCreate(&h));
	CK(cudnnCreateTensorDescriptor(&dy));
	CK(cudnnCreateTensorDescriptor(&dx));
	CK(cudnnCreateFilterDescriptor(&fd));
	CK(cudnnCreateConvolutionDescriptor(&cd));
	CK(cudnnSetTensor4dDescriptor(dy, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
	CK(cudnnSetTensor4dDescriptor(dx, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, F, OH, OW));
	CK(cudnnSetFilter4dDescriptor(fd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, C, F, K, K));
	CK(cudnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
	                                   CUDNN_DATA_FLOAT));
	CK(cudnnSetConvolutionMathType(cd, CUDNN_FMA_MATH));
	size_t ws_size = 1ull << 30;
	void *ws;
	CK(cudaMalloc(&ws, ws_size));
	cudnnConvolutionBwdDataAlgoPerf_t perf[32];
	int n = 0;
	CK(cudnnFindConvolutionBackwardDataAlgorithmEx(h, fd, w, dy, x, cd, dx, y, 32, &n, perf,
	                                               ws, ws_size));
	printf("cuDNN %zu; transposed conv N=%d C=%d F=%d %dx%d K=%d; Find under FMA math: %d results\n",
	       cudnnGetVersion(), N, C, F, H, W, K, n);
	for (int i = 0; i < n; i++) {
		printf("algo %d status %d math %-9s %8.3f ms ws %10zu det %d", (int)perf[i].algo,
		       (int)perf[i].status, math_name(perf[i].mathType), perf[i].time,
		       perf[i].memory, (int)perf[i].determinism);
		if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].memory > ws_size) {
			printf("\n");
			continue;
		}
		cudnnMathType_t ms[2] = {perf[i].mathType, CUDNN_FMA_MATH};
		for (int k = 0; k < 2; k++) {
			if (k == 1 && ms[0] == CUDNN_FMA_MATH)
				break;
			const float one = 1, zero = 0;
			CK(cudnnSetConvolutionMathType(cd, ms[k]));
			CK(cudaMemset(y, 0xff, ny * 4));
			cudnnStatus_t st = cudnnConvolutionBackwardData(h, &one, fd, w, dy, x, cd,
			                                                perf[i].algo, ws, ws_size,
			                                                &zero, dx, y);
			if (st != CUDNN_STATUS_SUCCESS) {
				printf(" | as %s: status %d", math_name(ms[k]), (int)st);
				continue;
			}
			unsigned long long hs[2] = {0, 0};
			CK(cudaMemset(stats, 0, 16));
			diff_kernel<<<(unsigned)((ny + 255) / 256), 256>>>(y, ref, (long long)ny, atol,
			                                                   rtol, stats, stats + 1);
			CK(cudaMemcpy(hs, stats, 16, cudaMemcpyDeviceToHost));
			double maxd;
			memcpy(&maxd, &hs[1], 8);
			printf(" | as %s: max|d| %.3g, %llu of %zu out of tolerance", math_name(ms[k]),
			       maxd, hs[0], ny);
		}
		CK(cudnnSetConvolutionMathType(cd, CUDNN_FMA_MATH));
		printf("\n");
	}
	return 0;
}
