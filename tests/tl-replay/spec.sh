# The examples of the event-replay spec. The schema strings are split as
# TraceLens's parse_schema_string splits them (aten::add.Tensor: self
# and other positional, alpha keyword-only); the spec's ResNet
# convolution, with the schema of the torch that wrote the trace
# (SymInt), gives the spec's IR exactly. An event stream (no tl-tree)
# is read too: no kernel times then.
cat >schemas.txt <<'S'
aten::add(Scalar a, Scalar b) -> Scalar
aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor
S
cat >trace.json <<'J'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::convolution", "pid": 1, "tid": 1,
 "ts": 10, "dur": 5, "args": {
 "Input Dims": [[20,64,56,56],[64,64,3,3],[],[],[],[],[],[],[]],
 "Input type": ["c10::BFloat16","c10::BFloat16","","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"],
 "Input Strides": [[200704,3136,56,1],[576,9,3,1],[],[],[],[],[],[],[]],
 "Concrete Inputs": ["","","","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1"]}},
{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1,
 "ts": 20, "dur": 5, "args": {
 "Input Dims": [[4,8],[8],[]], "Input type": ["float","float","Scalar"],
 "Input Strides": [[8,1],[1],[]], "Concrete Inputs": ["","","2"]}}
]}
J
tl-parse trace.json >ev.tsv || exit 1
tl-replay -s schemas.txt ev.tsv >ir.json
echo "exit $?"
cat ir.json
echo "== the convolution is the spec's"
python3 -c '
import json
spec = {"op_name": "aten::convolution",
 "replay_ir": {"list_pos_args": [
   {"arg_name": "input", "arg_type": "Tensor",
    "value": {"shape": [20,64,56,56], "dtype": "c10::BFloat16", "strides": [200704,3136,56,1], "init": "normal"}},
   {"arg_name": "weight", "arg_type": "Tensor",
    "value": {"shape": [64,64,3,3], "dtype": "c10::BFloat16", "strides": [576,9,3,1], "init": "normal"}},
   {"arg_name": "bias", "arg_type": "Tensor?", "value": None},
   {"arg_name": "stride", "arg_type": "SymInt[]", "value": [1,1]},
   {"arg_name": "padding", "arg_type": "SymInt[]", "value": [1,1]},
   {"arg_name": "dilation", "arg_type": "SymInt[]", "value": [1,1]},
   {"arg_name": "transposed", "arg_type": "bool", "value": False},
   {"arg_name": "output_padding", "arg_type": "SymInt[]", "value": [0,0]},
   {"arg_name": "groups", "arg_type": "SymInt", "value": 1}],
  "list_kwargs": []}}
got = json.load(open("ir.json"))[0]
print(got["uid"], got["count"])
del got["uid"], got["count"]
print("same" if got == spec else "differs: %r" % got)'
