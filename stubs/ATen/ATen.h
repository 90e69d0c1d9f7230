/* kforge stub for <ATen/ATen.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
