/* kforge stub for <c10/macros/Macros.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
