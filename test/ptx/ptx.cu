// Loads and stores through inline PTX, and through chains of pointer
// locals (test/kwrap-ptx.t): what kwrap makes of each buffer.
#include <cuda_fp16.h>

// a load as a class's constructor: global_load<16>(v, p, guard)
template <int bytes>
struct global_load;

template <>
struct global_load<16> {
	__device__ __inline__ global_load(uint4 &d, void const *ptr, int guard)
	{
		asm volatile("{\n"
		    "  .reg .pred p;\n"
		    "  setp.ne.b32 p, %5, 0;\n"
		    "  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
		    "}\n"
		    : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w)
		    : "l"(ptr), "r"(guard));
	}
};

// a store in a function, the pointer cast to a local first
__device__ __forceinline__ void store16(void *dst, const void *src)
{
	const uint4 *v = reinterpret_cast<const uint4 *>(src);
	asm volatile("st.global.wb.v4.u32 [%0], {%1, %2, %3, %4};\n"
	    :
	    : "l"(dst), "r"(v->x), "r"(v->y), "r"(v->z), "r"(v->w)
	    : "memory");
}

// eight halves a thread: loaded through a chain of locals, stored
// through a helper's asm
__global__ void copy8_kernel(half *in, half *out, int n8)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	half *in_base = in + 8 * i;
	half *in_at = in_base;
	uint4 v = make_uint4(0, 0, 0, 0);
	global_load<16>(v, in_at, 1);
	half *out_at = out + 8 * i;
	store16(out_at, &v);
}

// a reduction in PTX (read and written)
__global__ void red_kernel(const float *x, float *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	asm volatile("red.global.add.f32 [%0], %1;"
	    :
	    : "l"(sum + i % 4), "f"(x[i])
	    : "memory");
}

// a row of a matrix through two pointer locals, stored in C
__global__ void rows_kernel(const float *a, float *out, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float *row = out + r * cols;
	float *first = row;
	for (int c = 0; c < cols; c++)
		first[c] = 2.0f * a[r * cols + c];
}

// a store in PTX at a place computed from a float: the count is a guess
__global__ void scatter_kernel(const float *where, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float *at = out + (int)(where[i] * 4096.0f);
	asm volatile("st.global.f32 [%0], %1;" :: "l"(at), "f"(1.0f));
}

// a copy to shared memory in PTX (cp.async): its global side is read,
// 16 bytes from the address
__global__ void stage_kernel(float *src, float *dst, int n4)
{
	__shared__ float4 tile[128];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	unsigned s = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
	asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n"
	    :: "r"(s), "l"(src + 4 * i));
	asm volatile("cp.async.wait_all;\n" ::);
	dst[i] = tile[threadIdx.x].x;
}

void launch(half *in, half *out, int n8, const float *x, float *sum, int n,
    const float *a, float *m, int rows, int cols, const float *where)
{
	copy8_kernel<<<(n8 + 127) / 128, 128>>>(in, out, n8);
	red_kernel<<<(n + 255) / 256, 256>>>(x, sum, n);
	rows_kernel<<<(rows + 63) / 64, 64>>>(a, m, rows, cols);
	scatter_kernel<<<(n + 255) / 256, 256>>>(where, m, n);
	stage_kernel<<<(n + 127) / 128, 128>>>(m, sum, n);
}
