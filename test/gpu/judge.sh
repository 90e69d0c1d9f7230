# The judge part of test/gpu/run.sh (sourced by it, with its helpers ok,
# line, val and has; sh test/gpu/run.sh judge runs it alone):
# nondeterministic references judged in their bands, and the mutation
# score of small kernels with their mutants (prepare.sh built them).
# --- a nondeterministic reference judged in its band, and the mutation
# score (test/gpu/judge/, test/mutate/; prepare.sh built them)
if [ -f "$g/judge.ndjson" ]; then
	t0=$(date +%s)
	./kverify -j "$JOBS" --no-time --mutant-timeout 5 < "$g/judge.ndjson" \
	    > "$out/judge.ndjson" 2> "$out/judge.err"
	echo "# judge: exit $? in $(($(date +%s) - t0)) s"
	sed 's/^/# /' "$out/judge.err" | head -n 10
	J=$out/judge.ndjson
	b=test/gpu/judge/binsum.cu::bin_sum
	echo "# bin_sum: deterministic=$(val "$J" "$b" deterministic)" \
	    "$(line "$J" "$b" | grep -o '"tolerance":{[^]]*]' | head -c 400)"
	ok "$([ "$(val "$J" "$b" deterministic)" = false ] && echo 0 || echo 1)" \
	    "float atomicAdd over 16M elements: the reference's outputs differ between runs"
	has "$J" "$b" '"banded":true'
	ok $? "and the spread is measured: a tolerance band"
	has "$J" "$b" '"verified":{"value":true'
	ok $? "a nondeterministic reference within its band is a verified task"
	ok "$([ "$(val "$J" "$b" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "the reference submitted as its own candidate passes (reasons: $(line "$J" "$b" | grep -o '"reasons":\[[^]]*\]' | head -n 1))"
	for m in test/mutate/blocksum.cu::block_sum test/mutate/modes.cu::axpy_mode \
	    test/mutate/guard.cu::clamp_low; do
		echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
		    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "equivalent=$(line "$J" "$m" | grep -o '"mutation":{[^}]*' | grep -o '"equivalent":[0-9]*' | cut -d: -f2)" \
		    "score=$(val "$J" "$m" score)" \
		    "survivors=$(line "$J" "$m" | grep -o '"survivors":\[[^]]*\]' | grep -o '"id":"m[0-9]*"' | cut -d'"' -f4 | tr '\n' ' ')"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$m: the reference passes as its own candidate"
	done
	m=test/mutate/blocksum.cu::block_sum
	tried=$(val "$J" "$m" tried)
	killed=$(val "$J" "$m" killed)
	ok "$([ "${tried:-0}" -ge 15 ] 2> /dev/null && echo 0 || echo 1)" \
	    "block_sum: its mutants ran (tried $tried of 20)"
	ok "$([ "${killed:-0}" -ge $(( ${tried:-0} * 6 / 10 )) ] 2> /dev/null && [ "${killed:-0}" -gt 0 ] && echo 0 || echo 1)" \
	    "block_sum: the tests kill most of them ($killed of $tried)"
	line "$J" "$m" | grep -o '"mutants":\[{"id":"m1".*"status":"[a-z]*"[^]]*\]' |
	    grep -o '"id":"m[0-9]*","status":"[a-z]*"\(,"by":"[a-z]*"\)\?' |
	    tr '\n' ' ' | sed 's/^/# /'
	echo
	has "$J" "$m" '"killed_by":{"[a-z]'
	ok $? "block_sum: killed_by says how"
	# a bound one too far ("i < n" made "i <= n") writes y[n], past the
	# buffer, and every compared element stays right: memcheck kills it
	m=test/mutate/order.cu::order_guard
	echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "$(line "$J" "$m" | grep -o '"killed_by":{[^}]*}')"
	has "$J" "$m" '"killed_by":{[^}]*"memcheck":[1-9]'
	ok $? "order_guard: a mutant whose outputs are right dies under memcheck"
	m=test/mutate/modes.cu::axpy_mode
	has "$J" "$m" '"mutation":{"tried":[1-9]'
	ok $? "axpy_mode: scored (its switch case gives mode == 2 a run)"
	# kwrap's boundary cases: comparisons that only data or scalars
	# exactly on the compared value tell apart from their mutants
	m=test/mutate/boundary.cu::boundary_kernel
	for id in m4 m9 m14 m16 m17 m18; do
		has "$J" "$m" "\"id\":\"$id\",[^}]*\"status\":\"killed\""
		rc=$?
		bk=$(line "$J" "$m" | grep -o "\"id\":\"$id\",\"case\":[0-9]*" |
		    cut -d: -f3)
		ok $rc "boundary_kernel: $id killed (by case $bk; v >= thresh, x[i] < y[i], v > 0.0f beside mode == 1 &&, k < lim || flip != 0)"
	done
	has "$J" test/mutate/ties.cu::nearest '"id":"m9",[^}]*"status":"killed"'
	ok $? "nearest: d < best made d <= best dies where distances tie"
	# kwrap's size-guard case: m = 0 at "if (m <= 0) return;", where the
	# guard made "m < 0" (m1) stores into a buffer of 0 elements and
	# memcheck sees it; the reference, which returns, stays a verified
	# task with an output of 0 elements in that case
	m=test/mutate/sizeguard.cu::pick_rows
	echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
	    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "$(line "$J" "$m" | grep -o '"killed_by":{[^}]*}')"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "pick_rows: verified with its size_edge case (picks empty there)"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "pick_rows: the reference passes as its own candidate"
	has "$J" "$m" '"id":"m1",[^}]*"status":"killed","by":"memcheck"'
	ok $? "pick_rows: m <= 0 made m < 0 dies under memcheck on the size_edge case"
	# sizes that differ in some case (test/mutate/decompose.cu): b =
	# index / L / C leaves 0 in non_multiple, so b's term made a
	# quotient (m6) reads another element there
	m=test/mutate/decompose.cu::batch_decompose
	echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
	    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "survivors=$(line "$J" "$m" | grep -o '"survivors":\[[^]]*\]' | grep -o '"id":"m[0-9]*"' | cut -d'"' -f4 | tr '\n' ' ')"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "batch_decompose: the reference passes as its own candidate"
	has "$J" "$m" '"id":"m6",[^}]*"status":"killed"'
	ok $? "batch_decompose: b * C made b / C dies (b reaches 2 in non_multiple)"
	# kwrap's proofs of equivalence under the spec (test/equiv/guards.cu):
	# the mutants it marked run and survive every case; a kill would
	# contradict a proof
	for k in gather_guard batch_guard row_stride loop_assert; do
		m=test/equiv/guards.cu::$k
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		has "$J" "$m" '"spec_equivalent":[1-9]'
		ok $? "$k: the mutants kwrap proved equivalent survive on the GPU"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof of equivalence"
	done
	# dead code and dead stores for a template instance
	# (test/equiv/dead.cu): the marked mutants survive, none is killed
	for k in 'tile_sum<32>' 'tile_sum<64>' 'dyn_sum<32>'; do
		m="test/equiv/dead.cu::$k"
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$k: the reference passes as its own candidate"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof of dead code or a dead store"
	done
	has "$J" 'test/equiv/dead.cu::tile_sum<32>' '"spec_equivalent":[1-9]'
	ok $? "tile_sum<32>: its dead-code and dead-store mutants survive on the GPU"
	# a launch with 64 KiB of dynamic shared memory, over the 48 KiB a
	# kernel gets without opting in (test/gpu/judge/bigshared.cu): the
	# harness opts in as the project's host code does
	m=test/gpu/judge/bigshared.cu::tile_reverse
	echo "# $m: $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "tile_reverse: a launch with 64 KiB of dynamic shared memory runs and is verified"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "tile_reverse: the reference passes as its own candidate"
	# shared memory read before it is written
	# (test/gpu/judge/staleshared.cu): the harness fills it with the
	# run's sentinel, the repeat's differs, so the golden differs from
	# its repeat in the host (this run) and in processes of its own
	m=test/gpu/judge/staleshared.cu::stale_shared_sum
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	ok "$([ "$(val "$J" "$m" deterministic)" = false ] && echo 0 || echo 1)" \
	    "stale_shared_sum: shared memory read before written: nondeterministic in the host"
	has "$J" "$m" '"verified":{"value":false,"reason":"reads-unwritten"'
	ok $? "stale_shared_sum: not a verified task: its outputs follow the shared memory's fill (reads-unwritten)"
	has "$J" "$m" '"hosted":true'
	ok $? "stale_shared_sum: the judge run went to the worker's host (the default)"
	grep -F "\"id\":\"$m\"" "$g/judge.ndjson" |
	    ./kverify --no-host --no-time --no-mutants > "$out/stale-nohost.ndjson" 2>> "$out/judge.err"
	has "$out/stale-nohost.ndjson" "$m" '"verified":{"value":false,"reason":"reads-unwritten"'
	ok $? "stale_shared_sum: reads-unwritten with --no-host too"
	has "$out/stale-nohost.ndjson" "$m" '"hosted":false'
	ok $? "stale_shared_sum: --no-host ran it in a serving harness of its own"
	# results placed through an atomic counter
	# (test/gpu/judge/partition.cu): the golden's runs hold the same
	# elements in other orders; the output is unordered, compared as a
	# multiset, and the reference passes as itself
	m=test/gpu/judge/partition.cu::split_sign
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	ok "$([ "$(val "$J" "$m" deterministic)" = false ] && echo 0 || echo 1)" \
	    "split_sign: a partition through atomic counters differs between runs"
	has "$J" "$m" '"name":"out"[^}]*"unordered":true'
	ok $? "split_sign: its output is unordered, not incomparable"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "split_sign: a verified task"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "split_sign: the reference passes as its own candidate"
	# a race on one element (test/gpu/judge/tailwinner.cu): where the
	# runs differ there, the output is split (the race is small beside
	# the large_magnitude case's values: banded) or masked, the other
	# elements judged in their own band, and the task is still verified;
	# the reference passes as itself
	m=test/gpu/judge/tailwinner.cu::tail_winner
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"\(masked\|split\)":true,"unstable":[0-9]*' | head -n 1)"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "tail_winner: a race on one element is a verified task"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "tail_winner: the reference passes as its own candidate"
	ok "$([ "$(val "$J" "$m" deterministic)" = true ] ||
	    has "$J" "$m" '"\(masked\|split\)":true' && echo 0 || echo 1)" \
	    "tail_winner: where its runs differ, out is split or masked"
	# vector stores guarded at their start (test/sizes/vector.cu): the
	# count rounded up to the width leaves no element unwritten
	# (and rows of float4 read through a const pointer or copied
	# asynchronously: the row stride a multiple of 4; halves and pairs
	# of them named through a traits class's aliases)
	for k in vec_index_kernel vec_offset_kernel vec_stride_kernel \
	    "vec_bytes_kernel<__half>" vec_tile_kernel vec_async_kernel \
	    "vec_alias_kernel<half_io>"; do
		m="test/sizes/vector.cu::$k"
		has "$J" "$m" '"verified":{"value":true'
		ok $? "$k: a verified task, every element of its count written"
	done
	# verified FILE WHAT KERNEL...: each kernel of FILE a verified task
	# (WHAT says how) that passes as its own candidate
	verified() {
		vf=$1
		vw=$2
		shift 2
		for k in "$@"; do
			m="$vf::$k"
			echo "# $m: $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
			has "$J" "$m" '"verified":{"value":true'
			ok $? "$k: a verified task, $vw"
			ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
			    "$k: the reference passes as its own candidate"
		done
	}
	# launches under the launcher's conditions (test/sizes/dispatch.cu):
	# cols a multiple of 32, the tap bounded through chans / 32, groups
	# and eps at the values the launcher runs with, a row no wider than
	# its shared buffer, a length that divides the tile, whole tiles of
	# a grid divided down (and its near miss, a grid with a tail block),
	# a block of the warp size by the larger of two row counts
	verified test/sizes/dispatch.cu "under its launch's conditions" \
	    tile_rows tap_gather one_group row_cached tile_pairs col_tiles \
	    tail_block head_rows
	# offsets that bound segments or that a helper bisects
	# (test/fills/offsets.cu): filled so that they never decrease, the
	# rows they bound stay inside their buffers and every run agrees
	verified test/fills/offsets.cu "its offsets never decreasing" \
	    csr_rows_kernel packed_tokens_kernel segment_of_kernel
	# strides passed as integers (test/sizes/strides.cu): laid out so
	# that no two elements meet, the output a view whose gaps stay
	verified test/sizes/strides.cu "its strides laid out" \
	    rotate_rows strided_pick rotate_halves
	# pointers set in branches, namesakes in sibling scopes, constructors
	# picked by their class's specialization, grids split by a product,
	# locals set once from the instance (test/sizes/branches.cu): every
	# buffer sized from its accesses
	verified test/sizes/branches.cu "its buffers sized from their accesses" \
	    'checked_rows<false>' 'checked_rows<true>' either_rows two_loops \
	    'picked_load<1>' flat_split 'typed_split<float>' tiled_grid
	# shared memory that grows with a size (test/sizes/sharedfit.cu)
	verified test/sizes/sharedfit.cu "its cases within a block's shared memory" \
	    reverse_row
	# maps that pick where plain stores land (test/fills/scatter.cu):
	# distinct, so no two threads store to one element; the near misses
	# (a gather, an atomic scatter) keep their integers
	verified test/fills/scatter.cu "every run agreeing" \
	    scatter_rows_kernel scatter_local_kernel gather_rows_kernel \
	    scatter_atomic_kernel
	# texture objects (test/textures/textures.cu): the harness makes
	# each from the kernel's fetches (2d, normalized, linear, 3d, a
	# helper's, layered) and passes its handle
	verified test/textures/textures.cu "over a texture the harness made" \
	    row_sum rotate lookup sample_volume edges layer_mean
	# row pitches (test/sizes/pitch.cu): at least the row's width in
	# every case, so no two rows meet
	verified test/sizes/pitch.cu "its rows apart" \
	    pitched_scale pitched_read row_major
	# dropped barriers that order nothing (test/equiv/barrier.cu): the
	# marked ones survive, no kill contradicts them; the reference
	# passes as its own candidate
	for k in 'pick_far<64>' tail_sync; do
		m="test/equiv/barrier.cu::$k"
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$k: the reference passes as its own candidate"
		has "$J" "$m" '"spec_equivalent":[1-9]'
		ok $? "$k: its dropped barrier that orders nothing survives on the GPU"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof that a barrier orders nothing"
	done
fi
