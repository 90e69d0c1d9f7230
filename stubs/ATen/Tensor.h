/* kforge stub for <ATen/Tensor.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
