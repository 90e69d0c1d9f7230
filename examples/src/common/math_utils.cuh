// math_utils.cuh - small device helpers, types and constants shared by the
// example kernels.  Header only; contains no kernels.
#ifndef KF_EXAMPLES_MATH_UTILS_CUH
#define KF_EXAMPLES_MATH_UTILS_CUH

#include <cuda_runtime.h>
#include <math.h>

#define KF_WARP_SIZE 32
#define KF_BLOCK_THREADS 256

/* Accumulator type used by the float reductions and dot products. */
typedef float acc_t;

/* Activation applied by the fused bias + activation kernel. */
enum ActivationKind {
  ACT_NONE = 0,
  ACT_RELU = 1,
  ACT_SIGMOID = 2,
  ACT_TANH = 3
};

/* Arguments of axpby_kernel, passed by value: out = alpha * x + beta * y. */
struct AxpbyParams {
  float alpha;
  float beta;
  int n;
};

__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* Largest power of two that is <= n (1 for n < 2). */
__host__ __device__ inline int floor_pow2(int n) {
  int p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

template <typename T>
__host__ __device__ inline T clamp_value(T x, T lo, T hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

template <typename T>
__device__ inline T max_value(T a, T b) {
  return a > b ? a : b;
}

/* Type-dispatched transcendentals: fast intrinsics for float, libm for double. */
__device__ __forceinline__ float kf_exp(float x) { return __expf(x); }
__device__ inline double kf_exp(double x) { return exp(x); }
__device__ inline float kf_log(float x) { return logf(x); }
__device__ inline double kf_log(double x) { return log(x); }

__device__ __forceinline__ float sigmoid_fast(float x) {
  return 1.0f / (1.0f + __expf(-x));
}

template <typename T>
__device__ inline T apply_activation(T x, ActivationKind act) {
  switch (act) {
  case ACT_RELU:
    return x > T(0) ? x : T(0);
  case ACT_SIGMOID:
    return T(sigmoid_fast(float(x)));
  case ACT_TANH:
    return T(tanhf(float(x)));
  default:
    return x;
  }
}

#endif /* KF_EXAMPLES_MATH_UTILS_CUH */
