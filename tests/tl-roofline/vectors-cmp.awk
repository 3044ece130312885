# Check tl-roofline -t's rows for the tree of vectors-tree.awk against
# the test vectors: for each vector, its op's row of the pass ("self" for
# fwd, "backward" for bwd) has the same model class, sheet, parameters
# (the JSON text), compute spec, FLOPs and bytes (numbers within 1e-9
# relative; bytes None: empty); a vector whose FLOPs are None or raise,
# or whose bytes raise, has no row. The vectors' sheet is the model's;
# TraceLens then moves the rows of some backward ops from _fwd to _bwd,
# and drops the _bwd rows of forward convolutions: such a vector's row
# is looked for in the _bwd sheet, or checked to be absent. A "bwd"
# vector of a backward op is its double backward: a _bwd row with the
# kernels of the backward events linked to it. Prints one line per vector
# that differs ("LINE MODEL: what differs") and "N of M vectors pass
# (K of them rows TraceLens drops)". POSIX awk.
#
#	awk -f vectors-cmp.awk perf-model-vectors.tsv tl-roofline-output

BEGIN {
	FS = "\t"
}

function near(a, b) {
	a += 0
	b += 0
	if (a == b)
		return 1
	return (a - b < 0 ? b - a : a - b) <= 1e-9 * (a < 0 ? -a : a)
}

FNR == NR {
	if (FNR == 1)
		next
	nv = FNR - 1
	vmodel[nv] = $1
	vflop[nv] = $7
	vbytes[nv] = $8
	vpass[nv] = $10
	vparams[nv] = $12
	vspec[nv] = $13
	vsheet[nv] = $14
	sub(/^\(none.*/, "", vsheet[nv])	# "(none: unified_perf_summary only)"
	vop[nv] = $2
	next
}

FNR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}

{
	if ($c["uid"] % 10 != 0)
		next
	i = $c["uid"] / 10
	k = i SUBSEP ($c["kernel_source"] == "backward" ? "bwd" : "fwd")
	seen[k] = 1
	model[k] = $c["model"]
	# -p's name for the Triton model
	if (model[k] == "triton")
		model[k] = "TritonCompiledPerfModel"
	sheet[k] = $c["sheet"]
	params[k] = $c["params"]
	spec[k] = $c["compute_spec"]
	flop[k] = $c["flop"]
	bytes[k] = $c["bytes"]
}

END {
	pass = 0
	for (i = 1; i <= nv; i++) {
		k = i SUBSEP vpass[i]
		m = vmodel[i]
		sub(/^[^.]*\./, "", m)
		why = ""
		op = vop[i]
		if (vpass[i] == "fwd" && (op == "aten::convolution_backward" ||
		    op == "flash_attn::_flash_attn_varlen_backward" ||
		    op == "ConvBias_Backward" || op == "ConvBiasReLU_Backward"))
			sub(/_fwd$/, "_bwd", vsheet[i])
		if (vpass[i] == "bwd" && (op == "aten::convolution" ||
		    op == "aten::miopen_convolution" ||
		    op == "aten::cudnn_convolution" || op == "ConvBias_" ||
		    op == "ConvBiasReLU_")) {
			dropped++
			vflop[i] = "dropped"
		}
		if (vflop[i] == "None" || vflop[i] == "raise" ||
		    vbytes[i] == "raise" || vflop[i] == "dropped") {
			if (k in seen)
				why = "a row, TraceLens has none (" vflop[i] ")"
		} else if (!(k in seen))
			why = "no row"
		else {
			if (model[k] != m)
				why = why "; model " model[k]
			if (sheet[k] != vsheet[i])
				why = why "; sheet " sheet[k] " not " vsheet[i]
			if (!near(flop[k], vflop[i]))
				why = why "; flop " flop[k] " not " vflop[i]
			if (vbytes[i] == "None")
				bad = bytes[k] != ""
			else
				bad = bytes[k] == "" || !near(bytes[k], vbytes[i])
			if (bad)
				why = why "; bytes " bytes[k] " not " vbytes[i]
			if (spec[k] != vspec[i])
				why = why "; spec " spec[k] " not " vspec[i]
			if (params[k] != vparams[i])
				why = why "; params " params[k] " not " \
				    vparams[i]
			sub(/^; /, "", why)
		}
		if (why == "")
			pass++
		else
			printf "%d %s: %s\n", i + 1, vmodel[i], substr(why, 1, 300)
	}
	printf "%d of %d vectors pass (%d of them rows TraceLens drops)\n",
	    pass, nv, dropped
}
