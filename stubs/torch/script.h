/* kforge stub for <torch/script.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
