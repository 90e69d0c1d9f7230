// kslice: a constexpr local initialized from a static constexpr member
// named through a reference (1.f / ref.SCALE).  nvcc reads the static
// member; clang before C++23 refuses the reference as not a constant
// expression.  The slice must not be called unparsable for it.
struct Grid {
	static constexpr int SCALE = 1024;
	const float *cells;
	int n;
};

struct Sensor {
	Grid grid;
};

__device__ float
cell_at(const Sensor &s, float x)
{
	const Grid &grid = s.grid;
	constexpr float inv = 1.f / grid.SCALE;
	int i = (int)(x * inv);
	return grid.cells[i < 0 ? 0 : i >= grid.n ? grid.n - 1 : i];
}

__global__ void
sample_kernel(const float *cells, int n, const float *x, float *y, int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	Sensor s = { { cells, n } };
	if (i < m)
		y[i] = cell_at(s, x[i]);
}

void
sample(const float *cells, int n, const float *x, float *y, int m)
{
	sample_kernel<<<(m + 255) / 256, 256>>>(cells, n, x, y, m);
}
