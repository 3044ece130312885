# The replay IR as TraceLens's EventReplayer makes it, written from the
# event-replay spec (parse_schema_string, _is_schema_match,
# _get_event_replay_IR, get_repro_info) and not from tl-replay's code,
# for each unique-args group of a Kineto trace (name and the four input
# lists, as TraceLens's test groups them; the group's first event).
# Compared with tl-replay's file of the same trace: the replayable
# groups must have the same op name, IR (as JSON text: 1.0 is not 1) and
# count; the others are counted by reason in tl-replay's words.
#
#   python3 tracelens.py SCHEMAS TRACE.json[.gz] TL-REPLAY-OUTPUT.json
import collections
import gzip
import json
import re
import sys

DTYPES = ("double", "float", "c10::Half", "c10::BFloat16", "long", "int",
          "bool")
KEYS = ("Input Dims", "Input type", "Input Strides", "Concrete Inputs")


class TensorList(Exception):
    pass


class Unsupported(Exception):
    pass


def parse_schema_string(s):
    m = re.match(r"^([^\(]+)\((.*)\)\s*->\s*(.*)$", s)
    if not m:
        raise ValueError("Cannot parse schema string: " + s)
    name, args, _ = m.groups()
    pos, _, kw = args.partition("*")

    def side(t):
        out = []
        t = t.strip(", ")
        if not t:
            return out
        for item in t.split(","):
            item = item.strip()
            typ, _, rest = item.partition(" ")
            aname, _, default = rest.strip().partition("=")
            out.append({"arg_type": typ, "arg_name": aname.strip(),
                        "default": default or None})
        return out
    return name, side(pos), side(kw)


def is_int(c):
    return re.fullmatch(r"-?[0-9]+", c) is not None


def is_float(c):
    try:
        float(c)
        return True
    except ValueError:
        return False


def is_schema_match(args, types, conc):
    if len(types) != len(args):
        return False
    for a, p, c in zip(args, types, conc):
        s = a["arg_type"]
        if s.endswith("?"):
            s = s[:-1]
            if p == "":
                continue
            if p == "ScalarList" and c == "[]":
                continue
        if s in ("Tensor", "Tensor(a!)"):
            ok = p in DTYPES
        elif s == "bool":
            ok = c.lower() in ("true", "false")
        elif s in ("int", "SymInt"):
            ok = p == "Scalar" and is_int(c)
        elif s in ("float", "Scalar"):
            ok = p == "Scalar" and is_float(c)
        elif s.startswith("int[") or s.startswith("SymInt["):
            ok = p == "ScalarList" and all(
                is_int(x.strip()) for x in c[1:-1].split(","))
        elif s.startswith("bool["):
            ok = p == "ScalarList" and all(
                x.strip().lower() in ("true", "false")
                for x in c[1:-1].split(","))
        elif s.startswith("Tensor["):
            raise TensorList(s)
        else:
            ok = p == ""
        if not ok:
            return False
    return True


def ir(name, args, npos, ev):
    dims, types, strides, conc = (ev[k] for k in KEYS)
    pos, kw = [], []
    for i, a in enumerate(args):
        t, p, c = a["arg_type"], types[i], conc[i]
        if t.endswith("?") and p == "":
            v = None
        elif t.endswith("?") and c == "[]":
            v = []
        elif t in ("Tensor", "Tensor?", "Tensor(a!)"):
            init = "normal"
            if name == "aten::fill_" or (name == "aten::copy_" and
                                         a["arg_name"] != "src"):
                init = None
            if init and p in ("long", "int", "bool"):
                raise IntInit(p)
            v = {"shape": dims[i], "dtype": p, "strides": strides[i],
                 "init": init}
        elif t in ("bool", "bool?"):
            v = c.lower() == "true"
        elif t in ("int", "SymInt"):
            v = int(c)
        elif t in ("float", "float?", "Scalar", "Scalar?"):
            v = float(c)
        elif re.match(r"(int|SymInt)\[", t):
            v = [int(x) for x in c.strip()[1:-1].split(",")]
        elif t.startswith("bool["):
            v = [x.strip().lower() == "true"
                 for x in c.strip()[1:-1].split(",")]
        else:
            raise Unsupported(t)
        (pos if i < npos else kw).append(
            {"arg_name": a["arg_name"], "arg_type": a["arg_type"], "value": v})
    return {"list_pos_args": pos, "list_kwargs": kw}


class IntInit(Exception):
    """TraceLens makes the IR and fails at build_tensor; tl refuses."""


def replay(schemas, name, ev):
    for s in schemas.get(name, []):
        n, pos, kw = parse_schema_string(s)
        args = pos + kw
        try:
            if not is_schema_match(args, ev["Input type"],
                                   ev["Concrete Inputs"]):
                continue
        except TensorList:
            return "tensor list argument", None
        try:
            return None, ir(name, args, len(pos), ev)
        except Unsupported:
            return "unsupported argument type", None
        except IntInit:
            return "integer tensor with normal init", None
    return "no matching schema", None


def main(schemas_path, trace_path, tl_path):
    schemas = collections.defaultdict(list)
    for line in open(schemas_path):
        line = line.rstrip("\n")
        if line:
            full = parse_schema_string(line)[0]
            ns, _, rest = full.partition("::")
            schemas[ns + "::" + rest.split(".")[0]].append(line)
    op = gzip.open if trace_path.endswith(".gz") else open
    with op(trace_path, "rt") as f:
        events = json.load(f)["traceEvents"]
    groups = collections.OrderedDict()
    noargs = collections.Counter()
    for e in events:
        if e.get("cat") != "cpu_op" or e.get("ph") != "X":
            continue
        a = e.get("args", {})
        if not all(k in a for k in KEYS[1:]):
            noargs[e["name"], json.dumps([a.get(k) for k in KEYS])] += 1
            continue
        key = json.dumps([e["name"]] + [a.get(k) for k in KEYS])
        if key not in groups:
            groups[key] = [e, 0]
        groups[key][1] += 1
    want = collections.Counter()
    why = collections.Counter()
    whyops = collections.Counter()
    why["no Input type, Input Strides or Concrete Inputs"] = len(noargs)
    whyops["no Input type, Input Strides or Concrete Inputs"] = \
        sum(noargs.values())
    for e, n in groups.values():
        r, v = replay(schemas, e["name"], e["args"])
        if r is None:
            want[json.dumps({"op_name": e["name"], "replay_ir": v,
                             "count": n})] += 1
        else:
            why[r] += 1
            whyops[r] += n
    got = collections.Counter(
        json.dumps({"op_name": x["op_name"], "replay_ir": x["replay_ir"],
                    "count": x["count"]}) for x in json.load(open(tl_path)))
    print("%d groups, %d replayable: %s" % (
        len(groups) + len(noargs), sum(want.values()),
        "the same in tl-replay's file" if got == want else "DIFFERENT"))
    for k in sorted((want - got).keys()):
        print("  only the reference's: " + k)
    for k in sorted((got - want).keys()):
        print("  only tl-replay's: " + k)
    for r in sorted(why):
        if why[r]:
            print("  not replayable: %s: %d group%s, %d op%s" % (
                r, why[r], "" if why[r] == 1 else "s",
                whyops[r], "" if whyops[r] == 1 else "s"))


if __name__ == "__main__":
    main(*sys.argv[1:])
