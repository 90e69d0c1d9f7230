// host code and a device function, but no __global__ kernel: no records
__device__ float twice(float x) { return 2 * x; }

int add(int a, int b) { return a + b; }
