// test-gpu: a kernel that adds into shared memory it never zeroed, so its
// outputs are whatever the shared memory held before the launch plus the
// input.  The harness fills shared memory with its sentinel before every
// launch and the golden's repeat has another, so this golden must be
// nondeterministic in kverify's host and in processes of its own alike.
__global__ void stale_shared_sum(const int *in, int *out, int n)
{
	__shared__ int acc[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		acc[threadIdx.x] += in[i];
	__syncthreads();
	if (i < n)
		out[i] = acc[threadIdx.x];
}

void run_stale_shared_sum(const int *in, int *out, int n)
{
	stale_shared_sum<<<(n + 255) / 256, 256>>>(in, out, n);
}
