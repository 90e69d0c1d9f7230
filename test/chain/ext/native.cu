// A launcher in a namespace the PyTorch headers (system headers to the
// parse) open too: the project's own reopening of it is read for the chain.
#include <torch/extension.h>

__global__ void neg_kernel(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = -p[i];
}

namespace at {
namespace native {
void neg_launch(at::Tensor p) {
  int n = (int)p.numel();
  neg_kernel<<<(n + 255) / 256, 256>>>(p.data_ptr<float>(), n);
}
}  // namespace native
}  // namespace at

void neg(at::Tensor p) { at::native::neg_launch(p); }
