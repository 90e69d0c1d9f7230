/* kforge stub for <THC/THCAtomics.cuh>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
