// test-gpu: a kernel that stages a 64 KiB tile in dynamic shared memory,
// more than a launch gets without the kernel's opt-in (the host code
// below sets it, as projects do; the harness must too)
#define TILE 16384

__global__ void tile_reverse(const float *x, float *y, int n)
{
	extern __shared__ float tile[];
	int base = blockIdx.x * TILE;
	for (int k = threadIdx.x; k < TILE; k += blockDim.x) {
		int i = base + k;
		tile[k] = i < n ? x[i] : 0.0f;
	}
	__syncthreads();
	for (int k = threadIdx.x; k < TILE; k += blockDim.x) {
		int i = base + k;
		if (i < n)
			y[i] = tile[TILE - 1 - k] + tile[k];
	}
}

void run_tile_reverse(const float *x, float *y, int n)
{
	size_t bytes = TILE * sizeof(float);
	cudaFuncSetAttribute(tile_reverse,
	    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
	tile_reverse<<<(n + TILE - 1) / TILE, 256, bytes>>>(x, y, n);
}
