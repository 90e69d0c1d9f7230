// Remainders by a multiple (tools/kwrap/interval.c mod_tail): a row that
// a tile's start picks modulo a padded size, plus a lane's offset.
#include <cuda_runtime.h>

// (16 * tile + lane / 4) % padded is at most padded - 9: rows up to
// padded - 1 with the 8 a thread adds, never padded + 7
__global__ void tile_rows(float *out, const float *in, int K, int N, int splits)
{
	const int tile = 16;
	int padded = tile * ((K + tile - 1) / tile);
	int lane = threadIdx.x;
	int row = (blockIdx.x * 16 + lane / 4) % padded;
	int split = blockIdx.x / (padded / 16);
	int col = lane % 4;
	for (int r = 0; r < 16; r += 8)
		out[(split * padded + row + r) * N + col] = in[lane] * (float)(r + 1);
}

// the tile's start a quotient times 16: blockIdx.x / groups * 16
__global__ void group_rows(float *out, int K, int N, int groups)
{
	int padded = 16 * ((K + 15) / 16);
	int row = (blockIdx.x / groups * 16) % padded + threadIdx.x / 4;
	for (int r = 0; r < 16; r += 8)
		out[(row + r) * N + threadIdx.x % 4] = (float)row;
}

// near miss: a lane's offset of up to 31, more than the multiple holds
__global__ void wide_lanes(float *out, int K, int N, int splits)
{
	int padded = 16 * ((K + 15) / 16);
	int row = (blockIdx.x * 16 + threadIdx.x) % padded;
	out[row * N + 1] = 1.f;
}

void launch_modulo(float *out, const float *in, int K, int N, int groups)
{
	tile_rows<<<(K + 15) / 16 * groups, 32>>>(out, in, K, N, groups);
	group_rows<<<(K + 15) / 16 * groups * 4, 32>>>(out, K, N, groups);
	wide_lanes<<<(K + 15) / 16 * groups, 32>>>(out, K, N, groups);
}
