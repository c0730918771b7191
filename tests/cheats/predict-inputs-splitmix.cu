// task: sgemm
// expect: wrong_output
// expect-message: output 'C'
// timeout-s: 400
// The secret recovered from the inputs (held-out wave 2: ok at 28.3x vs nvcc on
// sgemm). Against the generator the harness had until 2026-12-01 — splitmix64 over
// a counter, every step a bijection — one input element gives back the seed: take
// the element of A nearest zero (its float has the most bits of the 64-bit draw),
// enumerate the few draws that round to it, invert the finaliser to the stream's
// key, confirm with a second element, invert twice more to the seed. With the
// seed of the secret case the timed samples' seeds follow (they were derived from
// it), so the kernel generates their inputs itself, computes their answers in one
// untimed call, and replays them in the timed ones, padded to just above the speed
// of light. Public cases (seeds 1, 2, 3) are computed honestly.
//
// The generator is a keyed PRF now (ChaCha20, a key per case and sample, rng.h):
// no draw inverts, nothing is predicted, and the kernel, which writes nothing it
// cannot predict or compute on a public seed, gets wrong_output at once.
#include "cuarena.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

#define GAMMA 0x9e3779b97f4a7c15ULL
#define C1 0xbf58476d1ce4e5b9ULL
#define C2 0x94d049bb133111ebULL

__host__ __device__ static inline uint64_t old_mix64(uint64_t z)
{
	z += GAMMA;
	z = (z ^ (z >> 30)) * C1;
	z = (z ^ (z >> 27)) * C2;
	return z ^ (z >> 31);
}

static uint64_t inverse_of(uint64_t c)   /* c odd: c * inv = 1 mod 2^64 (Newton) */
{
	uint64_t x = c;
	for (int i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

static uint64_t unxorshift(uint64_t z, int s)
{
	uint64_t x = z;
	for (int i = 0; i < 64 / s + 1; i++)
		x = z ^ (x >> s);
	return x;
}

static uint64_t old_unmix64(uint64_t z)
{
	static uint64_t i1, i2;
	if (!i1) {
		i1 = inverse_of(C1);
		i2 = inverse_of(C2);
	}
	z = unxorshift(z, 31);
	z *= i2;
	z = unxorshift(z, 27);
	z *= i1;
	z = unxorshift(z, 30);
	return z - GAMMA;
}

__host__ __device__ static inline uint64_t stream_of(uint32_t tensor)
{
	return ((uint64_t)tensor << 1) * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL;
}

/* The old generator's uniform(-1, 1) for (seed, tensor, index), as a float. */
__host__ __device__ static inline float old_value(uint64_t seed, uint32_t tensor, uint64_t i)
{
	uint64_t key = old_mix64(old_mix64(seed) ^ stream_of(tensor));
	uint64_t b = old_mix64(key + i * GAMMA);
	return (float)(-1.0 + 2.0 * ((double)(b >> 11) * (1.0 / 9007199254740992.0)));
}

__global__ void old_gen_kernel(float *p, int64_t n, uint64_t seed, uint32_t tensor)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = old_value(seed, tensor, (uint64_t)i);
}

__global__ void sgemm_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[16][17], Bs[16][17];
	int tx = threadIdx.x, ty = threadIdx.y;
	int n = blockIdx.x * 16 + tx, m = blockIdx.y * 16 + ty;
	float acc = 0.f;
	for (int k0 = 0; k0 < K; k0 += 16) {
		As[ty][tx] = (m < M && k0 + tx < K) ? A[(size_t)m * K + k0 + tx] : 0.f;
		Bs[ty][tx] = (k0 + ty < K && n < N) ? B[(size_t)(k0 + ty) * N + n] : 0.f;
		__syncthreads();
		for (int k = 0; k < 16; k++)
			acc = fmaf(As[ty][k], Bs[k][tx], acc);
		__syncthreads();
	}
	if (m < M && n < N)
		C[(size_t)m * N + n] = acc;
}

__global__ void spin_kernel(uint64_t ns)
{
	uint64_t t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while (t - t0 < ns);
}

/* The seed of A's stream, from its first `have` elements; 0 when no draw fits. */
static uint64_t recover_seed(const float *a, int have)
{
	int i1 = -1, i2 = -1;
	for (int i = 0; i < have; i++)   /* the two elements nearest zero */
		if (a[i] != 0 && (i1 < 0 || fabsf(a[i]) < fabsf(a[i1]))) {
			i2 = i1;
			i1 = i;
		} else if (a[i] != 0 && (i2 < 0 || fabsf(a[i]) < fabsf(a[i2])))
			i2 = i;
	if (i1 < 0 || i2 < 0)
		return 0;
	double v = a[i1], ulp = ldexp(1.0, ilogb(v) - 23);
	double ulo = (v - ulp + 1) / 2, uhi = (v + ulp + 1) / 2;   /* a little wide */
	uint64_t u0 = (uint64_t)floor(ulo * 9007199254740992.0);
	uint64_t u1 = (uint64_t)ceil(uhi * 9007199254740992.0);
	if (u1 - u0 > (1u << 20))
		return 0;   /* too many: not worth it */
	for (uint64_t u = u0; u <= u1; u++)
		for (uint64_t low = 0; low < 2048; low++) {
			uint64_t b = u << 11 | low;
			uint64_t key = old_unmix64(b) - (uint64_t)i1 * GAMMA;
			uint64_t b2 = old_mix64(key + (uint64_t)i2 * GAMMA);
			float v2 = (float)(-1.0 + 2.0 * ((double)(b2 >> 11) * (1.0 / 9007199254740992.0)));
			if (v2 != a[i2])
				continue;
			uint64_t seed = old_unmix64(old_unmix64(key) ^ stream_of(0));
			if (old_value(seed, 0, (uint64_t)i1) == a[i1] && old_value(seed, 0, 0) == a[0])
				return seed;
		}
	return 0;
}

#define SAMPLES 64
static struct { float first; float *C; } predicted[2 * SAMPLES];
static int n_predicted;

static void compute(const float *A, const float *B, float *C, int M, int N, int K,
                    cudaStream_t s)
{
	sgemm_kernel<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, s>>>(A, B, C, M, N, K);
}

/* The timed samples' (and warm-ups') seeds as the old judge derived them. */
static void predict(uint64_t secret, int M, int N, int K, cudaStream_t s)
{
	static const uint64_t salts[2] = { 0x7157ab1e00000000ull, 0x3a53a53a00000000ull };
	float *A, *B;
	if (cudaMalloc(&A, (size_t)M * K * 4) || cudaMalloc(&B, (size_t)K * N * 4))
		return;
	for (int w = 0; w < 2; w++)
		for (int n = 0; n < SAMPLES && n_predicted < 2 * SAMPLES; n++) {
			uint64_t seed = old_mix64(secret ^ salts[w] ^ (uint64_t)n) >> 11;
			float *C;
			if (cudaMalloc(&C, (size_t)M * N * 4))
				return;
			old_gen_kernel<<<1024, 256, 0, s>>>(A, (int64_t)M * K, seed, 0);
			old_gen_kernel<<<1024, 256, 0, s>>>(B, (int64_t)K * N, seed, 1);
			compute(A, B, C, M, N, K, s);
			predicted[n_predicted].first = old_value(seed, 0, 0);
			predicted[n_predicted++].C = C;
		}
	cudaStreamSynchronize(s);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int M = (int)in[0].shape[0], K = (int)in[0].shape[1], N = (int)in[1].shape[1];
	const float *A = (const float *)in[0].data, *B = (const float *)in[1].data;
	float *C = (float *)out[0].data;
	static float head[65536];
	int have = M * K < 65536 ? M * K : 65536;
	if (cudaMemcpy(head, A, (size_t)have * 4, cudaMemcpyDeviceToHost))
		return 1;
	for (int i = 0; i < n_predicted; i++)   /* a timed sample we saw coming */
		if (predicted[i].first == head[0]) {
			cudaMemcpyAsync(C, predicted[i].C, (size_t)M * N * 4, cudaMemcpyDeviceToDevice,
			                stream);
			spin_kernel<<<1, 1, 0, stream>>>(2300000);   /* just above the speed of light */
			return 0;
		}
	uint64_t seed = recover_seed(head, have);
	if (seed == 0)
		return cudaMemsetAsync(C, 0, (size_t)M * N * 4, stream) ? 1 : 0;   /* nothing to go on */
	if (seed > 3 && M == 4096 && !n_predicted)   /* the secret, at the timed shape */
		predict(seed, M, N, K, stream);
	compute(A, B, C, M, N, K, stream);
	return (int)cudaGetLastError();
}
