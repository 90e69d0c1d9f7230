/*
 * kforge parsing stand-in for PyTorch's C++ API (ATen, c10, torch): the
 * host-side surface that extension launchers use around their kernel
 * launches, so that a launch inside AT_DISPATCH_* parses when PyTorch is
 * not installed.  kscan answers a missing <ATen/ATen.h>, <torch/extension.h>
 * and similar with this file, searched after every real include path.
 * Declarations only; nothing here is compiled.
 */
#ifndef KFORGE_TORCH_H
#define KFORGE_TORCH_H

#if defined(__HIP__)
/* a HIP unit (ROCm's PyTorch is hipified: hipStream_t and hipDeviceProp_t
 * behind the same c10::cuda names); CUDA's headers would clash with
 * HIP's vector types */
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
typedef hipStream_t cudaStream_t;
typedef hipDeviceProp_t cudaDeviceProp;
/* CUDA's atomicAdd on a half, which ROCm 5's headers lack (kslice's
 * stubs/kforge_torch.h defines it for the slice) */
__device__ __half atomicAdd(__half *, __half);
#else
#include <cuda_runtime.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <initializer_list>
#include <vector>
#include <string>
/* what PyTorch's headers bring in on their way, and extensions use
 * without including: half and bfloat16 types, limits, assert */
#if !defined(__HIP__)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif
#include <algorithm>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>
#include <sstream>
#include <optional>
#include <tuple>

namespace c10 {
enum class ScalarType { Byte, Char, Short, Int, Long, Half, Float, Double,
	ComplexFloat, ComplexDouble, Bool, BFloat16 };
/* c10::optional is std::optional since PyTorch 2.1; the size of a
 * scalar type; the scalar type of a C++ type (its value, declared) */
template <class T> using optional = std::optional<T>;
using std::nullopt;
size_t elementSize(ScalarType);
template <typename T> struct CppTypeToScalarType {
	static constexpr ScalarType value = ScalarType::Float;
};
struct Half {
	unsigned short x;
	Half() = default;
	__host__ __device__ Half(float);
	__host__ __device__ Half(const __half &);
	__host__ __device__ operator float() const;
};
struct BFloat16 {
	unsigned short x;
	BFloat16() = default;
	__host__ __device__ BFloat16(float);
	__host__ __device__ operator float() const;
};
/* arithmetic, as c10's Half-inl.h and BFloat16-inl.h give it: Half + Half
 * is a Half, not a float */
#define KFORGE_HALF_OP(H, OP) \
	__host__ __device__ H operator OP(const H &, const H &); \
	__host__ __device__ float operator OP(H, float); \
	__host__ __device__ float operator OP(float, H); \
	__host__ __device__ double operator OP(H, double); \
	__host__ __device__ double operator OP(double, H); \
	__host__ __device__ H operator OP(H, int); \
	__host__ __device__ H operator OP(int, H); \
	__host__ __device__ H &operator OP##=(H &, const H &);
#define KFORGE_HALF_OPS(H) KFORGE_HALF_OP(H, +) KFORGE_HALF_OP(H, -) \
	KFORGE_HALF_OP(H, *) KFORGE_HALF_OP(H, /) \
	__host__ __device__ H operator-(const H &);
KFORGE_HALF_OPS(Half)
KFORGE_HALF_OPS(BFloat16)
#undef KFORGE_HALF_OPS
#undef KFORGE_HALF_OP
struct Device { int index() const; bool is_cuda() const; };
/* ArrayRef<int64_t>: sizes are given as braced lists ({n, c}), vectors
 * or one value */
struct IntArrayRef { IntArrayRef(); IntArrayRef(const long &);
	IntArrayRef(std::initializer_list<long>);
	IntArrayRef(const std::vector<long> &);
	long operator[](size_t) const; size_t size() const;
	const long *begin() const; const long *end() const;
	std::vector<long> vec() const; };
struct Scalar { template <class T> Scalar(T); template <class T> T to() const; };
namespace cuda {
struct CUDAGuard { explicit CUDAGuard(Device); explicit CUDAGuard(int); };
struct OptionalCUDAGuard { explicit OptionalCUDAGuard(Device); };
struct CUDAStream { operator cudaStream_t() const; cudaStream_t stream() const; };
CUDAStream getCurrentCUDAStream(int device = -1);
}
}

namespace at {
using c10::BFloat16;
using c10::Device;
using c10::Half;

/* ATen/AccumulateType.h and ATen/OpMathType.h: the type a kernel sums
 * or computes a scalar type in (half and bfloat16 in float; on the CPU,
 * float in double; integers in int64_t) */
template <typename T, bool is_cuda>
struct AccumulateType {
	using type = T;
};
template <> struct AccumulateType<Half, true> { using type = float; };
template <> struct AccumulateType<BFloat16, true> { using type = float; };
template <> struct AccumulateType<Half, false> { using type = float; };
template <> struct AccumulateType<BFloat16, false> { using type = float; };
template <> struct AccumulateType<float, false> { using type = double; };
template <> struct AccumulateType<int8_t, true> { using type = int64_t; };
template <> struct AccumulateType<uint8_t, true> { using type = int64_t; };
template <> struct AccumulateType<int16_t, true> { using type = int64_t; };
template <> struct AccumulateType<int32_t, true> { using type = int64_t; };
template <> struct AccumulateType<int8_t, false> { using type = int64_t; };
template <> struct AccumulateType<uint8_t, false> { using type = int64_t; };
template <> struct AccumulateType<int16_t, false> { using type = int64_t; };
template <> struct AccumulateType<int32_t, false> { using type = int64_t; };
template <typename T, bool is_cuda>
using acc_type = typename AccumulateType<T, is_cuda>::type;
template <typename T>
struct OpMathType {
	using type = T;
};
template <> struct OpMathType<Half> { using type = float; };
template <> struct OpMathType<BFloat16> { using type = float; };
template <typename T>
using opmath_type = typename OpMathType<T>::type;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using c10::optional;
using c10::nullopt;
using c10::elementSize;
/* c10's constants: a ScalarType and a DeviceType (named types, so that
 * templates such as TensorOptions::dtype can take them) */
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char,
	kShort = ScalarType::Short, kInt = ScalarType::Int,
	kLong = ScalarType::Long, kFloat = ScalarType::Float,
	kDouble = ScalarType::Double, kBool = ScalarType::Bool,
	kHalf = ScalarType::Half, kBFloat16 = ScalarType::BFloat16;
enum class DeviceType { CPU, CUDA };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;
/* c10's pointer traits, TensorAccessor and the packed accessors kernels
 * take by value (ATen/core/TensorAccessor.h): indexing an N-dimensional one
 * gives an (N-1)-dimensional TensorAccessor, a one-dimensional one an
 * element; PackedTensorAccessor32 and 64 are the generic one with 32- and
 * 64-bit index types */
template <class T> struct DefaultPtrTraits { typedef T *PtrType; };
template <class T> struct RestrictPtrTraits {
	typedef T *__restrict__ PtrType;
};
template <class T, size_t N, template <class U> class PtrTraits =
    DefaultPtrTraits, class index_t = int64_t> class TensorAccessor {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t>
	    operator[](index_t);
	__host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t>
	    operator[](index_t) const;
	__host__ __device__ index_t size(index_t) const;
	__host__ __device__ index_t stride(index_t) const;
	__host__ __device__ PtrType data();
	__host__ __device__ const PtrType data() const;
};
template <class T, template <class U> class PtrTraits, class index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ T &operator[](index_t);
	__host__ __device__ const T &operator[](index_t) const;
	__host__ __device__ index_t size(index_t) const;
	__host__ __device__ index_t stride(index_t) const;
	__host__ __device__ PtrType data();
	__host__ __device__ const PtrType data() const;
};
/* the packed accessor indexes as a TensorAccessor does; here it is one */
template <class T, size_t N, template <class U> class PtrTraits =
    DefaultPtrTraits, class index_t = int64_t>
class GenericPackedTensorAccessor : public TensorAccessor<T, N, PtrTraits,
    index_t> {};
template <class T, size_t N, template <class U> class PtrTraits =
    DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits,
    int32_t>;
template <class T, size_t N, template <class U> class PtrTraits =
    DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits,
    int64_t>;
/* the older name, deprecated in PyTorch but still in use */
template <class T, size_t N, template <class U> class PtrTraits =
    DefaultPtrTraits, class index_t = int64_t>
class PackedTensorAccessor : public GenericPackedTensorAccessor<T, N,
    PtrTraits, index_t> {};
struct TensorOptions {
	template <class... A> TensorOptions dtype(A...) const;
	template <class... A> TensorOptions device(A...) const;
};
/* t.index({Slice(1, None), 0}): ATen's indexing helpers */
namespace indexing {
struct NoneType {};
extern const NoneType None;
struct EllipsisType {};
extern const EllipsisType Ellipsis;
struct Slice { template <class... A> Slice(A...); };
struct TensorIndex { template <class T> TensorIndex(T); };
}
class Tensor {
public:
	class Tensor index(std::initializer_list<indexing::TensorIndex>) const;
	template <class... A> class Tensor index_put_(A...) const;
	long size(long) const;
	IntArrayRef sizes() const;
	long stride(long) const;
	IntArrayRef strides() const;
	long numel() const;
	long dim() const;
	long ndimension() const;
	long element_size() const;
	void *data_ptr() const;
	template <class T> T *data_ptr() const;
	template <class T> T *data() const;
	template <class T> T item() const;
	ScalarType scalar_type() const;
	ScalarType type() const;
	TensorOptions options() const;
	Device device() const;
	bool is_cuda() const;
	bool is_contiguous() const;
	bool defined() const;
	int get_device() const;
	Tensor contiguous() const;
	/* sizes and dimensions as a braced list: IntArrayRef, as ATen */
	Tensor view(IntArrayRef) const;
	Tensor reshape(IntArrayRef) const;
	Tensor permute(IntArrayRef) const;
	Tensor expand(IntArrayRef, bool = false) const;
	Tensor repeat(IntArrayRef) const;
	template <class... A> Tensor sum(IntArrayRef, A...) const;
	template <class... A> Tensor mean(IntArrayRef, A...) const;
	template <class... A> Tensor new_zeros(IntArrayRef, A...) const;
	template <class... A> Tensor new_empty(IntArrayRef, A...) const;
	template <class... A> Tensor new_full(IntArrayRef, A...) const;
	template <class... A> Tensor view(A...) const;
	template <class... A> Tensor reshape(A...) const;
	template <class... A> Tensor permute(A...) const;
	template <class... A> Tensor transpose(A...) const;
	template <class... A> Tensor select(A...) const;
	template <class... A> Tensor narrow(A...) const;
	template <class... A> Tensor index_select(A...) const;
	template <class... A> Tensor to(A...) const;
	template <class... A> Tensor sum(A...) const;
	template <class... A> Tensor mean(A...) const;
	template <class... A> Tensor fill_(A...) const;
	template <class... A> Tensor copy_(A...) const;
	template <class... A> Tensor resize_(A...) const;
	template <class... A> Tensor slice(A...) const;
	Tensor zero_() const;
	Tensor clone() const;
	Tensor cpu() const;
	Tensor cuda() const;
	Tensor t() const;
	Tensor operator[](long) const;
	template <class T, size_t N> TensorAccessor<T, N> accessor() const;
	template <class T, size_t N, template <class U> class P =
	    DefaultPtrTraits, class I = int64_t>
	GenericPackedTensorAccessor<T, N, P, I> generic_packed_accessor() const;
	template <class T, size_t N, template <class U> class P =
	    DefaultPtrTraits, class I = int64_t>
	PackedTensorAccessor<T, N, P, I> packed_accessor() const;
	template <class T, size_t N, template <class U> class P =
	    DefaultPtrTraits>
	PackedTensorAccessor32<T, N, P> packed_accessor32() const;
	template <class T, size_t N, template <class U> class P =
	    DefaultPtrTraits>
	PackedTensorAccessor64<T, N, P> packed_accessor64() const;
};
/* factories whose first argument is a size, often a braced list */
#define KFORGE_FACTORY(F) template <class... A> Tensor F(A...); \
	template <class... A> Tensor F(IntArrayRef, A...);
KFORGE_FACTORY(zeros)
KFORGE_FACTORY(ones)
KFORGE_FACTORY(empty)
KFORGE_FACTORY(full)
KFORGE_FACTORY(rand)
KFORGE_FACTORY(randn)
KFORGE_FACTORY(empty_strided)
#undef KFORGE_FACTORY
template <class... A> Tensor zeros_like(A...);
template <class... A> Tensor empty_like(A...);
template <class... A> Tensor ones_like(A...);
template <class... A> Tensor arange(A...);
template <class... A> Tensor cat(A...);
template <class... A> Tensor stack(A...);
template <class... A> Tensor cumsum_out(A...);
Tensor max(const Tensor &);
Tensor max(const Tensor &, const Tensor &);
template <class... A> std::tuple<Tensor, Tensor> max(const Tensor &, long, A...);
/* at::globalContext().alertNotDeterministic("f") */
struct Context {
	void alertNotDeterministic(const char *) const;
	bool deterministicAlgorithms() const;
};
Context &globalContext();
/* the argument checks extensions open their launchers with:
 * at::TensorArg x_t{x, "x", 1}; at::checkAllSameGPU("f", {x_t, y_t}); */
struct TensorArg {
	TensorArg(const Tensor &, const char *, int);
	const Tensor *operator->() const;
	const Tensor &operator*() const;
};
using CheckedFrom = const char *;
void checkAllSameGPU(CheckedFrom, std::initializer_list<TensorArg>);
void checkAllSameType(CheckedFrom, std::initializer_list<TensorArg>);
void checkSameGPU(CheckedFrom, const TensorArg &, const TensorArg &);
void checkSameType(CheckedFrom, const TensorArg &, const TensorArg &);
void checkContiguous(CheckedFrom, const TensorArg &);
void checkAllContiguous(CheckedFrom, std::initializer_list<TensorArg>);
/* a random kernel's Philox seed and offset, passed to it by value
 * (ATen/cuda/CUDAGeneratorImpl.h, ATen/cuda/PhiloxUtils.cuh) */
struct PhiloxCudaState {
	PhiloxCudaState();
	PhiloxCudaState(uint64_t, uint64_t);
};
struct CUDAGeneratorImpl;
namespace cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::OptionalCUDAGuard;
using at::CUDAGeneratorImpl;
cudaDeviceProp *getCurrentDeviceProperties();
namespace philox {
__host__ __device__ std::tuple<uint64_t, uint64_t> unpack(PhiloxCudaState);
}
}
}
namespace torch {
using namespace at;
}

#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_CHECK_INDEX(cond, ...) ((void)(cond))
#define TORCH_CHECK_VALUE(cond, ...) ((void)(cond))
#define TORCH_CHECK_TYPE(cond, ...) ((void)(cond))
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define AT_ASSERT(cond, ...) ((void)(cond))
#define AT_ERROR(...) ((void)0)
#define AT_CUDA_CHECK(x) ((void)(x))
#define C10_CUDA_CHECK(x) ((void)(x))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define CUDA_KERNEL_ASSERT(cond) ((void)(cond))
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_WARP_SIZE 32
#define C10_LAUNCH_BOUNDS_1(n) __launch_bounds__(n)
#define C10_LAUNCH_BOUNDS_2(n, m) __launch_bounds__(n, m)
#define THCCeilDiv(a, b) (((a) + (b) - 1) / (b))

/* The dispatch macros run their lambda once with scalar_t bound, so the
 * launch inside parses; the types they stand for are kslice's business. */
#define KFORGE_DISPATCH(...) \
	[&] { using scalar_t = float; using index_t = int; \
	    return (__VA_ARGS__)(); }()
#define AT_DISPATCH_FLOATING_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(S, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND3(S1, S2, S3, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(S, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(S1, S2, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_HALF(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_INDEX_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(S1, S2, T, N, ...) KFORGE_DISPATCH(__VA_ARGS__)

/* the binding block an extension ends with (torch/extension.h brings
 * pybind11): PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(...); } */
namespace pybind11 {
struct arg { explicit arg(const char *); template <class T> arg &operator=(T); };
struct module_ { template <class... A> module_ &def(A...); };
using module = module_;
}
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME kforge_extension
#endif
#define PYBIND11_MODULE(name, var) \
	static void kforge_pybind11_##name(pybind11::module_ &var)

#endif
