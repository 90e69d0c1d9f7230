// Row pitches (tools/kwrap/strides.c): rows a pitch apart, each as wide
// as a width of its own.
#include <cuda_runtime.h>

// every case keeps pitch at least w: rows that overlapped would race
__global__ void pitched_scale(float *out, const float *in, int pitch, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * pitch + x] = 2.f * in[y * w + x] + 1.f;
}

// near miss: the pitch of a buffer only read (overlapping rows race
// nothing)
__global__ void pitched_read(float *out, const float *in, int pitch, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * w + x] = in[y * pitch + x] - 1.f;
}

// near miss: a row as wide as its pitch, the row-major layout
__global__ void row_major(float *out, int n, int m)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y;
	if (j < n && i < m)
		out[i * n + j] = (float)(i - j);
}

void launch_pitch(float *out, const float *in, int pitch, int w, int h)
{
	dim3 block(32, 8);
	dim3 grid((w + 31) / 32, (h + 7) / 8);
	pitched_scale<<<grid, block>>>(out, in, pitch, w, h);
	pitched_read<<<grid, block>>>(out, in, pitch, w, h);
	row_major<<<dim3((w + 127) / 128, h), 128>>>(out, w, h);
}
