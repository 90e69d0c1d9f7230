// Indices kept in on-chip arrays (test/kwrap-sizes.t checks each kernel's
// spec); test/onchip/kslice.ndjson is their saved kslice output:
//	./kscan test/onchip | ./kslice > test/onchip/kslice.ndjson

// The index of the largest value of each block, reduced through shared
// memory by a helper that keeps one of two candidates; the winner then
// picks a row of table: table holds rows * width values.
__device__ void keep_larger(float *val, int *pos, int a, int b) {
  const float va = val[a], vb = val[b];
  const int pa = pos[a], pb = pos[b];
  val[a] = va > vb ? va : vb;
  pos[a] = vb > va ? pb : pa;
}

template <int threads>
__global__ void argmax_row_kernel(int rows, int width, const float *score,
                                  const float *table, float *out) {
  __shared__ float best[threads];
  __shared__ int best_at[threads];
  int t = threadIdx.x;
  int at = 0;
  float v = -1e30f;
  for (int r = t; r < rows; r += threads) {
    at = score[r] > v ? r : at;
    v = score[r] > v ? score[r] : v;
  }
  best[t] = v;
  best_at[t] = at;
  __syncthreads();
  for (int half = threads / 2; half > 0; half >>= 1) {
    if (t < half) keep_larger(best, best_at, t, t + half);
    __syncthreads();
  }
  int row = best_at[0];
  for (int c = t; c < width; c += threads) out[c] = table[row * width + c];
}

void launch_argmax_row(int rows, int width, const float *score,
                       const float *table, float *out) {
  argmax_row_kernel<128><<<1, 128>>>(rows, width, score, table, out);
}

// A local array filled in a loop (the k smallest distances' indices)
// and an initialized local array of offsets, both read back as indices.
__global__ void local_index_kernel(int n, int m, const float *dist,
                                   const float *feat, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int offs[4] = {0, 1, 3, 6};
  int near[4];
  float d[4];
  for (int k = 0; k < 4; k++) {
    near[k] = 0;
    d[k] = 1e30f;
  }
  for (int j = 0; j < m; j++) {
    float x = dist[i * m + j];
    if (x < d[3]) {
      d[3] = x;
      near[3] = j;
    }
  }
  float acc = 0;
  for (int k = 0; k < 4; k++) acc += feat[near[k] * 7 + offs[k]];
  out[i] = acc;
}

// What keeps an on-chip array unbounded: a running sum stored back into
// it (s[t] += s[t - 1]) and its address handed to an atomic.
__global__ void unbounded_onchip_kernel(int n, const int *cnt,
                                        const float *x, const float *y,
                                        float *out) {
  __shared__ int s[256];
  __shared__ int first[1];
  int t = threadIdx.x;
  s[t] = t < n ? cnt[t] : 0;
  if (t == 0) first[0] = 0;
  __syncthreads();
  for (int o = 1; o < 256; o <<= 1) {
    if (t >= o) s[t] += s[t - o];
    __syncthreads();
  }
  if (t < n && cnt[t] > 0) atomicMax(&first[0], t);
  __syncthreads();
  if (t < n) out[t] = x[s[t]] + y[first[0]];
}

// Scalars assigned a value that reads them, in a loop: best = ... ? j :
// best stays in the loop's range (first holds m), c = c + 1 grows with
// every trip (hits has no bound).
__global__ void self_assigned_kernel(int n, int m, const float *x,
                                     float *hits, float *first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = 0;
  int best = 0;
  for (int j = 0; j < m; j++) {
    if (x[i * m + j] > 0) c = c + 1;
    best = x[i * m + j] > x[i * m + best] ? j : best;
  }
  hits[c] = 1.0f;
  first[best] = 1.0f;
}

// Sizes held in an input buffer (each level's height and width) and
// handed to a helper by const reference: the helper's guards bound the
// read by them, and the shapes and starts are filled with 0..3.
#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)

__device__ float pick(const float *data, const int &height, const int &width,
                      int h, int w) {
  if (h < 0 || w < 0 || h >= height || w >= width) return 0;
  return data[h * width + w];
}

__global__ void level_gather_kernel(int n, int levels, const int *shapes,
                                    const int *starts, const float *value,
                                    float *out) {
  CUDA_1D_KERNEL_LOOP(i, n) {
    float acc = 0;
    for (int l = 0; l < levels; ++l) {
      const int height = shapes[2 * l], width = shapes[2 * l + 1];
      const int start = starts[l];
      acc += pick(value + start, height, width, i % 4, i / 4 % 4);
    }
    out[i] = acc;
  }
}

// The index of a row's largest value, reduced across a warp with
// shuffles: another lane's index is one of the same variable's values,
// so the winner stays below cols.
__global__ void warp_argmax_kernel(int rows, int cols, const float *x,
                                   const float *label, float *out) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  if (row >= rows) return;
  float v = -1e30f;
  int at = 0;
  for (int c = lane; c < cols; c += 32) {
    if (x[row * cols + c] > v) {
      v = x[row * cols + c];
      at = c;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    float ov = __shfl_down_sync(0xffffffffu, v, o);
    int oa = __shfl_down_sync(0xffffffffu, at, o);
    if (ov > v) {
      v = ov;
      at = oa;
    }
  }
  if (lane == 0) out[row] = label[at];
}

void launch_warp_argmax(int rows, int cols, const float *x,
                        const float *label, float *out) {
  warp_argmax_kernel<<<rows, 32>>>(rows, cols, x, label, out);
}

// Values carried through two arrays and a scalar, each keeping its own
// old value or taking the one before it: the thread index reaches the
// end of the chain, so out holds one block.
__global__ void chained_onchip_kernel(int n, const float *x, float *out) {
  __shared__ int first[128];
  __shared__ int second[128];
  int t = threadIdx.x;
  first[t] = t;
  second[t] = x[t] > 0 ? second[(t + 1) % 128] : first[t];
  int keep = 0;
  for (int j = 0; j < n; j++) {
    int cand = second[j % 128];
    keep = x[j] > 0 ? cand : keep;
  }
  out[keep] = 1.0f;
}

void launch_chained(int n, const float *x, float *out) {
  chained_onchip_kernel<<<1, 128>>>(n, x, out);
}

// Farthest-point style sampling: each round's winner, reduced through
// shared memory level by level, is the next round's centre (an index
// carried across the outer loop through the on-chip array), and the
// loop variables step by the block size.  Several variables are
// reassigned in every round: their values must be worked out once per
// read, not once per read of every variable they depend on.
__device__ void pick_farther(float *d, int *at, int a, int b) {
  const float da = d[a], db = d[b];
  const int ia = at[a], ib = at[b];
  d[a] = db > da ? db : da;
  at[a] = db > da ? ib : ia;
}

template <int threads>
__global__ void farthest_kernel(int n, int rounds, const float *pts,
                                float *gap, int *picked) {
  __shared__ float far[threads];
  __shared__ int far_at[threads];
  int t = threadIdx.x;
  int centre = 0;
  if (t == 0) picked[0] = centre;
  __syncthreads();
  for (int r = 1; r < rounds; r++) {
    float cx = pts[centre * 2], cy = pts[centre * 2 + 1];
    int win = 0;
    float most = -1.0f;
    for (int q = t; q < n; q += threads) {
      float dx = pts[q * 2] - cx, dy = pts[q * 2 + 1] - cy;
      float g = fminf(dx * dx + dy * dy, gap[q]);
      gap[q] = g;
      win = g > most ? q : win;
      most = g > most ? g : most;
    }
    far[t] = most;
    far_at[t] = win;
    __syncthreads();
    if (threads >= 64) { if (t < 32) pick_farther(far, far_at, t, t + 32); __syncthreads(); }
    if (threads >= 32) { if (t < 16) pick_farther(far, far_at, t, t + 16); __syncthreads(); }
    if (threads >= 16) { if (t < 8) pick_farther(far, far_at, t, t + 8); __syncthreads(); }
    if (threads >= 8) { if (t < 4) pick_farther(far, far_at, t, t + 4); __syncthreads(); }
    if (threads >= 4) { if (t < 2) pick_farther(far, far_at, t, t + 2); __syncthreads(); }
    if (threads >= 2) { if (t < 1) pick_farther(far, far_at, t, t + 1); __syncthreads(); }
    centre = far_at[0];
    if (t == 0) picked[r] = centre;
  }
}

void launch_farthest(int b, int n, int rounds, const float *pts, float *gap,
                     int *picked) {
  farthest_kernel<64><<<b, 64>>>(n, rounds, pts, gap, picked);
}
