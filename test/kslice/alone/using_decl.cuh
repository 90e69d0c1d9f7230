// using_decl.cu's library: a policy class and a view templated on it.
#pragma once
namespace lib {
struct Clamp {
	static __device__ float apply(float v) { return v < 0.f ? 0.f : v; }
};
template <typename T, typename Policy>
struct View {
	T *p;
	__device__ T get(int i) const { return Policy::apply(p[i]); }
};
}
