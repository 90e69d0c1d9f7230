// kslice: kernel templates whose value parameters no launch binds (the
// launch is in a host template of its own): 1 is guessed for them, and
// with 1 the first fails its static_assert and the second declares an
// array of THREADS / 32 elements, zero-sized, which nvcc refuses in
// device code.  The slice must take a value that compiles.
// slices: 2

template <int THREADS>
__global__ void
warp_sums_kernel(const float *in, float *out, int n)
{
	static_assert(THREADS % 32 == 0, "whole warps");
	__shared__ float part[THREADS / 32];
	int i = blockIdx.x * THREADS + threadIdx.x;
	float v = i < n ? in[i] : 0.0f;
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < THREADS / 32; w++)
			s += part[w];
		out[blockIdx.x] = s;
	}
}

template <int THREADS>
__global__ void
warp_max_kernel(const float *in, float *out, int n)
{
	__shared__ float part[THREADS / 32];
	int i = blockIdx.x * THREADS + threadIdx.x;
	float v = i < n ? in[i] : -1e30f;
	for (int o = 16; o > 0; o /= 2)
		v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = part[0];
}

template <int THREADS>
void
launch_warp_sums(const float *in, float *out, int n)
{
	warp_sums_kernel<THREADS><<<(n + THREADS - 1) / THREADS, THREADS>>>(in,
	    out, n);
	warp_max_kernel<THREADS><<<(n + THREADS - 1) / THREADS, THREADS>>>(in,
	    out, n);
}
