/* kforge stub for <ATen/OpMathType.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
