# Fidelity: on every PyTorch trace of ../shared/traces with a .ref
# directory of TraceLens's perf report (h100, mi300, mi210,
# torch_compile_triton; the other directories hold other peers' outputs)
# TraceLens's CSVs, tl-agg -C writes the same files (each sheet tl-agg is
# responsible for; no file that TraceLens does not write), every cell
# equal, numbers within 1e-6 relative (tests/lib/csvcmp.awk). The
# perf-model columns of unified_perf_summary come from a perf-model stage
# (tl-roofline) and are empty here, so they are not compared; perf.sh
# tests them, and tests/tl-report/fidelity.sh compares them (tl-roofline
# -t -p | tl-agg).
[ -d "$TRACES" ] || exit 77
cmp=$TESTDATA/../lib/csvcmp.awk
perf='GFLOPS,Data Moved (MB),FLOPS/Byte,Compute Spec,TB/s_mean,TB/s_std'
perf="$perf,TFLOPS/s_mean,TFLOPS/s_std,TB/s_median,TB/s_min,TB/s_max"
perf="$perf,TFLOPS/s_median,TFLOPS/s_min,TFLOPS/s_max,perf_params"
status=0
for ref in "$TRACES"/h100/*.ref "$TRACES"/mi210/*.ref "$TRACES"/mi300/*.ref \
    "$TRACES"/torch_compile_triton/*.ref; do
	trace=${ref%.ref}.json.gz
	[ -f "$trace" ] || continue
	name=${ref#"$TRACES"/}
	name=${name%.ref}
	out=out/$name
	mkdir -p "$out"
	if ! tl-parse "$trace" | tl-tree 2>/dev/null |
	    tl-agg -C "$out" 2>/dev/null; then
		echo "$name: tl-agg failed"
		status=1
		continue
	fi
	for s in gpu_timeline ops_summary_by_category ops_summary \
	    ops_unique_args unified_perf_summary kernel_summary \
	    short_kernels_summary short_kernel_histogram coll_analysis; do
		if [ -f "$ref/$s.csv" ]; then
			if [ ! -f "$out/$s.csv" ]; then
				echo "$name $s: not written"
				status=1
				continue
			fi
			skip=
			[ $s = unified_perf_summary ] && skip=$perf
			awk -v skip="$skip" -v name="$name $s" \
			    -f "$cmp" "$ref/$s.csv" "$out/$s.csv" ||
			    status=1
		elif [ -f "$out/$s.csv" ]; then
			echo "$name $s: written, but TraceLens writes none"
			status=1
		fi
	done
done
exit $status
