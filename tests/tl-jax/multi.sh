# Two GPUs of a JAX 0.8 profile whose correlation ids restart per GPU: by
# default each kernel is linked to the launch of its own GPU (the launch's
# device_id); with -T to the last launch of that id, as TraceLens does
# (the launch latencies of GPU 0 change). Keyword filters keep the
# kernels whose HLO metadata has one of the words.
x=$TESTDATA/xplane/jax08.xplane.pb
tl-parse "$x" >ev || exit 1
for o in "" -T; do
	echo "tl-jax $o"
	tl-jax $o -s kernel_launchers ev |
	    awk -F, '{ print $1, $2, $3, $6, $7, $NF }'
done
tl-jax -k add,nothing -s kernel_launchers_summary ev
tl-jax -s gpu_timeline ev
tl-jax -s gpu_events_averages ev
tl-jax -s op_conv ev
