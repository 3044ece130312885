# The 2021 generation of Kineto (PyTorch 1.8-1.9) mapped onto today's
# categories (tl-tsv(5)): Operator to cpu_op (PyTorch's own
# record_function ranges, such as ProfilerStep#N, to user_annotation),
# Runtime to cuda_runtime, Kernel to kernel, Memcpy to gpu_memcpy, Memset
# to gpu_memset, async flows named launch to ac2g; the cat as written kept
# in extra; "Input dims" and "external id" in the columns of today's
# spelling unless the event has that too; an empty "Input type" beside
# input dims absent and kept in args; whole microseconds exact. Other
# categories ("Trace") and metadata rows as they are. Then -c and -x,
# which match the category as written and the one it maps to.
d=$TESTDATA/../kineto-2021
cd "$d" || exit 1
tl-parse -v small.json
echo "exit $?"
tl-parse -c kernel,async small.json | cut -f1-4
tl-parse -x Operator,cuda_runtime,gpu_memset,ac2g small.json | cut -f1-4
# A name of PyTorch's own ranges, and one that only begins like it.
printf '%s\n' '[{"ph":"X","cat":"Operator","name":"ProfilerStep#3","ts":1,' \
    '"dur":9,"pid":1,"tid":1},{"ph":"X","cat":"Operator","name":' \
    '"ProfilerStep#","ts":2,"dur":1,"pid":1,"tid":1},{"ph":"X","cat":' \
    '"Operator","name":"Optimizer.step#SGD.step","ts":3,"dur":1,"pid":1,' \
    '"tid":1},{"ph":"i","cat":"async","name":"launch","ts":4,"pid":1,' \
    '"tid":1},{"ph":"s","cat":"Async","name":"launch","ts":4,"pid":1,' \
    '"tid":1,"id":3}]' | tl-parse | cut -f1-4,20
