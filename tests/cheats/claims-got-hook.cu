// task: relu
// expect: timing_anomaly
// expect-message: claimed
// In-process tampering, the class that fooled the harness when the verdict was
// computed in the candidate's process: computes ReLU honestly, and on its first
// call walks its own process from cua_solve's return address (raw system calls
// and ELF parsing, nothing the static check can see) to the GOT of the program
// that called it, and hooks cudaEventElapsedTime and clock_gettime there so the
// process reports its calls ten times faster. Since 2026-12-01 that program is
// only the kernel's process: the time is the judge's, measured in another
// process, and a claim this far from it is a timing anomaly.
#include "cuarena.h"
#include <time.h>
#include "elf-walk.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

static double t_hooked;   // seconds, when the hook went in

static double real_now(void)
{
	struct timespec ts;
	ew_sys(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fake_clock_gettime(clockid_t c, struct timespec *ts)
{
	double t = real_now();
	if (t_hooked > 0)
		t = t_hooked + (t - t_hooked) / 10;   // time passes ten times slower
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
	return 0;
}

static cudaError_t fake_elapsed(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = 0.01f;
	return cudaSuccess;
}

static void hook(void *caller)
{
	struct ew_dyn d;
	if (!ew_open(ew_base(caller), &d))
		return;
	void **slot = ew_got(&d, "cudaEventElapsedTime");
	if (slot && ew_writable(slot))
		*slot = (void *)fake_elapsed;
	slot = ew_got(&d, "clock_gettime");
	if (slot && ew_writable(slot))
		*slot = (void *)fake_clock_gettime;
	t_hooked = real_now();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	static bool hooked;
	if (!hooked) {
		hooked = true;
		hook(__builtin_return_address(0));
	}
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
