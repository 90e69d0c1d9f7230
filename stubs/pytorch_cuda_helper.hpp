/*
 * kforge stub for mmcv's pytorch_cuda_helper.hpp: PyTorch's half type under
 * the names mmcv uses, and its rounding-up division.  The project's
 * common_cuda_helper.hpp is sliced like any other project header.
 */
#ifndef KFORGE_STUB_PYTORCH_CUDA_HELPER
#define KFORGE_STUB_PYTORCH_CUDA_HELPER

#include "kforge_torch.h"
#include "common_cuda_helper.hpp"

using at::Half;
using phalf = at::Half;

#define __PHALF(x) (x)
#define DIVUP(m, n) ((m) / (n) + ((m) % (n) > 0))

#endif
