/* kforge stub for <ATen/AccumulateType.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
