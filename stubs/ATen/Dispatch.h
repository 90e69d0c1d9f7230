/* kforge stub for <ATen/Dispatch.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
