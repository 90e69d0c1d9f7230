// kslice: a member template declared in a class template and defined
// outside it for each explicit specialization of the class (template <>
// template <class T, class R> R Get<0>::of(const T &)): a kernel that
// calls Get<0>::of names the specialization, and the definitions must
// come with the class template (ptxas: "Unresolved extern function").
template <int INDEX>
struct Get {
	template <typename T, typename R>
	static __device__ R of(const T &v);
};

template <>
template <typename T, typename R>
__device__ R Get<0>::of(const T &v)
{
	return v.x;
}

template <>
template <typename T, typename R>
__device__ R Get<1>::of(const T &v)
{
	return v.y;
}

__global__ void
mean_var_kernel(const float2 *s, float *mean, float *var, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		mean[i] = Get<0>::of<float2, float>(s[i]);
		var[i] = Get<1>::of<float2, float>(s[i]);
	}
}
