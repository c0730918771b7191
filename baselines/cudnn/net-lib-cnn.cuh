/* net-lib-cnn.cuh — the library backend (net-lib.cuh) for the CNN family of Level 3
 * (tasks/common/net-cnn.cuh): what cuDNN computes itself, overloaded on cua_net_lib.
 * Header-only; a baseline includes this and then its network's forward.
 *
 *     conv2d      grouped and depthwise convolutions go to cuDNN as any other
 *                 (net-lib.cuh's cudnnConvolutionForward, groups in the descriptor;
 *                 the oracle's depthwise path in net-cnn.cuh is for fp64 only)
 *     sigmoid     cudnnActivationForward (SIGMOID), in place
 * Channel shuffle, concat, ceil-mode max pooling (cuDNN's pooling has only symmetric
 * padding, so it cannot express a window that hangs over the edge) and adaptive pooling
 * run net.cuh's / net-cnn.cuh's own kernels on the float activations. */
#ifndef BASELINES_CUDNN_NET_LIB_CNN_CUH
#define BASELINES_CUDNN_NET_LIB_CNN_CUH

#include "net-lib.cuh"
#include "net-cnn.cuh"

static inline int cua_cnn_sigmoid(cua_net_lib &b, cua_act<float> *a)
{
	return net_lib_act_forward(b, a, CUDNN_ACTIVATION_SIGMOID, 0.0);
}

#endif /* BASELINES_CUDNN_NET_LIB_CNN_CUH */
