/* kforge's HIP-on-NVIDIA mapping: the runtime API header. */
#include <hip/hip_runtime.h>
