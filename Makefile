# kforge: a plain Makefile.  Override PKG_CONFIG, LLVM_CONFIG, CC, CFLAGS,
# PREFIX and DESTDIR on the command line.

PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
SHAREDIR = $(PREFIX)/share/kforge
PKG_CONFIG ?= pkg-config
LLVM_CONFIG ?= llvm-config-19
CC ?= cc
CFLAGS ?= -O2 -g

# evaluated lazily so that "make deps" works before the packages exist
PKGS = jansson libcrypto
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Ilib \
	$(shell $(PKG_CONFIG) --cflags $(PKGS)) $(CFLAGS)
LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lpthread
CLANG_CFLAGS = -I$(shell $(LLVM_CONFIG) --includedir)
CLANG_LIBDIR = $(shell $(LLVM_CONFIG) --libdir)
CLANG_LIBS = -L$(CLANG_LIBDIR) -lclang -Wl,-rpath,$(CLANG_LIBDIR)

TOOLS = kscan kslice kwrap kbuild kverify kreport kimport
# The one list of lib/ sources (beyond the generated k_prelude.c): the
# build, the fuzz targets (here and in test/fuzz.t, which asks
# "make print-LIB_SRCS"), the ASan build and the unit tests all use it.
LIB_SRCS = lib/k_msg.c lib/k_record.c lib/k_hash.c lib/k_proc.c \
	lib/k_fs.c lib/k_buf.c lib/k_mem.c lib/k_num.c lib/k_dtype.c \
	lib/k_main.c lib/k_pcache.c lib/k_flags.c lib/k_jail.c lib/k_progress.c
LIB_OBJS = $(LIB_SRCS:.c=.o) lib/k_prelude.o
MANS = man/kscan.1 man/kslice.1 man/kwrap.1 man/kbuild.1 man/kverify.1 \
	man/kreport.1 man/kimport.1

all: $(TOOLS)

deps:
	@sh mk/deps.sh

lib/k_prelude.c: lib/prelude/kforge_prelude.h lib/prelude/kforge_torch.h mk/embed.sh
	{ sh mk/embed.sh k_prelude_text lib/prelude/kforge_prelude.h && \
	  sh mk/embed.sh k_prelude_torch_text lib/prelude/kforge_torch.h; } > $@

lib/%.o: lib/%.c lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

lib/libkforge.a: $(LIB_OBJS)
	$(AR) rcs $@ $(LIB_OBJS)

# libclang-dependent code: its own archive, linked only into the tools that
# link libclang
# libclang's own driver cannot tell where its resource directory is (no
# program path): named here, clang's CUDA wrapper headers are found
CLANG_RESOURCE_DIR = $(CLANG_LIBDIR)/clang/$(shell $(LLVM_CONFIG) --version | cut -d. -f1)

lib/k_parse.o: lib/k_parse.c lib/*.h
	$(CC) $(ALL_CFLAGS) $(CLANG_CFLAGS) \
	    -DK_CLANG_RESOURCE_DIR='"$(CLANG_RESOURCE_DIR)"' -c -o $@ lib/k_parse.c

lib/k_pch.o: lib/k_pch.c lib/*.h
	$(CC) $(ALL_CFLAGS) $(CLANG_CFLAGS) -c -o $@ lib/k_pch.c

lib/libkparse.a: lib/k_parse.o lib/k_pch.o
	$(AR) rcs $@ lib/k_parse.o lib/k_pch.o

# libcurl-dependent code (the LLM client): its own archive, linked only
# into kwrap
CURL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libcurl)
CURL_LIBS = $(shell $(PKG_CONFIG) --libs libcurl)
LLM_OBJS = lib/k_llm.o lib/k_llm_extract.o

lib/k_llm.o: lib/k_llm.c lib/*.h
	$(CC) $(ALL_CFLAGS) $(CURL_CFLAGS) -c -o $@ lib/k_llm.c

lib/libkllm.a: $(LLM_OBJS)
	$(AR) rcs $@ $(LLM_OBJS)

KSCAN_OBJS = tools/kscan/main.o tools/kscan/input.o tools/kscan/compdb.o \
	tools/kscan/source.o tools/kscan/launch.o tools/kscan/macrolaunch.o tools/kscan/kernel.o \
	tools/kscan/unit.o tools/kscan/worker.o tools/kscan/emit.o \
	tools/kscan/cache.o tools/kscan/recall.o tools/kscan/chain.o \
	tools/kscan/conds.o tools/kscan/resolve.o

tools/kscan/%.o: tools/kscan/%.c tools/kscan/kscan.h lib/*.h
	$(CC) $(ALL_CFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

kscan: $(KSCAN_OBJS) lib/libkparse.a lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KSCAN_OBJS) lib/libkparse.a lib/libkforge.a \
	    $(CLANG_LIBS) $(LIBS)

# kslice: tools/kslice/, one internal header; every unit but main.c is
# shared with its fuzz target
KSLICE_UNITS = util parse closure hidden templates access prune output slice \
    memo
KSLICE_OBJS = $(KSLICE_UNITS:%=tools/kslice/%.o)
KSLICE_SRCS = $(KSLICE_UNITS:%=tools/kslice/%.c)

tools/kslice/%.o: tools/kslice/%.c tools/kslice/kslice.h lib/*.h
	$(CC) $(ALL_CFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

kslice: $(KSLICE_OBJS) tools/kslice/main.o lib/libkparse.a lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KSLICE_OBJS) tools/kslice/main.o \
	    lib/libkparse.a lib/libkforge.a $(CLANG_LIBS) $(LIBS)

# the baseline of bench/kscan-throughput.sh, built on demand
bench/kextract: bench/kextract.c lib/libkparse.a lib/libkforge.a
	$(CC) $(ALL_CFLAGS) $(CLANG_CFLAGS) $(LDFLAGS) -o $@ bench/kextract.c \
	    lib/libkparse.a lib/libkforge.a $(CLANG_LIBS) $(LIBS)

# kwrap: the units of tools/kwrap/ over one internal header
KWRAP_UNITS = tok ptx loopmacro eval vocab infer model offsets scatter texture strides textual launch poly flow interval onchip access \
	spec fit harness instruction llm validate mutate equiv equiv_eval equiv_dead equiv_barrier equiv_init equiv_overwrite equiv_thread switches hit boundary sizeguard loopentry gridcase nonfinite byvalue accessor guarded multiple precond kwrap
KWRAP_OBJS = $(KWRAP_UNITS:%=tools/kwrap/%.o) tools/kwrap/harness_text.o

tools/kwrap/harness_text.c: tools/kwrap/harness.in mk/embed.sh
	sh mk/embed.sh kwrap_harness_text tools/kwrap/harness.in > $@

tools/kwrap/%.o: tools/kwrap/%.c tools/kwrap/kwrap.h tools/kwrap/mtok.h tools/kwrap/equiv.h lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

kwrap: $(KWRAP_OBJS) lib/libkllm.a lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KWRAP_OBJS) lib/libkllm.a lib/libkforge.a \
	    $(CURL_LIBS) $(LIBS) -lm

# kbuild: tools/kbuild/, one internal header; every unit but main.c is
# shared with its fuzz target
# trust.c links kwrap's harness generator (KBUILD_KWRAP) to check a
# record's harness against it
KBUILD_UNITS = util compiler diag include build mutants record attach hip \
	wavefront hipnv_text
KBUILD_KWRAP = tools/kwrap/harness.o tools/kwrap/instruction.o \
	tools/kwrap/vocab.o tools/kwrap/tok.o tools/kwrap/harness_text.o \
	tools/kwrap/validate.o tools/kwrap/eval.o
KBUILD_OBJS = $(KBUILD_UNITS:%=tools/kbuild/%.o) tools/kbuild/trust.o \
	$(KBUILD_KWRAP)
KBUILD_SRCS = $(KBUILD_UNITS:%=tools/kbuild/%.c) tools/kbuild/trust.c \
	$(KBUILD_KWRAP:.o=.c)

tools/kbuild/trust.o: tools/kbuild/trust.c tools/kwrap/kwrap.h lib/*.h
	$(CC) $(ALL_CFLAGS) -Itools/kwrap -c -o $@ tools/kbuild/trust.c

# the HIP-on-NVIDIA mapping's headers, embedded in kbuild as {path, text}
HIPNV_HDRS = lib/hipnv/hip/hip_runtime.h lib/hipnv/hip/hip_runtime_api.h \
	lib/hipnv/hip/hip_fp16.h lib/hipnv/hip/hip_bf16.h \
	lib/hipnv/hip/hip_bfloat16.h lib/hipnv/hip/hip_math_constants.h \
	lib/hipnv/hip/hip_cooperative_groups.h lib/hipnv/hipcub/hipcub.hpp \
	lib/hipnv/hip/hip_vector_types.h lib/hipnv/hiprand/hiprand_kernel.h \
	lib/hipnv/hiprand/hiprand.h

tools/kbuild/hipnv_text.c: $(HIPNV_HDRS) mk/embed.sh
	{ i=0; for f in $(HIPNV_HDRS); do \
	    sh mk/embed.sh hipnv_$$i $$f || exit 1; i=$$((i + 1)); done; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char *const hipnv_files[][2];'; \
	  echo 'const char *const hipnv_files[][2] = {'; i=0; \
	  for f in $(HIPNV_HDRS); do \
	    echo "{ \"$${f#lib/hipnv/}\", hipnv_$$i },"; i=$$((i + 1)); done; \
	  echo '{ NULL, NULL } };'; } > $@

tools/kbuild/%.o: tools/kbuild/%.c tools/kbuild/kbuild.h lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

kbuild: $(KBUILD_OBJS) tools/kbuild/main.o lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KBUILD_OBJS) tools/kbuild/main.o \
	    lib/libkforge.a $(LIBS)

KVERIFY_OBJS = tools/kverify/main.o tools/kverify/record.o \
	tools/kverify/golden.o tools/kverify/verdict.o tools/kverify/candidate.o \
	tools/kverify/timing.o tools/kverify/sanitize.o tools/kverify/run.o \
	tools/kverify/mutation.o \
	tools/kverify/compare.o tools/kverify/dtype.o tools/kverify/blob.o \
	tools/kverify/util.o tools/kverify/fit.o tools/kverify/fitmath.o \
	tools/kverify/sanreport.o tools/kverify/hip.o tools/kverify/reuse.o
KVERIFY_OBJS += tools/kverify/serve.o tools/kverify/host.o tools/kverify/gate.o

tools/kverify/%.o: tools/kverify/%.c tools/kverify/kverify.h lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

kverify: $(KVERIFY_OBJS) lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KVERIFY_OBJS) lib/libkforge.a $(LIBS) -lm -ldl

test/tmp/fuzz/fuzz_kverify: tools/kverify/*.c tools/kverify/kverify.h

# kreport: tools/kreport/, one internal header
KREPORT_UNITS = main digest summary render md html debug export files ops
KREPORT_OBJS = $(KREPORT_UNITS:%=tools/kreport/%.o) tools/kreport/exporttest_text.o

tools/kreport/exporttest_text.c: tools/kreport/exporttest.in mk/embed.sh
	sh mk/embed.sh kreport_test_text tools/kreport/exporttest.in > $@

tools/kreport/%.o: tools/kreport/%.c tools/kreport/kreport.h lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

kreport: $(KREPORT_OBJS) lib/libkforge.a
	$(CC) $(LDFLAGS) -o $@ $(KREPORT_OBJS) lib/libkforge.a $(LIBS) -lm

# kimport: tools/kimport/, one internal header; runs kscan and kslice
KIMPORT_UNITS = main rows memory scan owntest
KIMPORT_OBJS = $(KIMPORT_UNITS:%=tools/kimport/%.o)

tools/kimport/%.o: tools/kimport/%.c tools/kimport/kimport.h lib/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

kimport: $(KIMPORT_OBJS) lib/libkforge.a kscan kslice
	$(CC) $(LDFLAGS) -o $@ $(KIMPORT_OBJS) lib/libkforge.a $(LIBS)

# unit tests: cmocka programs over lib/, run by test/unit.t
UNIT = test/unit/test_record test/unit/test_msg test/unit/test_lib \
	test/unit/test_pcache test/unit/test_flags test/unit/test_kwrap \
	test/unit/test_fit test/unit/test_kverify
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

# kwrap's pure units: the bound algebra, the evaluator, tokens, vocabulary
KWRAP_UNIT_OBJS = tools/kwrap/poly.o tools/kwrap/eval.o tools/kwrap/tok.o \
	tools/kwrap/vocab.o tools/kwrap/harness_text.o

test/unit/test_kwrap: test/unit/test_kwrap.c test/unit/unit.h \
    tools/kwrap/kwrap.h $(KWRAP_UNIT_OBJS) lib/libkforge.a lib/*.h
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Itools/kwrap $(LDFLAGS) -o $@ \
	    $< $(KWRAP_UNIT_OBJS) lib/libkforge.a $(LIBS) $(CMOCKA_LIBS) -lm

# kverify --fit's pure units: the memcheck report reader, the formula fit
test/unit/test_fit: test/unit/test_fit.c test/unit/unit.h \
    tools/kverify/kverify.h tools/kverify/sanreport.o tools/kverify/fitmath.o \
    lib/libkforge.a lib/*.h
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Itools/kverify $(LDFLAGS) -o $@ \
	    $< tools/kverify/sanreport.o tools/kverify/fitmath.o lib/libkforge.a \
	    $(LIBS) $(CMOCKA_LIBS) -lm
# kverify's comparison and its tolerance band; a GPU's gate
KVERIFY_UNIT_OBJS = tools/kverify/compare.o tools/kverify/dtype.o \
	tools/kverify/gate.o

test/unit/test_kverify: test/unit/test_kverify.c test/unit/unit.h \
    tools/kverify/kverify.h $(KVERIFY_UNIT_OBJS) lib/libkforge.a lib/*.h
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Itools/kverify $(LDFLAGS) -o $@ \
	    $< $(KVERIFY_UNIT_OBJS) lib/libkforge.a $(LIBS) $(CMOCKA_LIBS) -lm

test/unit/test_%: test/unit/test_%.c test/unit/unit.h lib/libkforge.a lib/*.h
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< \
	    lib/libkforge.a $(LIBS) $(CMOCKA_LIBS)

unit: $(UNIT)

# "make -s print-LIB_SRCS": a list for scripts that must not copy it
print-%:
	@echo $($*)

test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit
	@sh test/run

# GPU tests: needs an NVIDIA GPU, the built tools and the work directory
# that test/gpu/prepare.sh filled (see test/gpu/run.sh)
test-gpu:
	@sh test/gpu/run.sh $(PARTS)

# The whole suite under AddressSanitizer and UBSan, on a copy of the tree
# built in test/tmp/asan (the tools here stay as they are); any sanitizer
# report fails it.  TESTS= names .t files to run only those.
test-asan: deps
	@MAKE="$(MAKE)" sh test/asan.sh test/tmp/asan $(TESTS)

# libFuzzer targets (clang): test/tmp/fuzz/fuzz_<target>; fuzz/run.sh runs
# them.  test/fuzz.t replays their corpora without libFuzzer.
FUZZ_CC = clang-19
FUZZ_TARGETS = record kbuild kverify kslice kwrap kimport
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Ilib -O1 -g \
	-fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer \
	$(shell $(PKG_CONFIG) --cflags $(PKGS))
FUZZ_LIB = $(LIB_SRCS)

fuzz: $(FUZZ_TARGETS:%=test/tmp/fuzz/fuzz_%)

test/tmp/fuzz/fuzz_kslice: fuzz/fuzz_kslice.c $(KSLICE_SRCS) \
    tools/kslice/kslice.h lib/k_parse.c lib/k_pch.c \
    lib/k_prelude.c $(FUZZ_LIB) lib/*.h
	@mkdir -p test/tmp/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CLANG_CFLAGS) -Itools/kslice -o $@ \
	    fuzz/fuzz_kslice.c $(KSLICE_SRCS) $(FUZZ_LIB) lib/k_parse.c \
	    lib/k_pch.c lib/k_prelude.c $(CLANG_LIBS) $(LIBS)

test/tmp/fuzz/fuzz_kwrap: fuzz/fuzz_kwrap.c $(KWRAP_OBJS:.o=.c) $(FUZZ_LIB) \
    $(LLM_OBJS:.o=.c) lib/*.h tools/kwrap/kwrap.h tools/kwrap/mtok.h \
    tools/kwrap/equiv.h
	@mkdir -p test/tmp/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CURL_CFLAGS) -Itools/kwrap -o $@ \
	    fuzz/fuzz_kwrap.c $(filter-out tools/kwrap/kwrap.c, \
	    $(KWRAP_OBJS:.o=.c)) $(FUZZ_LIB) $(LLM_OBJS:.o=.c) $(CURL_LIBS) \
	    $(LIBS) -lm

test/tmp/fuzz/fuzz_kbuild: fuzz/fuzz_kbuild.c $(KBUILD_SRCS) \
    tools/kbuild/kbuild.h tools/kwrap/kwrap.h $(FUZZ_LIB) lib/*.h
	@mkdir -p test/tmp/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -Itools/kbuild -Itools/kwrap -o $@ fuzz/fuzz_kbuild.c \
	    $(KBUILD_SRCS) $(FUZZ_LIB) $(LIBS) -lm

test/tmp/fuzz/fuzz_kimport: fuzz/fuzz_kimport.c tools/kimport/rows.c \
    tools/kimport/kimport.h $(FUZZ_LIB) lib/*.h
	@mkdir -p test/tmp/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -Itools/kimport -o $@ fuzz/fuzz_kimport.c \
	    tools/kimport/rows.c $(FUZZ_LIB) $(LIBS) -lm

test/tmp/fuzz/fuzz_%: fuzz/fuzz_%.c $(FUZZ_LIB) lib/*.h tools/*.c
	@mkdir -p test/tmp/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_LIB) $(LIBS) -lm

example: deps
	@$(MAKE) --no-print-directory all
	@sh examples/run

lint: all
	@for m in $(MANS); do mandoc -Tlint -W warning $$m || exit 1; done
	@echo "lint: clean"

# the CUDA header tree "make deps" laid out goes to the share directory,
# where kscan and kslice look for it next to an installed binary
install: all deps
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(SHAREDIR)
	cp $(TOOLS) $(DESTDIR)$(BINDIR)/
	cp $(MANS) $(DESTDIR)$(MANDIR)/man1/
	cp -R schemas stubs prompts deps/cuda-12.4 $(DESTDIR)$(SHAREDIR)/

clean:
	rm -f $(TOOLS) tools/*.o tools/*/*.o lib/*.o lib/libkforge.a lib/libkparse.a \
	    lib/libkllm.a lib/k_prelude.c tools/kwrap/harness_text.c \
	    tools/kbuild/hipnv_text.c tools/kreport/exporttest_text.c
	rm -f $(UNIT) bench/kextract
	rm -rf test/tmp

.PHONY: all deps unit test test-gpu test-asan fuzz example lint install clean
