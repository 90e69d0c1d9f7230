/*
 * What a host's concurrent processes cost each other on its GPUs, apart
 * from kverify (bench/host-scaling.sh runs many of these at once):
 *
 *	host-scaling ctx		make a context, nothing else
 *	host-scaling alloc K		then K rounds of cudaMalloc, memset, free
 *	host-scaling keep K		then K rounds of memset, launch, sync on
 *					one buffer allocated once
 *
 * Prints "init SECONDS loop SECONDS" on stdout.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__global__ void
touch(float *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = p[i] * 2.0f + 1.0f;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } \
	} while (0)

int
main(int argc, char *argv[])
{
	const size_t bytes = 4u << 20;
	const int n = (int)(bytes / sizeof(float));
	double t0, t1, t2;
	float *p = NULL;
	int k = argc > 2 ? atoi(argv[2]) : 0, i;

	if (argc < 2) {
		fprintf(stderr, "usage: host-scaling ctx | alloc K | keep K\n");
		return 2;
	}
	t0 = now();
	CK(cudaFree(0));
	t1 = now();
	if (strcmp(argv[1], "alloc") == 0) {
		for (i = 0; i < k; i++) {
			CK(cudaMalloc(&p, bytes));
			CK(cudaMemset(p, 0, bytes));
			touch<<<(n + 255) / 256, 256>>>(p, n);
			CK(cudaDeviceSynchronize());
			CK(cudaFree(p));
		}
	} else if (strcmp(argv[1], "keep") == 0) {
		CK(cudaMalloc(&p, bytes));
		for (i = 0; i < k; i++) {
			CK(cudaMemset(p, 0, bytes));
			touch<<<(n + 255) / 256, 256>>>(p, n);
			CK(cudaDeviceSynchronize());
		}
		CK(cudaFree(p));
	}
	t2 = now();
	printf("init %.4f loop %.4f\n", t1 - t0, t2 - t1);
	return 0;
}
