/* kforge stub for <ATen/cuda/CUDAApplyUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
