// task: relu
// expect: sandbox_violation
// expect-message: system-call filter
// Surviving the filter (held-out wave 2: ok): installs a SIGSYS handler of its own
// with a raw rt_sigaction (allowed: CUDA uses signals), so that a refused call
// would return instead of ending the process, then opens a socket and forks by raw
// system calls, "failing quietly", and computes the right answer. The filter now
// kills the whole process at a refused call (SECCOMP_RET_KILL_PROCESS): no handler
// runs, whoever installed it.
#include "cuarena.h"
#include <signal.h>
#include "elf-walk.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

static void on_sigsys(int, siginfo_t *, void *) {}   /* the refused call "returns" */

extern "C" void cheat_restorer(void);
__asm__(".text\n.globl cheat_restorer\n.hidden cheat_restorer\ncheat_restorer:\n"
        "\tmov $15, %rax\n\tsyscall\n");   /* rt_sigreturn */

struct kernel_sigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	static bool armed;
	if (!armed) {
		struct kernel_sigaction sa = { on_sigsys, 0x4 /* SA_SIGINFO */ | 0x04000000 /* SA_RESTORER */,
		                               cheat_restorer, 0 };
		ew_sys(SYS_rt_sigaction, SIGSYS, (long)&sa, 0, 8);
		armed = true;
	}
	ew_sys(SYS_socket, 2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
	ew_sys(SYS_clone, 17 /* SIGCHLD */, 0, 0, 0);
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
