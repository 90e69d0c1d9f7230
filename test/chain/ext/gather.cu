// A launcher in a function object: its callers name the class, not
// operator().
__global__ void gather_kernel(const float *x, const int *idx, float *y,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]];
}

struct GPU {};

namespace functor {
// the launching one is a partial specialization, as in spconv-style code
template <typename Device, typename T>
struct GatherFunctor;

template <typename T>
struct GatherFunctor<GPU, T> {
  void operator()(const T *x, const int *idx, T *y, int n) {
    gather_kernel<<<(n + 255) / 256, 256>>>(x, idx, y, n);
  }
};
}  // namespace functor

void gather(const float *x, const int *idx, float *y, int n) {
  functor::GatherFunctor<GPU, float> g;
  g(x, idx, y, n);
}
