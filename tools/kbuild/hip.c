/*
 * kbuild: where HIP code is built.  On AMD ("amd"), hipcc builds code
 * objects for gfx targets, which run only where an AMD GPU is.  On NVIDIA
 * ("nvidia-through-hip-mapping"), nvcc builds HIP kernels and the HIP
 * harness through kforge's mapping of HIP's names onto CUDA's
 * (lib/hipnv/, embedded here and written next to each build), so that a
 * HIP kernel gets a verdict on the GPU this machine has.
 */
#include "kbuild.h"
#include "k_buf.h"

/* generated from lib/hipnv/ by the Makefile: {path, text} pairs */
extern const char *const hipnv_files[][2];

static char hipnv_sum[K_SHA256_HEX];
static pthread_once_t sum_once = PTHREAD_ONCE_INIT;

static void
sum_mapping(void)
{
	struct k_buf b = { 0 };
	size_t i;

	for (i = 0; hipnv_files[i][0] != NULL; i++)
		k_buf_printf(&b, "%s\n%s\n", hipnv_files[i][0], hipnv_files[i][1]);
	k_sha256_hex(k_buf_str(&b), b.n, hipnv_sum);
	k_buf_free(&b);
}

/* The mapping's identity, for the cache key: the hash of its files. */
const char *
hipnv_key(void)
{
	pthread_once(&sum_once, sum_mapping);
	return hipnv_sum;
}

/* Write the mapping's headers under dir/hipnv/; 0 or -1 (errno). */
int
hipnv_write(const char *dir)
{
	char path[PATH_MAX + 256];
	size_t i;

	for (i = 0; hipnv_files[i][0] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/hipnv/%s", dir,
		    hipnv_files[i][0]);
		if (mkdirs_of(path) != 0 || write_text(path,
		    hipnv_files[i][1]) != 0)
			return -1;
	}
	return 0;
}

int
amd_gpu_here(void)
{
	/* the ROCm kernel driver's device: there only with an AMD GPU */
	return access("/dev/kfd", F_OK) == 0;
}

/*
 * --hip-platform auto: AMD where an AMD GPU and hipcc are; else NVIDIA
 * where nvcc is and either an NVIDIA GPU is or hipcc is not; else AMD
 * (hipcc compile-checks for gfx targets).
 */
void
hip_platform_settle(void)
{
	if (opt.hip_platform != HIP_AUTO)
		return;
	if (amd_gpu_here() && opt.hipcc.path != NULL)
		opt.hip_platform = HIP_AMD;
	else if (opt.nvcc.path != NULL && (opt.hipcc.path == NULL ||
	    access("/dev/nvidiactl", F_OK) == 0))
		opt.hip_platform = HIP_NVIDIA;
	else
		opt.hip_platform = HIP_AMD;
}

const char *
hip_platform_name(void)
{
	return opt.hip_platform == HIP_NVIDIA ? "nvidia-through-hip-mapping" :
	    "amd";
}
