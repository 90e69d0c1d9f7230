/* kforge stub for <ATen/core/TensorAccessor.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
