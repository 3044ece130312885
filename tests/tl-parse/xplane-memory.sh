# Bounded memory on a mapped XPlane profile: a 96 MB profile made by
# tests/lib/xplane-gen.c from the real one takes no more memory than a
# 24 MB one (GNU time's maximum resident set size; both more than the
# 16 MB of lines read before their pages are given back), and the XLA op
# rows held before their launches never grow the output buffer. (Skipped without the real
# profile, a C compiler or GNU time, and in sanitized or valgrind runs.)
[ -d "$TRACES/jax" ] || exit 77
command -v /usr/bin/time >/dev/null 2>&1 || exit 77
[ -n "${TL_SANITIZED:-}${TL_VALGRIND:-}" ] && exit 77
root=$TESTDATA/../..
command -v "${CC:-cc}" >/dev/null 2>&1 || exit 77
# The libraries config.mk links libtl.a with (ISA-L's when it is there);
# a link that fails is a failure, not a skip.
libs="-ldeflate -lz -lpthread -lm"
[ -f /usr/include/isa-l/igzip_lib.h ] && libs="$libs -lisal"
${CC:-cc} -O2 -o gen "$root/tests/lib/xplane-gen.c" "$root/common/libtl.a" \
    $libs || exit 1
./gen "$TRACES/jax/jax_conv_minimal.xplane.pb" 24 >small.xplane.pb || exit 1
./gen "$TRACES/jax/jax_conv_minimal.xplane.pb" 96 >big.xplane.pb || exit 1
/usr/bin/time -f %M -o small.kb tl-parse small.xplane.pb >/dev/null || exit 1
/usr/bin/time -f %M -o big.kb tl-parse big.xplane.pb >/dev/null || exit 1
big=$(cat big.kb) small=$(cat small.kb)
if [ "$big" -lt $((small + 8192)) ]; then
	echo "bounded: within 8 MB"
else
	echo "grew: $small KB for 24 MB, $big KB for 96 MB"
fi
