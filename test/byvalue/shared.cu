// a parameter struct that two kernels share, each using some of its
// members: the sum kernel never names the void * member out, which it
// gets as a null pointer (no buffer); the store kernel casts it
struct shared_params {
	const float *in;
	void *out;
	float *sums;
	int n;
};

__global__ void shared_sum_kernel(shared_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n)
		atomicAdd(&p.sums[i % 4], p.in[i]);
}

__global__ void shared_store_kernel(shared_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n)
		static_cast<float *>(p.out)[i] = 2 * p.in[i];
}

// a kernel that reads the struct's members one by one and never its
// void * out, while a .y it does name is a float2's: out is not
// reached, a null pointer
struct pair_sum_params {
	const float2 *in;
	void *y;
	float *sums;
	int n;
};

__global__ void pair_sum_kernel(pair_sum_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n) {
		float2 v = p.in[i];
		atomicAdd(&p.sums[i % 4], v.x + v.y);
	}
}

// the same struct handed whole to a helper: whether the helper reaches
// y is the slice's to say, and its .y (a float2's again) counts
__device__ void pair_add(pair_sum_params q, int i)
{
	float2 v = q.in[i];
	atomicAdd(&q.sums[i % 4], v.x - v.y);
}

__global__ void pair_helper_kernel(pair_sum_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n)
		pair_add(p, i);
}
