# The fidelity check of fidelity.sh on the three traces shipped in
# tests/data/fidelity (see its README): it runs without ../shared.
TRACES=$TESTDATA/fidelity
. "$TESTDATA/../tl-agg/fidelity.sh"
