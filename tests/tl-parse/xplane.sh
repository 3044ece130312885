# XPlane profiles (tl-parse/xplane.c): the legacy layout (one GPU with
# kernels, an idle GPU, the host thread of py_xla_execute, the HLO facts
# of the kernels' instructions) and the JAX 0.8 layout (two GPUs whose
# correlation ids collide, Host Threads, a custom plane), read by content
# and gzipped; rows in TraceLens's UID order, metadata rows with negative
# uids; -x leaves events out by cat, their uids kept.
cd "$TESTDATA/xplane" || exit 1
tl-parse legacy.xplane.pb
tl-parse jax08.xplane.pb | cut -f 1-8,11,12
tl-parse -x kernel,ac2g,cpu_op legacy.xplane.pb | cut -f 1-8
gzip -c legacy.xplane.pb >"$OLDPWD/l.gz"
cp legacy.xplane.pb "$OLDPWD/legacy.bin"
cd "$OLDPWD" || exit 1
tl-parse l.gz | tail -n +3 >a
tl-parse legacy.bin | tail -n +3 >b
tl-parse "$TESTDATA/xplane/legacy.xplane.pb" | tail -n +3 >c
cmp a c && cmp b c && echo "gzip and by content: the same rows"
