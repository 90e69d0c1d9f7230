/* kforge's HIP-on-NVIDIA mapping: HIP's vector types (float4, int2, ...)
 * are CUDA's, which the runtime header brings. */
#include <hip/hip_runtime.h>
