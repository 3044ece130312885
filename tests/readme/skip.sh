# A checkout without ../shared: the cases that need its traces skip, and
# the suite says why, once; the core fidelity checks still run on the
# traces shipped in tests/data/fidelity.
root=$TESTDATA/../..
TL_TRACES=$PWD/no-such-dir "$root/tests/run" "$root/tests/tl-agg/fidelity.sh" \
    "$root/tests/tl-agg/core.sh"
echo "exit $?"
