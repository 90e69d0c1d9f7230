// Declarations and template arguments inside a kernel: the "*" of
// "T *buf", the angle brackets of "shared_of<T>()" and of
// "static_cast<T>(...)" are no operators, and a declaration is no
// statement to drop; "buf[t] * 2" and "i < n" are.
template <class T>
__device__ T *shared_of()
{
	extern __shared__ unsigned char raw[];
	return reinterpret_cast<T *>(raw);
}

template <class T>
__global__ void decl_kernel(const T *x, T *y, int n)
{
	T *buf = shared_of<T>();
	const T *src = x;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	buf[threadIdx.x] = i < n ? src[i] : static_cast<T>(0);
	__syncthreads();
	if (i < n)
		y[i] = buf[threadIdx.x] * 2;
}

void launch(const float *x, float *y, int n)
{
	decl_kernel<float><<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(x, y, n);
}
