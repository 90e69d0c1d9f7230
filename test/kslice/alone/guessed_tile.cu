// kslice: a kernel template whose tile width no launch binds (the launch
// is in a host template of its own) and whose static_assert allows only
// the tile widths it is built for, 8 or 16: none of the guesses tried
// for block sizes (1, 32, 4, 128, 256) passes it.  The slice must take a
// value that compiles.

template <int TILE>
__global__ void
tile_sums_kernel(const float *in, float *out, int w)
{
	static_assert(TILE == 8 || TILE == 16, "tile width 8 or 16");
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	tile[threadIdx.y][threadIdx.x] = in[y * w + x];
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int k = 0; k < TILE; k++)
			s += tile[threadIdx.y][k];
		out[y * (w / TILE) + blockIdx.x] = s;
	}
}

template <int TILE>
void
launch_tile_sums(const float *in, float *out, int w, int h)
{
	dim3 grid(w / TILE, h / TILE), block(TILE, TILE);
	tile_sums_kernel<TILE><<<grid, block>>>(in, out, w);
}
