# to-today.py IN.json.gz OUT.json: a trace of the 2021 generation of
# Kineto written as today's Kineto writes it, for the tests: today's
# categories (PyTorch's own record_function ranges as user_annotation),
# async launch flows as ac2g, today's spelling of the args, and times
# in microseconds with three decimals since the trace's first event, as
# today's traces count from their baseTimeNanoseconds. Written
# independently of tl-parse's table, from tl-tsv(5).
import gzip, json, sys

CAT = {'Operator': 'cpu_op', 'Runtime': 'cuda_runtime', 'Kernel': 'kernel',
       'Memcpy': 'gpu_memcpy', 'Memset': 'gpu_memset'}
ANNOT = ('ProfilerStep#', 'enumerate(DataLoader)#', 'Optimizer.step#',
         'Optimizer.zero_grad#')
ARG = {'external id': 'External id', 'Input dims': 'Input Dims'}

with gzip.open(sys.argv[1], 'rt') as f:
    doc = json.load(f)
ev = doc['traceEvents']
base = min(e['ts'] for e in ev if isinstance(e.get('ts'), int))
for e in ev:
    c = e.get('cat')
    if c in CAT:
        e['cat'] = CAT[c]
        if c == 'Operator' and e.get('name', '').startswith(ANNOT):
            e['cat'] = 'user_annotation'
    elif c == 'async' and e.get('name') == 'launch' and e.get('ph') in 'sf':
        e['cat'] = e['name'] = 'ac2g'
    a = e.get('args')
    if isinstance(a, dict):
        for k in list(a):
            if k in ARG and ARG[k] not in a:
                a[ARG[k]] = a.pop(k)
        if a.get('Input type') == [] and a.get('Input Dims'):
            del a['Input type']
    if isinstance(e.get('ts'), int):
        e['ts'] = float('%d.000' % (e['ts'] - base))
doc['baseTimeNanoseconds'] = base * 1000
with open(sys.argv[2], 'w') as f:
    json.dump(doc, f)
