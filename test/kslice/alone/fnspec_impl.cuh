#pragma once
#include "fnspec.cuh"
template <> __device__ float to_acc<float>(float v) { return v * 2.0f; }
template <> __device__ double to_acc<double>(double v) { return v * 2.0; }
template <> __device__ void store_acc<float>(float *p, float v) { *p = v; }
template <> __device__ void store_acc(double *p, float v) { *p = v; }
