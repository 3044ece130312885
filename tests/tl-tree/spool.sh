# A trace whose rows do not fit the spool's 16 MiB of memory: the rest
# wait in a temporary file, and the rows come out as they came in, in
# order, each once, whichever side of the spill they were on (the first
# columns of the output are the input), with their tree columns: 120,000
# nested pairs of ops, 23 MB of rows.
awk 'BEGIN { OFS = "\t"
	print "uid", "ph", "cat", "name", "pid", "tid", "ts_ns", "dur_ns",
	    "id", "bp", "stream", "correlation", "external_id", "seq"
	pad = sprintf("%080d", 0)
	for (i = 0; i < 120000; i++) {
		t = i * 1000
		print 2 * i + 1, "X", "cpu_op", "aten::outer_" pad, 1, 1, t,
		    900, "", "", "", "", "", ""
		print 2 * i + 2, "X", "cpu_op", "aten::inner_" pad, 1, 1,
		    t + 100, 500, "", "", "", "", "", ""
	} }' >in.tsv
wc -c <in.tsv | awk '{ print ($1 > 16 * 1048576) ? "over 16 MiB" : "under" }'
tl-tree in.tsv >out.tsv
echo "exit $?"
cut -f 1-14 out.tsv | cmp - in.tsv && echo "the rows as they came"
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n[$(c["depth"])]++; p[$(c["parent"]) == "" ? "root" : "child"]++ }
	END { for (d in n) print "depth " d ": " n[d]
		for (d in p) print d ": " p[d] }' out.tsv | sort
