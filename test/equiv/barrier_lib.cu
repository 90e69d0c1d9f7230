// Dropped barriers between calls of library code that writes what it is
// handed (test/equiv.t): a member of a __shared__ union passed to cub's
// block loads, which stage their values in it.
#include <cub/block/block_load.cuh>

// near miss: both loads write the union's storage (a and b share it):
// the barriers order one load's reads of it before the next one's writes
template <int T>
__global__ void union_loads(const float *x, const float *z, float *y, int n)
{
	typedef cub::BlockLoad<float, T, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
	__shared__ union {
		typename Load::TempStorage a;
		typename Load::TempStorage b;
	} tmp;
	float u[4];
	float v[4];
	for (int i = blockIdx.x * T * 4; i < n; i += gridDim.x * T * 4) {
		__syncthreads();
		Load(tmp.a).Load(&(x[i]), u, n - i);
		__syncthreads();
		Load(tmp.b).Load(&(z[i]), v, n - i);
		for (int j = 0; j < 4; j++)
			if (i + (int)threadIdx.x * 4 + j < n)
				y[i + threadIdx.x * 4 + j] = u[j] + v[j];
	}
}

// near miss: an atomic through &(x[...]) writes x before the barrier,
// which orders it before the read after
__global__ void paren_atomic(float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&(x[i % 32]), 1.0f);
	__syncthreads();
	if (i < n)
		y[i] = x[(i + 1) % 32];
}

// the loads' storage is each its own, and a barrier at the end orders
// nothing
template <int T>
__global__ void own_loads(const float *x, float *y, int n)
{
	typedef cub::BlockLoad<float, T, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
	__shared__ typename Load::TempStorage ta;
	float u[4];
	int base = blockIdx.x * T * 4;
	Load(ta).Load(x + base, u, n - base);
	for (int j = 0; j < 4; j++)
		if (base + (int)threadIdx.x * 4 + j < n)
			y[base + threadIdx.x * 4 + j] = 2.0f * u[j];
	__syncthreads();
}

void run_loads(const float *x, const float *z, float *y, int n)
{
	union_loads<64><<<(n + 255) / 256, 64>>>(x, z, y, n);
	own_loads<64><<<(n + 255) / 256, 64>>>(x, y, n);
	paren_atomic<<<(n + 63) / 64, 64>>>(y, (float *)z, n);
}
