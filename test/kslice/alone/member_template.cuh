// Definitions of member_template.cu's class template, out of its class
// and in a file of their own (an .inl a library's header includes).
namespace lin {

// a member template: the class's header, then its own
template <int N, typename T>
template <typename U>
__host__ __device__ vec<N, T>::vec(const vec<N, U> &o)
{
	for (int i = 0; i < N; i++)
		v[i] = static_cast<T>(o.v[i]);
}

template <int N, typename T>
__host__ __device__ T vec<N, T>::sum() const
{
	T s = 0;
	for (int i = 0; i < N; i++)
		s += v[i];
	return s;
}

}
