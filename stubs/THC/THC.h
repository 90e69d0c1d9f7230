/* kforge stub for <THC/THC.h>: see kforge_torch.h */
#pragma once
#include "kforge_torch.h"
