/* kforge's HIP-on-NVIDIA mapping: HIP's bfloat16 types are CUDA's. */
#ifndef KFORGE_HIPNV_HIP_BF16_H
#define KFORGE_HIPNV_HIP_BF16_H
#include <hip/hip_runtime.h>
#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
#endif
