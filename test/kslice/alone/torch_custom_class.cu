// kslice: a PyTorch extension whose kernel takes a device struct made
// from a torch custom class (torch::CustomClassHolder, holding at::Tensor
// members and c10::intrusive_ptr to another one) on the host: the struct's
// constructor brings the host classes into the slice, and the stub must
// declare them.
#include <torch/extension.h>

struct Range : public torch::CustomClassHolder {
	Range(float lo = 0.f, float span = 1.f) : lo(lo), span(span) {}
	float lo, span;
};

struct Table : public torch::CustomClassHolder {
	Table(at::Tensor values, c10::intrusive_ptr<Range> range)
	    : values(std::move(values)), range(std::move(range)) {}
	int64_t length() const { return values.size(0); }
	at::Tensor values;
	c10::intrusive_ptr<Range> range;
};

struct TableDevice {
	TableDevice() = default;
	TableDevice(const Table &t)
	    : values(t.values.contiguous().data_ptr<float>()),
	      n((int)t.length()), lo(t.range->lo), span(t.range->span) {}
	const float *values;
	int n;
	float lo, span;
};

__global__ void
lookup_kernel(TableDevice table, const float *x, float *y, int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < m) {
		int k = (int)((x[i] - table.lo) / table.span * table.n);
		y[i] = table.values[k < 0 ? 0 : k >= table.n ? table.n - 1 : k];
	}
}

void
lookup(const Table &t, const float *x, float *y, int m)
{
	lookup_kernel<<<(m + 127) / 128, 128>>>(TableDevice(t), x, y, m);
}
