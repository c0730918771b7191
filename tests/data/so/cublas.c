/* cublas.c — a candidate that calls cuBLAS (only allowed when the task says so). */
extern int cublasCreate_v2(void **handle);
extern int cublasSgemm_v2(void *h, int ta, int tb, int m, int n, int k,
                          const float *alpha, const float *a, int lda,
                          const float *b, int ldb, const float *beta,
                          float *c, int ldc);

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	void *h = 0;
	float one = 1.0f, zero = 0.0f;
	if (cublasCreate_v2(&h))
		return 1;
	return cublasSgemm_v2(h, 0, 0, n_out, n_out, n_in, &one, in, n_in, in,
	                      n_in, &zero, out, n_out);
}
