/* kforge's HIP-on-NVIDIA mapping: HIP's half type is CUDA's __half (see
 * hip_runtime.h, which includes cuda_fp16.h before it renames anything). */
#ifndef KFORGE_HIPNV_HIP_FP16_H
#define KFORGE_HIPNV_HIP_FP16_H
#include <hip/hip_runtime.h>
#include <cuda_fp16.h>
#endif
