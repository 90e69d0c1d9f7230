// Configuration by the toolkit's version, as a header-only library
// writes it: cuda.h is included only where CUDA_VERSION is not defined.
#if !defined(CUDA_VERSION)
#include <cuda.h>
#endif
#if CUDA_VERSION >= 11000
#define LANES 4
#else
#error "needs CUDA 11 or later"
#endif
