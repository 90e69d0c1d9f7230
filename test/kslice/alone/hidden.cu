// kslice: names only the text shows: a constant in __launch_bounds__ (an
// attribute's argument is no reference in the syntax tree) and helpers
// named in code the preprocessor skipped on the side that was parsed (a
// branch on __CUDA_ARCH__).  The slice must carry their declarations.
static constexpr int WARPS = 4;
static constexpr int THREADS = WARPS * 32;

namespace fast {
enum class Mode { plain, scaled };
__device__ __forceinline__ float scale_by(float v, float s) { return v * s; }
}

struct Pair { float lo, hi; };

__global__ void __launch_bounds__(THREADS) hidden_kernel(float *out,
    const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
	Pair p{in[i], in[i] * 2.0f};
	fast::Mode m = fast::Mode::scaled;
	out[i] = m == fast::Mode::scaled ? fast::scale_by(p.hi, 0.5f) : p.lo;
#else
	out[i] = in[i];
#endif
}
