# Each fixed model on a hand-made op (tests/data/roof-models.json; every
# kernel is 1 us unless said), by default and with -t (TraceLens's
# numbers). Columns: uid name sheet pass kernel_source flop bytes
# kernel_time_ns tflops_per_s. The right answers:
#  0 mm, A (64,32) float, B (32,16) bf16: flop 2*64*16*32 = 65536; bytes
#    64*32*4 + 32*16*2 + 64*16*4 = 13312 (TraceLens: all float, 14336).
#  5 addmm with a full (64,16) bf16 bias: flop 65536 + 64*16 = 66560;
#    bytes (2048 + 512 + 1024)*2 + 1024*2 = 9216 (TraceLens: the bias as
#    N elements, 7200).
# 10 SDPA, q k v (1,2,8,4) float: flop 2*(2*8*8*4)*2 = 2048; bytes 4
#    tensors of 64 elements of 4 bytes = 1024 (TraceLens: 2 bytes, 512).
# 15 SDPA causal with N_Q 8 != N_KV 16: no row, counted on stderr.
# 20 conv x (1,2,4,4) w (3,2,3,3) bias (3): out (1,3,2,2); flop
#    2*18*12 + 12 = 444; bytes (32 + 54 + 3 + 12)*2 = 202 (TraceLens: no
#    bias, 432 and 196).
# 25 layer_norm (2,8) without weight and bias: flop 3*8+3*16+3*8+2*16 =
#    128; bytes 16*4 + (2+2)*8*2 = 128 (TraceLens: affine with bias, 160).
# 30 batch_norm (2,4,3,3) float in eval ("False"): flop 12+12+2*72 = 168;
#    bytes 72*8 + 4*4*4 = 640 (TraceLens: training, 384 and 672).
# 35 sum (4,8) bf16 over dim 1: 4 outputs, bytes 64 + 8 = 72 (TraceLens:
#    1 output, 66).
# 40 max (4,8) over dim 1: 4 values and 4 int64 indices: 64 + 8 + 32 =
#    104 (TraceLens: 66).
# 45 max of two (4,8) tensors: element-wise, 64 + 64 + 64 = 192
#    (TraceLens: a reduction to 1 element, 66).
# 50 mul of complex<float>: 8 bytes each, 768 (TraceLens: no size).
# 55 add without kernels: kernel time 0, no TFLOP/s.
# 60 mm with a 1-d input, 65 aiter::rmsnorm: no row, counted.
# 66 convolution_backward of a first layer, mask [False, True, True]:
#    weight grad 432 + bias grad 12 = 444 flop; bytes (12+32+54 + 12+3)*2
#    = 226 (TraceLens: input grad too, 864; 392).
# 71 SDPA (1,2,8,4) bf16, 2 us, whose backward (seq 9, a 4 us kernel on
#    the autograd thread) gives an SDPA_bwd row: flop 5*1024 = 5120,
#    bytes 7 tensors * 64 * 2 = 896.
# 76 flash_attn::_flash_attn_backward: in SDPA_bwd (TraceLens: SDPA_fwd).
ln -s "$TESTDATA"/roof-models.json . || exit 1
tl-parse roof-models.json | tl-tree >tree.tsv || exit 1
show() {
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["uid"], $c["name"], $c["sheet"], $c["pass"],
	    $c["kernel_source"], $c["flop"], $c["bytes"],
	    $c["kernel_time_ns"], $c["tflops_per_s"] }'
}
echo "# default"
tl-roofline -a none tree.tsv >out
echo "exit $?"
show <out
echo "# -t"
tl-roofline -t tree.tsv >out
echo "exit $?"
show <out
