# Unit tests of the JSON layer: us to ns, string decoding, jsmn helpers,
# the streaming scanner.
exec ${TL_VALGRIND:-} "$UNIT/t-json"
