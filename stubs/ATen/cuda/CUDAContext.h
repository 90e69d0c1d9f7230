/* kforge stub for <ATen/cuda/CUDAContext.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
