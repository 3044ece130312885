# tl: make recipes for a directory of traces, one per rank or per run.
#
#	make -f scripts/report.mk -j8 TRACES='ranks/*.json.gz' [OUT=reports]
#	make -f PREFIX/share/tl/report.mk ...	(installed)
#	    [ARCH=MI300X] [FLAGS='--enable_kernel_summary ...']
#
# For each trace NAME.json.gz (or NAME.json, ...), in OUT/NAME/:
#
#	tree.tsv	tl-parse -t -x python_function,cpu_instant_event |
#			tl-tree: the tree
#			stream, with the trace and rank columns
#	tables/		tl-agg -d: every table, exact times, with a trace
#			column (tables/timeline.tsv stands for them all)
#	NAME_perf_report.xlsx, csv/
#			tl-report: TraceLens's perf report, from tree.tsv
#
# and OUT/summary/TABLE.tsv, the tables of all traces one after another
# (each row names its trace), with OUT/summary.xlsx. Every intermediate
# stream is a real target, so a second run redoes only what changed. A
# recipe's pipeline fails when any stage fails (pipefail), and a target
# a failed recipe leaves half-written is deleted. GNU make.
#
# Across machines: `make -f report.mk TRACES=one.json.gz reports' for
# each trace under GNU parallel (--sshlogin), where OUT is shared, then
# `summary' once.

SHELL = /bin/bash
.SHELLFLAGS = -o pipefail -ec
.DELETE_ON_ERROR:
.SUFFIXES:

# The programs: bin/ beside scripts/ in the source tree, or, installed
# (this file in PREFIX/share/tl), PREFIX/bin.
TLDIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BIN := $(patsubst %/tl-parse,%,$(firstword $(wildcard \
	$(TLDIR)/../bin/tl-parse $(TLDIR)/../../bin/tl-parse)))
BIN := $(if $(BIN),$(BIN),$(error report.mk: no tl-parse beside it))
REPORT := $(firstword $(wildcard $(TLDIR)/tl-report $(BIN)/tl-report))
OUT ?= reports
ARCH ?=
FLAGS ?= --enable_kernel_summary --short_kernel_study
# The summary tables: one table of each trace per sheet.
SUMMARY ?= timeline categories ops kernels idle_gaps comm_exposure streams \
	launch_delay_stats

traces := $(wildcard $(TRACES))
ifneq ($(TRACES),)
ifeq ($(traces),)
$(error TRACES='$(TRACES)': no such file)
endif
endif
# NAME: the base name, up to its last ".json" (as TraceLens names reports).
name = $(firstword $(subst .json, ,$(notdir $(1))))
names := $(foreach t,$(traces),$(call name,$(t)))
ifneq ($(words $(names)),$(words $(sort $(names))))
$(error two traces have the same name: $(names))
endif

archflag = $(if $(ARCH),--gpu_arch_platform $(ARCH))

all: reports summary
reports: $(foreach n,$(names),$(OUT)/$(n)/$(n)_perf_report.xlsx \
	$(OUT)/$(n)/tables/timeline.tsv)
summary: $(OUT)/summary.xlsx

# The targets of one trace: $(1) the trace, $(2) its name. Each is made
# under a name of its own (mktemp; tl-report's outputs and report.log
# as well) and renamed into place, so that two makes in one OUT never
# write into the same file, nor through a link planted at its name; a
# table directory that another make has just made from the same tree is
# kept, and one being replaced is renamed away before it is removed,
# under a lock on OUT (flock(1)) that the summary's readers of the tables
# share, so that none finds the directory gone for that instant.
define trace_rules
$(OUT)/$(2)/tree.tsv: $(1)
	@mkdir -p $$(@D)
	t=$$$$(mktemp $$(@D)/.tree.XXXXXX) && \
	    { $(BIN)/tl-parse -t -x python_function,cpu_instant_event -- \
	    $$< | $(BIN)/tl-tree >"$$$$t" && mv -f "$$$$t" $$@; } || \
	    { rm -f "$$$$t"; exit 1; }

$(OUT)/$(2)/tables/timeline.tsv: $(OUT)/$(2)/tree.tsv
	t=$$$$(mktemp -d $$(@D).XXXXXX) && \
	    { $(BIN)/tl-agg -d "$$$$t" $$< 2>"$$$$t.log" || \
	    { cat "$$$$t.log" >&2; rm -rf "$$$$t" "$$$$t.log"; exit 1; }; } && \
	    mv -f "$$$$t.log" $(OUT)/$(2)/tables.log && \
	    if [ $$@ -nt $$< ]; then rm -rf "$$$$t"; else \
	    o=$$$$(mktemp -d $$(@D).old.XXXXXX) && \
	    { exec 9<$(OUT); ! command -v flock >/dev/null || flock 9; \
	    mv -T $$(@D) "$$$$o/t" 2>/dev/null || :; \
	    mv -T "$$$$t" $$(@D) 2>/dev/null || rm -rf "$$$$t"; \
	    exec 9<&-; rm -rf "$$$$o"; }; fi

$(OUT)/$(2)/$(2)_perf_report.xlsx: $(OUT)/$(2)/tree.tsv
	l=$$$$(mktemp $(OUT)/$(2)/.report.XXXXXX) && \
	    { $(REPORT) --tree_tsv_path $$< --output_xlsx_path $$@ \
	    --output_csvs_dir $(OUT)/$(2)/csv $(FLAGS) $(archflag) \
	    2>"$$$$l" || { cat "$$$$l" >&2; rm -f "$$$$l"; exit 1; }; } && \
	    mv -f "$$$$l" $(OUT)/$(2)/report.log
endef
$(foreach t,$(traces),$(eval $(call trace_rules,$(t),$(call name,$(t)))))

# The summary: each table of every trace, the header once.
$(OUT)/summary/%.tsv: $(foreach n,$(names),$(OUT)/$(n)/tables/timeline.tsv)
	@mkdir -p $(@D)
	t=$$(mktemp $(@D)/.$*.XXXXXX) && \
	    { exec 9<$(OUT); ! command -v flock >/dev/null || flock -s 9; \
	    awk 'FNR > 1 || NR == 1' \
	    $(foreach n,$(names),$(OUT)/$(n)/tables/$*.tsv) >"$$t"; \
	    st=$$?; exec 9<&-; [ $$st -eq 0 ] && mv -f "$$t" $@; } || \
	    { rm -f "$$t"; exit 1; }

$(OUT)/summary.xlsx: $(SUMMARY:%=$(OUT)/summary/%.tsv)
	t=$$(mktemp $(OUT)/.summary.XXXXXX) && \
	    { $(BIN)/tl-xlsx -H 'process_label,*_std,*_median' -o "$$t" $^ && \
	    mv -f "$$t" $@; } || { rm -f "$$t"; exit 1; }

clean:
	rm -rf $(foreach n,$(names),$(OUT)/$(n)) $(OUT)/summary \
	    $(OUT)/summary.xlsx

.PHONY: all reports summary clean
.SECONDARY:

# The traces as the ranks of one run (tl-ranks(1)): `ranks' makes each
# trace's summary, OUT/NAME/ranks.tsv (one job per trace: under
# GNU parallel --sshlogin, TRACES=one.json.gz ranks); `collectives' joins
# them into TraceLens's multi-rank collective report and HTA's
# cross-rank tables, OUT/collectives/*.csv, and as streams in
# OUT/collectives/tsv/. The rank of a trace is tl-parse's
# (distributedInfo, else RANKRE on the name). COLLFLAGS: tl-ranks's
# (-w 8 -g 8 -H ...). tl-parse reads only the categories the tables use
# (RANKCATS: the GPU rows, their launches, the profiler steps). Both
# targets are made under names of their own and renamed into place, as
# above: a failed join leaves the last good tables and nothing of its own.
RANKRE ?= rank[-_]?([0-9]+)
RANKCATS ?= kernel,gpu_memcpy,gpu_memset,cuda_sync,cuda_runtime,cuda_driver,user_annotation,gpu_user_annotation
COLLFLAGS ?=
define rank_rules
$(OUT)/$(2)/ranks.tsv: $(1)
	@mkdir -p $$(@D)
	t=$$$$(mktemp $$(@D)/.ranks.XXXXXX) && \
	    { $(BIN)/tl-parse -t -r '$(RANKRE)' -c $(RANKCATS) -- $$< | \
	    $(BIN)/tl-ranks -m -e >"$$$$t" && mv -f "$$$$t" $$@; } || \
	    { rm -f "$$$$t"; exit 1; }
endef
$(foreach t,$(traces),$(eval $(call rank_rules,$(t),$(call name,$(t)))))
ranks: $(foreach n,$(names),$(OUT)/$(n)/ranks.tsv)
collectives: $(OUT)/collectives/nccl_long.csv
$(OUT)/collectives/nccl_long.csv: $(foreach n,$(names),$(OUT)/$(n)/ranks.tsv)
	@mkdir -p $(OUT)
	t=$$(mktemp -d $(OUT)/.collectives.XXXXXX) && \
	    { $(BIN)/tl-ranks $(COLLFLAGS) -C "$$t" -d "$$t/tsv" $^ || \
	    { rm -rf "$$t"; exit 1; }; } && \
	    o=$$(mktemp -d $(OUT)/.collectives.old.XXXXXX) && \
	    { mv -T $(OUT)/collectives "$$o/c" 2>/dev/null || :; \
	    mv -T "$$t" $(OUT)/collectives; st=$$?; rm -rf "$$o"; \
	    exit $$st; }
.PHONY: ranks collectives
