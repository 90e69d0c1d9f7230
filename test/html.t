#!/bin/sh
# kreport's HTML page read as a person would, in a headless browser at
# 1,280 px: long ids wrap and wide tables scroll inside themselves (nothing
# reaches the right edge), a banner says when verification never ran, and
# failed records link to their debug folders.  chromium comes with
# "make deps": its absence is a failure, not a skip.
. "$(dirname "$0")/lib.sh"

have_tool kreport || skip_all "kreport not built"
KREPORT=$(tool kreport)
D=$T_TMP

# records as a no-GPU run leaves them, with ids as long as real trees give
long=mmcv/ops/csrc/common/cuda/a_rather_long_directory_name/and_another_one/sync_bn_cuda_kernel.cuh
i=0
while [ $i -lt 12 ]; do
	printf '{"id":"%s::sync_bn_forward_mean_cuda_kernel_number_%d<float>","scan":{"file":"%s","name":"k","dialect":"cuda"},"slice":{"code":"__global__ void k() {}","tags":{}},"wrap":{"harness":{"code":"int main() {}"}},"build":{"reference":{"ok":true},"harness":{"ok":true}},"candidate":{"code":"__global__ void k() {}"},"errors":[{"stage":"kverify","code":"no-device","message":"%s::sync_bn_forward_mean_cuda_kernel_number_%d<float>: no GPU: cuInit: CUDA_ERROR_NO_DEVICE, a message long enough to push a right-aligned column off any screen that is not very wide indeed"}]}\n' \
	    "$long" $i "$long" "$long" $i
	i=$((i + 1))
done > "$D/in.ndjson"
cd "$D" || exit 255
run "$KREPORT" --format html --debug-dir debug in.ndjson
cd "$T_ROOT" || exit 255
H=$D/report.html
cp "$T_TMP/out" "$H"
like "$(grep -o '<p class="banner"[^<]*' "$H")" \
    "Verification never ran: kverify found no GPU \(12 records say no-device\)" \
    "a banner says verification never ran"
is "$(grep -o '<a href="debug/[^"]*/"><code>' "$H" | wc -l | tr -d ' ')" 12 \
    "each failed record links to its debug folder"
first=$(grep -o '<a href="debug/[^"]*/"' "$H" | head -n 1 | sed 's/<a href="//; s/"$//')
ok "$([ -d "$D/$first" ] && echo 0 || echo 1)" "the link names a folder that exists ($first)"
is "$(grep -Eic '<script|<link|<img|src=|@import|url\(' "$H")" 0 \
    "no scripts and no external resources"
is "$(grep -o 'href="[^"]*"' "$H" | grep -cv '^href="debug/')" 0 \
    "links only to the debug folders"

browser=
for b in chromium chromium-browser; do
	command -v "$b" > /dev/null && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	fail "a headless browser to look at the page"
	diag "chromium is not installed: make deps installs it"
	done_testing
	exit
fi
P=$D/report.png
HOME=$D timeout 120 "$browser" --headless --disable-gpu --no-sandbox \
    --hide-scrollbars --screenshot="$P" --window-size=1280,2400 "file://$H" \
    > "$D/browser.log" 2>&1
# the right 40 px of a 1,280 px screen stay the page's white
python3 test/png.py "$P" 1240 > "$D/png" 2>&1
read -r pw ph pc edge < "$D/png" 2> /dev/null
is "$pw x $ph" "1280 x 2400" "the browser rendered a 1280 px wide screenshot" ||
    { diag_file "$D/png"; diag_file "$D/browser.log"; }
ok "$([ "${pc:-0}" -gt 10 ] && echo 0 || echo 1)" "the screenshot is not blank ($pc colours)"
is "${edge:-x}" 0 "nothing reaches the right edge at 1,280 px: ids wrap, tables scroll inside"

done_testing
