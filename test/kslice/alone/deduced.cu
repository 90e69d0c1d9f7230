// kslice: kernel templates whose type parameters the launches do not
// spell as builtin types: deduced from the launch's arguments (a project
// class's device view passed by value) or spelled as a project class (a
// traits class of types and constants).  The slice must bind the types
// the launch instantiates, not float, and carry those classes with their
// members defined outside them.
// slices: 2

template <typename K, typename V>
class Table {
public:
	struct view {
		K *keys;
		V *vals;
		int cap;
		__device__ void insert(K k, V v);
	};
	view get_view() { view v = { keys_, vals_, cap_ }; return v; }
	K *keys_;
	V *vals_;
	int cap_;
};

template <typename K, typename V>
__device__ void
Table<K, V>::view::insert(K k, V v)
{
	int s = (int)(k % (K)cap);
	keys[s] = k;
	vals[s] = v;
}

template <typename view_t, typename coord_t>
__global__ void
insert_kernel(view_t table, int n, const coord_t *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		table.insert(in[i], i);
}

void
insert_all(Table<long long, int> &t, int n, const long long *in)
{
	insert_kernel<<<(n + 255) / 256, 256>>>(t.get_view(), n, in);
}

struct HalfIO {
	typedef unsigned short io_t;
	typedef float acc_t;
	static const int VEC = 2;
};

template <typename Traits, int THREADS>
__global__ void
widen_kernel(const typename Traits::io_t *in, typename Traits::acc_t *out,
    int n)
{
	int i = (blockIdx.x * THREADS + threadIdx.x) * Traits::VEC;
	for (int j = 0; j < Traits::VEC && i + j < n; j++)
		out[i + j] = (typename Traits::acc_t)in[i + j];
}

#define LAUNCH_WIDEN(T, N) widen_kernel<T, N><<<(n + N - 1) / N, N>>>(in, out, n)

void
widen(const unsigned short *in, float *out, int n)
{
	LAUNCH_WIDEN(HalfIO, 128);
}
