// Vector loads and stores whose index steps by the vector's width and is
// guarded only at its start (i < n): the last vector ends at the multiple
// of the width at or above n, not n + width - 1 (tools/kwrap/multiple.c).
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// float4 by index: i / 4 of a float4 view
__global__ void vec_index_kernel(const float *in, float *out, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
	if (i < n) {
		float4 v = reinterpret_cast<const float4 *>(in)[i / 4];
		v.x += 1.f;
		v.y += 1.f;
		v.z += 1.f;
		v.w += 1.f;
		reinterpret_cast<float4 *>(out)[i / 4] = v;
	}
}

// float4 at an offset, the index a shift
__global__ void vec_offset_kernel(const float *in, float *out, int n)
{
	const int i = (blockIdx.x * blockDim.x + threadIdx.x) << 2;
	if (i >= n)
		return;
	float4 v = *reinterpret_cast<const float4 *>(in + i);
	v.x *= 2.f;
	v.y *= 2.f;
	v.z *= 2.f;
	v.w *= 2.f;
	*reinterpret_cast<float4 *>(out + i) = v;
}

// half2 in a grid-stride loop: the start and the step both even
__global__ void vec_stride_kernel(const __half *in, __half *out, int n)
{
	const int stride = 2 * blockDim.x * gridDim.x;
	for (int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x); i < n;
	    i += stride) {
		__half2 v = *reinterpret_cast<const __half2 *>(in + i);
		*reinterpret_cast<__half2 *>(out + i) = __hadd2(v, v);
	}
}

// not a multiple on every path: i = t on one of them, so a float4 at i
// reaches n + 2 and the count stays n + 3
__global__ void vec_mixed_kernel(const float *in, float *out, int n,
    int packed)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int i = t * 4;
	if (!packed)
		i = t;
	if (i < n) {
		float4 v = *reinterpret_cast<const float4 *>(in + i);
		*reinterpret_cast<float4 *>(out + i) = v;
	}
}

// the width from sizeof of a template parameter: 16 bytes a load, so 8
// halves or 4 floats (sizeof(T) with T bound to the instance's type)
constexpr int vec_bytes = 16;
template <typename T>
__global__ void vec_bytes_kernel(T *out, const T *in, int n)
{
	constexpr int per_load = vec_bytes / sizeof(T);
	const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * per_load;
	if (idx < n) {
		T buf[per_load];
		*reinterpret_cast<float4 *>(buf) =
		    *reinterpret_cast<const float4 *>(in + idx);
		for (int k = 0; k < per_load; k++)
			buf[k] = buf[k] + buf[k];
		*reinterpret_cast<float4 *>(out + idx) =
		    *reinterpret_cast<const float4 *>(buf);
	}
}

// a float4 tile row read through a local declared a const pointer
// (T *const p = ...): the rows are width floats apart, so width is a
// multiple of 4 in every case and the buffer ends at the last row's tile
__global__ void vec_tile_kernel(float *out, const float *in, int width)
{
	int col = threadIdx.x * 4;
	float s = 0;
	if (col < 16) {
		const float4 *const row = reinterpret_cast<const float4 *>(
		    &in[width * threadIdx.y + col]);
		s = row->x + row->w;
	}
	out[16 * threadIdx.y + threadIdx.x] = s;
}

// the same rows copied to shared memory asynchronously, 16 bytes a copy:
// the copy's size says how far it reaches
__global__ void vec_async_kernel(float *out, const float *in, int width)
{
	__shared__ float4 tile[64];
	int col = threadIdx.x * 4;
	if (col < 16)
		__pipeline_memcpy_async(&tile[threadIdx.y * 4 + threadIdx.x],
		    &in[width * threadIdx.y + col], sizeof(float4));
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[16 * threadIdx.y + threadIdx.x] =
	    tile[threadIdx.y * 4 + threadIdx.x / 4].x;
}

// a traits class names the element types, and the kernel reaches its
// untyped buffers through casts to those names: the casts' sizes (two
// halves a __half2) come from following the aliases, so the accesses
// count, rows of n pairs apart
struct half_io {
	using Type = __half;
	using Type2 = __half2;
};

template <typename Traits>
__global__ void vec_alias_kernel(void *out, const void *in, int n, int rows)
{
	using IOType = typename Traits::Type;
	using IOType2 = typename Traits::Type2;
	int c = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
	for (int r = 0; r < rows; ++r) {
		if (c < 2 * n) {
			int off = r * 2 * n + c;
			IOType2 v = *reinterpret_cast<const IOType2 *>(
			    &reinterpret_cast<const IOType *>(in)[off]);
			reinterpret_cast<IOType2 *>(out)[off / 2] =
			    __hadd2(v, v);
		}
	}
}

void vec_launch(const float *in, float *out, const __half *hin, __half *hout,
    int n, int packed)
{
	vec_index_kernel<<<(n / 4 + 255) / 256, 256>>>(in, out, n);
	vec_offset_kernel<<<(n / 4 + 255) / 256, 256>>>(in, out, n);
	vec_stride_kernel<<<64, 256>>>(hin, hout, n);
	vec_mixed_kernel<<<(n + 255) / 256, 256>>>(in, out, n, packed);
	vec_bytes_kernel<__half><<<(n / 8 + 255) / 256, 256>>>(hout, hin, n);
	vec_bytes_kernel<float><<<(n / 4 + 255) / 256, 256>>>(out, in, n);
	vec_tile_kernel<<<1, dim3(16, 16)>>>(out, in, n);
	vec_async_kernel<<<1, dim3(16, 16)>>>(out, in, n);
	vec_alias_kernel<half_io><<<(n + 255) / 256, 256>>>(hout, hin, n,
	    packed);
}
