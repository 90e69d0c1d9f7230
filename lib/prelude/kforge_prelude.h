/*
 * kforge parsing prelude: what libclang needs beyond a real CUDA or HIP
 * toolkit's headers to build an AST of kernel code.  kscan and kslice
 * force-include it after clang's own CUDA/HIP wrapper headers (so the
 * toolkit's types are declared); declarations only, nothing here is
 * compiled.
 */
#ifndef KFORGE_PRELUDE_H
#define KFORGE_PRELUDE_H

/*
 * A <<<...>>> launch in device code (dynamic parallelism; thrust's
 * launchers, which both sides parse) is a call of cudaConfigureCall to
 * clang's device side, and CUDA 12's headers do not declare it there.
 */
#if defined(__CUDA__) && !defined(__HIP__) && defined(__CUDA_ARCH__)
extern "C" __device__ cudaError_t cudaConfigureCall(dim3, dim3,
    size_t = 0, cudaStream_t = 0);
#endif

#if defined(__CUDA__) && !defined(__HIP__)
/*
 * nvcc's implicit cuda_runtime.h brings these in through
 * crt/common_functions.h, which clang's wrapper headers leave out: code
 * that calls assert, printf or memcpy without including them compiles
 * under nvcc.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <new>

/*
 * crt/math_functions.hpp declares min and max for both sides; clang's
 * wrapper headers make them device functions, so host code calling
 * min(a, b), which nvcc accepts, would not parse.  The host side here.
 */
#define KFORGE_MINMAX(R, A, B) __host__ R min(A, B); __host__ R max(A, B);
KFORGE_MINMAX(int, int, int)
KFORGE_MINMAX(unsigned int, unsigned int, unsigned int)
KFORGE_MINMAX(unsigned int, int, unsigned int)
KFORGE_MINMAX(unsigned int, unsigned int, int)
KFORGE_MINMAX(long, long, long)
KFORGE_MINMAX(unsigned long, unsigned long, unsigned long)
KFORGE_MINMAX(unsigned long, long, unsigned long)
KFORGE_MINMAX(unsigned long, unsigned long, long)
KFORGE_MINMAX(long long, long long, long long)
KFORGE_MINMAX(unsigned long long, unsigned long long, unsigned long long)
KFORGE_MINMAX(unsigned long long, long long, unsigned long long)
KFORGE_MINMAX(unsigned long long, unsigned long long, long long)
KFORGE_MINMAX(float, float, float)
KFORGE_MINMAX(double, double, double)
KFORGE_MINMAX(double, float, double)
KFORGE_MINMAX(double, double, float)
#undef KFORGE_MINMAX

/*
 * nvcc predefines the list of architectures it compiles for, on both
 * sides; clang does not.  The one kforge's device side parses for.
 */
#ifndef __CUDA_ARCH_LIST__
#define __CUDA_ARCH_LIST__ 900
#endif

/*
 * cooperative_groups declares the cluster group (this_cluster, sm_90) for
 * nvcc, or where the cluster intrinsics are known to be available, as
 * they are in clang 19.
 */
#ifndef _CG_CLUSTER_INTRINSICS_AVAILABLE
#define _CG_CLUSTER_INTRINSICS_AVAILABLE 1
#endif

/*
 * The surface object functions of surface_indirect_functions.h: clang's
 * wrapper headers implement texture fetches but not surfaces, and that
 * header does not parse under them.  Declarations with the toolkit's
 * signatures.
 */
#define KFORGE_SURF(NAME, ...) \
	template <class T> __device__ void NAME##write(T, cudaSurfaceObject_t, \
	    __VA_ARGS__, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
	template <class T> __device__ void NAME##read(T *, cudaSurfaceObject_t, \
	    __VA_ARGS__, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
	template <class T> __device__ T NAME##read(cudaSurfaceObject_t, \
	    __VA_ARGS__, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
KFORGE_SURF(surf1D, int)
KFORGE_SURF(surf2D, int, int)
KFORGE_SURF(surf3D, int, int, int)
KFORGE_SURF(surf1DLayered, int, int)
KFORGE_SURF(surf2DLayered, int, int, int)
KFORGE_SURF(surfCubemap, int, int, int)
KFORGE_SURF(surfCubemapLayered, int, int, int)
#undef KFORGE_SURF
#endif

/*
 * PyTorch extensions hold most of the CUDA kernels in the wild: forward
 * declarations of the framework types kernels are specialized for let such
 * code parse when ATen's headers are absent, and agree with them when they
 * are present.
 */
namespace c10 { struct Half; struct BFloat16; }
namespace at { using c10::Half; using c10::BFloat16; class Tensor; }
namespace torch { using namespace at; }

#endif
