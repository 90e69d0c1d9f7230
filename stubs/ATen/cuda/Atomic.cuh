/* kforge stub for <ATen/cuda/Atomic.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
