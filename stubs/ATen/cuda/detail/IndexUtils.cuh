/* kforge stub for <ATen/cuda/detail/IndexUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
