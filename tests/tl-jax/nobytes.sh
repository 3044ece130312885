# A conv whose input type has no size in the byte table (f64): no bytes,
# so, as TraceLens drops the columns that are all None or NaN, op_conv
# has no bytes_per_element parameter and no data-moved or TB/s columns.
tl-parse "$TESTDATA/xplane/legacy.xplane.pb" |
    sed 's/bf16\[1,16,8,8\]/f64[1,16,8,8]/g' | tl-jax -s op_conv
