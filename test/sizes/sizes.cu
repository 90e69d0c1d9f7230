// Kernels whose specs keep the reference in bounds (test/kwrap-sizes.t
// checks each); test/sizes/kslice.ndjson is their saved kslice output:
//	./kscan test/sizes | ./kslice > test/sizes/kslice.ndjson
#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)

// A store through a pointer declared first and assigned later, and a
// store through a pointer moved by a step in a loop.
__global__ void deref_kernel(int n, int rows, const float *src, float *dst,
                             float *col) {
  CUDA_1D_KERNEL_LOOP(i, n) {
    float *q;
    q = dst + i * 2;
    *q = src[i];
    *(q + 1) = 0.0f;
    float *c = col + i;
    for (int r = 0; r < rows; ++r) {
      *c = src[i];
      c += n;
    }
  }
}

// Dynamic shared memory taken through a helper that declares the extern
// array: s is the array, sized by its accesses (2 * blockDim.x floats).
template <class T> struct SharedMem {
  __device__ inline operator T *() {
    extern __shared__ int smem_[];
    return (T *)smem_;
  }
};

template <class T>
__global__ void shared_helper_kernel(const T *in, T *out, int n) {
  T *s = SharedMem<T>();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  s[threadIdx.x + blockDim.x] = 0;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[blockDim.x];
}

void launch_shared_helper(const float *in, float *out, int n) {
  shared_helper_kernel<float><<<(n + 127) / 128, 128>>>(in, out, n);
}

// Indices read through a pointer dereference, converted at once:
// (int)(*(map + ...)) and int v = *p are values 0..3, so the gather from
// x is bounded by them and map is filled with 0..3.
__global__ void deref_index_kernel(int n, int taps, const int *map,
                                   const float *w, const float *x,
                                   float *out) {
  CUDA_1D_KERNEL_LOOP(i, n) {
    float acc = 0;
    for (int k = 0; k < taps; k++) {
      int j = (int)(*(map + i * taps + k));
      int c = (int)(*(w + k));
      acc += x[j * taps + c];
    }
    out[i] = acc;
  }
}

// Indices counted from 1 (x[v - 1]): with 0..3 the read could fall below
// element 0, so idx is filled with 1..4 and x holds 4 elements.
__global__ void one_based_kernel(int n, const int *idx, const float *x,
                                 float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[idx[i] - 1];
}

// Element types kwrap knows through clang: an alias (real_t is float)
// and a vector type (float2 is two floats, so the buffer holds 2 * n).
typedef float real_t;
__global__ void vector_type_kernel(int n, const real_t *a, const float2 *z,
                                   float2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 v = z[i];
    out[i] = make_float2(v.x * a[i], v.y * a[i]);
  }
}

// An index read from a buffer, compared with the scalar that bounds it:
// the guard and the assert hold for the values the harness draws (0..3)
// only when npts is at least 4, so every case keeps npts >= 4.
__global__ void guarded_index_kernel(int n, int npts, const long *nbr,
                                     const float *pts, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int first = (int)nbr[2 * i];
  const int k = (int)nbr[2 * i + 1];
  if (k >= npts || k < 0) return;
  assert(first < npts);
  out[i] = pts[k] - pts[first];
}

// An integer offset stepped in loops of bounded trips: loc moves by 2 per
// point of every level, read before each step, so it stays below
// 2 * levels * points past its start; a loop whose body moves its own
// variable bounds nothing.
__global__ void stepped_offset_kernel(int n, int levels, int points,
                                      const float *loc, const float *w,
                                      float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int at = i * levels * points * 2;
  int wi = i * levels * points;
  float acc = 0;
  for (int l = 0; l < levels; ++l) {
    for (int p = 0; p < points; ++p) {
      acc += loc[at] * loc[at + 1] * w[wi];
      at += 2;
      wi += 1;
    }
  }
  int back = 0;
  for (int q = 0; q < points; ++q) {
    q -= 1;
    back += 1;
  }
  out[i] = acc + w[back];
}
