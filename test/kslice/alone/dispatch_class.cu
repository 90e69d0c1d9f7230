// kslice: a kernel template whose second type parameter is a project
// class (an offset calculator with a constructor and members), launched
// inside a PyTorch dispatch macro's lambda with the class spelled by
// name.  The launch binds it: the slice must instantiate the class, not
// one of --types (a float cannot be constructed from four arguments).
#include <ATen/Dispatch.h>
#include <torch/extension.h>

struct RowOffset {
	int row, width;
	__device__ RowOffset(int r, int w, int pad, bool packed)
	    : row(r), width(packed ? w : w + pad) {}
	__device__ int begin() const { return row * width; }
};

template <typename scalar_t, class Offset>
__global__ void
row_scale_kernel(const scalar_t *in, scalar_t *out, int width, int pad,
    bool packed, scalar_t s)
{
	Offset off(blockIdx.x, width, pad, packed);
	int i = threadIdx.x;
	if (i < width)
		out[off.begin() + i] = in[off.begin() + i] * s;
}

void
row_scale(const at::Tensor &in, at::Tensor &out, int width, int pad)
{
	AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "row_scale", ([&] {
		row_scale_kernel<scalar_t, RowOffset><<<in.size(0), 256>>>(
		    in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), width,
		    pad, false, (scalar_t)2);
	}));
}
