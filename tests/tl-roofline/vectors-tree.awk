# The test vectors of TraceLens's perf models (perf-model-vectors.tsv:
# model, op_name, the four argument lists, expected FLOPs and bytes,
# source, pass, extra, params, compute spec, sheet, in_tl) as one tree
# stream (tl-tsv(5)), for tl-roofline -t. Data row i of the file is an op
# of uid 10 i at ts_ns i ms with a 1 us kernel (uid 10 i + 1); a "bwd"
# row also has a backward event (uid 10 i + 2, in the op's bwd_uids)
# with a 1 us kernel (uid 10 i + 3); an "annotation" in extra is a
# user_annotation around the op (uid 10 i + 4, the op's parent); the
# "args.KEY" of extra go into the op's args, "args.Sequence number" into
# seq; the first kernel_details name (or kernel_names entry) names the
# op's kernel. An empty argument cell stays empty (the key is absent).
# POSIX awk.
#
#	awk -f vectors-tree.awk perf-model-vectors.tsv >tree.tsv

BEGIN {
	FS = OFS = "\t"
	ncol = split("uid ph cat name pid tid ts_ns dur_ns id bp stream " \
	    "correlation external_id seq input_dims input_types " \
	    "input_strides concrete_inputs args extra parent depth root " \
	    "launcher linked gpu_kernel_time_ns subtree_kernel_time_ns " \
	    "fwd_uid bwd_uids nn_module", col, " ")
	for (c = 1; c <= ncol; c++)
		ix[col[c]] = c
	line = col[1]
	for (c = 2; c <= ncol; c++)
		line = line OFS col[c]
	print line
	clear()
	f["cat"] = "trace_file"
	f["name"] = "vectors.json"
	emit()
}

function clear(    c) {
	for (c = 1; c <= ncol; c++)
		f[col[c]] = ""
}

function emit(    c, s) {
	s = f[col[1]]
	for (c = 2; c <= ncol; c++)
		s = s OFS f[col[c]]
	print s
	clear()
}

# The JSON value of "key" in the flat object o (a string without
# escapes, a number, true/false/null, or a list of numbers), as text.
function jval(o, key,    p, s, d, i, ch) {
	p = index(o, "\"" key "\":")
	if (p == 0)
		return ""
	s = substr(o, p + length(key) + 3)
	if (substr(s, 1, 1) == "\"") {
		i = index(substr(s, 2), "\"")
		return substr(s, 1, i + 1)
	}
	d = 0
	for (i = 1; i <= length(s); i++) {
		ch = substr(s, i, 1)
		if (ch == "[" || ch == "{")
			d++
		else if (ch == "]" || ch == "}")
			d--
		if (d < 0 || (d == 0 && ch == ","))
			break
	}
	return substr(s, 1, i - 1)
}

function unq(s) {
	return substr(s, 2, length(s) - 2)
}

# The "args.KEY" entries of extra but the sequence number, as an object.
function argsobj(o,    s, rest, p, key, v) {
	s = ""
	rest = o
	while ((p = index(rest, "\"args.")) > 0) {
		rest = substr(rest, p + 6)
		key = substr(rest, 1, index(rest, "\"") - 1)
		if (key == "Sequence number")
			continue
		v = jval(o, "args." key)
		s = s (s == "" ? "" : ",") "\"" key "\":" v
	}
	return s == "" ? "" : "{" s "}"
}

NR > 1 {
	i = NR - 1
	ts = i * 1000000
	extra = $11
	kname = "k"
	if ((v = jval(extra, "kernel_details")) != "") {
		p = index(v, "\"name\":\"")
		kname = substr(v, p + 8)
		kname = substr(kname, 1, index(kname, "\"") - 1)
	} else if ((v = jval(extra, "kernel_names")) != "") {
		kname = substr(v, 3)
		kname = substr(kname, 1, index(kname, "\"") - 1)
	}
	parent = ""
	depth = 0
	if ((v = jval(extra, "annotation")) != "") {
		f["uid"] = 10 * i + 4
		f["ph"] = "X"
		f["cat"] = "user_annotation"
		f["name"] = unq(v)
		f["pid"] = f["tid"] = 1
		f["ts_ns"] = ts - 1000
		f["dur_ns"] = 10000
		f["depth"] = 0
		f["root"] = 10 * i + 4
		emit()
		parent = 10 * i + 4
		depth = 1
	}
	f["uid"] = 10 * i
	f["ph"] = "X"
	f["cat"] = "cpu_op"
	f["name"] = $2
	f["pid"] = f["tid"] = 1
	f["ts_ns"] = ts
	f["dur_ns"] = 5000
	f["seq"] = jval(extra, "args.Sequence number")
	f["input_dims"] = $3
	f["input_types"] = $4
	f["input_strides"] = $5
	f["concrete_inputs"] = $6
	f["args"] = argsobj(extra)
	f["parent"] = parent
	f["depth"] = depth
	f["root"] = parent != "" ? parent : 10 * i
	if ($10 == "bwd")
		f["bwd_uids"] = 10 * i + 2
	emit()
	f["uid"] = 10 * i + 1
	f["ph"] = "X"
	f["cat"] = "kernel"
	f["name"] = kname
	f["pid"] = 0
	f["tid"] = f["stream"] = 7
	f["ts_ns"] = ts + 1000
	f["dur_ns"] = 1000
	f["parent"] = 10 * i
	f["depth"] = depth + 1
	f["root"] = parent != "" ? parent : 10 * i
	f["linked"] = 1
	emit()
	if ($10 != "bwd")
		next
	f["uid"] = 10 * i + 2
	f["ph"] = "X"
	f["cat"] = "cpu_op"
	f["name"] = "autograd::engine::evaluate_function: " $2 "Backward"
	f["pid"] = 1
	f["tid"] = 2
	f["ts_ns"] = ts + 500000
	f["dur_ns"] = 5000
	f["depth"] = 0
	f["root"] = 10 * i + 2
	f["fwd_uid"] = 10 * i
	emit()
	f["uid"] = 10 * i + 3
	f["ph"] = "X"
	f["cat"] = "kernel"
	f["name"] = "kb"
	f["pid"] = 0
	f["tid"] = f["stream"] = 7
	f["ts_ns"] = ts + 501000
	f["dur_ns"] = 1000
	f["parent"] = 10 * i + 2
	f["depth"] = 1
	f["root"] = 10 * i + 2
	f["linked"] = 1
	emit()
}
