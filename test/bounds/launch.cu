// Launchers that hold their launch in locals, macros, constants and small
// helpers: kscan resolves each site's grid, block, shared memory and
// arguments back to the launcher's parameters (launches[].resolved,
// test/kscan.t), and kwrap gives every case the launch the launcher
// would compute for its scalars (test/kwrap.t).  Saved with bounds.cu in
// test/bounds/kslice.ndjson.
#define BLOCK_1D 512
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
constexpr int kTileRows = 8;
enum { kTileCols = 32 };

// A helper whose body is locals and a return, with a default argument
// and a cap: the call becomes its expression.
inline int blocks_for(const int n, const int threads = BLOCK_1D) {
  int want = (n + threads - 1) / threads;
  int cap = 65535;
  return min(want, cap);
}

// A grid-stride loop: the kernel itself bounds nothing but its index.
__global__ void stride_copy_kernel(const float *src, float *dst, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    dst[i] = src[i];
}

// A 2-D tile per block, launched with dim3 locals built from a
// function-like macro, a constexpr and an enum constant.
__global__ void tile_add_kernel(const float *a, float *b, int rows,
                                int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) b[r * cols + c] += a[r * cols + c];
}

// One partial sum per block in dynamic shared memory sized by the
// block's own .x.
__global__ void block_sum_kernel(const float *x, float *partial, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
}

void launch_tiles(const float *a, float *b, int rows, int cols) {
  int total = rows * cols;
  stride_copy_kernel<<<blocks_for(total), BLOCK_1D>>>(a, b, total);
  dim3 block(kTileCols, kTileRows);
  dim3 grid(CEIL_DIV(cols, kTileCols), CEIL_DIV(rows, kTileRows));
  tile_add_kernel<<<grid, block>>>(a, b, rows, cols);
}

void launch_sum(const float *x, float *partial, int n) {
  int threads;
  threads = 128;
  dim3 block(threads);
  const int blocks = (n + threads - 1) / threads;
  size_t smem = block.x * sizeof(float);
  block_sum_kernel<<<blocks, block, smem>>>(x, partial, n);
}

// A block size that is a template argument, launched under the case of a
// switch on the launcher's thread count: each instance gets its own.
template <unsigned int BLOCK>
__global__ void block_max_kernel(const float *x, float *out, int n) {
  __shared__ float buf[BLOCK];
  float m = -1e30f;
  for (int i = threadIdx.x; i < n; i += BLOCK) m = fmaxf(m, x[i]);
  buf[threadIdx.x] = m;
  __syncthreads();
  for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[0] = buf[0];
}

void launch_max(const float *x, float *out, int n, int threads) {
  dim3 block(threads);
  switch (threads) {
  case 256:
    block_max_kernel<256><<<1, block>>>(x, out, n);
    break;
  case 16:
    block_max_kernel<16><<<1, block>>>(x, out, n);
    break;
  }
}
