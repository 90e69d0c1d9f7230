#!/bin/sh
# make test-asan: build a copy of the working tree under DIR/src with
# AddressSanitizer and UndefinedBehaviorSanitizer (the tools in the tree
# stay as they are), run the whole suite there, and fail when any
# sanitizer wrote a report.  Reports go to DIR/log/, one file a process,
# so a report from a process whose status a test does not check counts too.
#
#	sh test/asan.sh DIR [test/x.t ...]
set -u
cd "$(dirname "$0")/.." || exit 2
dir=${1:?usage: test/asan.sh dir [test ...]}
shift
root=$(pwd)
case $dir in /*) ;; *) dir=$root/$dir ;; esac
flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"

rm -rf "$dir/src" "$dir/log"
mkdir -p "$dir/src" "$dir/log" || exit 2
# the tracked and new files, as the next commit would see them
git ls-files -co --exclude-standard | grep -v '^test/tmp/' |
    while read -r f; do [ -e "$f" ] && echo "$f"; done |
    tar -cf - -T - | tar -xf - -C "$dir/src" || exit 2
# a repository of its own: kscan takes the enclosing repository's top for
# the root ids are relative to, and the copy's paths must be the tree's
git init -q "$dir/src" || exit 2
${MAKE:-make} --no-print-directory -C "$dir/src" CFLAGS="$flags" \
    LDFLAGS="-fsanitize=address,undefined" all unit || exit 2

ASAN_OPTIONS="detect_leaks=1:exitcode=86:log_path=$dir/log/asan"
ASAN_OPTIONS="$ASAN_OPTIONS:detect_stack_use_after_return=1:fast_unwind_on_malloc=0"
LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87"
UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$dir/log/ubsan"
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
KFORGE_BIN=$dir/src
# the copy has no deps/ (git ignores it): the tree "make deps" laid out here
KFORGE_CUDA_PATH=${KFORGE_CUDA_PATH:-$root/deps/cuda-12.4}
export KFORGE_BIN KFORGE_CUDA_PATH
# GCC's UBSan ignores log_path: its reports are found in the run's output
# (tests show a failing command's stderr) as well as by exit status
{ (cd "$dir/src" && sh test/run "$@"); echo $? > "$dir/status"; } 2>&1 |
    tee "$dir/run.log"
status=$(cat "$dir/status" 2> /dev/null || echo 1)
if grep -E 'runtime error:|ERROR: (Address|Leak)Sanitizer' "$dir/run.log" \
    > "$dir/log/from-output"; then
	:
else
	rm -f "$dir/log/from-output"
fi

n=$(find "$dir/log" -type f | wc -l | tr -d ' ')
if [ "$n" -gt 0 ]; then
	echo "test-asan: $n sanitizer reports in $dir/log:" >&2
	for f in "$dir"/log/*; do
		echo "==> $f" >&2
		head -n 40 "$f" >&2
	done
	[ "$status" -ne 0 ] || status=1
else
	echo "test-asan: no sanitizer reports"
fi
exit "$status"
