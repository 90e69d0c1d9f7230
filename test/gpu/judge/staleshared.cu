// test-gpu: a kernel that adds into shared memory it never zeroed, so its
// outputs are whatever the shared memory held before the launch plus the
// input.  One block, so that what it reads is the harness's fill and not
// another block's leftovers.  The harness fills shared memory with its
// sentinel before every launch and the golden's repeat has another, so
// this golden's outputs follow the fill (reads-unwritten) in kverify's
// host and in processes of its own alike.
__global__ void stale_shared_sum(const int *in, int *out, int n)
{
	__shared__ int acc[256];
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		acc[threadIdx.x] += in[i];
		out[i] = acc[threadIdx.x];
	}
}

void run_stale_shared_sum(const int *in, int *out, int n)
{
	stale_shared_sum<<<1, 256>>>(in, out, n);
}
