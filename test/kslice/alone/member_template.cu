// A member template of a class template defined outside its class: two
// template headers, the class's before the member's own, which the
// definition's extent does not reach.
namespace lin {
template <int N, typename T>
struct vec {
	T v[N];
	__host__ __device__ vec() {}
	template <typename U>
	__host__ __device__ explicit vec(const vec<N, U> &o);
	__host__ __device__ T sum() const;
};
}
#include "member_template.cuh"

__global__ void converted_sums(const lin::vec<3, int> *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = lin::vec<3, float>(in[i]).sum();
}
