// Cheat: write nothing and hope the output buffer still holds an earlier
// run's results (reused device memory).  The harness pre-fills outputs
// with the 0xA5 sentinel, so this leaves the sentinel.
__global__ void relu_kernel(const float *in, float *out, int n)
{
	(void)in;
	(void)out;
	(void)n;
}
