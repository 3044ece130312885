# Compare two overlaid critical-path traces (gzipped JSON) as HTA's own
# end-to-end test would, and closer: the same top-level keys in order,
# the same events as a multiset (each compared whole, keys sorted), the
# events marked args.critical the same, and the flow events the same but
# for their ids (Python's set order numbers them). Exit 1 on a difference.
#	python3 overlay-cmp.py NAME REF GOT
import gzip
import json
import sys


def load(path):
    t = json.load(gzip.open(path))
    ev = t["traceEvents"]
    flows = sorted(json.dumps({k: v for k, v in e.items() if k != "id"},
                              sort_keys=True)
                   for e in ev if e.get("cat") == "critical_path")
    other = sorted(json.dumps(e, sort_keys=True)
                   for e in ev if e.get("cat") != "critical_path")
    crit = sum(1 for e in ev if e.get("cat") != "critical_path" and
               isinstance(e.get("args"), dict) and "critical" in e["args"])
    return list(t.keys()), other, flows, crit


name, ref, got = sys.argv[1:4]
a, b = load(ref), load(got)
what = ["top-level keys", "events", "flows", "critical events"]
bad = [w for w, x, y in zip(what, a, b) if x != y]
if bad:
    print("%s: %s differ" % (name, ", ".join(bad)))
    sys.exit(1)
print("%s: ok (%d events, %d critical, %d flows)" %
      (name, len(a[1]), a[3], len(a[2])), file=sys.stderr)
