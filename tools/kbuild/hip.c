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

#include <ctype.h>

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

/*
 * The kernel's mangled name in an AMD code object, which hipcc --genco
 * writes as a clang offload bundle that nm cannot read: the symbol
 * tables of the ELF objects inside hold the name as plain bytes, so look
 * for Itanium's spelling of it ("_Z" ... "<length><name>" ... NUL), and
 * leave out the kernel descriptor ("<symbol>.kd").  JSON null when the
 * name is not there.  New reference.
 */
json_t *
find_symbol_bytes(const char *path, const char *kernel)
{
	char want[300], *data;
	size_t len, i, wl;
	json_t *found = json_null();

	if (kernel == NULL || *kernel == '\0' ||
	    (data = k_file_read(path, 1UL << 28, &len)) == NULL)
		return found;
	snprintf(want, sizeof(want), "%zu%s", strlen(kernel), kernel);
	wl = strlen(want);
	for (i = 0; i + wl <= len; i++) {
		size_t b, e;
		if (memcmp(data + i, want, wl) != 0)
			continue;
		/* back to the "_Z" that starts this name */
		for (b = i; b >= 2 && (isalnum((unsigned char)data[b - 1]) ||
		    data[b - 1] == '_') && !(data[b - 2] == '\0' &&
		    data[b - 1] == '_'); b--)
			;
		if (b > 0 && data[b - 1] == '_' && (b < 2 || data[b - 2] == '\0'))
			b--;
		for (e = i + wl; e < len && (isalnum((unsigned char)data[e]) ||
		    data[e] == '_'); e++)
			;
		if (e >= len || data[e] != '\0' || e - b < 3 || e - b > 1000 ||
		    strncmp(data + b, "_Z", 2) != 0)
			continue;
		json_decref(found);
		found = json_stringn(data + b, e - b);
		break;
	}
	free(data);
	return found;
}
