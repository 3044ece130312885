# Rules of the spec the given HTA traces do not exercise, on small
# synthetic traces whose numbers can be checked by hand.
# nccl: the kernel types (^nccl and ncclKernel anywhere: COMMUNICATION;
# rccl: COMPUTATION; a Memcpy: MEMORY; Stream Sync: OTHER, yet a GPU row
# of the temporal breakdown); the overlap of communication by
# computation (10 of 30 us); a zero-length MEMORY state where a memcpy
# and a kernel end at once (HTA's sort order); idle time of a stream
# with one kernel (its ratio 0/0, empty); launch delays.
# queue: a kernel that starts before its launch (clock skew): queue
# lengths below zero, and the time at a queue of 0 or more.
# diffa, diffb: a trace diff pair with no name in common: every row on
# one side only, the other side's columns 0.
# Then the critical path of an annotation that does not exist and of an
# instance past the last: one line each, nothing written, exit 0.
d=$TESTDATA/../tl-hta/data
show() {
	echo "exit $1"
	sed "s|$d/||g" err
	for f in "$2"/*; do
		echo "-- ${f#*/}"
		cat "$f"
	done
}
tl-hta --trace_dir "$d/nccl" --output_csvs_dir nccl \
    --only temporal_breakdown,kernel_breakdown,comm_comp_overlap \
    --only idle_time_breakdown,memory_bw,cuda_kernel_launch_stats 2>err
show $? nccl
tl-hta --trace_dir "$d/queue" --output_csvs_dir queue \
    --max_queue_length 0 --only queue_length 2>err
show $? queue
tl-hta --trace_dir "$d/diffa" --diff_test_dir "$d/diffb" \
    --output_csvs_dir diff --only trace_diff 2>err
show $? diff
for a in 'aten::nosuch:0' 'aten::mm:3' 'aten::mm:0-1'; do
	tl-hta --trace_dir "$d/nccl" --output_csvs_dir "cp$a" \
	    --only critical_path --critical_path "$a" 2>err
	echo "exit $?"
	sed "s|$d/||g" err
	ls "cp$a"
done
