// void * members cast to an element type named through a traits class:
// local aliases of member types of the class the instance binds
// (Traits::io::elem), as template-heavy code spells them
struct f64_elem {
	typedef double elem;
};

struct io_traits_f64 {
	using io = f64_elem;
};

struct tr_params {
	const void *in;
	void *out;
	int n;
};

template <typename Traits_>
__global__ void traits_cast_kernel(tr_params p)
{
	using Traits = Traits_;
	using IO = typename Traits::io;
	using T = typename IO::elem;
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n)
		reinterpret_cast<T *>(p.out)[i] =
		    reinterpret_cast<const T *>(p.in)[i] + (T)1;
}

void traits_cast(const double *in, double *out, int n)
{
	tr_params p = { in, out, n };

	traits_cast_kernel<io_traits_f64><<<(n + 127) / 128, 128>>>(p);
}
