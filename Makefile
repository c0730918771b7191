# cuarena — build, test and bundle. Wildcards find harness modules, commands,
# agents and tests: adding a file needs no edit here.
#
#   make            build/cuarena
#   make test       CPU test suite (Criterion); no GPU needed
#   make gpu-test   GPU suite (plain runner) — run on the GPU machine
#   make bench      end-to-end latency / stability benchmarks (GPU machine)
#   make baseline-dry   every library baseline on a counting shim (CPU: no set-up per call)
#   make bundle     build/ ready to carry to the GPU machine ($ORIGIN rpath + libcjson,
#                   libmicrohttpd)
#   make deps       install Debian packages (as root) or print the apt line
#   make SANITIZE=1 test   ASan + UBSan build of the C code

CUDA_HOME ?= /usr/local/cuda
CC        ?= gcc
NVCC      ?= $(CUDA_HOME)/bin/nvcc
BUILD     ?= build
PREFIX    ?= /usr/local

WARN      := -Wall -Wextra -Werror -Wno-unused-parameter
# The commit the harness is built from (+ "-dirty" with uncommitted changes), in
# one generated object that is rebuilt whenever it changes: run.json's
# harness.git must name the code that ran, not the commit of the last full build.
GIT_SHA   := $(shell git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)
CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 $(WARN) -D_GNU_SOURCE -Iinclude -Iharness -I$(CUDA_HOME)/include
NVFLAGS   := -O3 -g -std=c++17 -Iinclude -Iharness -gencode=arch=compute_90a,code=sm_90a \
             -Xcompiler -Wall,-Wextra,-Werror,-Wno-unused-parameter,-fPIC
LDLIBS    := -L$(CUDA_HOME)/lib64 -lcjson -lmicrohttpd -lcurl -lcrypto -lcudart -lcublas -ldl -lm -lpthread -lstdc++
RPATH     := -Wl,-rpath,'$$ORIGIN' -Wl,-rpath,$(CUDA_HOME)/lib64

ifeq ($(SANITIZE),1)
CFLAGS    += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS   += -fsanitize=address,undefined
# Criterion's own runner leaks 96 bytes at exit; nothing of ours is suppressed.
export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp,print_suppressions=0
endif

# harness/ is the library, one folder per stage of the pipeline (catalogue,
# compile, judge, eval, results, episode, boards) over the ground floor (harness/*.c); harness/cli/ is the command-line
# tool above it, which nothing in the library calls.
HARNESS_C   := $(filter-out harness/cli/%,$(wildcard harness/*.c harness/*/*.c))
HARNESS_CU  := $(wildcard harness/*/*.cu)
HARNESS_H   := $(wildcard harness/*.h harness/*/*.h harness/*/*.cuh)
CLI_C       := $(wildcard harness/cli/*.c)
CLI_OBJS    := $(CLI_C:%.c=$(BUILD)/obj/%.o)
AGENTS_C    := $(wildcard agents/*.c)
LIB_OBJS    := $(HARNESS_C:%.c=$(BUILD)/obj/%.o) $(HARNESS_CU:%.cu=$(BUILD)/obj/%.o) \
               $(BUILD)/obj/version.o
# Agent backends register themselves in a linker section: linked as objects (not
# from the archive) so none is dropped.
AGENT_OBJS  := $(AGENTS_C:%.c=$(BUILD)/obj/%.o)
LIB         := $(BUILD)/libcuarena.a

TEST_SRCS   := $(wildcard tests/test-*.c)
# C++ tests: the header-only C++ of the library baselines (baselines/cudnn/*.cuh)
TEST_CXX    := $(wildcard tests/test-*.cc)
TEST_OBJS   := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o) $(TEST_CXX:%.cc=$(BUILD)/obj/%.o)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPERS     := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/tests/helpers/%)
SOFIX_SRCS  := $(wildcard tests/data/so/*.c)
SOFIXTURES  := $(SOFIX_SRCS:tests/data/so/%.c=$(BUILD)/tests/so/%.so)
GPU_SRCS    := $(wildcard tests/gpu/*.c)
BENCH_SRCS  := $(wildcard bench/*.c)

.PHONY: all test gpu-test bench bundle deps install clean check-nvcc fuzz baseline-dry FORCE
all: $(BUILD)/cuarena $(BUILD)/cuarena-cand

$(BUILD)/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf 'const char cua_git_sha[] = "%s";\n' '$(GIT_SHA)' > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(BUILD)/obj/version.o: $(BUILD)/version.c
	$(CC) $(CFLAGS) -c $< -o $@

FORCE:

# Each object depends on the headers it includes, as the compiler found them
# (-MMD -MP: build/obj/**/*.d, read below; a removed header is no error).
DEPFLAGS  := -MMD -MP

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(filter-out -std=c11 -D%,$(CFLAGS)) $(DEPFLAGS) -std=c++17 -Iinclude -Ibaselines/cudnn \
		-I$(CUDA_HOME)/include -c $< -o $@

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(DEPFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/cuarena: $(CLI_OBJS) $(AGENT_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPATH) $(LDLIBS)

# The candidate's process (harness/judge/cand/main.cu): the judge starts it beside
# itself (jail.h). Its own objects, never sanitized (nothing here runs it), and no
# library of ours beyond the jail, the wire and the view (harness/view.c: the
# file system it is left with): the smallest program that maps the judge's
# buffers and calls cua_solve.
CANDFLAGS := -O2 -g -std=c11 $(WARN) -D_GNU_SOURCE -Iinclude -Iharness -I$(CUDA_HOME)/include
$(BUILD)/obj/cand/%.o: harness/judge/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CANDFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/cand/view.o: harness/view.c
	@mkdir -p $(dir $@)
	$(CC) $(CANDFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/cand/main.o: harness/judge/cand/main.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/cuarena-cand: $(BUILD)/obj/cand/main.o $(BUILD)/obj/cand/jail.o $(BUILD)/obj/cand/wire.o \
                       $(BUILD)/obj/cand/view.o
	$(NVCC) -o $@ $^ -cudart shared -ldl -Xlinker -rpath,$(CUDA_HOME)/lib64

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- CPU tests (Criterion) -------------------------------------------------

$(BUILD)/test-suite: $(TEST_OBJS) $(AGENT_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPATH) -lcriterion $(LDLIBS)

$(BUILD)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -D_GNU_SOURCE -w -o $@ $<

$(BUILD)/tests/so/%.so: tests/data/so/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -D_GNU_SOURCE -w -shared -fPIC -o $@ $<

# a serving judge without a GPU, for tests/test-judges.c
$(BUILD)/tests/fake-judge: tests/fakes/fake-judge.c tests/fakes/fake-wire.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(RPATH) $(LDLIBS)

# a GPU's probe and serving judge without a GPU, for tests/test-bstore.c's runs
$(BUILD)/tests/fake-gpu: tests/fakes/fake-gpu.c tests/fakes/fake-wire.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(RPATH) $(LDLIBS)

# Every Level 3 reference walked on a dry backend (shapes and params only, no GPU).
$(BUILD)/net-dry: tests/net-dry.cu $(wildcard tests/net-dry*.cuh) $(wildcard tasks/common/*.cuh) $(wildcard tasks/L3/*/reference.cu)
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -Iinclude -Itasks/common -o $@ $<

# The same for the recurrent and attention networks (several inputs and outputs).
$(BUILD)/net-dry-seq: tests/net-dry-seq.cu tests/net-dry-main.cuh tests/net-dry-backend.cuh $(wildcard tasks/common/*.cuh) $(wildcard tasks/L3/*/reference.cu)
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -Iinclude -Itasks/common -o $@ $<

# And for the net-vit.cuh networks net-dry cannot run (Mamba2: X, A, B, C and no weights).
$(BUILD)/net-dry-vit: tests/net-dry-vit.cu tests/net-dry-main.cuh tests/net-dry-backend.cuh $(wildcard tasks/common/*.cuh) $(wildcard tasks/L3/*/reference.cu)
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -Iinclude -Itasks/common -o $@ $<

# Library baselines on a counting shim, no GPU (tests/baseline-dry.c): each built against
# no library (-cudart none; PTX only, nothing runs on a device), a call after the first at a
# shape must allocate, plan, search and synchronise nothing, on the call's stream only.
# `make test` takes one baseline of each shared header (BLDRY); `make baseline-dry`, all.
BLDRY_DIR := $(BUILD)/tests/bl-dry
BLDRY_ALL := $(patsubst baselines/%.cu,%,$(wildcard baselines/cudnn/*.cu baselines/cublas/*.cu))
BLDRY     := cudnn/relu cudnn/softmax cudnn/l1-042 cudnn/l1-046 cudnn/mean-dim \
             cudnn/l1-063 cudnn/l1-067 cudnn/l1-057 cudnn/l1-086 \
             cudnn/batchnorm cudnn/instancenorm cudnn/l2-001-unfused cudnn/l2-001-fused \
             cudnn/l2-002-unfused cudnn/l2-006-unfused cudnn/l2-006-fused cudnn/l2-003-unfused \
             cudnn/l2-038-unfused cudnn/l2-092-unfused cudnn/l2-092-fused cudnn/l3-004 \
             cudnn/l3-006 cudnn/l3-028 cudnn/l3-035 cudnn/l3-043 cublas/sgemm \
             cublas/l1-005 cublas/sgemv cublas/sgemm-batched cublas/l2-009-unfused \
             cublas/l2-009-fused cublas/l3-001
$(BLDRY_DIR)/%.so: baselines/%.cu $(wildcard baselines/*/*.cuh) $(wildcard tasks/common/*.cuh) \
                   include/cuarena.h
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -Iinclude -Itasks/common -DNVTX_DISABLE \
		-gencode=arch=compute_90,code=compute_90 -Xcompiler=-fPIC -shared -cudart none -o $@ $<

$(BUILD)/tests/baseline-dry: tests/baseline-dry.c tests/baseline-dry-shim.c \
                             tests/baseline-dry-stubs.c tests/baseline-dry.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(filter %.c,$^) $(LIB) -lcjson -lcrypto -ldl -lm \
		-lpthread

# The check's controls (tests/data/bl-dry/faults.cu): each fault must be caught, "kept" pass.
BLDRY_FAULTS := alloc pool event sync stream pointer
BLDRY_FIX    := $(BLDRY_FAULTS:%=!$(BUILD)/tests/bl-dry-fix/%.so:L1/019-relu) \
                $(BUILD)/tests/bl-dry-fix/kept.so:L1/019-relu
$(BUILD)/tests/bl-dry-fix/%.so: tests/data/bl-dry/faults.cu baselines/common/mempool-common.cuh
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -Iinclude -Ibaselines/common -DFAULT='"$*"' \
		-gencode=arch=compute_90,code=compute_90 -Xcompiler=-fPIC -shared -cudart none -o $@ $<

baseline-dry: $(BUILD)/tests/baseline-dry $(BLDRY_ALL:%=$(BLDRY_DIR)/%.so)
	$(BUILD)/tests/baseline-dry $(CURDIR) $(BLDRY_DIR) $(BLDRY_ALL)

# `make test` runs every suite, each a target of its own (`make test-cli`, ...), and
# goes on past a failing one: it ends naming the suites that failed, so one does not
# hide the others. Each suite ends "N passed, N failed".
TEST_SUITES := test-unit test-cli test-net-dry test-net-dry-seq test-net-dry-vit \
               test-baseline-dry test-slurm
.PHONY: $(TEST_SUITES)
test:
	@failed=""; for t in $(TEST_SUITES); do \
		echo "== make $$t"; $(MAKE) --no-print-directory $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; \
	echo "make test: all $(words $(TEST_SUITES)) suites passed"

test-unit: $(BUILD)/cuarena $(BUILD)/cuarena-cand $(BUILD)/test-suite $(HELPERS) $(SOFIXTURES) \
           $(BUILD)/tests/fake-judge $(BUILD)/tests/fake-gpu
	CUARENA_ROOT=$(CURDIR) CUARENA_BUILD=$(CURDIR)/$(BUILD) $(BUILD)/test-suite --jobs 2
test-cli: $(BUILD)/cuarena $(BUILD)/cuarena-cand $(HELPERS) $(SOFIXTURES) $(BUILD)/tests/fake-judge
	tests/cli.sh $(BUILD)/cuarena
test-net-dry: $(BUILD)/net-dry
	tests/net-dry.sh $(BUILD)/net-dry
test-net-dry-seq: $(BUILD)/net-dry-seq
	tests/net-dry-seq.sh $(BUILD)/net-dry-seq
test-net-dry-vit: $(BUILD)/net-dry-vit
	tests/net-dry-vit.sh $(BUILD)/net-dry-vit
test-baseline-dry: $(BUILD)/tests/baseline-dry $(BLDRY:%=$(BLDRY_DIR)/%.so) \
                   $(BLDRY_FAULTS:%=$(BUILD)/tests/bl-dry-fix/%.so) $(BUILD)/tests/bl-dry-fix/kept.so
	$(BUILD)/tests/baseline-dry $(CURDIR) $(BLDRY_DIR) $(BLDRY) $(BLDRY_FIX)
test-slurm: $(BUILD)/cuarena $(BUILD)/cuarena-cand
	tests/slurm.sh $(BUILD)/cuarena

# ---- GPU suite (plain runner, no Criterion on the GPU machine) -------------
$(BUILD)/gpu-test: $(GPU_SRCS) $(AGENT_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(GPU_SRCS) $(AGENT_OBJS) $(LIB) $(RPATH) $(LDLIBS)

gpu-test: $(BUILD)/cuarena $(BUILD)/gpu-test
	$(BUILD)/gpu-test

$(BUILD)/bench: $(BENCH_SRCS) $(AGENT_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_SRCS) $(AGENT_OBJS) $(LIB) $(RPATH) $(LDLIBS)

bench: $(BUILD)/cuarena $(BUILD)/bench
	$(BUILD)/bench

# bench/gen-bench.cu: the input generator's cost on the GPU (new and old)
$(BUILD)/gen-bench: bench/gen-bench.cu harness/judge/gen.cuh harness/rng.h
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++17 -Iinclude -Iharness -gencode=arch=compute_90a,code=sm_90a -o $@ $<

# ---- fuzzing (libFuzzer, clang) ----------------------------------------------
# Each target in tests/fuzz/fuzz-<name>.c runs FUZZ_SECONDS (default 600) from its
# corpus tests/fuzz/corpus-<name>/; any crash or sanitizer report fails.
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BINS    := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SECONDS ?= 600
FUZZ_CFLAGS  := -std=c11 -g -O1 -D_GNU_SOURCE -Iinclude -Iharness -I$(CUDA_HOME)/include \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

# the C library without the judge's C half (cand-ctl.c calls into judge.cu, not built here)
FUZZ_LIB_C   := $(filter-out harness/judge/cand-ctl.c,$(HARNESS_C))

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_C) $(BUILD)/version.c $(HARNESS_H)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB_C) $(BUILD)/version.c -lcjson -lmicrohttpd -lcurl -lcrypto -ldl -lm -lpthread

fuzz: $(FUZZ_BINS)
	@for b in $(FUZZ_BINS); do n=$$(basename $$b); n=$${n#fuzz-}; \
		mkdir -p $(BUILD)/fuzz/corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		if ! $$b -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(BUILD)/fuzz/corpus-$$n tests/fuzz/corpus-$$n > $(BUILD)/fuzz/$$n.log 2>&1; then \
			tail -n 40 $(BUILD)/fuzz/$$n.log; echo "fuzz: $$n FAILED"; exit 1; fi; \
		grep -E "^Done [0-9]+ runs|^stat::number_of_executed_units" $(BUILD)/fuzz/$$n.log; \
	done

# ---- carrying build/ to the GPU machine ------------------------------------
# tools/cudnn-find.cu: cuDNN Find results vs an fp64 sum (diagnosing a baseline)
$(BUILD)/cudnn-find: tools/cudnn-find.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o $@ $< -lcudnn

# tools/probe-alloc.cu: what big device allocations cost (where runner time is not)
$(BUILD)/probe-alloc: tools/probe-alloc.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -arch=sm_90 -o $@ $<

bundle: $(BUILD)/cuarena $(BUILD)/cuarena-cand $(BUILD)/gpu-test $(BUILD)/bench $(BUILD)/cudnn-find $(BUILD)/probe-alloc $(BUILD)/gen-bench
	@# copied beside and renamed: a running cuarena maps these, and cp would rewrite them in place
	cp -L $$(ldconfig -p | awk '/libcjson.so.1 /{print $$NF; exit}') $(BUILD)/libcjson.so.1.tmp
	mv -f $(BUILD)/libcjson.so.1.tmp $(BUILD)/libcjson.so.1
	cp -L $$(ldconfig -p | awk '/libmicrohttpd.so.12 /{print $$NF; exit}') $(BUILD)/libmicrohttpd.so.12.tmp
	mv -f $(BUILD)/libmicrohttpd.so.12.tmp $(BUILD)/libmicrohttpd.so.12
	@ldd $(BUILD)/cuarena | grep -q "libmicrohttpd.so.12 => $$(cd $(BUILD) && pwd)/" || { \
		echo "bundle: $(BUILD)/cuarena does not take libmicrohttpd from $(BUILD)/" >&2; exit 1; }
	@echo "bundle: $(BUILD)/ holds cuarena, cuarena-cand, gpu-test, bench, cudnn-find, probe-alloc, libcjson.so.1 and libmicrohttpd.so.12 (rpath \$$ORIGIN)"

deps:
	@tools/deps.sh

install: $(BUILD)/cuarena $(BUILD)/cuarena-cand
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cuarena
	install -m 755 $(BUILD)/cuarena $(BUILD)/cuarena-cand $(DESTDIR)$(PREFIX)/bin/
	cp -r include tasks baselines plots docs $(DESTDIR)$(PREFIX)/share/cuarena/

clean:
	rm -rf $(BUILD)
