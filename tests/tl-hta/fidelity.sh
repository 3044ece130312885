# Fidelity: on every HTA trace of ../shared/traces/hta with a .ref
# directory of HTA's outputs, tl-hta writes the same CSV files as HTA
# (no file that HTA did not write), every cell equal, numbers within
# 1e-6 relative (tests/lib/csvcmp.awk). The references were made with
# max_queue_length=2 for time_blocked_on_full_queue, and the trace diff
# of trace_filter compares its rank 0 (control) with its rank 1 (test).
# The CUPTI counter columns come in Python's set order in HTA: they are
# matched by name (cols.py). The frequent kernel sequences and critical paths are
# those the references name. A critical path's breakdown lists its edges
# in Python's set order, and its cat column is the id of HTA's symbol
# table (a set's order too): its rows are compared as a multiset, without
# the row number, and cat is not compared. The overlaid traces are
# compared as JSON (overlay-cmp.py: the events as a multiset, the flows
# without their ids), not byte for byte: HTA writes them indented.
[ -d "$TRACES/hta" ] || exit 77
cmp=$TESTDATA/../lib/csvcmp.awk
h=$TRACES/hta
status=0
mkdir -p out in
mine='^(loaded_events_rank|temporal_breakdown|idle_time_breakdown|idle_interval_stats|kernel_type_breakdown|kernel_breakdown|comm_comp_overlap|cuda_kernel_launch_stats_rank|queue_length_|time_blocked_on_full_queue|memory_bw_|gpu_user_annotation_breakdown|cpu_user_annotation_breakdown|gpu_kernels_with_user_annotations_rank|trace_diff_|memory_timeline|aten_op_kernels_and_delay_rank|frequent_cuda_kernel_sequences_|critical_path[0-9]+_|cupti_counter_data_rank)'
# name, trace folder or file, reference, options
while read -r name trace ref opts; do
	opts=$(echo "$opts" | sed "s|@H@|$h|g")
	if [ -f "$h/$trace" ]; then	# a folder of its own for one file
		mkdir -p "in/$name"
		ln -sf "$h/$trace" "in/$name/"
		dir=in/$name
	else
		dir=$h/$trace
	fi
	out=out/$name
	rm -rf "$out"
	set -f		# the annotations hold [ ]
	# shellcheck disable=SC2086
	if ! tl-hta --trace_dir "$dir" --output_csvs_dir "$out" \
	    --max_queue_length 2 $opts 2>"$out.err"; then
		set +f
		echo "$name: tl-hta failed: $(head -1 "$out.err")"
		status=1
		continue
	fi
	set +f
	n=0 skipped=0
	for f in "$h/$ref"/*.csv; do
		b=${f##*/}
		if ! echo "$b" | grep -Eq "$mine"; then
			skipped=$((skipped + 1))
			continue
		fi
		if [ ! -f "$out/$b" ]; then
			echo "$name $b: not written"
			status=1
			continue
		fi
		exp=$f got=$out/$b skip=
		case $b in
		cupti_counter_data_*)
			# the counter columns in Python's set order
			command -v python3 >/dev/null 2>&1 || {
				skipped=$((skipped + 1))
				continue
			}
			python3 "$TESTDATA/../tl-hta/cols.py" "$f" \
			    "$out/$b" >"$out.got"
			got=$out.got
			;;
		critical_path*_breakdown.csv)
			for x in exp got; do
				eval "y=\$$x"
				{ head -n 1 "$y"; tail -n +2 "$y" |
				    sed 's/^[0-9]*,/,/' | sort; } >"$out.$x"
			done
			exp=$out.exp got=$out.got skip=cat
			;;
		aten_op_kernels_and_delay_*)
			# ties of occurrence_count: one reference has them in
			# another order than numpy's introsort gives; rows as
			# a multiset (whole records: no field holds a newline)
			sort "$f" >"$out.exp"
			sort "$out/$b" >"$out.got"
			exp=$out.exp got=$out.got
		esac
		if ! awk -v tol=1e-6 -v name="$name $b" -v skip="$skip" \
		    -f "$cmp" "$exp" "$got" >"$out.cmp"; then
			head -3 "$out.cmp"
			status=1
		fi
		n=$((n + 1))
	done
	for f in "$h/$ref"/critical_path*_overlaid_*.json.gz; do
		[ -f "$f" ] || continue
		b=${f##*/}
		if ! command -v python3 >/dev/null 2>&1; then
			skipped=$((skipped + 1))
		elif [ ! -f "$out/$b" ]; then
			echo "$name $b: not written"
			status=1
		elif python3 "$TESTDATA/../tl-hta/overlay-cmp.py" \
		    "$name $b" "$f" "$out/$b" 2>/dev/null; then
			n=$((n + 1))
		else
			status=1
		fi
	done
	for f in "$out"/*.csv; do
		[ -f "$f" ] || continue
		[ -f "$h/$ref/${f##*/}" ] ||
			{ echo "$name ${f##*/}: written, HTA writes none"; status=1; }
	done
	echo "$name: $n files equal, $skipped not compared"
	grep -v "^tl-tree:" "$out.err" | sed "s|$h/||; s/^/  /"
done <<'CASES'
trace_filter trace_filter trace_filter.ref --diff_test_dir @H@/trace_filter --diff_control_rank 0 --diff_test_rank 1 --frequent_sequences aten::linear --frequent_sequences Optimizer --frequent_sequences fbgemm
memory_analysis critical_path/cuda_event_sync memory_analysis.ref --only memory_timeline --memory_timeline @H@/memory_analysis/memory_timeline.raw.gz
trace_filter.include_last trace_filter trace_filter.include_last.ref --include_last_profiler_step
simple_add critical_path/simple_add critical_path/simple_add.ref --frequent_sequences aten::to --critical_path [param|pytorch.model.alex_net|0|0|0|measure|forward]:1 --critical_path :0 --data_load_events data_load
cuda_event_sync critical_path/cuda_event_sync critical_path/cuda_event_sync.ref --critical_path ProfilerStep:0
cuda_event_sync_multi_stream critical_path/cuda_event_sync_multi_stream critical_path/cuda_event_sync_multi_stream.ref --critical_path :
cupti_profiler cupti_profiler cupti_profiler.ref
event_sync_trace event_sync_trace.json.gz event_sync_trace.ref --critical_path :
mi250 mi250_minitoy_train_ROCm6_2_kineto.json.gz mi250_minitoy_train_ROCm6_2_kineto.ref --frequent_sequences aten::linear --critical_path ProfilerStep:1
rank-34 rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz rank-34.Jul_15_10_52_41.1074.pt.trace.ref
triton_example triton_example.json.gz triton_example.ref --critical_path :
CASES
exit $status
