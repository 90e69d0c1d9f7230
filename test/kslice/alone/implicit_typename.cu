// kslice: device code that names a dependent type without typename (C++20
// allows it in a member declaration), which clang takes in C++17 as an
// extension and nvcc does not.  No compile command and no PyTorch: the
// defaults are kbuild's C++17, so slice.flags must ask for C++20 although
// the slice parses as C++17.
struct Unit {
	struct Params {
		float scale;
	};
};

template <typename Model>
struct Camera {
	Model::Params params;
	__device__ float apply(float x) const { return x * params.scale; }
};

__global__ void
project_kernel(Camera<Unit> cam, float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = cam.apply(x[i]);
}

void
project(Camera<Unit> cam, float *x, int n)
{
	project_kernel<<<(n + 255) / 256, 256>>>(cam, x, n);
}
