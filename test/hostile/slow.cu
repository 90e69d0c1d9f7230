/*
 * Keeps libclang (15 and 19) busy for minutes in little memory: 900 nested
 * instantiations, each with a constant expression that loops 200000 times
 * (below clang's step limit, so nothing stops it).
 */
constexpr int spin(int n)
{
	int s = 0;

	for (int i = 0; i < n; ++i)
		s += i & 1;
	return s;
}

template <int N> struct S {
	static constexpr int v = spin(200000) + S<N - 1>::v;
};
template <> struct S<0> {
	static constexpr int v = 0;
};

__global__ void slow_kernel(int *x) { x[0] = S<900>::v; }
