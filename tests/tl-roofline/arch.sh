# Arch files. -l lists the bundled ones (arch, key, value; the source
# column says where each value comes from). Without -a the arch is the
# one whose match is in the deviceProperties name (roof-models.json: an
# H100), said on stderr; -a picks one by name, in any case; -a none gives
# no roofline; -t picks none by itself, as TraceLens. -f reads a user's
# file, tl-tsv(5) or TraceLens's JSON; $TL_SHARE moves the share
# directory. Shown: the aten::sum row (72 bytes, 32 FLOPs, bf16), whose
# roofline is the memory time 72 B / bandwidth, and the mm row (float:
# matrix_fp32; 13312 bytes, 65536 FLOPs).
ln -s "$TESTDATA"/roof-models.json . || exit 1
tl-roofline -l | cut -f 1-3
echo "exit $?"
tl-roofline -l | awk -F'\t' 'NR > 1 && $4 == "" { print "no source:", $0 }'
tl-parse roof-models.json | tl-tree >tree.tsv || exit 1
show() {
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["uid"] == 0 || $c["uid"] == 35 {
		print $c["name"], $c["compute_spec"], $c["arch"],
		    $c["roofline_time_ns"], $c["bound"], $c["pct_roofline"] }'
}
hide() {
	sed 's|(/.*/arch/|(.../arch/|' err | grep -v 'perf row'
}
for a in "" "-a mi355x" "-a B200" "-a H200" "-a MI325X" "-a none" "-t"; do
	echo "# $a"
	tl-roofline $a tree.tsv 2>err | show
	hide
done
# A user's file, and TraceLens's JSON format.
printf 'key\tvalue\tsource\nname\tmine\tmade up\nmem_bw_gbps\t1000\tmade up\nvector_bf16\t10\tmade up\nmatrix_fp32\t0.001\tmade up\n' >mine.tsv
tl-roofline -f mine.tsv tree.tsv 2>err | show
hide
cat >tl.json <<'EOT'
{"name": "MI300X", "mem_bw_gbps": 5300, "memory_gb": 192,
 "max_achievable_tflops": {"matrix_fp32": 163, "vector_bf16": 163,
 "matrix_fp8": null}}
EOT
tl-roofline -t -f tl.json tree.tsv 2>err | show
hide
# One arch's rows, as -l lists them: of a bundled file (-a), of TraceLens's
# JSON (-f), which tl-xlsx -r reads for its roofline charts; -a none has
# none.
tl-roofline -l -a h100 | cut -f 1-3 | head -4
tl-roofline -l -f tl.json
tl-roofline -l -f mine.tsv | cut -f 1-4
tl-roofline -l -a none
echo "exit $?"
# The share directory: a device nothing matches, then a match in
# $TL_SHARE.
mkdir -p share/arch
sed 's/NVIDIA H100 80GB HBM3/Fancy GPU 9000/' roof-models.json >fancy.json
tl-parse fancy.json | tl-tree >fancy.tsv || exit 1
tl-roofline fancy.tsv 2>err | show
hide
{ cat mine.tsv; printf 'match\tFancy GPU\tits name\n'; } >share/arch/fancy.tsv
TL_SHARE=$PWD/share tl-roofline fancy.tsv 2>err | show
hide
TL_SHARE=$PWD/share tl-roofline -l | cut -f 1-3
TL_SHARE=share tl-roofline -a H100 fancy.tsv
echo "exit $?"
