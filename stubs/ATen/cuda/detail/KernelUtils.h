/* kforge stub for <ATen/cuda/detail/KernelUtils.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
