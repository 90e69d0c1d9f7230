# The HIP part of test/gpu/run.sh (sourced by it, with its helpers ok,
# line, val and has): HIP kernels and HIP translations judged on the NVIDIA
# GPU through kforge's mapping of HIP onto CUDA (test/gpu/hip-prepare.sh
# built them).
if [ ! -f "$g/hip-built.ndjson" ] || [ ! -f "$g/hip-cands.ndjson" ]; then
	ok 1 "HIP: run sh test/gpu/hip-prepare.sh (prepare.sh does) first"
else
	H=$out/hip.ndjson
	./kverify --time 10 < "$g/hip-built.ndjson" > "$H" 2> "$out/hip.err"
	ok $? "HIP examples and their CUDA twins: exit 0"
	sed 's/^/# /' "$out/hip.err" | head -n 10
	for k in saxpy_kernel scale_add_kernel; do
		echo "# hip:$k: $(line "$H" "gpu-test:hip:$k" | grep -o '"verified":{[^}]*}') $(line "$H" "gpu-test:hip:$k" | grep -o '"hip":{"platform":"[^"]*","judged":[a-z]*')"
		has "$H" "gpu-test:hip:$k" '"verified":{"value":true'
		ok $? "HIP example $k runs through the mapping and is verified (golden, deterministic, memcheck)"
		has "$H" "gpu-test:hip:$k" '"hip":{"platform":"nvidia-through-hip-mapping","judged":true,"wavefront_sensitive":false'
		ok $? "HIP example $k: verify.hip says nvidia-through-hip-mapping, judged, not wavefront-sensitive"
		# the golden hashes, case by case, of the HIP kernel and its twin
		hh=$(line "$H" "gpu-test:hip:$k" | grep -o '"golden":\[.*\]' | grep -o '"hash":"[0-9a-f]*"' | tr '\n' ' ')
		th=$(line "$H" "gpu-test:twin:$k" | grep -o '"golden":\[.*\]' | grep -o '"hash":"[0-9a-f]*"' | tr '\n' ' ')
		ok "$([ -n "$hh" ] && [ "$hh" = "$th" ] && echo 0 || echo 1)" \
		    "HIP example $k: golden outputs are the bytes of its CUDA twin's ($(echo "$hh" | wc -w) buffers)"
	done
	C=$out/hip-cands.ndjson
	./kverify --time 10 < "$g/hip-cands.ndjson" > "$C" 2> "$out/hip-cands.err"
	echo "# HIP candidates: exit $?"
	sed 's/^/# /' "$out/hip-cands.err" | head -n 10
	for c in relu relu-wrong relu-lanes; do
		echo "# hip-$c: pass_exe=$(val "$C" "gpu-test:hip-$c" pass_exe)" \
		    "reasons=$(line "$C" "gpu-test:hip-$c" | grep -o '"reasons":\["[^]]*\]' | head -n 1)" \
		    "$(line "$C" "gpu-test:hip-$c" | grep -o '"transferable":[a-z]*')"
	done
	ok "$([ "$(val "$C" gpu-test:hip-relu pass_exe)" = true ] && echo 0 || echo 1)" \
	    "a HIP translation of the CUDA relu kernel passes against the CUDA golden"
	has "$C" gpu-test:hip-relu '"hip":{"platform":"nvidia-through-hip-mapping","judged":true,"wavefront_sensitive":false,"reasons":\[\],"transferable":true}'
	ok $? "its verify.hip: judged through the mapping, transferable"
	ok "$([ "$(val "$C" gpu-test:hip-relu-wrong pass_exe)" = false ] && echo 0 || echo 1)" \
	    "a deliberately wrong HIP translation fails"
	has "$C" gpu-test:hip-relu-wrong '"reasons":\["mismatch"'
	ok $? "the wrong HIP translation: reason mismatch"
	ok "$([ "$(val "$C" gpu-test:hip-relu-lanes pass_exe)" = true ] && echo 0 || echo 1)" \
	    "a right translation written for 32-lane warps passes here"
	has "$C" gpu-test:hip-relu-lanes '"wavefront_sensitive":true,"reasons":\[{"kind":"lane-arithmetic"'
	ok $? "and is reported wavefront-sensitive (lane-arithmetic)"
	has "$C" gpu-test:hip-relu-lanes '"transferable":false'
	ok $? "its verdict is marked not transferable"
fi
