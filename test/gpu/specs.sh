# The specs part of test/gpu/run.sh (sourced by it, with its helpers ok,
# line, val and has; sh test/gpu/run.sh specs runs it alone): kinds of
# spec kwrap writes, each verified on the GPU: non-finite cases, index
# maps and vector strides, structs passed by value, tensor accessors.
# --- non-finite cases (test/nonfinite/nonfinite.cu and the candidates of
# test/gpu/nonfinite/; prepare.sh built them): each kernel that tests its
# data for NaN or Inf is a verified task that passes as its own candidate;
# a count_nonfinite_kernel that is wrong only on non-finite data fails
if [ -f "$g/nonfinite.ndjson" ]; then
	./kverify --no-time < "$g/nonfinite.ndjson" > "$out/nonfinite.ndjson" \
	    2> "$out/nonfinite.err"
	echo "# nonfinite: exit $?"
	sed 's/^/# /' "$out/nonfinite.err" | head -n 10
	N=$out/nonfinite.ndjson
	for k in count_bad_kernel nan_to_zero_kernel helper_guard_kernel \
	    self_compare_kernel half_nan_kernel nan_to_num_kernel; do
		m=test/nonfinite/nonfinite.cu::$k
		echo "# $k: $(line "$N" "$m" | grep -o '"verified":{[^}]*}') pass_exe=$(val "$N" "$m" pass_exe)"
		has "$N" "$m" '"verified":{"value":true' &&
		    [ "$(val "$N" "$m" pass_exe)" = true ]
		ok $? "nonfinite: $k is a verified task and passes as its own candidate"
	done
	for c in good nan-only double; do
		echo "# nonfinite-$c: pass_exe=$(val "$N" "gpu-test:nonfinite-$c" pass_exe)" \
		    "$(line "$N" "gpu-test:nonfinite-$c" | grep -o '"reasons":\[[^]]*\]' | head -n 1)"
	done
	ok "$([ "$(val "$N" gpu-test:nonfinite-good pass_exe)" = true ] && echo 0 || echo 1)" \
	    "nonfinite: a right count_nonfinite_kernel written otherwise passes"
	ok "$([ "$(val "$N" gpu-test:nonfinite-nan-only pass_exe)" = false ] &&
	    [ "$(val "$N" gpu-test:nonfinite-double pass_exe)" = false ] && echo 0 || echo 1)" \
	    "nonfinite: counting NaN only, or 2 per element, fails (finite data alone would pass them)"
fi

# --- index maps and vector strides (test/fills/indexmap.cu; prepare.sh
# built them): with a map filled with indices into the buffer it indexes,
# and strides that keep float4 loads aligned, each reference is clean
# under memcheck on case 0, runs every case and passes as its own
# candidate
if [ -f "$g/indexmap.ndjson" ]; then
	./kverify --no-time < "$g/indexmap.ndjson" > "$out/indexmap.ndjson" \
	    2> "$out/indexmap.err"
	echo "# indexmap: exit $?"
	sed 's/^/# /' "$out/indexmap.err" | head -n 10
	for k in map_gather_kernel vec_rows_kernel; do
		m=test/fills/indexmap.cu::$k
		echo "# $k: $(line "$out/indexmap.ndjson" "$m" | grep -o '"verified":{[^}]*}') pass_exe=$(val "$out/indexmap.ndjson" "$m" pass_exe)"
		has "$out/indexmap.ndjson" "$m" '"verified":{"value":true' &&
		    ! has "$out/indexmap.ndjson" "$m" '"reference-fault"' &&
		    [ "$(val "$out/indexmap.ndjson" "$m" pass_exe)" = true ]
		ok $? "indexmap: $k is a verified task, no case faults, and it passes as its own candidate"
	done
fi

# --- structs passed by value that hold pointers (test/byvalue/byvalue.cu;
# prepare.sh built them): a struct laid out wrongly hands the kernel
# garbage addresses, which memcheck or the unwritten outputs catch
if [ -f "$g/byvalue.ndjson" ]; then
	./kverify --no-time < "$g/byvalue.ndjson" > "$out/byvalue.ndjson" \
	    2> "$out/byvalue.err"
	echo "# byvalue: exit $?"
	sed 's/^/# /' "$out/byvalue.err" | head -n 10
	for k in pointer_member_kernel void_member_kernel \
	    'template_cast_kernel<double>'; do
		has "$out/byvalue.ndjson" "test/byvalue/byvalue.cu::$k" \
		    '"verified":{"value":true'
		ok $? "byvalue: $k, its struct's pointer members buffers, is a verified task"
	done
	has "$out/byvalue.ndjson" 'test/byvalue/traits.cu::traits_cast_kernel<io_traits_f64>' \
	    '"verified":{"value":true'
	ok $? "byvalue: traits_cast_kernel, void * members cast to a traits class's element type, is a verified task"
	has "$out/byvalue.ndjson" 'test/byvalue/shared.cu::shared_sum_kernel' \
	    '"verified":{"value":true'
	ok $? "byvalue: shared_sum_kernel, a void * member it never names passed as null, is a verified task"
fi
# --- tensor accessors passed by value (test/accessor/accessor.cu;
# prepare.sh built them): the harness hands the kernel a data pointer,
# sizes and strides laid out as the accessor; a wrong layout reads garbage
# addresses (memcheck) or leaves outputs unwritten
if [ -f "$g/accessor.ndjson" ]; then
	./kverify --no-time < "$g/accessor.ndjson" > "$out/accessor.ndjson" \
	    2> "$out/accessor.err"
	echo "# accessor: exit $?"
	sed 's/^/# /' "$out/accessor.err" | head -n 10
	for k in scale_rows_kernel 'norms_kernel<float>' gather_kernel \
	    affine_kernel modes_kernel pair_sum_kernel tile_kernel \
	    mixed_kernel row_sum_kernel gather_sum_kernel count_scale_kernel; do
		has "$out/accessor.ndjson" "test/accessor/accessor.cu::$k" \
		    '"verified":{"value":true'
		ok $? "accessor: $k is a verified task"
	done
fi
# the layout kwrap gives an accessor against PyTorch's own headers, where
# this machine has PyTorch and nvcc (prepare.sh wrote the checks)
if [ -d "$g/accessor-layout" ]; then
	inc=$(python3 -c 'from torch.utils.cpp_extension import include_paths
print(" ".join("-I" + p for p in include_paths()))' 2> /dev/null)
	if [ -n "$inc" ] && command -v nvcc > /dev/null; then
		for f in "$g"/accessor-layout/*.cu; do
			b=$out/layout-$(basename "$f" .cu)
			# shellcheck disable=SC2086 # the include flags split
			nvcc -std=c++17 $inc -o "$b" "$f" 2> "$b.err" &&
			    "$b" > "$b.out" 2>&1
			ok $? "accessor layout agrees with PyTorch's: $(basename "$f" .cu)"
		done
	else
		echo "# accessor layout against PyTorch's headers: skipped (no torch or nvcc)"
	fi
fi
