/* kforge stub for <THC/THCDeviceUtils.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
