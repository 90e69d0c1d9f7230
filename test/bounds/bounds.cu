// Kernels whose element counts kwrap derives from the bounds of their
// accesses (test/kwrap.t checks each count); test/bounds/kslice.ndjson is
// their saved kslice output:
//	./kscan test/bounds | ./kslice > test/bounds/kslice.ndjson
#define THREADS 256
#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)

// Pointer offsets: p += off moves the buffer, then p[0..2]; a counter
// that stops at nsample.
__global__ void ball_query_kernel(int b, int n, int m, int nsample,
                                  const float *new_xyz, const float *xyz,
                                  int *idx) {
  int bs_idx = blockIdx.y;
  CUDA_1D_KERNEL_LOOP(pt_idx, m) {
    if (bs_idx >= b) return;
    new_xyz += bs_idx * m * 3 + pt_idx * 3;
    xyz += bs_idx * n * 3;
    idx += bs_idx * m * nsample + pt_idx * nsample;
    float x0 = new_xyz[0], y0 = new_xyz[1], z0 = new_xyz[2];
    int cnt = 0;
    for (int k = 0; k < n; ++k) {
      float d = (xyz[k * 3 + 0] - x0) * (xyz[k * 3 + 1] - y0) *
                xyz[k * 3 + 2] - z0;
      if (d < 1.0f) {
        idx[cnt] = k;
        ++cnt;
        if (cnt >= nsample) break;
      }
    }
  }
}

// A helper that clamps its coordinates, called with a channel's plane.
template <typename T>
__device__ T bilinear(const T *plane, int height, int width, T y, T x) {
  if (y < -1.0 || y > height || x < -1.0 || x > width) return 0;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int y_low = (int)y;
  int x_low = (int)x;
  int y_high, x_high;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
  } else {
    x_high = x_low + 1;
  }
  return plane[y_low * width + x_low] + plane[y_high * width + x_high];
}

// A flat output index decomposed by % and /; the input read through the
// helper at data-dependent coordinates that the helper clamps.
template <typename T>
__global__ void pool_kernel(int nthreads, const T *input, const T *coords,
                            T *output, int channels, int height, int width,
                            int pooled_h, int pooled_w) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int pw = index % pooled_w;
    int ph = (index / pooled_w) % pooled_h;
    int c = (index / pooled_w / pooled_h) % channels;
    int n = index / pooled_w / pooled_h / channels;
    const T *plane = input + (n * channels + c) * height * width;
    T y = coords[(n * pooled_h + ph) * 2], x = coords[(n * pooled_w + pw) * 2 + 1];
    output[index] = bilinear(plane, height, width, y, x);
  }
}

// Loop variables, up and down, and min() on a row's end.
__global__ void rows_kernel(const float *in, float *out, int rows, int cols,
                            int k) {
  int row = blockIdx.x;
  if (row >= rows) return;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) {
    float acc = 0;
    int end = min(j + k, cols);
    for (int t = j; t < end; t++)
      acc += in[row * cols + t];
    for (int t = k - 1; t >= 0; --t)
      acc += in[t];
    out[row * cols + j] = acc;
  }
}

// An index read from a buffer converted to int at once: the buffer is
// filled with 0..3, so x holds 4 elements.
__global__ void gather_kernel(const float *x, const float *where, float *out,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = (int)where[i];
    out[i] = x[j];
  }
}

// A batch index read through a pointer into the boxes, an integer argmax
// read from a buffer: both filled with 0..3.
__global__ void roi_kernel(int nthreads, const float *input,
                           const float *rois, const int *argmax, float *out,
                           int channels, int height, int width) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int c = index % channels;
    int n = index / channels;
    const float *box = rois + n * 5;
    int b = box[0];
    const float *plane = input + (b * channels + c) * height * width;
    out[index] = plane[argmax[index]] * box[1];
  }
}

// Values that are no bound: a float scaled before it becomes an index, an
// index buffer the kernel also writes.
__global__ void unbounded_kernel(const float *x, const float *where,
                                 const float *y, int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = (int)(where[i] * 2.0f);
    out[i] = x[j] + y[idx[i]];
    idx[i] = 0;
  }
}

// Block indices in y and z bounded by one guard that returns: the grid
// covers them; the launch site's grid is a variable kwrap cannot read.
__global__ void batch_kernel(int b, int c, int n, const float *in,
                             float *out) {
  int bs = blockIdx.z;
  int ch = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs >= b || ch >= c || i >= n) return;
  out[(bs * c + ch) * n + i] = in[(bs * c + ch) * n + i];
}

// A variable assigned again: the clamp alone reaches the read of in; k's
// value from before the loop is not alone, as the loop assigns it after
// its use.
__global__ void clamp_kernel(const float *in, const float *where, float *out,
                             int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = floorf(where[i] * 3.0f);
  x = min(max(x, 0), width - 1);
  int k = 0;
  for (int j = 0; j < 4; j++) {
    out[i * 4 + k] = in[x];
    k = n + j;
  }
}

// Sizes from the launch sites: the batch index blockIdx.z and the row
// blockIdx.x have no guard; the grid is the argument passed to batch (b
// at the site) and to rows.  The first site's grid and block are
// variables; the second spells them.
__global__ void transpose_kernel(const float *in, float *out, int batch,
                                 int rows, int cols) {
  int z = blockIdx.z;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) return;
  out[(z * cols + c) * rows + r] = in[(z * rows + r) * cols + c];
}

__global__ void row_scale_kernel(const float *x, const float *gamma,
                                 float *y, int rows, int cols) {
  int row = blockIdx.x;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    y[row * cols + j] = x[row * cols + j] * gamma[j];
}

// Vector accesses: four floats a thread through a C cast of &x[4 * i]
// under a guard on 4 * i, and a store through reinterpret_cast<float4 *>
// (y alone is written: kslice sees it as read).
__global__ void vec_kernel(const float *x, float *y, float *z, int n, int m4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i < n) {
    float4 v = *(const float4 *)&x[4 * i];
    *reinterpret_cast<float4 *>(y + 4 * i) = v;
  }
  if (i < m4)
    reinterpret_cast<float4 *>(z)[i] = make_float4(1, 2, 3, 4);
}

// A row per thread row of the block (blockIdx.x * blockDim.y +
// threadIdx.y), its columns by threadIdx.x: grid.x covers rows in steps
// of blockDim.y; the site's grid is a variable kwrap cannot read.
__global__ void warp_rows_kernel(const float *x, float *y, int rows,
                                 int cols) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < rows)
    for (int j = threadIdx.x; j < cols; j += blockDim.x)
      y[row * cols + j] = x[row * cols + j] + 1.0f;
}

// Pointers cast once and used through the cast: out4 writes out.
__global__ void cast_alias_kernel(const float *in, float *out, int n4) {
  const float4 *in4 = reinterpret_cast<const float4 *>(in);
  float4 *out4 = (float4 *)out;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out4[i] = in4[i];
}

// A buffer written by a device function it is passed to: out is written
// there, in is read.
__device__ void scale_into(float *dst, const float *src, int j) {
  dst[j] = src[j] * 2.0f;
}
template <typename T>
__global__ void helper_write_kernel(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) scale_into(out, in, i);
}

void launch(int b, int n, int m, const float *p, float *q, int *r) {
  ball_query_kernel<<<dim3((m + THREADS - 1) / THREADS, b), THREADS>>>(
      b, n, m, 8, p, p, r);
  pool_kernel<float><<<(n + THREADS - 1) / THREADS, THREADS>>>(
      n, p, p, q, 3, 4, 5, 2, 2);
  rows_kernel<<<m, THREADS>>>(p, q, m, n, 5);
  gather_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(p, p, q, n);
  roi_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(n, p, p, r, q, 3, 4,
                                                       5);
  dim3 blocks((n + THREADS - 1) / THREADS, m, b);
  batch_kernel<<<blocks, THREADS>>>(b, m, n, p, q);
  clamp_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(p, p, q, n, m);
  dim3 tb(16, 16), tg((n + 15) / 16, (m + 15) / 16, b);
  transpose_kernel<<<tg, tb>>>(p, q, b, m, n);
  transpose_kernel<<<dim3((n + 15) / 16, (m + 15) / 16, b), dim3(16, 16)>>>(
      p, q, b, m, n);
  row_scale_kernel<<<b * m, 256>>>(p, p, q, b * m, n);
  vec_kernel<<<(n / 4 + 255) / 256, 256>>>(p, q, q, n, n / 4);
  dim3 wg((m + 3) / 4);
  warp_rows_kernel<<<wg, dim3(32, 4)>>>(p, q, m, n);
  cast_alias_kernel<<<(n + 255) / 256, 256>>>(p, q, n);
  helper_write_kernel<float><<<(n + 255) / 256, 256>>>(p, q, n);
  unbounded_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(p, p, p, r, q,
                                                             n);
}
