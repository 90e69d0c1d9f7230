/* kforge's HIP-on-NVIDIA mapping: HIP's cooperative groups are CUDA's,
 * in the same namespace. */
#ifndef KFORGE_HIPNV_HIP_COOPERATIVE_GROUPS_H
#define KFORGE_HIPNV_HIP_COOPERATIVE_GROUPS_H
#include <hip/hip_runtime.h>
#include <cooperative_groups.h>
#endif
