# Unit tests of the protobuf wire layer: every wire type, nesting, packed
# fields, groups, and each malformed input, in memory and streamed.
exec ${TL_VALGRIND:-} "$UNIT/t-pb"
