/*
 * kforge stub for PyTorch (ATen, c10, THC): the small part of the framework
 * that device code leans on, on the toolkit's own types.  Sliced kernels get
 * this text instead of the framework's headers, which nvcc cannot find
 * without a PyTorch installation.
 */
#ifndef KFORGE_STUB_TORCH_H
#define KFORGE_STUB_TORCH_H

#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#if defined(__HIP__) && !defined(__HIP_PLATFORM_NVIDIA__)
/* a HIP unit for AMD (clang -x hip): ROCm's half and bfloat16 under the
 * names the rest of this file uses; CUDA's headers would clash with
 * HIP's vector types */
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>
typedef hip_bfloat16 __nv_bfloat16;
static inline __host__ __device__ __nv_bfloat16 __float2bfloat16(float f)
{ return hip_bfloat16(f); }
static inline __host__ __device__ float __bfloat162float(__nv_bfloat16 h)
{ return float(h); }
/* CUDA's atomicAdd on a half, which ROCm 5 lacks: a compare-and-swap
 * on the 32-bit word that holds it */
static inline __device__ __half atomicAdd(__half *p, __half v)
{
	unsigned int *w = (unsigned int *)((size_t)p & ~(size_t)3);
	unsigned int hi = ((size_t)p & 2) != 0, old = *w, seen, next;
	unsigned short h, sum;

	do {
		seen = old;
		h = hi ? (unsigned short)(seen >> 16) :
		    (unsigned short)(seen & 0xffffu);
		sum = __half_as_ushort(__float2half(
		    __half2float(__ushort_as_half(h)) + __half2float(v)));
		next = hi ? (seen & 0xffffu) | ((unsigned int)sum << 16) :
		    (seen & 0xffff0000u) | sum;
		old = atomicCAS(w, seen, next);
	} while (old != seen);
	return __ushort_as_half(hi ? (unsigned short)(old >> 16) :
	    (unsigned short)(old & 0xffffu));
}
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

/* complete types, so that the forward declarations of kforge's parsing
 * prelude agree with them */
namespace c10 {
struct Half {
	__half x;
	Half() = default;
	__host__ __device__ Half(float f) : x(__float2half(f)) {}
	__host__ __device__ Half(__half h) : x(h) {}
	__host__ __device__ operator float() const { return __half2float(x); }
	/* the toolkit's own type, as c10's Half gives it under CUDA */
	__host__ __device__ operator __half() const { return x; }
};
struct BFloat16 {
	__nv_bfloat16 x;
	BFloat16() = default;
	__host__ __device__ BFloat16(float f) : x(__float2bfloat16(f)) {}
	__host__ __device__ BFloat16(__nv_bfloat16 h) : x(h) {}
	__host__ __device__ operator float() const
	{
		return __bfloat162float(x);
	}
	__host__ __device__ operator __nv_bfloat16() const { return x; }
};
template <typename T>
struct complex {
	T real_, imag_;
};
}
namespace at {
using c10::BFloat16;
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

/* ATen/NumericUtils.h: the limits of a scalar type, callable in device
 * code (bounds are the infinities where the type has them) */
template <typename T>
struct numeric_limits {
	static __host__ __device__ T lowest()
	{
		return std::numeric_limits<T>::lowest();
	}
	static __host__ __device__ T max()
	{
		return std::numeric_limits<T>::max();
	}
	static __host__ __device__ T lower_bound()
	{
		return std::numeric_limits<T>::has_infinity ?
		    -std::numeric_limits<T>::infinity() :
		    std::numeric_limits<T>::lowest();
	}
	static __host__ __device__ T upper_bound()
	{
		return std::numeric_limits<T>::has_infinity ?
		    std::numeric_limits<T>::infinity() :
		    std::numeric_limits<T>::max();
	}
};
template <>
struct numeric_limits<Half> {
	static __host__ __device__ Half lowest() { return Half(-65504.0f); }
	static __host__ __device__ Half max() { return Half(65504.0f); }
	static __host__ __device__ Half lower_bound() { return Half(-INFINITY); }
	static __host__ __device__ Half upper_bound() { return Half(INFINITY); }
};
template <>
struct numeric_limits<BFloat16> {
	static __host__ __device__ BFloat16 lowest()
	{
		return BFloat16(-3.38953139e38f);
	}
	static __host__ __device__ BFloat16 max()
	{
		return BFloat16(3.38953139e38f);
	}
	static __host__ __device__ BFloat16 lower_bound()
	{
		return BFloat16(-INFINITY);
	}
	static __host__ __device__ BFloat16 upper_bound()
	{
		return BFloat16(INFINITY);
	}
};

/* ATen/cuda/detail/PhiloxCudaStateRaw.cuh and ATen/cuda/PhiloxUtils.cuh:
 * the seed and offset of a random kernel's Philox generator, passed by
 * value; captured in a CUDA graph, both are read through pointers */
struct PhiloxCudaState {
	PhiloxCudaState() = default;
	__host__ __device__ PhiloxCudaState(uint64_t seed, uint64_t offset)
	{
		seed_.val = seed;
		offset_.val = offset;
	}
	__host__ __device__ PhiloxCudaState(int64_t *seed, int64_t *offset,
	    uint32_t intragraph)
	{
		seed_.ptr = seed;
		offset_.ptr = offset;
		offset_intragraph_ = intragraph;
		captured_ = true;
	}
	union Payload {
		uint64_t val;
		int64_t *ptr;
	};
	Payload seed_{};
	Payload offset_{};
	uint32_t offset_intragraph_ = 0;
	bool captured_ = false;
};
namespace cuda {
namespace philox {
static inline __host__ __device__ std::tuple<uint64_t, uint64_t>
unpack(PhiloxCudaState s)
{
	if (s.captured_)
		return std::tuple<uint64_t, uint64_t>((uint64_t)*s.seed_.ptr,
		    (uint64_t)(*s.offset_.ptr + s.offset_intragraph_));
	return std::tuple<uint64_t, uint64_t>(s.seed_.val, s.offset_.val);
}
}
}

/* ATen/core/TensorAccessor.h: the accessors kernels take by value */
template <typename T>
struct DefaultPtrTraits {
	typedef T *PtrType;
};
template <typename T>
struct RestrictPtrTraits {
	typedef T *__restrict__ PtrType;
};
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits,
    typename index_t = int64_t>
class TensorAccessorBase {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ TensorAccessorBase(PtrType data,
	    const index_t *sizes, const index_t *strides)
	    : data_(data), sizes_(sizes), strides_(strides) {}
	__host__ __device__ index_t stride(index_t i) const
	{
		return strides_[i];
	}
	__host__ __device__ index_t size(index_t i) const { return sizes_[i]; }
	__host__ __device__ PtrType data() { return data_; }
	__host__ __device__ const PtrType data() const { return data_; }
protected:
	PtrType data_;
	const index_t *sizes_;
	const index_t *strides_;
};
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits,
    typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ TensorAccessor(PtrType data, const index_t *sizes,
	    const index_t *strides)
	    : TensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes,
	    strides) {}
	__host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t>
	operator[](index_t i)
	{
		return TensorAccessor<T, N - 1, PtrTraits, index_t>(
		    this->data_ + this->strides_[0] * i, this->sizes_ + 1,
		    this->strides_ + 1);
	}
	__host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t>
	operator[](index_t i) const
	{
		return TensorAccessor<T, N - 1, PtrTraits, index_t>(
		    this->data_ + this->strides_[0] * i, this->sizes_ + 1,
		    this->strides_ + 1);
	}
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t>
    : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ TensorAccessor(PtrType data, const index_t *sizes,
	    const index_t *strides)
	    : TensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes,
	    strides) {}
	__host__ __device__ T &operator[](index_t i)
	{
		return this->data_[this->strides_[0] * i];
	}
	__host__ __device__ const T &operator[](index_t i) const
	{
		return this->data_[this->strides_[0] * i];
	}
};
/* sizes and strides held by value, so that the accessor can be passed to
 * a kernel */
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits,
    typename index_t = int64_t>
class GenericPackedTensorAccessor {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t>
	operator[](index_t i)
	{
		return TensorAccessor<T, N - 1, PtrTraits, index_t>(
		    data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
	}
	__host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t>
	operator[](index_t i) const
	{
		return TensorAccessor<T, N - 1, PtrTraits, index_t>(
		    data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
	}
	__host__ __device__ index_t stride(index_t i) const
	{
		return strides_[i];
	}
	__host__ __device__ index_t size(index_t i) const { return sizes_[i]; }
	__host__ __device__ PtrType data() { return data_; }
	__host__ __device__ const PtrType data() const { return data_; }
protected:
	PtrType data_;
	index_t sizes_[N];
	index_t strides_[N];
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> {
public:
	typedef typename PtrTraits<T>::PtrType PtrType;
	__host__ __device__ T &operator[](index_t i)
	{
		return data_[strides_[0] * i];
	}
	__host__ __device__ const T &operator[](index_t i) const
	{
		return data_[strides_[0] * i];
	}
	__host__ __device__ index_t stride(index_t i) const
	{
		return strides_[i];
	}
	__host__ __device__ index_t size(index_t i) const { return sizes_[i]; }
	__host__ __device__ PtrType data() { return data_; }
	__host__ __device__ const PtrType data() const { return data_; }
protected:
	PtrType data_;
	index_t sizes_[1];
	index_t strides_[1];
};
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits,
    typename index_t = int64_t>
using PackedTensorAccessor =
    GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 =
    GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N,
    template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 =
    GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
}
namespace torch {
using at::DefaultPtrTraits;
using at::GenericPackedTensorAccessor;
using at::PackedTensorAccessor;
using at::PackedTensorAccessor32;
using at::PackedTensorAccessor64;
using at::RestrictPtrTraits;
using at::TensorAccessor;
}

/* c10's intrusive pointers and ATen's Tensor, host side: a project's
 * classes that hold tensors (torch custom classes, beside the device
 * structs made from them) come into a slice with those structs.  Their
 * functions are declared only: a slice's device code never calls them. */
namespace c10 {
struct intrusive_ptr_target {
	virtual ~intrusive_ptr_target() = default;
};
template <typename T>
class intrusive_ptr {
public:
	intrusive_ptr() = default;
	T *get() const { return p_; }
	T *operator->() const { return p_; }
	T &operator*() const { return *p_; }
	explicit operator bool() const { return p_ != nullptr; }
private:
	T *p_ = nullptr;
};
template <typename T, typename... A>
intrusive_ptr<T> make_intrusive(A &&...);
}
namespace at {
class Tensor {
public:
	int64_t size(int64_t) const;
	int64_t stride(int64_t) const;
	int64_t numel() const;
	int64_t dim() const;
	bool defined() const;
	bool is_cuda() const;
	bool is_contiguous() const;
	Tensor contiguous() const;
	Tensor cpu() const;
	Tensor cuda() const;
	Tensor clone() const;
	template <typename T> T *data_ptr() const;
	void *data_ptr() const;
};
}
namespace torch {
using at::Tensor;
using CustomClassHolder = c10::intrusive_ptr_target;
}

/* THC/THCAtomics.cuh: atomicAdd on half-precision values */
static inline __device__ void gpuAtomicAdd(float *p, float v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(double *p, double v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(int *p, int v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(__half *p, __half v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(c10::Half *p, c10::Half v)
{
	atomicAdd(&p->x, v.x);
}
static inline __device__ void atomicAdd(c10::Half *p, c10::Half v)
{
	atomicAdd(&p->x, v.x);
}
template <typename T>
static inline __device__ void fastAtomicAdd(T *p, int64_t index, int64_t,
    T v, bool) { gpuAtomicAdd(p + index, v); }

#define C10_DEVICE __device__
#define C10_HOST_DEVICE __host__ __device__
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__((max_threads))
#define C10_WARP_SIZE 32
#define TORCH_CHECK(cond, ...) assert(cond)
#define TORCH_CHECK_INDEX(cond, ...) assert(cond)
#define TORCH_CHECK_VALUE(cond, ...) assert(cond)
#define TORCH_CHECK_TYPE(cond, ...) assert(cond)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) assert(cond)
#define TORCH_INTERNAL_ASSERT(cond, ...) assert(cond)
#define AT_ASSERTM(cond, ...) assert(cond)
#define CUDA_KERNEL_ASSERT(cond) assert(cond)

#endif
