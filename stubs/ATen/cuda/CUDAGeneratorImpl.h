/* kforge stub for <ATen/cuda/CUDAGeneratorImpl.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
