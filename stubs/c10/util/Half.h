/* kforge stub for <c10/util/Half.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
