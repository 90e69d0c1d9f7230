# The import part of test/gpu/run.sh (sourced by it, with its helpers ok
# and line): candidates kimport read from test/import/'s rows
# (test/gpu/import-prepare.sh built them), verified against their rows'
# references: the agent's wrong first iteration fails, its fix passes.
if [ ! -f "$g/import.ndjson" ]; then
	ok 1 "import: run sh test/gpu/import-prepare.sh (prepare.sh does) first"
else
	I=$out/import.ndjson
	# the verdict's pass_exe: the record's import section holds the
	# agent's own history, pass_exe keys included, before it
	verdict() {
		line "$1" "$2" | sed 's/.*"verify":{/{/' |
		    grep -o "\"$3\":[a-z]*" | head -n 1 | cut -d: -f2
	}
	./kverify --time 10 < "$g/import.ndjson" > "$I" 2> "$out/import.err"
	echo "# import: kverify exit $?"
	sed 's/^/# /' "$out/import.err" | head -n 10
	p=gpu-test:import
	for r in run_0.jsonl:1:saxpy_kernel run_1.jsonl:1:saxpy_kernel \
	    run_1.jsonl:3:scale_rows tritonbench.jsonl:1:negate \
	    computeeval.jsonl:2:square_kernel; do
		echo "# $r: pass_exe=$(verdict "$I" "$p:$r" pass_exe)" \
		    "$(line "$I" "$p:$r" | grep -o '"reasons":\[[^]]*\]' | head -n 1)"
	done
	ok "$([ "$(verdict "$I" "$p:run_0.jsonl:1:saxpy_kernel" pass_exe)" = false ] &&
	    line "$I" "$p:run_0.jsonl:1:saxpy_kernel" | grep -q '"reasons":\[[^]]*"mismatch"' &&
	    echo 0 || echo 1)" \
	    "import: the GEAK run's first saxpy (drops + y[i]) fails against the label: mismatch"
	ok "$([ "$(verdict "$I" "$p:run_1.jsonl:1:saxpy_kernel" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "import: its second iteration passes"
	ok "$([ "$(verdict "$I" "$p:run_1.jsonl:3:scale_rows" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "import: scale_rows, the factors swapped, passes"
	ok "$([ "$(verdict "$I" "$p:tritonbench.jsonl:1:negate" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "import: the TritonBench negate (0.0f - x) passes against its label"
	ok "$([ "$(verdict "$I" "$p:computeeval.jsonl:2:square_kernel" pass_exe)" = false ] && echo 0 || echo 1)" \
	    "import: the ComputeEval solution (x + x for x * x) fails against the baseline"
fi
