/* kforge stub for <torch/extension.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
