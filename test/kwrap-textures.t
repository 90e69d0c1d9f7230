#!/bin/sh
# Texture objects (test/textures/textures.cu, saved as
# test/textures/kslice.ndjson): a cudaTextureObject_t parameter is an
# input the harness makes, described by the spec's texture (kind,
# channels, extent, coordinates) from the kernel's fetches: tex2D<float4>
# at texel coordinates, tex2D<float> at coordinates divided by the width
# (normalized), tex1Dfetch<int> (linear memory), tex3D at coordinates
# scaled by a constant under 1, a helper's fetch through an alias of
# uchar4, tex2DLayered.  The extent stays within a case's buffer budget;
# the cases bind no value to it; the harness passes the handle and --plan
# shows the texture; a user's spec whose texture does not add up is a bad
# spec; the HIP harness builds with hipcc and with nvcc through
# lib/hipnv.  A surface object and a texture fetched as two kinds are
# bad-spec errors naming why.  make test-gpu runs the six on a GPU.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/textures/kslice.ndjson
is "$T_STATUS" 1 "exit status 1 (records with errors)"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 8 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/t.ndjson"
# rec KERNEL JQ: a jq expression on KERNEL's record
rec() {
	jq -c --arg id "test/textures/textures.cu::$1" \
	    "select(.id == \$id) | $2" "$T_TMP/t.ndjson"
}
# tex KERNEL: the texture parameter's role, dtype, count and texture
tex() {
	rec "$1" '[.wrap.spec.params[] | select(.texture) | [.name, .role,
	    .dtype, .element_size, .count, .texture.kind, .texture.channels,
	    .texture.normalized, .texture.extent]]'
}

is "$(tex row_sum)" '[["img","in","float32",4,"1048576","2d",4,false,[512,512]]]' \
    "tex2D<float4> at texel coordinates: 2d, four channels of float32, sized from the cases' sizes within a buffer's budget"
is "$(tex rotate)" '[["tex","in","float32",4,"65536","2d",1,true,[256,256]]]' \
    "coordinates divided by the width on their way (tu /= (float)w): normalized"
is "$(tex lookup)" '[["table","in","int32",4,"1048576","linear",1,false,[1048576]]]' \
    "tex1Dfetch<int>: linear memory of int32"
is "$(tex sample_volume)" '[["vol","in","float32",4,"262144","3d",1,true,[64,64,64]]]' \
    "tex3D at coordinates scaled by 0.015625f: 3d, normalized"
is "$(tex edges)" '[["src","in","uint8",1,"1048576","2d",4,false,[512,512]]]' \
    "a helper's tex2D<pixel>, pixel an alias of uchar4: four channels of uint8"
is "$(tex layer_mean)" '[["stack","in","float32",4,"524288","2d_layered",1,false,[256,256,8]]]' \
    "tex2DLayered: the extent's last is the layers"
is "$(rec row_sum '[.wrap.spec.cases[] | .scalars | has("img")] | any')" false \
    "the cases give the texture no value"
is "$(rec row_sum '[.wrap.spec.cases[0].scalars.w, .wrap.spec.cases[0].scalars.h, .wrap.spec.confidence.overall]')" \
    '[300,64,"high"]' "its constant count leaves the cases their sizes"
is "$(rec row_sum '[.wrap.spec.cases[] | .fills.img.kind // empty]')" \
    '["constant","uniform","uniform"]' \
    "the zeros, negatives and large cases fill it as they fill an input buffer"
like "$(rec row_sum '.wrap.instruction.detailed' | jq -r .)" \
    '\| img \| in \| cudaTextureObject_t \| a 2d texture of 512 x 512 texels, 4 channels of float32, texel coordinates, clamped, point sampled \|' \
    "the instruction says what the texture is"
like "$(rec row_sum '.wrap.harness.code' | jq -r .)" \
    'kw_b\[kw_nb\]\.tex = 3; kw_b\[kw_nb\]\.tex_ch = 4; kw_b\[kw_nb\]\.tex_norm = 0; kw_b\[kw_nb\]\.tex_ext\[0\] = 512LL; kw_b\[kw_nb\]\.tex_ext\[1\] = 512LL' \
    "the harness knows the texture's kind, channels and extent"
like "$(rec row_sum '.wrap.harness.code' | jq -r .)" \
    'void \*kw_args\[\] = \{ \(void \*\)&kw_b\[0\]\.dev, \(void \*\)&w, \(void \*\)&h, \(void \*\)&r, \(void \*\)&kw_b\[1\]\.tex_obj \};' \
    "the kernel gets the texture object's handle"

# bad KERNEL PATTERN WHAT: a bad-spec error matching PATTERN, no harness
bad() {
	is "$(rec "$1" '[.errors[]? | select(.stage == "kwrap") | .code] | join(",")')" \
	    '"bad-spec"' "$3: a bad-spec error"
	like "$(rec "$1" '[.errors[]?.message] | join(";")')" "$2" \
	    "$3: the message names the parameter and why"
	is "$(rec "$1" '.wrap.harness.code != null')" false "$3: no harness"
}
bad clear_surface 'parameter s \(cudaSurfaceObject_t\) .*a handle of a surface object, which the harness does not create' \
    "a surface object"
bad two_ways 'parameter t \(cudaTextureObject_t\) .*a texture object whose fetches do not say what it holds' \
    "a texture fetched as linear memory and as 2d"

run test/validate "$T_TMP/t.ndjson"
is "$T_STATUS" 0 "schemas: every output validates (param.texture)"

# a user's spec whose texture does not add up
user() {
	rec row_sum "{id: .id, spec: (.wrap.spec | $1)}" > "$T_TMP/user.ndjson"
	"$KWRAP" --spec "$T_TMP/user.ndjson" < test/textures/kslice.ndjson \
	    2> /dev/null | jq -c --arg id test/textures/textures.cu::row_sum \
	    'select(.id == $id) | [(.wrap.harness.code != null), ([.errors[]?.message] | join(";"))]'
}
like "$(user '.params[4].count = "1000"')" \
    '^\[false,.*params\[4\]\.count: a texture.s count is its extent.s texels times its channels, 1048576' \
    "--spec: a count other than the extent's elements is refused"
like "$(user '.params[4].texture.extent = [512]')" \
    '^\[false,.*params\[4\]\.texture\.extent: a 2d texture has 2' \
    "--spec: an extent of the wrong length"
like "$(user '.params[4].texture.kind = "cube"')" \
    '^\[false,.*params\[4\]\.texture\.kind: not linear, 1d, 2d, 3d, 1d_layered or 2d_layered' \
    "--spec: a kind the harness does not make"
like "$(user '.params[4].role = "inout"')" \
    '^\[false,.*params\[4\]\.texture: a texture is a parameter whose role is in' \
    "--spec: a texture the kernel would write"
like "$(user '.params[4].dtype = "float64"')" \
    '^\[false,.*params\[4\]\.dtype: a texture holds 8, 16 or 32-bit integers, float16 or float32' \
    "--spec: an element type no texture holds"
is "$(user '.params[4].texture.extent = [256, 1024]')" '[true,""]' \
    "--spec: another extent of as many elements is taken"

# the harness, built with nvcc against the toolkit's stub libcuda: --plan
# shows the texture; a --count that does not fit its extent is refused
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
if [ -x "$NVCC" ] && [ -f "$CUDA/lib64/stubs/libcuda.so" ]; then
	mkdir -p "$T_TMP/h" "$T_TMP/stub" "$T_TMP/o"
	ln -sf "$CUDA/lib64/stubs/libcuda.so" "$T_TMP/stub/libcuda.so.1"
	for k in row_sum rotate lookup sample_volume edges layer_mean; do
		rec "$k" '.wrap.harness.code' | jq -r . > "$T_TMP/h/$k.cu"
		if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none \
		    "$k.cu" -o "$k" -L"$CUDA/lib64/stubs" -lcuda) \
		    2> "$T_TMP/h/$k.err"; then
			pass "nvcc: $k's harness builds"
		else
			fail "nvcc: $k's harness builds"
			diag_file "$T_TMP/h/$k.err"
		fi
	done
	is "$(LD_LIBRARY_PATH=$T_TMP/stub "$T_TMP/h/edges" m k "$T_TMP/o" \
	    --plan --case 0 | jq -c '.buffers[1] | [.name, .count, .bytes, .texture]')" \
	    '["src",1048576,1048576,{"kind":"2d","extent":[512,512],"channels":4,"normalized":false}]' \
	    "--plan: the texture's kind, extent, channels and coordinates"
	LD_LIBRARY_PATH=$T_TMP/stub "$T_TMP/h/edges" m k "$T_TMP/o" --plan \
	    --case 0 --count src=5 > /dev/null 2> "$T_TMP/err"
	is "$?" 2 "--count of a texture other than its extent's: usage error"
	like "$(cat "$T_TMP/err")" \
	    '^harness: src: a texture of 1048576 elements \(its extent.s texels times 4 channels\), not 5' \
	    "and it says why"
	# HIP: the same harness, through kforge's HIP-on-NVIDIA mapping
	"$KWRAP" --dialect hip < test/textures/kslice.ndjson 2> /dev/null |
	    jq -r 'select(.id == "test/textures/textures.cu::layer_mean") |
	    .wrap.harness.code' > "$T_TMP/h/harness.hip"
	if "$NVCC" -std=c++17 -x c++ -cudart none -Ilib/hipnv -c \
	    -o "$T_TMP/h/hip.o" "$T_TMP/h/harness.hip" 2> "$T_TMP/h/hip.err"; then
		pass "the HIP harness with a texture builds through lib/hipnv"
	else
		fail "the HIP harness with a texture builds through lib/hipnv"
		diag_file "$T_TMP/h/hip.err"
	fi
else
	skip "the harness with nvcc" "nvcc or its stub libcuda is missing" 10
fi
if command -v hipcc > /dev/null 2>&1 && [ -s "$T_TMP/h/harness.hip" ]; then
	if (cd "$T_TMP/h" && hipcc -std=c++17 -O2 --offload-arch=gfx90a \
	    -c harness.hip -o hipcc.o) 2> "$T_TMP/h/hipcc.err"; then
		pass "hipcc: the HIP harness with a texture compiles"
	else
		fail "hipcc: the HIP harness with a texture compiles"
		diag_file "$T_TMP/h/hipcc.err"
	fi
else
	skip "hipcc: the HIP harness with a texture compiles" "hipcc or nvcc is not installed"
fi
done_testing
