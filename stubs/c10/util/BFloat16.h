/* kforge stub for <c10/util/BFloat16.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
