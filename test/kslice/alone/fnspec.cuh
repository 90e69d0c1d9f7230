// A device function template whose primary is only declared: every type
// it serves is an explicit specialization, defined in another header.
#pragma once
template <typename T> __device__ T to_acc(T v);
template <typename T> __device__ void store_acc(T *p, float v);
