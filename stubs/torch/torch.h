/* kforge stub for <torch/torch.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
