// Kernels whose every global access goes through a helper that takes a
// pointer, and whose launch shape comes from constexprs of a template
// argument (test/kwrap-sizes.t checks each); test/sizes/helpers.ndjson is
// their saved kslice output:
//	./kscan test/sizes/helpers.cu | ./kslice > test/sizes/helpers.ndjson
#define TILE_ROWS 4

// One element, or four through a vector type: an explicit
// specialization per width, the primary template only declared.
template <typename T, int W>
__device__ inline void move_n(T *to, const T *from);
template <>
__device__ inline void move_n<float, 1>(float *to, const float *from)
{
  *to = *from;
}
template <>
__device__ inline void move_n<float, 4>(float *to, const float *from)
{
  *reinterpret_cast<float4 *>(to) = *reinterpret_cast<const float4 *>(from);
}

constexpr int pick_vec(int span) { return span >= 128 ? 4 : 1; }

// A row of up to 1 << LOG2 columns per warp row, TILE_ROWS rows per
// block: block (lanes, TILE_ROWS), lanes and the vector width computed
// from the template argument.
template <int LOG2>
__global__ void tile_rows_kernel(float *out, const float *in, float alpha,
                                 int rows, int cols)
{
  constexpr int span = 1 << LOG2;
  constexpr int lanes = span < 32 ? span : 32;
  constexpr int VEC = pick_vec(span);
  constexpr int STEPS = span / lanes;
  int row = blockIdx.x * TILE_ROWS + threadIdx.y;
  if (row >= rows)
    return;
  long first = (long)row * cols + VEC * threadIdx.x;
  in += first;
  out += first;
  float v[VEC];
  for (int s = 0; s < STEPS; s += VEC) {
    int col = VEC * threadIdx.x + s * lanes;
    if (col < cols) {
      move_n<float, VEC>(v, in + s * lanes);
      for (int e = 0; e < VEC; ++e)
        v[e] *= alpha;
      move_n<float, VEC>(out + s * lanes, v);
    }
  }
}

static int ceil_log2(int n)
{
  int l = 0;
  while ((1 << l) < n)
    ++l;
  return l;
}

// The launcher's span is the kernel's constexpr of the same name: the
// block reads through it.
void launch_tile_rows(float *out, const float *in, float alpha, int rows,
                      int cols)
{
  int log2 = ceil_log2(cols);
  const int span = 1 << log2;
  int lanes = span < 32 ? span : 32;
  dim3 block(lanes, TILE_ROWS);
  dim3 grid((rows + TILE_ROWS - 1) / TILE_ROWS);
  switch (log2) {
  case 3:
    tile_rows_kernel<3><<<grid, block>>>(out, in, alpha, rows, cols);
    break;
  case 8:
    tile_rows_kernel<8><<<grid, block>>>(out, in, alpha, rows, cols);
    break;
  }
}

// A generic helper: its loop bound is its template parameter, bound
// where the kernel calls it (sum_n<float, 2 * HALF>(x + 2 * HALF * i)).
template <typename T, int N>
__device__ inline T sum_n(const T *p)
{
  T s = 0;
  for (int k = 0; k < N; ++k)
    s += p[k];
  return s;
}

template <int HALF>
__global__ void pair_sum_kernel(float *out, const float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sum_n<float, 2 * HALF>(x + 2 * HALF * i);
}

void launch_pair_sum(float *out, const float *x, int n)
{
  pair_sum_kernel<3><<<(n + 127) / 128, 128>>>(out, x, n);
}

// The launcher's grid names b, h and q; the kernel gets their product
// only: the launch is taken where b and h are 1 (grid rows / 4).
__global__ void head_rows_kernel(float *y, const float *x, int rows, int cols)
{
  int blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int row = blk * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[row * cols + c] = 2.0f * x[row * cols + c];
}

void launch_head_rows(float *y, const float *x, int b, int h, int q, int cols)
{
  dim3 grid(q / 4, h, b);
  head_rows_kernel<<<grid, dim3(32, 4)>>>(y, x, b * h * q, cols);
}
