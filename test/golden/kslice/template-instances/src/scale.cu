// a kernel template launched for two element types from one host template
template <typename T>
__global__ void scale(T *x, T alpha, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= alpha;
}

template <typename T>
void run_scale(T *x, T alpha, int n, cudaStream_t stream)
{
	scale<T><<<(n + 127) / 128, 128, 0, stream>>>(x, alpha, n);
}

template void run_scale<float>(float *, float, int, cudaStream_t);
template void run_scale<double>(double *, double, int, cudaStream_t);
