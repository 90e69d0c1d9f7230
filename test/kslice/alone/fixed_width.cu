// kslice: a kernel that names uint64_t with no <cstdint> or <stdint.h>
// among its source's includes: the parse had it through the parser's
// own CUDA wrappers, and nvcc's <stdlib.h> declares int64_t but not
// uint64_t.  The slice must include <cstdint>.
#include <stdio.h>
#include <stdlib.h>

__global__ void
hash_rows_kernel(int n, const int *__restrict__ rows, int64_t *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		uint64_t h = 14695981039346656037UL;
		for (int j = 0; j < 4; j++) {
			h ^= (unsigned int)rows[i * 4 + j];
			h *= 1099511628211UL;
		}
		out[i] = (int64_t)(h >> 1);
	}
}
