#!/bin/sh
# Candidates kept as files: kbuild --candidates attaches a directory of .cu
# files named by task, or a JSONL of {id, code}, joined by id; a candidate
# that does not define the task's kernel with its signature fails pass_call.
. "$(dirname "$0")/lib.sh"

have_tool kbuild || skip_all "kbuild not built"
command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
    skip_all "nvcc not installed"
KBUILD=$(tool kbuild)
D=$T_TMP
export KFORGE_WORK=$D/work

jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel" or
    .id == "examples/src/conv1d.cu::conv1d_kernel" or
    .id == "examples/src/elementwise.cu::square_kernel")' \
    examples/kslice.ndjson > "$D/in.ndjson"
code() { jq -r "select(.id == \"$1\") | .slice.code" "$D/in.ndjson"; }

# --- a directory of files named by task
mkdir "$D/dir"
code examples/src/elementwise.cu::relu_kernel \
    > "$D/dir/examples_src_elementwise.cu_relu_kernel.cu"
# another name, and the right name with other parameter types
printf '__global__ void conv1d(const float *in, float *out, int n) { }\n' \
    > "$D/dir/examples_src_conv1d.cu_conv1d_kernel.cu"
printf '__global__ void square_kernel(const double *in, double *out, int n) { }\n' \
    > "$D/dir/examples_src_elementwise.cu_square_kernel.cu"
run "$KBUILD" --check --candidates "$D/dir/" "$D/in.ndjson"
is "$T_STATUS" 0 "--candidates dir: exit 0"
q() { jq -r "select(.id == \"$1\") | $2" "$T_TMP/out"; }
is "$(q examples/src/elementwise.cu::relu_kernel '[.candidate.source, .build.candidate.pass_call] | join(" ")')" \
    "$D/dir/examples_src_elementwise.cu_relu_kernel.cu true" \
    "the file named by the task is attached and passes pass_call"
is "$(q examples/src/conv1d.cu::conv1d_kernel '[.build.candidate.ok, .build.candidate.pass_call, .build.candidate.symbol] | map(tostring) | join(" ")')" \
    "true false null" "another kernel name: compiles, fails pass_call, no symbol to run"
like "$(q examples/src/conv1d.cu::conv1d_kernel .build.candidate.pass_call_reason)" \
    "does not define conv1d_kernel with the task's signature.*_Z13conv1d_kernelPKfPfi.*_Z6conv1dPKfPfi" \
    "the reason names the kernel wanted and the one defined"
is "$(q examples/src/elementwise.cu::square_kernel .build.candidate.pass_call)" false \
    "the right name with other parameter types fails pass_call"
like "$(q examples/src/elementwise.cu::square_kernel .build.candidate.pass_call_reason)" \
    "_Z13square_kernelPKdPdi" "and says which signature it has"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "records with attached candidates validate (schemas/candidate.schema.json)"

# the file names are jq's spelling, even where '_' meets other bytes
rm -rf "$D/dir2" && mkdir "$D/dir2"
jq -c '.id = "a_/b.cu::k_<float>"' "$D/in.ndjson" | head -n 1 > "$D/odd.ndjson"
name=$(jq -r '.id | gsub("[^A-Za-z0-9._-]+"; "_")' "$D/odd.ndjson")
is "$name" "a__b.cu_k__float_" "jq's spelling of an odd id"
printf '__global__ void q() {}\n' > "$D/dir2/$name.cu"
run "$KBUILD" --check --candidates "$D/dir2" "$D/odd.ndjson"
is "$(jq -r .candidate.source "$T_TMP/out")" "$D/dir2/$name.cu" \
    "kbuild finds the file by that name"

# --- a JSONL of {id, code}
code examples/src/elementwise.cu::relu_kernel |
    jq -Rsc '{id: "examples/src/elementwise.cu::relu_kernel", code: ., model: "by hand"}' \
    > "$D/c.jsonl"
run "$KBUILD" --check --candidates "$D/c.jsonl" "$D/in.ndjson"
is "$(q examples/src/elementwise.cu::relu_kernel '[.candidate.model, .candidate.source, .build.candidate.pass_call] | join(" ")')" \
    "by hand $D/c.jsonl:1 true" "--candidates jsonl: joined by id, its keys kept, its line named"
is "$(jq -c 'select(.candidate != null) | .id' "$T_TMP/out" | wc -l | tr -d ' ')" 1 \
    "records without a line keep no candidate"
echo '{"code":"x"}' >> "$D/c.jsonl"
run "$KBUILD" --check --candidates "$D/c.jsonl" "$D/in.ndjson"
is "$T_STATUS" 2 "a JSONL line without an id: usage error"
like "$(cat "$T_TMP/err")" "c.jsonl:2: expected" "and the message names the line"
run "$KBUILD" --check --candidates "$D/nowhere" "$D/in.ndjson"
is "$T_STATUS" 2 "--candidates that does not exist: usage error"

# --- a string candidate says what shape it should have
head -n 1 "$D/in.ndjson" | jq -c '.candidate = "__global__ void k() {}"' |
    run "$KBUILD" --check
like "$(jq -r '.errors[0].message' "$T_TMP/out")" \
    'candidate is a string, not an object \{"code": "..."\}' \
    "a string candidate: the message shows the shape"

done_testing
