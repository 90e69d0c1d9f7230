// Kernel code that leans on the CUDA toolkit's own headers: cub, cooperative
// groups, bf16 and half arithmetic and intrinsics, runtime API enums and
// error names, and a launch from device code (dynamic parallelism).
#include <cub/block/block_reduce.cuh>
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

__global__ void tk_kernel(float *x, __nv_bfloat162 *b) {
  typedef cub::BlockReduce<float, 128> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  cg::thread_block block = cg::this_thread_block();
  if (b != nullptr)
    b[0] = b[0] * b[1];
  float v = Reduce(tmp).Sum(__frsqrt_rn(x[block.thread_rank()]));
  x[0] = v + __half2float(__habs(__float2half(v))) +
         __bfloat162float(__float2bfloat16_rn(v));
}

void tk(float *x, __nv_bfloat162 *b) {
  int v;
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);
  if (cudaGetErrorName(cudaSuccess) != nullptr)
    tk_kernel<<<1, 128>>>(x, b);
}

__global__ void parent_kernel(float *x) { tk_kernel<<<1, 128>>>(x, nullptr); }

// What nvcc accepts and clang's wrapper headers alone do not give: host-side
// min/max, assert and printf without their headers, surface objects, the
// cluster group; and device-side placement new (clang's own <new> wrapper).
static const int kforge_archs[] = {__CUDA_ARCH_LIST__};  // nvcc predefines it
int grid_for(int n) { return min((n + 127) / 128, 4096) + max(n, 0) * 0; }

struct Pair {
  __device__ Pair(float a) : v(a) {}
  float v;
};

__global__ void surf_kernel(cudaSurfaceObject_t s, float *x) {
  assert(x != nullptr);
  __shared__ unsigned char buf[sizeof(Pair)];
  Pair *p = new (buf) Pair(x[0]);
  cg::cluster_group cluster = cg::this_cluster();
  surf2Dwrite(p->v + cluster.block_rank(), s, 0, 0);
  float v = surf2Dread<float>(s, 4, 0);
  if (v < 0)
    printf("%f\n", v);
}
