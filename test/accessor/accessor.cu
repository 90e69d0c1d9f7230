// Tensor accessors and vector types passed by value
// (test/kwrap-accessor.t; on a GPU, test/gpu/run.sh).  The accessor is
// PyTorch's (stubs/kforge_torch.h stands in for it): a data pointer, then
// N sizes and N strides of its index type.
#include <torch/extension.h>

// rows x cols: each thread one row, an accessor read and one written
__global__ void scale_rows_kernel(
    const at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> x,
    at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> y,
    float alpha)
{
	const int rows = x.size(0);
	const int cols = x.size(1);
	const int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	for (int c = 0; c < cols; c++)
		y[r][c] = alpha * x[r][c] + (float)c;
}

// points (n x 3): the last dimension subscripted by constants, a 64-bit
// index type, a 1-D output
template <typename scalar_t>
__global__ void norms_kernel(
    const at::PackedTensorAccessor64<scalar_t, 2, at::RestrictPtrTraits> p,
    at::PackedTensorAccessor64<scalar_t, 1, at::RestrictPtrTraits> out)
{
	const int64_t n = p.size(0);
	for (int64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	    i += gridDim.x * blockDim.x) {
		const scalar_t a = p[i][0], b = p[i][1], c = p[i][2];
		out[i] = a * a + b * b + c * c;
	}
}

template __global__ void norms_kernel<float>(
    const at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits>,
    at::PackedTensorAccessor64<float, 1, at::RestrictPtrTraits>);

// a CUDA vector type by value: each component a scalar of the cases
__global__ void affine_kernel(int n, float2 ab, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = ab.x * x[i] + ab.y;
}

// a typedef of an enum and one of a scalar, by value
typedef enum { MODE_PLAIN = 0, MODE_SQUARE = 1 } mode_t_;
typedef long ticks_t;

__global__ void modes_kernel(int n, mode_t_ mode, ticks_t bias,
    const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = (mode == MODE_SQUARE ? x[i] * x[i] : x[i]) +
		    (float)(bias % 7);
}

// pointer members declared together: each a buffer of its own
struct pair_params {
	const float *a, *b;
	float *__restrict__ sum;
	int n;
};

__global__ void pair_sum_kernel(pair_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		p.sum[i] = p.a[i] + p.b[i];
}

// an accessor that is not const but only read, and one written through
// data()
__global__ void gather_kernel(
    at::PackedTensorAccessor32<float, 1, at::RestrictPtrTraits> src,
    at::PackedTensorAccessor32<float, 1, at::RestrictPtrTraits> dst)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	float *d = dst.data();
	if (i < dst.size(0))
		d[i] = 2.0f * src[i];
}

// vector members: int2 at 8 after an int, int4 at 16 (each component a
// field of its own, padding where the real struct has it)
struct tile_params {
	int n;
	int2 up;
	float scale;
	int4 pad;
	const float *x;
	float *y;
};

__global__ void tile_kernel(tile_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		p.y[i] = p.scale * p.x[i] + (float)(p.up.x - p.up.y) +
		    (float)(p.pad.x + p.pad.w);
}

// scalars declared together, an enum member with an underlying type
enum class level : unsigned char { low, high };

struct mixed_params {
	int h, w;
	level lv;
	const float *x;
	float *y;
};

__global__ void mixed_kernel(mixed_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.h * p.w)
		p.y[i] = p.lv == level::high ? 2.0f * p.x[i] : p.x[i];
}

// one block per row, the grid sized in the launcher by the tensor whose
// accessor it passes (x.size(0)): the case's value of that size
__global__ void row_sum_kernel(
    const at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> x,
    at::PackedTensorAccessor32<float, 1, at::RestrictPtrTraits> out)
{
	const int r = blockIdx.x;
	if (threadIdx.x == 0) {
		float s = 0;
		for (int c = 0; c < x.size(1); c++)
			s += x[r][c];
		out[r] = s;
	}
}

void row_sum(at::Tensor x, at::Tensor out)
{
	const dim3 blocks(x.size(0));
	row_sum_kernel<<<blocks, 32>>>(
	    x.packed_accessor32<float, 2, at::RestrictPtrTraits>(),
	    out.packed_accessor32<float, 1, at::RestrictPtrTraits>());
}

// features gathered by indices that an integer accessor holds: n =
// idx[b][k][i] is then alone the second subscript of feats, so idx is
// filled with 0..3 and that dimension holds at least 4 in every case
__global__ void gather_sum_kernel(
    at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> out,
    const at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits> feats,
    const at::PackedTensorAccessor64<int64_t, 3, at::RestrictPtrTraits> idx)
{
	const int64_t C = feats.size(0);
	const int64_t W = idx.size(2);
	const int b = blockIdx.x;
	for (int pid = threadIdx.x; pid < C * W; pid += blockDim.x) {
		const int ch = pid / W;
		const int i = pid % W;
		float s = 0;
		for (int k = 0; k < idx.size(1); ++k) {
			const int n = idx[b][k][i];
			if (n < 0)
				continue;
			s += feats[ch][n];
		}
		out[b][ch][i] = s;
	}
}

// near miss: integers read from an accessor that are data, not indices
// (their product is stored): the fill stays the integers' default
__global__ void count_scale_kernel(
    at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits> out,
    const at::PackedTensorAccessor64<int64_t, 2, at::RestrictPtrTraits> counts)
{
	const int r = blockIdx.x;
	for (int c = threadIdx.x; c < counts.size(1); c += blockDim.x) {
		const int n = counts[r][c];
		out[r][c] = 0.5f * n;
	}
}

void gather_sum(at::Tensor out, at::Tensor feats, at::Tensor idx,
    at::Tensor counts)
{
	gather_sum_kernel<<<out.size(0), 128>>>(
	    out.packed_accessor64<float, 3, at::RestrictPtrTraits>(),
	    feats.packed_accessor64<float, 2, at::RestrictPtrTraits>(),
	    idx.packed_accessor64<int64_t, 3, at::RestrictPtrTraits>());
	count_scale_kernel<<<out.size(0), 128>>>(
	    out.packed_accessor64<float, 2, at::RestrictPtrTraits>(),
	    counts.packed_accessor64<int64_t, 2, at::RestrictPtrTraits>());
}
