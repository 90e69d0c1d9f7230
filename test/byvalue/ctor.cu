// kwrap: a struct passed by value whose definition has a constructor
// with an initializer list (braced members too), a member function and
// a static constant: none takes room in a value of it, and its data
// members are laid out as without them (test/kwrap-byvalue.t).
struct scale_params {
	scale_params() : n(0), scale{1.0f}, x(nullptr), y(nullptr) {}
	__host__ __device__ int size() const { return n; }
	static const int max_n = 1 << 20;
	int n;
	float scale;
	const float *x;
	float *y;
};

__global__ void
ctor_struct_kernel(scale_params p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < p.n)
		p.y[i] = p.scale * p.x[i];
}
