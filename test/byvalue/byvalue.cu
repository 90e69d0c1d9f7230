// By-value parameters kwrap must build or refuse (test/kwrap-byvalue.t).
// Kernels of this file: a struct of plain scalars and an enum (built),
// and types kwrap cannot build (a record error, no harness).

struct dims {
	int n;
	float scale;
};

enum class mode { copy, twice };

// a struct of plain scalars: its fields are the case's scalars
__global__ void plain_struct_kernel(dims d, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < d.n)
		y[i] = d.scale * x[i];
}

// an enum: an int
__global__ void enum_kernel(int n, mode m, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = m == mode::twice ? 2.0f * x[i] : x[i];
}

// a struct holding a pointer: no plain member layout
struct span {
	const float *data;
	int len;
};

__global__ void pointer_member_kernel(span s, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < s.len)
		y[i] = s.data[i];
}

// an instance of a class template the slice does not lay out
template <typename A, typename B> struct two {
	A first;
	B second;
	__host__ __device__ two(A a, B b) : first(a), second(b) {}
};

__global__ void template_value_kernel(two<int, float> t, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < t.first)
		y[i] = t.second;
}

// a CUDA vector type by value
__global__ void vector_value_kernel(int n, float4 v, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = v.x + v.y + v.z + v.w;
}
