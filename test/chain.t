#!/bin/sh
# The operator chain: kscan links each kernel to its launcher, the callers
# above it, a dispatcher a REGISTER_* macro fills and the binding that
# names the op (test/chain/ext: a tiny PyTorch extension, binding file,
# dispatcher, launchers, kernels); kreport groups records by op.
. "$(dirname "$0")/lib.sh"

have_tool kscan || skip_all "kscan not built"
KSCAN=$(tool kscan)
KREPORT=$(tool kreport)
D=$T_TMP
export KFORGE_WORK=$D/work

run "$KSCAN" --timing --root . test/chain/ext
is "$T_STATUS" 0 "extension tree: exit 0"
cp "$T_TMP/out" "$D/scan.ndjson"
cp "$T_TMP/err" "$D/timing"
is "$(wc -l < "$D/scan.ndjson" | tr -d ' ')" 7 \
    "seven kernels (the binding and API files hold none)"
run test/validate "$D/scan.ndjson"
ok "$T_STATUS" "records validate against schemas/ (op, chain)"

k() {	# kernel jq-expression
	jq -r "select(.scan.name==\"$1\") | $2" "$D/scan.ndjson"
}
roles='[.scan.chain[].role] | join(" ")'

# pybind11 -> function -> dispatcher -> registered function -> launcher
is "$(k scale_kernel .scan.op)" scale_forward "pybind11: the op is m.def's name"
is "$(k scale_kernel "$roles")" \
    "kernel launcher function dispatcher function binding" \
    "pybind11: kernel, launcher, backend function, dispatcher, op function, binding"
is "$(k scale_kernel '.scan.chain[1] | "\(.name) \(.file):\(.line)"')" \
    "ScaleForwardLauncher test/chain/ext/scale_cuda.cu:10" \
    "launcher named with its file and line"
is "$(k scale_kernel '.scan.chain[3] | "\(.name) \(.file):\(.line)"')" \
    "scale_forward_impl test/chain/ext/scale.cpp:6" \
    "dispatcher: the function the key names, in a file without a kernel"
is "$(k scale_kernel '.scan.chain[3].registration | "\(.macro) \(.key) \(.file):\(.line)"')" \
    "REGISTER_DEVICE_IMPL scale_forward_impl test/chain/ext/scale_cuda.cu:21" \
    "dispatcher: the registration that links it to the backend function"
is "$(k scale_kernel '.scan.chain[5] | "\(.kind) \(.op) \(.name) \(.file):\(.line)"')" \
    "pybind11 scale_forward scale_forward test/chain/ext/binding.cpp:7" \
    "binding: kind, op, bound function, where m.def is written"

# TORCH_LIBRARY: a schema's name, m.impl with TORCH_FN
is "$(k add_kernel .scan.op)" add "torch library: the op is the schema's name"
is "$(k add_kernel "$roles")" "kernel launcher binding" \
    "torch library: the launcher is the bound function"
is "$(k add_kernel '.scan.chain[2] | "\(.kind) \(.name) \(.line)"')" \
    "torch_library add_cuda 24" "torch library: m.impl(\"add\", TORCH_FN(add_cuda))"

# a plain C++ API: no binding, no op; the launcher's one caller
is "$(k fill_kernel '.scan.op // "none"')" none "plain C++ API: no op"
is "$(k fill_kernel "$roles")" "kernel launcher function" \
    "plain C++ API: the launcher and the public function that calls it"
is "$(k fill_kernel '.scan.chain[2].name')" fill "plain C++ API: fill"
# a plain C++ API in a file of its own, which only calls the launcher
is "$(k sumsq_kernel '[.scan.chain[] | "\(.role) \(.name) \(.file):\(.line)"] | join(", ")')" \
    "kernel sumsq_kernel test/chain/ext/norm.cu:2, launcher sumsq_launch test/chain/ext/norm.cu:7, function squared_norm test/chain/ext/norm_api.cpp:5" \
    "a C++ file that only calls a launcher is read for the chain"
like "$(cat "$D/timing")" "norm_api.cpp: parsed in" "the API file is parsed"
is "$(grep -c 'unrelated.cpp' "$D/timing")" 0 \
    "a C++ file that calls nothing of the chain is not parsed"
# a launcher in a function object: its callers name the class
is "$(k gather_kernel '[.scan.chain[] | "\(.role) \(.name)"] | join(", ")')" \
    "kernel gather_kernel, launcher functor::GatherFunctor::operator(), function gather" \
    "a functor's operator() is called through its class"
# a launcher in a namespace the system headers declare too
is "$(k neg_kernel '[.scan.chain[] | "\(.role) \(.name) \(.file):\(.line)"] | join(", ")')" \
    "kernel neg_kernel test/chain/ext/native.cu:5, launcher at::native::neg_launch test/chain/ext/native.cu:12, function neg test/chain/ext/native.cu:19" \
    "a project function in a namespace a system header opens is in the chain"
# never launched: no chain
is "$(k orphan_kernel '.scan.chain // "none"')" none "a kernel never launched has no chain"
# the lambda m.def names no function: its op is nobody's
is "$(grep -c scale_twice "$D/scan.ndjson")" 0 "a lambda binding gives no op"

# --no-chain: the same kernels, no op, no chain, no file read for it
run "$KSCAN" --no-chain --timing --root . test/chain/ext
is "$(jq -c 'del(.scan.op, .scan.chain)' "$D/scan.ndjson")" "$(cat "$T_TMP/out")" \
    "--no-chain: the records without op and chain"
is "$(grep -c 'binding.cpp\|scale.cpp\|norm_api.cpp' "$T_TMP/err")" 0 \
    "--no-chain: binding, dispatcher and API files are not parsed"

# --- kreport groups by op
run "$KREPORT" "$D/scan.ndjson"
like "$(cat "$T_TMP/out")" "### By op" "kreport: a breakdown by op"
is "$(grep -E '^\| `(add|scale_forward|\(none\))` ' "$T_TMP/out" |
    awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3); print $2 "=" $3 }' |
    tr '\n' ' ')" '`(none)`=5 `add`=1 `scale_forward`=1 ' \
    "kreport: records per op, the ones without one together"
run "$KREPORT" --format json "$D/scan.ndjson"
is "$(jq -r '[.breakdown.op[].key] | join(" ")' "$T_TMP/out")" \
    "(none) add scale_forward" "kreport json: breakdown.op"
run "$KREPORT" --format json examples/kscan.ndjson
is "$(jq -r '.breakdown | has("op")' "$T_TMP/out")" false \
    "kreport: no op breakdown where no record names an op"

done_testing
