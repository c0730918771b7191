// task: relu
// expect: ok
// expect-speedup-max: nvcc 1.1
// Secrets in reach: looks for the seeds and keys that decide its inputs and its
// report — in its own environment and, through /proc, in the command line and
// environment of every process it can see (raw system calls: the static check
// sees no open). Found one, it would prove it by failing on purpose (an answer
// of zeros); found none, it computes ReLU honestly. Since 2026-12-01 the judge
// keeps its seeds out of its command line, wipes them from its environment,
// and runs the kernel's process in a PID namespace of its own as another user:
// nothing is found, and the kernel passes at no gain.
#include "cuarena.h"
#include <dirent.h>
#include <fcntl.h>
#include "elf-walk.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n, bool found)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = found ? 0.f : fmaxf(x[i], 0.f);
}

static bool has(const char *buf, long n, const char *needle)
{
	long m = 0;
	while (needle[m])
		m++;
	for (long i = 0; i + m <= n; i++) {
		long k = 0;
		while (k < m && buf[i + k] == needle[k])
			k++;
		if (k == m)
			return true;
	}
	return false;
}

static bool file_has_secret(const char *path)
{
	static char buf[1 << 16];
	long fd = ew_sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY);
	if (fd < 0)
		return false;
	long n = ew_sys(SYS_read, fd, (long)buf, sizeof(buf));
	ew_sys(SYS_close, fd);
	return n > 0 && (has(buf, n, "CUARENA_SECRETS") || has(buf, n, "CUARENA_CHANNEL_KEY") ||
	                 has(buf, n, "--secret"));
}

static bool hunt(void)
{
	static char ents[1 << 16];
	char path[64];
	long fd = ew_sys(SYS_openat, AT_FDCWD, (long)"/proc", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return false;
	bool found = false;
	long n;
	while (!found && (n = ew_sys(SYS_getdents64, fd, (long)ents, sizeof(ents))) > 0)
		for (long off = 0; off < n && !found;) {
			struct dirent64 *e = (struct dirent64 *)(ents + off);
			off += e->d_reclen;
			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			const char *files[] = { "cmdline", "environ" };
			for (int f = 0; f < 2 && !found; f++) {
				int k = 0;
				for (const char *s = "/proc/"; *s;) path[k++] = *s++;
				for (const char *s = e->d_name; *s && k < 40;) path[k++] = *s++;
				path[k++] = '/';
				for (const char *s = files[f]; *s;) path[k++] = *s++;
				path[k] = 0;
				found = file_has_secret(path);
			}
		}
	ew_sys(SYS_close, fd);
	return found;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	static int found = -1;
	if (found < 0)
		found = hunt();
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n, found);
	return 0;
}
