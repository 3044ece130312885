#!/usr/bin/env python3
# tl-replay's replay script: rebuild each op of a replay IR file
# (event_replay_ir.json, as tl-replay -o writes it beside this script, or
# as TraceLens's EventReplayer makes it) with PyTorch alone, run it, time
# it, and print the measured time next to the profiled kernel time.
#
#   python3 replay.py [--device auto|cuda|cpu] [--warmup N] [--repeats N]
#                     [--check] [--op REGEX] [FILE]
#
# Each tensor argument is made with torch.empty_strided(shape, strides,
# dtype, device) (the profiled layout, expanded and non-contiguous ones
# too), then filled by normal_() when its init is "normal" and left as it
# is when init is null. The op is called through torch.ops (an overload
# packet: the overload is chosen by the arguments, as
# torch._C._jit_get_operation does).
#
# Output, one line per op, tab-separated: index, uid, op_name, count,
# profiled_us (the median kernel time of the op's group in the trace,
# empty when the file has none), replay_us (the mean time of one call
# over --repeats calls after --warmup calls, with a device
# synchronisation before and after: it includes the launch overhead),
# ratio (replay_us / profiled_us), status (ok, or the error). With
# --check, each op runs once, untimed; the check is that every tensor
# argument was built with its profiled shape, strides and dtype and that
# the call ran; the column result (in place of replay_us) holds the
# shape and dtype of the first tensor returned, or the type of what was
# returned when it is not a tensor (aten::result_type's dtype).
#
# Exit status: 0 when every op ran, 1 when one or more failed (each said
# on its line and on the standard error), 2 when the file or the
# command line cannot be used (one line on the standard error).
import argparse
import json
import math
import os
import re
import sys
import time

PROG = os.path.basename(sys.argv[0]) if sys.argv[0] else "replay.py"

# Bytes per element of each dtype, for --max-mb.
SIZES = {"bool": 1, "int": 4, "long": 8, "double": 8, "float": 4,
         "c10::Half": 2, "c10::BFloat16": 2}

# --check fills a "normal" tensor with this many normal_() draws repeated
# over its storage: a check is of layouts and calls, not of values, and
# normal_() over a tensor of a billion elements takes a CPU many seconds.
BLOCK = 1 << 16

DTYPES = {
    "bool": "bool",
    "int": "int32",
    "long": "int64",
    "double": "float64",
    "float": "float32",
    "c10::Half": "float16",
    "c10::BFloat16": "bfloat16",
}


class Unusable(Exception):
    """The file or the command line cannot be used: one line, exit 2."""


class OpError(Exception):
    """One op cannot be rebuilt or run."""


class Skipped(Exception):
    """One op is not run, as the command line asks."""


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_entry(i, e):
    """The entry's form, as this script reads it; Unusable otherwise."""
    where = "entry %d" % i
    if not isinstance(e, dict):
        raise Unusable("%s: not an object" % where)
    if not isinstance(e.get("op_name"), str) or "::" not in e["op_name"]:
        raise Unusable('%s: no "op_name" of the form NAMESPACE::NAME' % where)
    ir = e.get("replay_ir")
    if not isinstance(ir, dict):
        raise Unusable('%s: no "replay_ir" object' % where)
    for key in ("list_pos_args", "list_kwargs"):
        args = ir.get(key, [])
        if not isinstance(args, list):
            raise Unusable('%s: "%s" is not a list' % (where, key))
        for a in args:
            if (not isinstance(a, dict) or
                    not isinstance(a.get("arg_name"), str) or
                    not isinstance(a.get("arg_type"), str) or
                    "value" not in a):
                raise Unusable('%s: an argument of "%s" without '
                               '"arg_name", "arg_type" and "value"'
                               % (where, key))
            if a["arg_type"].startswith("Tensor") and a["value"]:
                check_tensor(where + ": " + a["arg_name"], a["value"])


def check_tensor(where, cfg):
    if not isinstance(cfg, dict):
        raise Unusable("%s: a tensor that is not an object" % where)
    shape, strides = cfg.get("shape"), cfg.get("strides")
    for name, v in (("shape", shape), ("strides", strides)):
        if not isinstance(v, list) or not all(is_int(x) for x in v):
            raise Unusable("%s: %s is not a list of whole numbers"
                           % (where, name))
        if any(x < 0 for x in v):
            raise Unusable("%s: a negative number in %s" % (where, name))
        if any(x >= 1 << 63 for x in v):
            raise Unusable("%s: a number beyond int64 in %s"
                           % (where, name))
    if len(shape) != len(strides):
        raise Unusable("%s: %d sizes but %d strides"
                       % (where, len(shape), len(strides)))
    if cfg.get("dtype") not in DTYPES:
        raise Unusable("%s: dtype %r is not one of %s"
                       % (where, cfg.get("dtype"), ", ".join(DTYPES)))
    if cfg.get("init", None) not in ("normal", None):
        raise Unusable('%s: init %r is neither "normal" nor null'
                       % (where, cfg.get("init")))


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise Unusable("%s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise Unusable("%s: not JSON: %s" % (path, e))
    if not isinstance(data, list):
        raise Unusable("%s: not a JSON list of ops" % path)
    for i, e in enumerate(data):
        try:
            check_entry(i, e)
        except Unusable as u:
            raise Unusable("%s: %s" % (path, u))
    return data


def build_tensor(torch, cfg, device, block=False):
    dtype = getattr(torch, DTYPES[cfg["dtype"]])
    t = torch.empty_strided(cfg["shape"], cfg["strides"], dtype=dtype,
                            device=device)
    if cfg.get("init") == "normal":
        if not (t.is_floating_point() or t.is_complex()):
            raise OpError("cannot initialise a tensor of %s with 'normal'"
                          % cfg["dtype"])
        # The flat view of the whole storage: an expanded tensor (a
        # stride of 0), whose elements share memory, cannot be filled
        # through itself.
        n = storage_size(cfg["shape"], cfg["strides"])
        if n and device != "meta":
            flat = t.as_strided([n], [1])
            if block and n > BLOCK:
                b = flat[:BLOCK].normal_()
                k = n // BLOCK
                flat[:k * BLOCK].view(k, BLOCK).copy_(b.expand(k, BLOCK))
                flat[k * BLOCK:].copy_(b[:n - k * BLOCK])
            else:
                flat.normal_()
    return t


def storage_size(shape, strides):
    """Elements of the storage empty_strided makes for a layout."""
    if any(x == 0 for x in shape):
        return 0
    return 1 + sum((x - 1) * st for x, st in zip(shape, strides))


def arg_bytes(entry):
    """Bytes of storage the entry's tensor arguments take."""
    n = 0
    ir = entry["replay_ir"]
    for a in ir.get("list_pos_args", []) + ir.get("list_kwargs", []):
        v = a["value"]
        if a["arg_type"].startswith("Tensor") and v:
            n += storage_size(v["shape"], v["strides"]) * SIZES[v["dtype"]]
    return n


def build_args(torch, entry, device, block=False):
    """Positional and keyword arguments, as batched_replay.py makes them:
    a Tensor entry with a value becomes a tensor, others pass as they
    are (a null Tensor? is None)."""
    ir = entry["replay_ir"]
    made = []
    pos, kw = [], {}
    for a in ir.get("list_pos_args", []):
        v = a["value"]
        if a["arg_type"].startswith("Tensor") and v:
            v = build_tensor(torch, v, device, block)
            made.append((a["arg_name"], a["value"], v))
        pos.append(v)
    for a in ir.get("list_kwargs", []):
        v = a["value"]
        if a["arg_type"].startswith("Tensor") and v:
            v = build_tensor(torch, v, device, block)
            made.append((a["arg_name"], a["value"], v))
        kw[a["arg_name"]] = v
    return pos, kw, made


def get_op(torch, name):
    ns, _, op = name.partition("::")
    try:
        return getattr(getattr(torch.ops, ns), op)
    except (AttributeError, RuntimeError):
        pass
    try:
        r = torch._C._jit_get_operation(name)
        return r[0] if isinstance(r, tuple) else r
    except Exception as e:
        raise OpError("no such op in this PyTorch %s: %s"
                      % (torch.__version__, one_line(e)))


def one_line(e):
    s = str(e).strip().splitlines()
    return (s[0] if s else type(e).__name__)[:300]


def tensors(r):
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        return [r]
    if isinstance(r, (tuple, list)):
        return [x for x in r if hasattr(x, "shape") and hasattr(x, "dtype")]
    return []


def check_built(made):
    for name, cfg, t in made:
        want = (list(cfg["shape"]), list(cfg["strides"]), DTYPES[cfg["dtype"]])
        got = (list(t.shape), list(t.stride()), str(t.dtype).split(".")[-1])
        if want != got:
            raise OpError("%s built as %s, not %s" % (name, got, want))


def bench(torch, fn, device, warmup, repeats):
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    for _ in range(warmup):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(repeats):
        fn()
    sync()
    return (time.perf_counter() - t0) / repeats * 1e6


def fmt(v):
    if v is None:
        return ""
    return "%.3f" % v


def main(argv):
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Rebuild, run and time the ops of a replay IR file.")
    ap.add_argument("file", nargs="?",
                    default=os.path.join(os.path.dirname(
                        os.path.abspath(__file__)), "event_replay_ir.json"),
                    help="the IR (default: event_replay_ir.json beside "
                         "this script)")
    ap.add_argument("--device", default="auto",
                    choices=("auto", "cuda", "cpu"),
                    help="cuda (NVIDIA or ROCm), cpu, or auto: cuda when "
                         "there is one (default)")
    ap.add_argument("--warmup", type=int, default=50, metavar="N",
                    help="calls before timing (default 50)")
    ap.add_argument("--repeats", type=int, default=100, metavar="N",
                    help="timed calls (default 100)")
    ap.add_argument("--check", action="store_true",
                    help="run each op once, untimed, and check it")
    ap.add_argument("--op", metavar="REGEX",
                    help="only the ops whose name REGEX finds")
    ap.add_argument("--max-mb", type=float, metavar="N",
                    help="an op whose tensor arguments take more than N MB "
                         "is skipped; with --check it is checked on the "
                         "meta device (shapes and dtypes, no data)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.warmup < 0 or args.repeats < 1:
        raise Unusable("--warmup must be >= 0 and --repeats >= 1")
    if args.max_mb is not None and not args.max_mb >= 0:
        raise Unusable("--max-mb must be >= 0")
    try:
        opre = re.compile(args.op) if args.op is not None else None
    except re.error as e:
        raise Unusable("--op: %s: %r" % (e, args.op))
    if args.file == ap.get_default("file"):
        rel = os.path.relpath(args.file)
        if not rel.startswith(os.pardir):
            args.file = rel
    data = load(args.file)
    try:
        import torch
    except ImportError as e:
        raise Unusable("PyTorch is needed to replay: %s" % e)
    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif device == "cuda" and not torch.cuda.is_available():
        raise Unusable("--device cuda: this PyTorch sees no GPU")
    print("%s: %s: %d op%s on %s, PyTorch %s"
          % (PROG, args.file, len(data), "" if len(data) == 1 else "s",
             device, torch.__version__), file=sys.stderr)
    print("index\tuid\top_name\tcount\tprofiled_us\t%s\tratio\tstatus"
          % ("result" if args.check else "replay_us"))
    failed = 0
    for i, e in enumerate(data):
        name = e["op_name"]
        if opre is not None and not opre.search(name):
            continue
        prof = e.get("kernel_time_us_median")
        prof = prof if isinstance(prof, (int, float)) and \
            not isinstance(prof, bool) else None
        out, ratio, status = "", None, "ok"
        dev = device
        mb = arg_bytes(e) / 1e6
        try:
            op = get_op(torch, name)
            if args.max_mb is not None and mb > args.max_mb:
                over = "%.0f MB of arguments > --max-mb %g" % (mb, args.max_mb)
                if not args.check:
                    raise Skipped(over)
                dev, status = "meta", "meta: " + over
            try:
                pos, kw, made = build_args(torch, e, dev, args.check)
            except OpError:
                raise
            except Exception as x:
                raise OpError("cannot rebuild the arguments: %s"
                              % one_line(x))
            if args.check:
                # Before the call: an in-place op (resize_, set_,
                # as_strided_) may change its arguments' layout.
                check_built(made)
            try:
                r = op(*pos, **kw)
            except NotImplementedError as x:
                if not str(x).startswith("Could not run"):
                    raise OpError("the call failed: %s" % one_line(x))
                raise OpError("this PyTorch has no %s kernel for it" % dev)
            except Exception as x:
                raise OpError("the call failed: %s" % one_line(x))
            if args.check:
                ts = tensors(r)
                if ts:
                    out = "%s %s" % (list(ts[0].shape),
                                     str(ts[0].dtype).split(".")[-1])
                else:
                    out = type(r).__name__
            else:
                if device == "cuda":
                    torch.cuda.synchronize()
                t = bench(torch, lambda: op(*pos, **kw), device,
                          args.warmup, args.repeats)
                out = fmt(t)
                if prof:
                    ratio = t / prof
        except Skipped as x:
            status = "skipped: %s" % x
        except OpError as x:
            failed += 1
            status = "error: %s" % x
            uid = "uid %s, " % e["uid"] if "uid" in e else ""
            print("%s: entry %d (%s%s): %s" % (PROG, i, uid, name, x),
                  file=sys.stderr)
        print("%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s"
              % (i, e.get("uid", ""), name, e.get("count", ""),
                 fmt(prof), out, "" if ratio is None or math.isnan(ratio)
                 else "%.3f" % ratio, status.replace("\t", " ")))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Unusable as u:
        print("%s: %s" % (PROG, u), file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
