// needs: -I include, -isystem sys, -D KF_BUILD=1, -std=c++17
#include <kf_vec.cuh>
#include <kf_sys.h>
#ifndef KF_BUILD
#error "KF_BUILD is defined by the build's compile command"
#endif
#if __cplusplus < 201703L
#error "the build compiles with -std=c++17"
#endif

template <typename T>
__global__ void vec_scale(T *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if constexpr (sizeof(T) == 4) {
		if (i < n)
			x[i] = kf_twice(x[i]) * KF_SYS_SCALE;
	}
}

void launch_vec_scale(float *x, int n)
{
	vec_scale<float><<<(n + 255) / 256, 256>>>(x, n);
}
