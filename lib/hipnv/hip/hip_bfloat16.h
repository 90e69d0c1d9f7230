/* kforge's HIP-on-NVIDIA mapping: the older bfloat16 header's name. */
#include <hip/hip_bf16.h>
