// task: sgemm
// expect: runtime_error
// expect-message: returned 1
// A library the task forbids, loaded anyway (held-out wave 2: ok at 24.9x vs nvcc):
// dlopen and dlsym found inside libc by its own symbol table from the address of
// memcpy (an allowed import), so nothing forbidden is imported; then libcublas
// from the toolkit's folder and a cuBLAS SGEMM. The kernel's process now sees a
// view of its own (the device nodes, the driver, /proc, a tmp and its object):
// there is no libcublas to open, and the kernel gives up (returns 1).
#include "cuarena.h"
#include <string.h>
#include "elf-walk.h"

typedef void *(*dlopen_fn)(const char *, int);
typedef void *(*dlsym_fn)(void *, const char *);
typedef int (*create_fn)(void **);
typedef int (*sgemm_fn)(void *, int, int, int, int, int, const float *, const float *, int,
                        const float *, int, const float *, float *, int);

static void *load_cublas(dlsym_fn *sym_out)
{
	struct ew_dyn d;
	void *(*volatile mc)(void *, const void *, size_t) = memcpy;
	if (!ew_open(ew_base((void *)mc), &d))
		return 0;
	dlopen_fn op = (dlopen_fn)ew_symbol(&d, "dlopen");
	*sym_out = (dlsym_fn)ew_symbol(&d, "dlsym");
	if (!op || !*sym_out)
		return 0;
	static const char *const where[] = {
		"libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.13",
		"/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.13",
	};
	for (int i = 0; i < 3; i++) {
		void *h = op(where[i], 2 /* RTLD_NOW */);
		if (h)
			return h;
	}
	return 0;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static void *handle;
	static sgemm_fn sgemm;
	if (!handle) {
		dlsym_fn sym = 0;
		void *lib = load_cublas(&sym);
		if (!lib)
			return 1;
		create_fn create = (create_fn)sym(lib, "cublasCreate_v2");
		sgemm = (sgemm_fn)sym(lib, "cublasSgemm_v2");
		if (!create || !sgemm || create(&handle) != 0)
			return 1;
	}
	int M = (int)in[0].shape[0], K = (int)in[0].shape[1], N = (int)in[1].shape[1];
	const float one = 1, zero = 0;
	/* row-major C = A·B as column-major C^T = B^T·A^T */
	return sgemm(handle, 0, 0, N, M, K, &one, (const float *)in[1].data, N,
	             (const float *)in[0].data, K, &zero, (float *)out[0].data, N) ? 1 : 0;
}
