/* kforge's HIP-on-NVIDIA mapping: hipCUB is CUB under another name (as
 * hipCUB itself is on NVIDIA). */
#ifndef KFORGE_HIPNV_HIPCUB_HPP
#define KFORGE_HIPNV_HIPCUB_HPP
#include <hip/hip_runtime.h>
#include <cub/cub.cuh>
namespace hipcub = cub;
#endif
