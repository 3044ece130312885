# A .json.gz gives the same rows as the .json, but for the trace's name.
s=$PWD
cd "$TESTDATA" || exit 1
tl-parse flow.json | sed 's/\tflow\.json\t/\tflow.json.gz\t/' >"$s/want" &&
tl-parse flow.json.gz >"$s/got" &&
cmp "$s/want" "$s/got" && head -3 "$s/got" | cut -f1-6
