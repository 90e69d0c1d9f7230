// attention.cu - attention probabilities: P = softmax(mask(Q K^T / sqrt(d))).
#include "kernels/softmax_kernels.cuh"

#define ATTN_TILE 16

/* scores[i][j] = scale * dot(q[i][:], k[j][:]); q, k: seq x dim row-major,
 * scores: seq x seq.  2-D launch: x covers j (columns), y covers i (rows). */
template <typename T>
__global__ void qk_scores_kernel(const T *__restrict__ q, const T *__restrict__ k,
                                 T *__restrict__ scores, int seq, int dim, float scale) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < seq && j < seq) {
    acc_t acc = 0.0f;
    for (int d = 0; d < dim; ++d)
      acc += (acc_t)q[(size_t)i * dim + d] * (acc_t)k[(size_t)j * dim + d];
    scores[(size_t)i * seq + j] = T(acc * scale);
  }
}

namespace kf {
namespace detail {

/* masked[i][j] = scores[i][j] where j <= i, fill elsewhere (seq x seq). */
__global__ void causal_mask_kernel(const float *__restrict__ scores, float *__restrict__ masked,
                                   int seq, float fill) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < seq * seq) {
    const int i = idx / seq;
    const int j = idx - i * seq;
    masked[idx] = j <= i ? scores[idx] : fill;
  }
}

} // namespace detail
} // namespace kf

/* q, k: seq x dim; scores, masked: seq x seq workspaces; probs: seq x seq
 * output.  `masked` is only used when causal is true. */
cudaError_t attention_probs(const float *q, const float *k, float *scores, float *masked,
                            float *probs, int seq, int dim, bool causal, cudaStream_t stream) {
  if (seq <= 0 || dim <= 0)
    return cudaSuccess;
  const float scale = 1.0f / sqrtf((float)dim);
  qk_scores_kernel<float><<<dim3(ceil_div(seq, ATTN_TILE), ceil_div(seq, ATTN_TILE)),
                            dim3(ATTN_TILE, ATTN_TILE), 0, stream>>>(q, k, scores, seq, dim,
                                                                     scale);
  const float *logits = scores;
  if (causal) {
    const int threads = 256;
    const int blocks = ceil_div(seq * seq, threads);
    kf::detail::causal_mask_kernel<<<blocks, threads, 0, stream>>>(scores, masked, seq,
                                                                   -INFINITY);
    logits = masked;
  }
  const int threads = seq >= KF_BLOCK_THREADS ? KF_BLOCK_THREADS : KF_WARP_SIZE;
  softmax_rows_kernel<float><<<seq, threads, threads * sizeof(float), stream>>>(logits, probs, seq,
                                                                              seq);
  return cudaGetLastError();
}
