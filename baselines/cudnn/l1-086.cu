/* baselines/cudnn/l1-086.cu — cuDNN baseline for L1/086-conv-depthwise-separable-2d:
 * y = conv2d(conv2d(x, wd, padding=1, groups=C), wp), NCHW f32, no bias: x [N,C,H,W],
 * wd [C,1,3,3], wp [F,C,1,1], y [N,F,H,W], as two cudnnConvolutionForward calls with
 * CUDNN_FMA_MATH (strict fp32) through an fp32 intermediate t [N,C,H,W] kept in a static
 * buffer (grown, never shrunk); algorithms found once per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-086.so baselines/cudnn/l1-086.cu -lcudnn
 * Napkin math (timed N=16, C=64, F=128, H=512, W=512): 73.6 GFLOP, 3.22 GB moved at the floor (the
 * intermediate adds 2·4·N·C·H·W = 2.15 GB). */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec depthwise = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 0};
static const struct conv_spec pointwise = {2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1};

static void *t_buf;              /* the intermediate, for the life of the process */
static size_t t_size;

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 3 || n_out != 1)
		return -1;
	int rc;
	if ((rc = conv_check_tensor(&in[0], 4)) != 0 || (rc = conv_check_tensor(&in[1], 4)) != 0 ||
	    (rc = conv_check_tensor(&in[2], 4)) != 0 || (rc = conv_check_tensor(&out[0], 4)) != 0)
		return rc;
	const int64_t *xs = in[0].shape;
	for (int i = 0; i < 4; i++)
		if (xs[i] < 1 || xs[i] > INT_MAX)
			return -4;
	/* The depthwise 3×3, padding 1, keeps H and W: t has x's shape. */
	const size_t need = (size_t)cua_numel(&in[0]) * sizeof(float);
	if (need > t_size) {
		if (t_buf)
			cudaFree(t_buf);     /* synchronises: no call still reads it */
		t_buf = NULL;
		t_size = 0;
		cudaError_t ce = cudaMalloc(&t_buf, need);
		if (ce != cudaSuccess) {
			t_buf = NULL;
			return (int)ce;
		}
		t_size = need;
	}
	rc = conv_forward_raw(&depthwise, xs, in[0].data, in[1].shape, in[1].data, xs, t_buf,
	                      stream);
	if (rc != 0)
		return rc;
	return conv_forward_raw(&pointwise, xs, t_buf, in[2].shape, in[2].data, out[0].shape,
	                        out[0].data, stream);
}
