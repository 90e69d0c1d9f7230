// operators.cu's helper, in a header of its own: the type and its
// operator are in the kernel's file, which the helper never names.
#pragma once
template <typename T>
__device__ void sort_small(T *v, int n)
{
	for (int i = 0; i < n - 1; i++)
		for (int j = 0; j < n - i - 1; j++)
			if (v[j + 1] < v[j]) {
				T t = v[j];
				v[j] = v[j + 1];
				v[j + 1] = t;
			}
}
