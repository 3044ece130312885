# A Perfetto trace as rocprofv3 writes it, both writer generations: the
# slices tl-parse reads from the protobuf are exactly the ground truth
# (NAME.slices.tsv: seq_order, cat, name, track, pid, tid, ts_ns, dur_ns,
# args), row for row and byte for byte; seq_order counts the slices
# (the X rows: a kernel's is followed by the two ac2g flow rows that
# link it to its launch), the track is the extra column's "track". The
# newer writer's file starts with a packet that needs incremental state
# on a sequence never cleared: skipped and counted.
d=$TRACES/pftrace
[ -f "$d/rocprofv3_synth_a.pftrace" ] || exit 77
for v in a b; do
	tl-parse "$d/rocprofv3_synth_$v.pftrace" 2>err.$v >ev.$v ||
		echo "$v: exit $?"
	sed "s|$d/||" err.$v
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		print "seq_order", "cat", "name", "track_name", "pid", "tid",
		    "ts_ns", "dur_ns", "args_json"; next }
	$c["uid"] == "" || $c["ph"] != "X" { next }
	{ t = $c["extra"]; sub(/^\{"track":"/, "", t); sub(/"\}$/, "", t)
	  print n++, $c["cat"], $c["name"], t, $c["pid"], $c["tid"],
	    $c["ts_ns"], $c["dur_ns"], $c["args"] }' ev.$v >slices.$v
	if cmp -s slices.$v "$d/rocprofv3_synth_$v.slices.tsv"; then
		echo "$v: $(($(wc -l <slices.$v) - 1)) slices, the same"
	else
		diff "$d/rocprofv3_synth_$v.slices.tsv" slices.$v | head -20
	fi
done
