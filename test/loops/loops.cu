// Grid-stride loops written through a project's own macros
// (test/kwrap-loops.t): kwrap expands a function-like macro whose
// replacement is a loop header where the kernel uses it, so the loop's
// bound counts the buffers it indexes.

#define GRID_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	    i += blockDim.x * gridDim.x)

// the bound first, the index second
#define EACH_INDEX(n, i) \
	for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	    i += (long)blockDim.x * gridDim.x)

// rows over the grid's y, columns over x: two loops, four arguments
#define ROWS_COLS(r, R, c, C) \
	for (int r = blockIdx.y; r < (R); r += gridDim.y) \
		for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < (C); \
		    c += blockDim.x * gridDim.x)

// a loop macro written through another
#define KERNEL_LOOP(i, n) GRID_LOOP(i, n)

// near miss: it stringizes its parameter; left as written
#define TAGGED_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	    i += blockDim.x * gridDim.x) if (#i[0] != 0)

__global__ void scale_loop(int n, const float *x, float *y)
{
	GRID_LOOP(i, n) {
		y[i] = 2.0f * x[i] + 1.0f;
	}
}

__global__ void batch_loop(int B, int n, const float *x, float *y)
{
	GRID_LOOP(i, B * n)
		y[i] = x[i] * x[i] + (float)(i / n);
}

__global__ void swapped_loop(long n, const float *x, float *y)
{
	EACH_INDEX(n, k) {
		y[k] = x[k] - 3.0f;
	}
}

__global__ void table_loop(int rows, int cols, const float *x, float *y)
{
	ROWS_COLS(r, rows, c, cols) {
		y[r * cols + c] = x[r * cols + c] * 0.5f;
	}
}

__global__ void nested_macro_loop(int n, const float *x, float *y)
{
	KERNEL_LOOP(i, n) {
		y[i] = x[i] + 4.0f;
	}
}

__global__ void tagged_loop(int n, const float *x, float *y)
{
	TAGGED_LOOP(i, n) {
		y[i] = x[i] + 5.0f;
	}
}

void launch_loops(int n, int rows, int cols, const float *x, float *y)
{
	scale_loop<<<(n + 255) / 256, 256>>>(n, x, y);
	batch_loop<<<(4 * n + 255) / 256, 256>>>(4, n, x, y);
	swapped_loop<<<(n + 127) / 128, 128>>>((long)n, x, y);
	table_loop<<<dim3((cols + 127) / 128, rows), 128>>>(rows, cols, x, y);
	nested_macro_loop<<<(n + 255) / 256, 256>>>(n, x, y);
	tagged_loop<<<(n + 255) / 256, 256>>>(n, x, y);
}
