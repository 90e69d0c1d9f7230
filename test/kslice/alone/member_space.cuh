/* A class template whose static member is declared __host__ __device__ in
 * the class and defined outside it with no execution space (it takes the
 * declaration's), called from another template through the dependent
 * name. */
template <typename T, int Q>
struct quad {
	T w, x, y, z;
	__host__ __device__ quad() = default;
	__host__ __device__ quad(T w_, T x_, T y_, T z_)
	    : w(w_), x(x_), y(y_), z(z_) {}
	static __host__ __device__ quad wxyz(T w, T x, T y, T z);
};

template <typename T, int Q>
__host__ __device__ quad<T, Q>
conjugate(const quad<T, Q> &q)
{
	return quad<T, Q>::wxyz(q.w, -q.x, -q.y, -q.z);
}

template <typename T, int Q>
quad<T, Q>
quad<T, Q>::wxyz(T w, T x, T y, T z)
{
	return quad<T, Q>(w, x, y, z);
}

typedef quad<float, 0> quadf;

/* The same without a template: clang calls the definition a host
 * overload of the declaration, nvcc the declared device function. */
struct scale {
	static __host__ __device__ float twice(float v);
};

float
scale::twice(float v)
{
	return v + v;
}
