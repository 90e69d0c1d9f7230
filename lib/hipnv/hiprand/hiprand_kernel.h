/*
 * kforge's HIP-on-NVIDIA mapping: hipRAND's device API is cuRAND's under
 * other names (as hipRAND itself is on NVIDIA): the same generators, the
 * same sequences for the same seed, subsequence and offset.
 */
#ifndef KFORGE_HIPNV_HIPRAND_KERNEL_H
#define KFORGE_HIPNV_HIPRAND_KERNEL_H
#include <hip/hip_runtime.h>
#include <curand_kernel.h>

typedef curandState_t hiprandState_t;
typedef curandStateXORWOW_t hiprandStateXORWOW_t;
typedef curandStatePhilox4_32_10_t hiprandStatePhilox4_32_10_t;
typedef curandStateMRG32k3a_t hiprandStateMRG32k3a_t;
typedef curandStateSobol32_t hiprandStateSobol32_t;

#define hiprand_init curand_init
#define hiprand curand
#define hiprand4 curand4
#define hiprand_uniform curand_uniform
#define hiprand_uniform2_double curand_uniform2_double
#define hiprand_uniform4 curand_uniform4
#define hiprand_uniform_double curand_uniform_double
#define hiprand_normal curand_normal
#define hiprand_normal2 curand_normal2
#define hiprand_normal4 curand_normal4
#define hiprand_normal_double curand_normal_double
#define hiprand_normal2_double curand_normal2_double
#define hiprand_log_normal curand_log_normal
#define hiprand_log_normal2 curand_log_normal2
#define hiprand_log_normal4 curand_log_normal4
#define hiprand_log_normal_double curand_log_normal_double
#define hiprand_poisson curand_poisson
#define hiprand_poisson4 curand_poisson4
#endif
