// kslice: a kernel template whose last type parameter defaults to an
// earlier one (typename V = T), launched where the launch names none of
// them: the instance must bind V to T's type, not to the name T.
template <typename T, typename U, typename V = T>
__global__ void
normalize_rows(V *out, U *inv, const T *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (V)((U)in[i] * inv[0]);
}

template <typename T, typename U, typename V = T>
void
launch_normalize_rows(V *out, U *inv, const T *in, int n)
{
	normalize_rows<<<(n + 255) / 256, 256>>>(out, inv, in, n);
}
