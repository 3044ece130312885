# The JAX profile of ../shared/traces/jax: TraceLens's UIDs for the 25
# kernels of GPU 7 (53-77, after the 53 copies of GPU 0), their HLO
# facts, and the count of rows of each kind.
[ -d "$TRACES/jax" ] || exit 77
tl-parse "$TRACES/jax/jax_conv_minimal.xplane.pb" >ev || exit 1
awk -F'\t' '$3 == "kernel"' ev | cut -f 1,4-8,12,15,16 | cut -c 1-160
awk -F'\t' 'NR > 1 { n[$2 " " $3 " " $5]++ }
END { for (k in n) print k, n[k] }' ev | sort
awk -F'\t' '$1 == 55' ev | cut -f 19
