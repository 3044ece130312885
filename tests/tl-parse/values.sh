# Values: strings as pid and tid, a missing dur, ts with no fraction, with
# 3+ decimals (rounded half away from zero below 1 ns), negative, as a
# numeric string, with an exponent; null values; the args split into
# columns; unknown event keys in extra; NaN and Infinity in args; args that
# is not an object; literals and numbers kept as written.
cd "$TESTDATA" && tl-parse values.json
