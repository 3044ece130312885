# The replay script refuses what it cannot use with one line and exit
# status 2, never a traceback: no file, not JSON, not a list, an entry
# without what it needs, a tensor it cannot build, bad options, no
# PyTorch, --device cuda without a GPU. An op that fails (it is not in
# this PyTorch, or the call raises) is one line on the standard error
# and in the table; the others still run; exit status 1.
here=$(cd "$(dirname "$0")" && pwd)
tl-parse "$here/resnet-ops.json" | tl-tree >t.tsv 2>/dev/null || exit 1
tl-replay -o b -n 'mm|fill' t.tsv 2>/dev/null
cd b || exit 1
py() {
	PYTHONPATH=$here/faketorch python3 replay.py "$@"
	echo "exit $?"
}
echo "== the file"
py nonesuch.json
echo '[{"op_name": "aten::mm"' >cut.json
py cut.json
echo '{"a": 1}' >obj.json
py obj.json
echo '[{"op_name": "mm", "replay_ir": {}}]' >noname.json
py noname.json
echo '[{"op_name": "aten::mm"}]' >noir.json
py noir.json
echo '[{"op_name": "aten::mm", "replay_ir": {"list_pos_args": [{"arg_name": "self"}]}}]' >noarg.json
py noarg.json
t='{"op_name": "aten::mm", "replay_ir": {"list_pos_args": [{"arg_name": "self", "arg_type": "Tensor", "value": %s}]}}'
printf "[$t]\n" '{"shape": [2, -1], "strides": [1, 1], "dtype": "float", "init": null}' >neg.json
py neg.json
printf "[$t]\n" '{"shape": [2, 3], "strides": [3, 1, 1], "dtype": "float", "init": null}' >strides.json
py strides.json
printf "[$t]\n" '{"shape": [2], "strides": [1], "dtype": "c10::Float8_e4m3fn", "init": null}' >dtype.json
py dtype.json
printf "[$t]\n" '{"shape": [2], "strides": [1], "dtype": "float", "init": "zeros"}' >init.json
py init.json
printf "[$t]\n" '{"shape": [2.5], "strides": [1], "dtype": "float", "init": null}' >float.json
py float.json
printf "[$t]\n" '{"shape": [2, 3], "strides": [9223372036854775808, 1], "dtype": "float", "init": null}' >big.json
py big.json
echo "== options"
py --repeats 0 event_replay_ir.json
py --op '(' event_replay_ir.json
py --max-mb -1 event_replay_ir.json
py --device tpu event_replay_ir.json 2>/dev/null
PYTHONPATH=$here/faketorch python3 replay.py --device cuda
echo "exit $?"
echo "== ops that fail"
printf '[{"op_name": "aten::nosuch_op", "replay_ir": {"list_pos_args": [], "list_kwargs": []}}]\n' >nosuch.json
py nosuch.json
printf "[$t]\n" '{"shape": [2], "strides": [1], "dtype": "long", "init": "normal"}' >long.json
py long.json
FAKETORCH_FAIL=aten::mm py --check 2>&1
echo "== no PyTorch (-S: no site packages, so none found)"
python3 -S replay.py
echo "exit $?"
