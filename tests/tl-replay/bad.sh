# Inputs that are not what the profiler writes: a negative size, more
# strides than dims, lists of different lengths, sizes whose storage is
# beyond 2^62 elements, a stride that is not a whole number, Input Dims
# that is not a list, concrete inputs that disagree with their types (a
# value for a tensor, none for a Scalar, a ScalarList without brackets).
# Each is located (the stream's line) and counted by
# reason, as warnings: the output is still written, exit status 0.
here=$(dirname "$0")
tl-parse "$here/bad-ops.json" | tl-tree 2>/dev/null | tl-replay
echo "exit $?"
