// kbuild and wrap.mutants: a unit with an internal entity (a table in an
// anonymous namespace) gets names from nvcc that carry a hash of the
// unit's text; a mutant of dead code still compiles to the reference's
// machine code (equivalent) once those hashes are set aside
namespace {
__device__ float weights[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
}

__global__ void scale_table(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int dead = i * 7;
	if (i < n)
		y[i] = x[i] * weights[i & 3];
}
