/* kforge stub for <ATen/cuda/PhiloxUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
