/* kforge stub for <ATen/native/cuda/KernelUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
