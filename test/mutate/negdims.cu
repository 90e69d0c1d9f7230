// kwrap: image dimensions passed as plain integers beside the tensors'
// accessors (H, W, K) that bound a loop through a local (num = H * W *
// K) and take its index apart by a product (t / (W * K)): in the
// negatives case they keep their typical values, since two negative
// dimensions make a positive count of negative indices, written before
// the output's start; sigma does not
#include <torch/extension.h>

__global__ void
pixel_grad(const at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> alpha,
    at::PackedTensorAccessor64<float, 4, at::RestrictPtrTraits> grad,
    const float sigma, const int H, const int W, const int K)
{
	const int n = blockIdx.x;
	const int num = H * W * K;

	for (int t = blockIdx.y * blockDim.x + threadIdx.x; t < num;
	    t += gridDim.y * blockDim.x) {
		int y = t / (W * K);
		int x = (t % (W * K)) / K;
		int k = (t % (W * K)) % K;
		grad[n][y][x][k] = alpha[n][y][x] / sigma;
	}
}
