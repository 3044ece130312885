# The real traces: GPU events, linked and unlinked, as TraceLens counts
# them (h100 Qwen: 1707 GPU events, 509 unlinked: their launches are not in
# the trace; mi210: a GPU-only trace, all 562 linked); host events left out
# with python frames in (none: TraceLens leaves out 5 to 14 python frames
# per trace only because it adds ts + dur in floating point); and, for
# Qwen, the direct and subtree kernel time per op name, in us, which
# match TraceLens's ops_summary.csv to its rounding.
[ -d "$TRACES" ] || exit 77
ln -s "$TRACES"/* . || exit 1
for t in */*.json.gz; do
	tl-parse "$t" | tl-tree -P 2>err | awk -F'\t' -v t="$t" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["linked"] != "" { n[$c["linked"]]++ }
	END { printf "%s: %d GPU events, %d linked, %d unlinked\n", t,
	    n[0] + n[1], n[1], n[0] }'
	grep -c 'left out' err
done
tl-parse h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz | tl-tree 2>/dev/null |
    awk -F'\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ u = $c["uid"]; name[u] = $c["name"]
	  d[u] = $c["gpu_kernel_time_ns"]; s[u] = $c["subtree_kernel_time_ns"] }
	$c["launcher"] != "" { L[$c["launcher"]] = 1 }
	END {
		for (u in L) { k = name[u]; n[k]++; ds[k] += d[u]; ss[k] += s[u] }
		for (k in n)
			printf "%s\t%d\t%.3f\t%.3f\n", k, n[k], ds[k] / 1000,
			    ss[k] / 1000
	}' | sort
