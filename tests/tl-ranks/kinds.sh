# The rules the other sets leave out (data/kinds: 4 ranks, 2 GPUs a
# node, made by data/gen.py), every file checked by hand against
# tl-ranks(1) and the spec:
#  - the other collective names: reduce_scatter_tensor_coalesced (Long),
#    all_to_all (Double), all_gather_into_tensor_coalesced (Short: the
#    full size is the out size, 0.03125 MiB), allreduce_coalesced (Bool);
#    a vllm cross_device_reduce kernel without a Collective name is an
#    allreduce (Int); ComplexFloat has no size (sizes, full size and
#    bandwidths empty); a gather (Byte: 3 MiB) has no type, so it is in
#    nccl_long and nccl_summary_long only;
#  - Process Group Ranks as JSON arrays: Python's tuples, "(0, 1)", the
#    group of one rank "(0,)" (bus factor 2(n-1)/n = 0), "()";
#  - group 2 has ranks 2 and 3 only, and the first instance (1_0) ranks
#    0 and 1: ranks 2 and 3 get their columns after those of 0 and 1,
#    ts and dur then wait, as pandas makes them;
#  - earliest arrival rank among equal waits the largest (0_1: ranks 2
#    and 3 both waited 1 us: 3; 0_3 and 2_0: all 0), times_arrived_last
#    the first wait column of the least wait (0_0: ranks 0 and 2: 0);
#    straggler ranks 0 and 1 tied at 7 us by rank;
#  - HTA: the cross_device_reduce kernel is computation for HTA (its
#    name starts with none of nccl, hip, hccl); rank 0's communication
#    is 75 us, 57 of them under the gemm: 76.0 %; no ncclKernel* name,
#    so no potential straggler (an empty line).
d=$TESTDATA/../tl-ranks/data/kinds
"$TESTDATA"/../../scripts/tl-collective-report --world_size 4 \
    --trace_pattern "$d/rank*.json" --output_csvs_dir csv
echo "exit $?"
for f in csv/*; do
	echo "== ${f#csv/}"
	cat "$f"
done
