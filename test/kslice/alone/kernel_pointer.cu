// kslice: kernels launched through a function-pointer variable of the
// launcher, set from a different specialization in each branch of a
// switch (kernel = &tiled<float, 2, true>;) or where it is declared
// (auto k = &init<float>;): each specialization the variable is set
// from is a launch of its own, and an instance.
// slices: 4
template <typename T, int TILE, bool MASKED>
__global__ void
tiled_kernel(const T *x, T *y, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * TILE;

	for (int t = 0; t < TILE; t++)
		if (i + t < n)
			y[i + t] = MASKED ? x[i + t] * 2 : x[i + t];
}

void
run_tiled(const float *x, float *y, int n, int tile, bool masked)
{
	void (*kernel)(const float *, float *, int);

	if (masked) {
		switch (tile) {
		case 2:
			kernel = &tiled_kernel<float, 2, true>;
			break;
		default:
			kernel = &tiled_kernel<float, 4, true>;
			break;
		}
	} else
		kernel = tiled_kernel<float, 1, false>;
	kernel<<<(n + 127) / 128, 128>>>(x, y, n);
}

template <typename T>
__global__ void
fill_kernel(T *y, T v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = v;
}

void
run_fill(double *y, int n)
{
	auto k = &fill_kernel<double>;

	k<<<(n + 127) / 128, 128>>>(y, 1.0, n);
}
