# A replay IR file, one line per entry: its uid, name, count, median
# kernel time (us) and its arguments as the IR has them (a tensor as
# dtype[shape]/[strides], ~ for init null), keyword-only ones after *.
import json
import sys


def v(x):
    if isinstance(x, dict):
        return "%s%s/%s%s" % (x["dtype"], x["shape"], x["strides"],
                              "" if x["init"] == "normal" else "~")
    return json.dumps(x)


for e in json.load(sys.stdin):
    ir = e["replay_ir"]
    a = ["%s:%s=%s" % (x["arg_name"], x["arg_type"], v(x["value"]))
         for x in ir["list_pos_args"]]
    k = ["%s:%s=%s" % (x["arg_name"], x["arg_type"], v(x["value"]))
         for x in ir["list_kwargs"]]
    print(e["uid"], e["op_name"], e["count"], e["kernel_time_us_median"],
          " ".join(a), "*", " ".join(k))
