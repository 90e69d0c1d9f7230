/*
 * The four entry points of the CUDA driver that kverify's host calls
 * before it loads any harness (tools/kverify/host.c), for tests on a
 * machine without a GPU: built as libcuda.so.1 in a directory on
 * LD_LIBRARY_PATH, beside the fake harness built as harness.so.
 * FAKE_CUDA_FAIL: cuInit fails as on a machine without a device.
 */
#include <stdlib.h>

static int ctx;

int
cuInit(unsigned flags)
{
	(void)flags;
	return getenv("FAKE_CUDA_FAIL") != NULL ? 100 : 0;
}

int
cuDeviceGet(int *dev, int ordinal)
{
	*dev = ordinal;
	return 0;
}

int
cuDevicePrimaryCtxRetain(void **c, int dev)
{
	(void)dev;
	*c = &ctx;
	return 0;
}

int
cuCtxSetCurrent(void *c)
{
	return c == &ctx ? 0 : 201;
}
