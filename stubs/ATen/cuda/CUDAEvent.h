/* kforge stub for <ATen/cuda/CUDAEvent.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
