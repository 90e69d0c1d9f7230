#!/bin/sh
# The import part of test/gpu/prepare.sh (run by it; needs nvcc, jq and the
# built tools, no GPU): test/import/'s rows through kimport, kwrap and
# kbuild, each candidate's record named by its row and kernel, for
# test/gpu/import.sh to verify against the rows' own references.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
KFORGE_WORK=${KFORGE_WORK:-$root/.kforge}
export KFORGE_WORK
g=$KFORGE_WORK/gpu-test
mkdir -p "$g"
[ -x ./kimport ] || { echo "import-prepare.sh: run make first" >&2; exit 2; }

./kimport -q test/import/run_0.jsonl test/import/run_1.jsonl \
    test/import/tritonbench.jsonl test/import/computeeval.jsonl |
    jq -c 'select(.candidate.kernel) |
        .id = "gpu-test:import:" + (.import.row | sub(".*/"; "")) + ":" + .scan.name' \
    > "$g/import.in" || true
./kwrap -q < "$g/import.in" |
    ./kbuild -q -j 4 --arch "${ARCH:-sm_90}" --hip-platform nvidia \
    > "$g/import.ndjson" || true
n=$(grep -c '"harness":{' "$g/import.ndjson" || true)
[ "${n:-0}" -ge 8 ] ||
    { echo "import-prepare.sh: the imported records did not build" >&2; exit 2; }
