// kslice: a kernel whose one template parameter is a traits class the
// launcher builds from its own parameters under a local alias (using
// Kernel_traits = Traits<weight_t, input_t, HIDDEN, WARPS>;), launched
// through a variable set from it, the launcher instantiated by a
// registration macro per size and type: each call gives the alias's
// arguments, types included (--types chooses only a kernel's own type
// parameters, not a traits class's), and the class template comes into
// the slice.
// slices: 2
namespace ln {
template <typename weight_t, typename input_t, int HIDDEN, int WARPS>
struct Traits {
	using w_t = weight_t;
	using i_t = input_t;
	enum { THREADS = WARPS * 32, COLS = HIDDEN };
};

template <typename Ktraits>
__global__ void __launch_bounds__(Ktraits::THREADS)
norm_kernel(const typename Ktraits::i_t *x, typename Ktraits::w_t *y,
    int rows)
{
	int r = blockIdx.x;

	if (r < rows)
		for (int c = threadIdx.x; c < Ktraits::COLS;
		    c += Ktraits::THREADS)
			y[r * Ktraits::COLS + c] =
			    (typename Ktraits::w_t)(2 * x[r * Ktraits::COLS + c]);
}
}
using namespace ln;

template <typename weight_t, typename input_t, int HIDDEN, int WARPS>
void
launch_norm(const void *x, void *y, int rows)
{
	using Kernel_traits = Traits<weight_t, input_t, HIDDEN,
	    WARPS>; // rows of HIDDEN
	auto kernel = &norm_kernel<Kernel_traits>;

	kernel<<<rows, Kernel_traits::THREADS>>>((const input_t *)x,
	    (weight_t *)y, rows);
}

#define REGISTER(H, W, I) \
	void norm_##H(const void *x, void *y, int rows) \
	{ launch_norm<W, I, H, 4>(x, y, rows); }
REGISTER(768, float, float)
REGISTER(1024, double, float)
