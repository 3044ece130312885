# -L: every operator name that has a model, with its model and sheets,
# in byte order; no input is read. The names TraceLens models and
# tl-roofline does not are the ones counted "not in tl-roofline".
tl-roofline -L </dev/null
echo "exit $?"
