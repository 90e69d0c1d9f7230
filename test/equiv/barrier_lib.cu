// Dropped barriers between calls of library code that writes what it is
// handed (test/equiv.t): a member of a __shared__ union passed to cub's
// block loads, which stage their values in it.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

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

// a table of constants the slice's device function reads: nothing writes
// it, so a call of that function orders nothing
__device__ static float lut[4] = { 0.5f, 1.0f, 2.0f, 4.0f };
__device__ float from_lut(unsigned char q) { return lut[q & 3]; }

// a counter the slice's device function writes: a call of it may be
// ordered by any barrier
__device__ int calls;
__device__ float counted(unsigned char q) { atomicAdd(&calls, 1); return (float)q; }

// one pass of a grid-stride loop per block (from blockIdx.x * T * 4 up
// to gridDim.x * T * 4): a barrier at the top of the body orders nothing
// (nothing came before it), nor one between a load into storage of its
// own and a store from another; between them a switch on a template
// value, and before them a count through static_cast<int64_t>
template <int T, int MODE>
__global__ void stage_pass(const float *code, const unsigned char *a,
    float *y, int n)
{
	typedef cub::BlockLoad<unsigned char, T, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadC;
	typedef cub::BlockStore<float, T, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreF;
	__shared__ typename LoadC::TempStorage lc;
	__shared__ typename StoreF::TempStorage sf;
	unsigned char q[4];
	float v[4];
	const int end = gridDim.x * T * 4;
	for (int i = blockIdx.x * T * 4; i < end; i += gridDim.x * T * 4) {
		int valid = min(T * 4, static_cast<int>(static_cast<int64_t>(n) - i));
		__syncthreads();
		LoadC(lc).Load(&(a[i]), q, valid, 0);
		switch (MODE) {
		case 0:
			for (int j = 0; j < 4; j++)
				v[j] = __ldg(&code[q[j]]);
			break;
		case 1:
			for (int j = 0; j < 4; j++)
				v[j] = from_lut(q[j]);
			break;
		}
		__syncthreads();
		StoreF(sf).Store(&(y[i]), v, valid);
	}
}

// near miss: the function called between the barriers writes a
// __device__ variable of the slice
template <int T>
__global__ void stage_count(const unsigned char *a, float *y, int n)
{
	typedef cub::BlockLoad<unsigned char, T, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadC;
	typedef cub::BlockStore<float, T, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreF;
	__shared__ typename LoadC::TempStorage lc;
	__shared__ typename StoreF::TempStorage sf;
	unsigned char q[4];
	float v[4];
	int i = blockIdx.x * T * 4;
	LoadC(lc).Load(&(a[i]), q, n - i, 0);
	for (int j = 0; j < 4; j++)
		v[j] = counted(q[j]);
	__syncthreads();
	StoreF(sf).Store(&(y[i]), v, n - i);
}

void run_loads(const float *x, const float *z, float *y, int n)
{
	union_loads<64><<<(n + 255) / 256, 64>>>(x, z, y, n);
	own_loads<64><<<(n + 255) / 256, 64>>>(x, y, n);
	stage_pass<64, 0><<<(n + 255) / 256, 64>>>(x, (const unsigned char *)z, y, n);
	stage_pass<64, 1><<<(n + 255) / 256, 64>>>(x, (const unsigned char *)z, y, n);
	stage_count<64><<<(n + 255) / 256, 64>>>((const unsigned char *)z, y, n);
	paren_atomic<<<(n + 63) / 64, 64>>>(y, (float *)z, n);
}
