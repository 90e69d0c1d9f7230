// kslice: a kernel with a template template parameter (an epilogue
// policy, Epilogue<T, AccT>) that its launcher passes on from its own
// (template <template <typename, typename> class E> void launch()), and
// that a plain function binds by calling the launcher with a class
// template of the project (launch_epilogue<ScaleEpilogue>(...)): the
// instance takes that class template, which comes with the slice.
template <typename T, typename AccT>
struct ScaleEpilogue {
	__device__ ScaleEpilogue(AccT s) : s(s) {}
	__device__ T operator()(T x) const { return (T)(x * s); }
	AccT s;
};

template <typename T, typename AccT>
struct ShiftEpilogue {
	__device__ ShiftEpilogue(AccT s) : s(s) {}
	__device__ T operator()(T x) const { return (T)(x + s); }
	AccT s;
};

template <typename T, typename AccT,
    template <typename, typename> class Epilogue>
__global__ void
apply_epilogue(const T *in, T *out, AccT s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	Epilogue<T, AccT> e(s);

	if (i < n)
		out[i] = e(in[i]);
}

template <template <typename, typename> class Epilogue>
void
launch_epilogue(const float *in, float *out, float s, int n)
{
	apply_epilogue<float, float, Epilogue><<<(n + 127) / 128, 128>>>(in,
	    out, s, n);
}

void
scale(const float *in, float *out, float s, int n)
{
	launch_epilogue<ScaleEpilogue>(in, out, s, n);
}
