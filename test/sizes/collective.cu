// The block of a kernel whose launch spells it through a call the slice
// cannot evaluate (test/kwrap-sizes.t): a CUB block collective fixes it,
// since cub::BlockReduce<T, N> requires blockDim.x == N.  Near miss: a
// project's own BlockReduce, not CUB's, says nothing of the block.
#include <cub/cub.cuh>

namespace mine {
template <typename T, int N> struct BlockReduce {
	__device__ T Sum(T v) { return v * N; }
};
}

int threads_for(int n);

template <int THREADS>
__global__ void block_sums(const float *x, float *sums, int n)
{
	typedef cub::BlockReduce<float, THREADS> Reduce;
	__shared__ typename Reduce::TempStorage tmp;
	int i = blockIdx.x * THREADS + threadIdx.x;
	float v = i < n ? x[i] : 0.0f;
	float s = Reduce(tmp).Sum(v);
	if (threadIdx.x == 0)
		sums[blockIdx.x] = s;
}

__global__ void own_reduce(const float *x, float *y, int n)
{
	mine::BlockReduce<float, 64> r;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = r.Sum(x[i]);
}

void run(const float *x, float *sums, float *y, int n)
{
	int t = threads_for(n);
	block_sums<128><<<(n + 127) / 128, t>>>(x, sums, n);
	own_reduce<<<(n + 63) / 64, t>>>(x, y, n);
}
