# The unified table's collection rules (spec 5.5) beyond agg-small.json:
# a backward op that is the sole launching op under its autograd wrapper,
# whose forward (linked by sequence number) has a model with a backward
# category, is a row with that category (NORM_bwd) and has_perf_model 1;
# a python frame between ops changes nothing when tl-tree -P puts it in
# the tree.
cat >t.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "python_function", "name": "nn.Module: LayerNorm_0", "pid": 1, "tid": 1, "ts": 5, "dur": 60},
 {"ph": "X", "cat": "cpu_op", "name": "aten::layer_norm", "pid": 1, "tid": 1, "ts": 10, "dur": 40, "args": {"Sequence number": 7, "Input Dims": [[4, 8], [], [8], [8], [], []], "Input type": ["float", "ScalarList", "float", "float", "Scalar", "Scalar"], "Input Strides": [[8, 1], [], [1], [1], [], []], "Concrete Inputs": ["", "[8]", "", "", "1e-05", "True"]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 3, "args": {"correlation": 1}},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 12},
 {"ph": "X", "cat": "kernel", "name": "layer_norm_fwd", "pid": 0, "tid": 7, "ts": 20, "dur": 4, "args": {"correlation": 1, "stream": 7}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 0, "tid": 7, "ts": 20, "bp": "e"},
 {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: NativeLayerNormBackward0", "pid": 1, "tid": 2, "ts": 100, "dur": 50, "args": {"Sequence number": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "NativeLayerNormBackward0", "pid": 1, "tid": 2, "ts": 102, "dur": 40},
 {"ph": "X", "cat": "python_function", "name": "torch/autograd/graph.py(1): backward_hook", "pid": 1, "tid": 2, "ts": 104, "dur": 30},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 110, "dur": 3, "args": {"correlation": 2}},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 1, "tid": 2, "ts": 110},
 {"ph": "X", "cat": "kernel", "name": "layer_norm_bwd", "pid": 0, "tid": 7, "ts": 120, "dur": 6, "args": {"correlation": 2, "stream": 7}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 0, "tid": 7, "ts": 120, "bp": "e"}
]}
JSON
tl-parse t.json | tl-tree >tree.tsv || exit 1
tl-parse t.json | tl-tree -P >treep.tsv || exit 1
tl-agg unified tree.tsv | cut -f1,2,10,11,23,40
tl-agg unified treep.tsv | cut -f1,2,10,11,23,40
tl-agg ops treep.tsv
