/* kforge stub for <torch/types.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
