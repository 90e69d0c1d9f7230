// kslice: device member functions defined outside their class (in the
// namespace around it), called by a kernel through an object it takes:
// the class holds only their declarations, so the slice must carry the
// definitions, or the kernel calls an undefined device function.
namespace grid {

struct Acc {
	float *p;
	int n;
	__device__ void add(int i, float v);
	__device__ float scaled(int i) const;
	void host_only(int m);
};

__device__ void
Acc::add(int i, float v)
{
	if (i < n)
		p[i] += v;
}

__device__ float
Acc::scaled(int i) const
{
	return i < n ? 2.0f * p[i] : 0.0f;
}

void
Acc::host_only(int m)
{
	n = m;
}

} // namespace grid

__global__ void
accumulate(grid::Acc a, const float *w)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	a.add(i, w[i] + a.scaled(i));
}

void
run(grid::Acc a, const float *w)
{
	accumulate<<<(a.n + 127) / 128, 128>>>(a, w);
}
