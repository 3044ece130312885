# TraceLens's rocprof report on the real 8-GPU MI350X rocprofv3 JSON, with
# --tracelens: every sheet cell for cell against TraceLens's CSVs at 1e-6
# relative; kernel_details sorts equal durations in no defined order, so
# its rows are compared as a multiset, and its durations must be in
# descending order. The same with the flags of TraceLens's "all options"
# test (threshold 20, the 50 longest dispatches).
d=$TRACES/rocprof
[ -f "$d/908_results.json.gz" ] || exit 77
cmpdir() {	# ref out
	for f in gpu_timeline kernel_summary kernel_summary_by_category \
	    short_kernels_summary short_kernel_histogram; do
		awk -v tol=1e-6 -v name="$f" -f "$TESTDATA/../lib/csvcmp.awk" \
		    "$1/$f.csv" "$2/$f.csv"
	done
	if [ -f "$1/kernel_details.csv.gz" ]; then
		gzip -dc "$1/kernel_details.csv.gz" >ref-details.csv
	else
		cp "$1/kernel_details.csv" ref-details.csv
	fi
	head -n 1 ref-details.csv >a.csv
	head -n 1 "$2/kernel_details.csv" >b.csv
	tail -n +2 ref-details.csv | sort >>a.csv
	tail -n +2 "$2/kernel_details.csv" | sort >>b.csv
	awk -v tol=1e-6 -v name="kernel_details (as a multiset)" \
	    -f "$TESTDATA/../lib/csvcmp.awk" a.csv b.csv
	# The duration is the last field before the stream and 9 more.
	awk -F, 'NR > 1 { d = $(NF - 10); if (NR > 2 && d > last) bad++
	    last = d }
	END { m = "in"; if (bad) m = bad " rows out of"
	    print "kernel_details: " m " descending order" }' \
	    "$2/kernel_details.csv"
}
tl-parse "$d/908_results.json.gz" >ev.tsv || echo "tl-parse: exit $?"
tl-rocprof rocprof --tracelens --kernel_details --short_kernel_study \
    -o out ev.tsv || echo "exit $?"
cmpdir "$d/908_results.ref" out
tl-rocprof rocprof --tracelens --kernel_details --short_kernel_study \
    --short_kernel_threshold_us 20 --topk_kernels 50 -o top50 ev.tsv ||
	echo "exit $?"
cmpdir "$d/908_results.ref/top50" top50
