// kslice: a kernel template that calls function templates known only by
// their explicit specializations (the primary is declared, not defined):
// the slice must carry the specializations, or the instance references an
// undefined device function.
#include "fnspec.cuh"
#include "fnspec_impl.cuh"

template <typename T>
__global__ void acc_kernel(T *out, const T *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		store_acc(out + i, (float)to_acc<T>(in[i]));
}

void launch_acc(float *out, const float *in, int n)
{
	acc_kernel<float><<<(n + 255) / 256, 256>>>(out, in, n);
}
