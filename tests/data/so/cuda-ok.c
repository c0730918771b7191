/* cuda-ok.c — what nvcc output imports: registration helpers, runtime calls
 * (including per-thread-stream variants), libm and C++ new/delete. */
extern void **__cudaRegisterFatBinary(void *fatbin);
extern void __cudaRegisterFatBinaryEnd(void **handle);
extern int cudaMalloc(void **p, unsigned long n);
extern int cudaMemcpyAsync_ptsz(void *d, const void *s, unsigned long n, int k, void *st);
extern int cudaLaunchKernel(const void *f, long g, long b, void **args, unsigned long sh, void *st);
extern int cudaEventElapsedTime(float *ms, void *a, void *b);
extern void *_Znwm(unsigned long n);
extern void _ZdlPvm(void *p, unsigned long n);
extern double tanh(double);
extern float erff(float);

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	void *p = 0, *q;
	float ms;
	__cudaRegisterFatBinaryEnd(__cudaRegisterFatBinary(p));
	if (cudaMalloc(&p, (unsigned long)n_in) ||
	    cudaMemcpyAsync_ptsz(p, in, (unsigned long)n_in, 1, stream) ||
	    cudaLaunchKernel(in, 1, 1, &p, 0, stream) ||
	    cudaEventElapsedTime(&ms, p, p))
		return 1;
	q = _Znwm((unsigned long)n_out);
	_ZdlPvm(q, (unsigned long)n_out);
	return (int)(tanh(ms) + erff(ms));
}
