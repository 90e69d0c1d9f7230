// Timing check: correct, but one block spins for about 2 ms after the
// others are done.  A clock that stopped before the whole grid finished
// would make this look fast; the measured median must include the spin.
__global__ void relu_kernel(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] > 0.0f ? in[i] : 0.0f;
	if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
		long long t0 = clock64();
		while (clock64() - t0 < 4000000LL)
			;
	}
}
