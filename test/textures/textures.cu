// Texture objects (tools/kwrap/texture.c): the harness makes each from
// what the kernel fetches.
#include <cuda_runtime.h>

// texel coordinates, four channels of float
__global__ void row_sum(float *out, int w, int h, int r, cudaTextureObject_t img)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float s = 0.f;
	for (int i = -r; i <= r; i++) {
		float4 v = tex2D<float4>(img, x + i + 0.5f, y + 0.5f);
		s += v.x + 2.f * v.y - v.z + 0.5f * v.w;
	}
	out[y * w + x] = s;
}

// normalized coordinates: u is divided by the width on its way
__global__ void rotate(float *out, int w, int h, float angle, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float u = (float)x - (float)w / 2;
	float v = (float)y - (float)h / 2;
	float tu = u * cosf(angle) - v * sinf(angle);
	float tv = v * cosf(angle) + u * sinf(angle);
	tu /= (float)w;
	tv /= (float)h;
	out[y * w + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}

// linear memory: integers read as integers
__global__ void lookup(int *out, const int *keys, int n, cudaTextureObject_t table)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 3 * tex1Dfetch<int>(table, keys[i] & 1023) + 1;
}

// three dimensions, coordinates scaled by a constant under 1
__global__ void sample_volume(float *out, int n, cudaTextureObject_t vol)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float p = (float)(i % 64) * 0.015625f;
	float q = (float)(i / 64 % 64) * 0.015625f;
	out[i] = tex3D<float>(vol, p, q, 0.5f) - tex3D<float>(vol, q, p, 0.25f);
}

// a helper fetches: bytes of four channels, through an alias
typedef uchar4 pixel;
__device__ int luma(cudaTextureObject_t t, int x, int y)
{
	pixel c = tex2D<pixel>(t, x, y);
	return 2 * c.x + 5 * c.y + c.z;
}

__global__ void edges(int *out, int w, int h, cudaTextureObject_t src)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * w + x] = luma(src, x + 1, y) - luma(src, x - 1, y) +
		    luma(src, x, y + 1) - luma(src, x, y - 1);
}

// layers of a two-dimensional texture
__global__ void layer_mean(float *out, int w, int layers, cudaTextureObject_t stack)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	if (x >= w)
		return;
	float s = 0.f;
	for (int l = 0; l < layers; l++)
		s += tex2DLayered<float>(stack, x, 0, l) * (float)(l + 1);
	out[x] = s;
}

// a surface object: the harness makes none
__global__ void clear_surface(int w, int h, cudaSurfaceObject_t s)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		surf2Dwrite(0.f, s, x * 4, y);
}

// fetched as two kinds of texture
__global__ void two_ways(float *out, int n, cudaTextureObject_t t)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1Dfetch<float>(t, i) + tex2D<float>(t, i, 0);
}

void launch_all(float *f, int *o, const int *k, int w, int h, int n, int r,
    float a, int layers, cudaTextureObject_t t, cudaSurfaceObject_t sf)
{
	dim3 block(16, 16);
	dim3 grid((w + 15) / 16, (h + 15) / 16);
	row_sum<<<grid, block>>>(f, w, h, r, t);
	rotate<<<grid, block>>>(f, w, h, a, t);
	lookup<<<(n + 255) / 256, 256>>>(o, k, n, t);
	sample_volume<<<(n + 255) / 256, 256>>>(f, n, t);
	edges<<<grid, block>>>(o, w, h, t);
	layer_mean<<<(w + 127) / 128, 128>>>(f, w, layers, t);
	clear_surface<<<grid, block>>>(w, h, sf);
	two_ways<<<(n + 255) / 256, 256>>>(f, n, t);
}
