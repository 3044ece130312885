# The rocprof report's units. By default "µs" columns hold µs, "ms"
# totals ms, and the short-kernel threshold is in µs (10 µs: all 41
# dispatches of the small run), cumulative percentages in the order
# shown; with --tracelens, TraceLens's numbers: ns under the µs headers,
# µs under the ms ones, a threshold of 10 compared with ns (the one 5 ns
# dispatch), cumulative percentages in name order. The histogram's
# edges, a short kernel's row, and a memory copy in gpu_timeline.
tl-parse "$TESTDATA/rocprof-small.json" >ev.tsv || echo "exit $?"
for m in "" --tracelens; do
	echo "== ${m:-default}"
	tl-rocprof rocprof $m --short_kernel_study --short_kernel_histogram_bins 4 \
	    --kernel_details --topk_kernels 3 -o out ev.tsv || echo "exit $?"
	for f in gpu_timeline kernel_summary kernel_summary_by_category \
	    kernel_details short_kernels_summary short_kernel_histogram; do
		echo "-- $f"
		cat "out/$f.csv"
	done
done
