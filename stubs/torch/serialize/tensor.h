/* kforge stub for <torch/serialize/tensor.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
