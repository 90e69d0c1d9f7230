// kslice: a kernel template with a value parameter of an enumeration
// type that no launch binds (the launch is in a host template of its
// own): the instance must take one of the enumeration's values, not
// give up.
namespace quant {
enum class Mode { Symmetric, Asymmetric };
}

template <quant::Mode mode, int bits>
__global__ void
quantize_kernel(const float *in, signed char *out, float scale, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float q = in[i] / scale;
	if (mode == quant::Mode::Asymmetric)
		q += (float)(1 << (bits - 1));
	out[i] = (signed char)q;
}

template <quant::Mode mode, int bits>
void
launch_quantize(const float *in, signed char *out, float scale, int n)
{
	quantize_kernel<mode, bits><<<(n + 255) / 256, 256>>>(in, out, scale,
	    n);
}
