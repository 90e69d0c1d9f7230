/* kforge stub for <ATen/cuda/CUDAGraphsUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
