// kbuild and wrap.mutants: a mutant of dead code compiles to the
// reference's own machine code (equivalent); one of live code does not
__global__ void scale_dead(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int dead = i * 7;
	if (i < n)
		y[i] = x[i] * 3.0f;
}
