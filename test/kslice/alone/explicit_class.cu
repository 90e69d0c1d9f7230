// kslice: a kernel template instantiated explicitly with a project class
// as its argument (a traits class), and nowhere launched: the class comes
// with the slice, or the instantiation names an undeclared identifier.
struct f64_elem {
	typedef double elem;
};

struct io_traits_f64 {
	using io = f64_elem;
};

template <typename Traits>
__global__ void shift_kernel(const typename Traits::io::elem *in,
    typename Traits::io::elem *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = in[i] + 1;
}

template __global__ void shift_kernel<io_traits_f64>(const double *,
    double *, int);
