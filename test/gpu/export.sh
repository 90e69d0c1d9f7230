# kreport --export-dir on the GPU (sourced by test/gpu/run.sh after the
# golden run and the judge records): every verified task exported as a
# folder, each folder's test.cu built with plain nvcc and run, all must
# pass; test/gpu/wrong.cu dropped into relu_kernel's kernel.cu must fail
# with a mismatch line; so must every killed mutant kept in mutants/.
# No jq, no python: the folders are read from kreport's lines with grep.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x ./kreport ] || [ ! -x "$NVCC" ]; then
	n=$((n + 1))
	echo "ok $n - export: folders built and run # SKIP no ./kreport or no nvcc"
else
	X=$out/export
	rm -rf "$X" "$out/export-wrong"
	./kreport --export-dir "$X" --export-mutants 2 "$out/golden.ndjson" \
	    ${J:+"$J"} > "$out/export.ndjson" 2> "$out/export.err"
	ok $? "export: exit 0"
	sed 's/^/# /' "$out/export.err" | head -n 10
	grep -o '"skipped":"[^"]*"' "$out/export.ndjson" | sort | uniq -c | sed 's/^/# skipped: /'
	dirs=$(grep -o '"dir":"[^"]*"' "$out/export.ndjson" | cut -d'"' -f4)
	echo "# export: $(echo "$dirs" | grep -c .) folders, $(du -sh "$X" | cut -f1)"
	# build in parallel (each folder alone, as a user would), run in turn
	t0=$(date +%s)
	# with task.json's command (the slice's flags), nvcc as $NVCC
	export NVCC
	echo "$dirs" | grep . | xargs -P 8 -I{} sh -c 'cd "$1" &&
	    c=$(sed -n "s/^  \"build\": \"\(.*\)\",\$/\1/p" task.json) &&
	    eval "\"\$NVCC\"${c#nvcc}" > build.log 2>&1' sh {}
	t1=$(date +%s)
	tried=0
	passed=0
	for d in $dirs; do
		tried=$((tried + 1))
		(cd "$d" && ./test > run.log 2>&1)
		rc=$?
		echo "# $(basename "$d"): exit $rc: $(tail -n 1 "$d/run.log" 2> /dev/null || tail -n 1 "$d/build.log")"
		[ "$rc" -eq 0 ] && [ "$(grep -c '^PASS ' "$d/run.log")" -eq 1 ] &&
		    passed=$((passed + 1))
	done
	echo "# export: built in $((t1 - t0)) s, ran in $(($(date +%s) - t1)) s"
	ok "$([ "$tried" -gt 0 ] && [ "$passed" -eq "$tried" ] && echo 0 || echo 1)" \
	    "every exported task builds with nvcc test.cu and passes ($passed of $tried)"

	# a wrong kernel dropped into the relu task's folder
	r=$(grep '"id":"examples/src/elementwise.cu::relu_kernel"' "$out/export.ndjson" |
	    grep -o '"dir":"[^"]*"' | cut -d'"' -f4)
	if [ -n "$r" ]; then
		w=$out/export-wrong
		cp -R "$r" "$w"
		rm -rf "$w/test" "$w/out" "$w/build.log" "$w/run.log"
		cp test/gpu/wrong.cu "$w/kernel.cu"
		(cd "$w" && c=$(sed -n 's/^  "build": "\(.*\)",$/\1/p' task.json) &&
		    eval "\"\$NVCC\"${c#nvcc}" > build.log 2>&1 && ./test > run.log 2>&1)
		rc=$?
		sed 's/^/# wrong: /' "$w/run.log" | head -n 5
		ok "$([ "$rc" -ne 0 ] && grep -q '^mismatch: case 0 ' "$w/run.log" &&
		    tail -n 1 "$w/run.log" | grep -q '^FAIL ' && echo 0 || echo 1)" \
		    "a wrong kernel in kernel.cu: exit $rc, mismatch lines and FAIL"
	else
		n=$((n + 1))
		failed=$((failed + 1))
		echo "not ok $n - relu_kernel was not exported (not verified?)"
	fi

	# killed mutants (the judge records') over kernel.cu
	mt=0
	mf=0
	for m in "$X"/*/mutants/*.cu; do
		[ -f "$m" ] || continue
		d=$(dirname "$(dirname "$m")")
		w=$out/export-mutant
		rm -rf "$w"
		cp -R "$d" "$w"
		rm -rf "$w/test" "$w/out" "$w/mutants" "$w/build.log" "$w/run.log"
		cp "$m" "$w/kernel.cu"
		mt=$((mt + 1))
		# a mutant that does not build proves nothing: not counted failed
		(cd "$w" && c=$(sed -n 's/^  "build": "\(.*\)",$/\1/p' task.json) &&
		    eval "\"\$NVCC\"${c#nvcc}" > build.log 2>&1) || {
			echo "# mutant $(basename "$d")/$(basename "$m"): does not build"
			continue
		}
		(cd "$w" && ./test > run.log 2>&1)
		rc=$?
		echo "# mutant $(basename "$d")/$(basename "$m"): exit $rc: $(tail -n 1 "$w/run.log")"
		[ "$rc" -ne 0 ] && tail -n 1 "$w/run.log" | grep -q '^FAIL ' && mf=$((mf + 1))
	done
	ok "$([ "$mt" -gt 0 ] && [ "$mf" -eq "$mt" ] && echo 0 || echo 1)" \
	    "killed mutants in kernel.cu fail ($mf of $mt)"
fi
