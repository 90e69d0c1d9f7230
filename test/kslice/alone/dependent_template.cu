// kslice: a kernel template that calls a member template of a class
// template on its own parameter without the `template` keyword
// (Sums<W>::add<N>(...)): nvcc compiles it, clang says "missing
// 'template' keyword" and then parses it as the template it names; the
// slice is not refused for it.
template <int W>
struct Sums {
	template <int N>
	__device__ static void add(float *s, float v)
	{
		atomicAdd(&s[threadIdx.x % N], v * W);
	}
};

template <int W, int N>
__global__ void dep_sum(const float *x, float *out, int n)
{
	__shared__ float s[N];
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (threadIdx.x < N)
		s[threadIdx.x] = 0;
	__syncthreads();
	if (i < n)
		Sums<W>::add<N>(s, x[i]);
	__syncthreads();
	if (threadIdx.x < N)
		atomicAdd(&out[threadIdx.x], s[threadIdx.x]);
}

void dep_sum_launch(const float *x, float *out, int n)
{
	dep_sum<2, 32><<<(n + 255) / 256, 256>>>(x, out, n);
}
