// kslice: a kernel launched only from a member function of a class
// template, its type parameter deduced from the class's own data (the
// launch names no template argument), the class instantiated explicitly
// ("template class Runner<Scale>;"): the kernel's parameter, named as the
// class's, takes the class's argument, and the model class comes with
// the slice; bound to a default type instead, "model.apply" does not
// compile.
namespace lab {

template <typename T>
struct View {
	T *data;
	int n;
};

template <typename T>
View<T> view_of(T *p, int n)
{
	View<T> v = { p, n };
	return v;
}

struct Scale {
	float k;
	__device__ float apply(float x) const { return k * x; }
};

struct Shift {
	float d;
	__device__ float apply(float x) const { return x + d; }
};

template <typename Model>
__global__ void apply_kernel(View<const Model> models, const float *x,
    float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = models.data[i % models.n].apply(x[i]);
}

template <typename Model>
class Runner {
public:
	explicit Runner(const Model *dev, int count) : m_dev(dev), m_count(count) {}
	void run(const float *x, float *y, int n) const;

private:
	const Model *m_dev;
	int m_count;
};

template <typename Model>
void Runner<Model>::run(const float *x, float *y, int n) const
{
	apply_kernel<<<(n + 255) / 256, 256>>>(view_of(m_dev, m_count), x, y,
	    n);
}

template class Runner<Scale>;
template class Runner<Shift>;

}
