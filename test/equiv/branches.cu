// Branches that never run for a template instance (test/equiv.t): the
// two sides of an "if constexpr", the else of an if whose condition
// holds, the sections of a switch on a template parameter that no case
// reaches; near misses where they run: the instance that takes them, a
// section reached by falling through, default when no label matches, a
// switch on a runtime scalar, a label kwrap cannot evaluate.

enum DataType { General8bit, FP4, NF4 };

// only one side of the if constexpr is compiled for an instance
template <int SPARSE>
__global__ void sparse_scale(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	if constexpr (SPARSE) {
		v = v * 2.0f;
	} else {
		v = v + 1.0f;
	}
	y[i] = v;
}

// an else-if chain on a data type: the else of the first if, and the
// nested if it holds, never run for General8bit
template <int D>
__global__ void dequant(const int *q, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = q[i];
	if (D == General8bit) {
		v = v * 3;
	} else if (D == FP4) {
		v = v - 8;
		if (v < 0)
			v = -v;
	} else
		v = v + 1;
	y[i] = v;
}

// a switch on a template parameter: SHIFT falls through into LOWER
enum Mode { SCALE, SHIFT, LOWER };
template <int M>
__global__ void pick_mode(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = x[i];
	switch (M) {
	case SCALE:
		v = v * 2;
		break;
	case SHIFT:
		v = v + 3;
	case LOWER:
		v = v - 1;
		break;
	default:
		v = v / 4;
		break;
	}
	y[i] = v;
}

// near miss: a switch on a runtime scalar, whose cases reach each label
__global__ void run_mode(const int *x, int *y, int n, int mode)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = x[i];
	switch (mode) {
	case 0:
		v = v * 2;
		break;
	case 1:
		v = v + 3;
		break;
	}
	y[i] = v;
}

// near miss: a label kwrap cannot evaluate: nothing of the switch marked
template <int M>
__global__ void odd_label(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = x[i];
	switch (M) {
	case 0:
		v = v * 2;
		break;
	case sizeof(float):
		v = v + 3;
		break;
	}
	y[i] = v;
}

void launch(const float *x, float *y, const int *q, int *w, int n,
    int mode)
{
	sparse_scale<0><<<(n + 255) / 256, 256>>>(x, y, n);
	sparse_scale<1><<<(n + 255) / 256, 256>>>(x, y, n);
	dequant<General8bit><<<(n + 255) / 256, 256>>>(q, w, n);
	dequant<NF4><<<(n + 255) / 256, 256>>>(q, w, n);
	pick_mode<0><<<(n + 255) / 256, 256>>>(q, w, n);
	pick_mode<1><<<(n + 255) / 256, 256>>>(q, w, n);
	pick_mode<7><<<(n + 255) / 256, 256>>>(q, w, n);
	run_mode<<<(n + 255) / 256, 256>>>(q, w, n, mode);
	odd_label<0><<<(n + 255) / 256, 256>>>(q, w, n);
}
