// By-value parameters kwrap must build or refuse (test/kwrap-byvalue.t).
// Kernels of this file: a struct of plain scalars, an enum and structs
// holding pointers (built: each pointer member a buffer), and types kwrap
// cannot build (a record error, no harness).

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

// a struct holding a typed pointer and a size: the member is a buffer
struct span {
	const float *data;
	int len;
};

__global__ void pointer_member_kernel(span s, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < s.len)
		y[i] = 2.0f * s.data[i] + 1.0f;
}

// untyped pointers the kernel casts, an output among them, scalars
// between them (offsets 0, 8, 16, 20, 24)
struct act_params {
	const void *x;
	void *y;
	int n;
	float alpha;
	const void *b;
};

__global__ void void_member_kernel(act_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		((float *)p.y)[i] = p.alpha * ((const float *)p.x)[i] +
		    reinterpret_cast<const float *>(p.b)[i % 4];
}

// an untyped pointer never cast: its elements have no type to fill
struct opaque {
	const void *x;
	int n;
};

__global__ void opaque_member_kernel(opaque o, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < o.n)
		y[i] = o.x != 0 ? 1.0f : 0.0f;
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

// a void * cast to the template's type parameter, bound by the instance;
// a vector member (int2) the harness does not lay out
struct io_params {
	const void *in;
	void *out;
	int n;
};

template <typename T>
__global__ void template_cast_kernel(io_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		((T *)p.out)[i] = ((const T *)p.in)[i] * (T)2;
}

template __global__ void template_cast_kernel<double>(io_params);

struct tile_params {
	const float *x;
	int2 tile;
};

__global__ void vector_member_kernel(tile_params p, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.tile.x)
		y[i] = p.x[i];
}
