#!/bin/sh
# Reproduces BENCHMARKS.md, section "kslice", the cuda-samples row: the same
# measure as bench/kslice-mmcv.sh (slice every kernel, float instances,
# compile each slice with nvcc and only the toolkit on the include path,
# check the object holds the kernel's symbol) over NVIDIA/cuda-samples.
#
#	sh bench/kslice-cuda-samples.sh /path/to/cuda-samples [workdir]
#
# Headers the samples share (Common/helper_*.h) are found by kscan's
# include recovery; nothing of the tree is copied into the repository.
set -eu
src=${1:?usage: bench/kslice-cuda-samples.sh CUDA_SAMPLES_ROOT [WORKDIR]}
exec sh "$(dirname "$0")/kslice-mmcv.sh" "$src" \
    "${2:-/tmp/kslice-bench-cuda-samples}"
