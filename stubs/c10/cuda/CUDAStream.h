/* kforge stub for <c10/cuda/CUDAStream.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
