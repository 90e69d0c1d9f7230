// kwrap: sizes that differ from one another in some case (test/mutate.t,
// and their mutants on the GPU in test/gpu/run.sh).  One index over
// B * C * L is taken apart into (b, c, l): while C and L take one value
// in every case and their product is above nthreads, b is 0 and c reads
// like l, so a mutant of b's term ("b * C" made "b / C") or one that
// takes c from the wrong size reads the same elements as the reference.

#define GRID_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	    i += blockDim.x * gridDim.x)

__global__ void batch_decompose(int nthreads, const float *in, int C, int L,
    float *out)
{
	GRID_LOOP(index, nthreads) {
		const int l = index % L;
		const int c = (index / L) % C;
		const int b = index / L / C;
		out[index] = in[(b * C + c) * L + l] * 2.0f + (float)c;
	}
}
