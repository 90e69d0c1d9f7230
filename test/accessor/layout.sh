#!/bin/sh
# Write, for every tensor accessor a kwrap spec lays out, a C++ check
# that the accessor's own type agrees: its size is the spec's, and bytes
# put where the spec's fields say (data, size0.., stride0..) read back
# through the accessor's data(), size(d) and stride(d).
#
#	sh test/accessor/layout.sh KWRAP.ndjson DIR
#
# DIR/NAME.cu, one per accessor; compile each with nvcc -std=c++17 and
# the headers to check (-I stubs, or PyTorch's include paths) and run it:
# exit 0 when the layout agrees.  Needs jq.
set -eu
[ $# -eq 2 ] || { echo "usage: sh test/accessor/layout.sh KWRAP.ndjson DIR" >&2; exit 2; }
mkdir -p "$2"
jq -r '
  (.id | gsub("[^A-Za-z0-9]"; "_")) as $id |
  .wrap.spec.params[]? |
  select(.fields != null and any(.fields[]; .name == "stride0")) |
  "\($id)__\(.name)\t\(.type)\t\(.size)\t" +
  ([.fields[] | "\(.name):\(.offset):\(.dtype)"] | join(" "))' "$1" |
while IFS='	' read -r name type size fields; do
	{
		echo "// layout check of $type (test/accessor/layout.sh)"
		echo "#include <ATen/core/TensorAccessor.h>"
		echo "#include <cstdint>"
		echo "#include <cstdio>"
		echo "#include <cstring>"
		echo "#include <new>"
		echo "typedef $type kw_t;"
		echo "static_assert(sizeof(kw_t) == $size, \"sizeof: the spec says $size\");"
		echo "int main()"
		echo "{"
		echo "	alignas(kw_t) unsigned char b[sizeof(kw_t)] = {};"
		echo "	static char x;"
		echo "	void *d = &x;"
		echo "	int bad = 0;"
		for f in $fields; do
			fn=${f%%:*}; rest=${f#*:}; off=${rest%%:*}; dt=${rest#*:}
			case $dt in int32) ct=int32_t ;; *) ct=int64_t ;; esac
			case $fn in
			data)
				echo "	memcpy(b + $off, &d, sizeof(d));" ;;
			size*)
				echo "	{ $ct v = 11 + ${fn#size}; memcpy(b + $off, &v, sizeof(v)); }" ;;
			stride*)
				echo "	{ $ct v = 101 + ${fn#stride}; memcpy(b + $off, &v, sizeof(v)); }" ;;
			esac
		done
		echo "	const kw_t *a = std::launder(reinterpret_cast<const kw_t *>(b));"
		echo "	if ((const void *)a->data() != d) { bad = 1; puts(\"data: not at its offset\"); }"
		for f in $fields; do
			fn=${f%%:*}
			case $fn in
			size*) echo "	if (a->size(${fn#size}) != 11 + ${fn#size}) { bad = 1; puts(\"$fn: not at its offset\"); }" ;;
			stride*) echo "	if (a->stride(${fn#stride}) != 101 + ${fn#stride}) { bad = 1; puts(\"$fn: not at its offset\"); }" ;;
			esac
		done
		echo "	return bad;"
		echo "}"
	} > "$2/$name.cu"
done
