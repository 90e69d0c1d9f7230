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
