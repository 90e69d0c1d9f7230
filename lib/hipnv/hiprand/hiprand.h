/* kforge's HIP-on-NVIDIA mapping: hipify turns <curand.h> into this; the
 * kernels kforge judges use only the device API. */
#include <hiprand/hiprand_kernel.h>
