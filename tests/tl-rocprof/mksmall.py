# Write a small rocprofv3 JSON from a real one (908_results.json.gz): the
# metadata, one CPU and one GPU agent (their main fields), the string
# tables, the first N kernel dispatches and their symbols, plus one
# record of each other kind a reader names: a HIP call, a marker range
# (its message in strings.marker_api), a memory copy, and a kernel whose
# durations are below 10 ns (the short-kernel paths).
#
#	python3 mksmall.py IN.json.gz N >OUT.json
import gzip, json, sys

d = json.load(gzip.open(sys.argv[1]))['rocprofiler-sdk-tool'][0]
n = int(sys.argv[2])
keep = ('id', 'type', 'node_id', 'logical_node_id', 'logical_node_type_id',
        'name', 'product_name', 'gpu_id', 'cu_count')
agents = [{k: a[k] for k in keep} for a in d['agents']
          if a['id']['handle'] in (37944, 37946)]
kd = d['buffer_records']['kernel_dispatch'][:n]
ids = {r['dispatch_info']['kernel_id'] for r in kd}
syms = [d['kernel_symbols'][0]] + [s for s in d['kernel_symbols']
                                   if s['kernel_id'] in ids]
t0 = kd[0]['start_timestamp']
short = json.loads(json.dumps(kd[0]))
short['start_timestamp'] = t0 + 100
short['end_timestamp'] = t0 + 105
short['correlation_id']['internal'] = 999
kd.append(short)
hipop = d['strings']['buffer_records'][5]['operations'].index('hipLaunchKernel')
strings = {k: d['strings'][k] for k in ('callback_records', 'buffer_records')}
strings['marker_api'] = [{'key': 998, 'value': 'step 1'}]
rec = {
    'kernel_dispatch': kd,
    'hip_api': [{'size': 64, 'kind': 5, 'operation': hipop,
                 'thread_id': 908, 'correlation_id': {'internal': 1,
                 'external': 0}, 'start_timestamp': t0 - 5000,
                 'end_timestamp': t0 - 1000, 'stream_id': {'handle': 0}}],
    'hsa_api': [],
    'marker_api': [{'size': 64, 'kind': 32, 'operation': 1,
                    'thread_id': 908, 'correlation_id': {'internal': 998,
                    'external': 0}, 'start_timestamp': t0 - 9000,
                    'end_timestamp': t0 + 9000}],
    'memory_copy': [{'size': 80, 'kind': 10, 'operation': 2,
                     'thread_id': 908, 'correlation_id': {'internal': 997,
                     'external': 0}, 'start_timestamp': t0 - 3000,
                     'end_timestamp': t0 + 500,
                     'dst_agent_id': {'handle': 37946},
                     'src_agent_id': {'handle': 37944}, 'bytes': 4096}],
}
out = {'rocprofiler-sdk-tool': [{
    'metadata': d['metadata'], 'agents': agents, 'counters': [],
    'strings': strings, 'code_objects': [], 'kernel_symbols': syms,
    'host_functions': [], 'summary': [], 'callback_records': {},
    'buffer_records': rec}]}
json.dump(out, sys.stdout, separators=(',', ':'))
