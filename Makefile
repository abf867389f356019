# SPDX-License-Identifier: LGPL-2.1-or-later
# The two commands of the README, and a few more.  Meson does the building.
#   make demo        install what is missing (as root), build, run the demonstration
#   make check       build and run every test
#   make check-asan  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-clang build with clang (-Werror) and run the suite
#   make pjdfstest PJDFSTEST_SRC=DIR  pjdfstest whole (a checkout of it in DIR), natively
#                    and under uvfs-run on memfs and a --bind (~20 min; not in check)
#   make ltp LTP_DIR=DIR  LTP's syscall tests for uvfs's calls (an installed copy in DIR),
#                    natively and under uvfs-run: the same result each (not in check)
#   make gvisor GVISOR_SRC=DIR  gVisor's syscall tests for uvfs's calls, built from a copy
#                    of gVisor in DIR (needs libgtest-dev libgmock-dev libabsl-dev
#                    libbenchmark-dev libcap-dev), natively and under uvfs-run (not in check)
#   make docs        regenerate the scenario table in docs/SEMANTICS.md
#   make bench       benchmarks against the kernel (ratios), JSON and a plot, on the
#                    release build (build-release: -O3, no assertions, the shared library)
#   make bench-instr callgrind instruction counts of the uvfs side (release build)
#   make install     a release build installed under PREFIX (default /usr/local), into
#                    DESTDIR if set: library, header, uvfs.pc, the tools, man pages
#   make check-install  install into a scratch DESTDIR and build examples/demo.c
#                    against it with nothing but pkg-config (CI runs it)
#   make tsan        the threaded tests (test_core, test_stress) and uvfs-run's supervisor
#                    (tests/uvfs-run/tsan.sh) under ThreadSanitizer,
#                    clang's and gcc's, with tests/tsan.supp; any report fails (CI runs it)
#   make fuzz        the libFuzzer targets of fuzz/ (clang, ASan + UBSan), each for
#                    FUZZ_SECONDS (default 60), seeded from the test scripts; a
#                    finding stops it and leaves crash-* in build-fuzz/findings

BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
PACKAGES = meson ninja-build pkg-config gcc clang python3 liburcu-dev libcmocka-dev \
           libfuse3-dev fuse3 libedit-dev libseccomp-dev util-linux diffutils valgrind gnuplot-nox libclang-rt-dev \
           git sqlite3 make perl tar coreutils procps psmisc lsof jq tmux openssh-client socat inotify-tools
MESON_OPTS ?=

.PHONY: all demo check pjdfstest ltp gvisor check-asan check-clang check-install install deps docs bench bench-instr clean fuzz tsan

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

deps:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing packages (run as root, or install them): $$missing" >&2; exit 1; \
	  fi; \
	fi

# The development builds turn warnings into errors; the shipped meson.build does not
# (a distribution builds with its own flags and compilers).
$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dwerror=true $(MESON_OPTS)

# The seed article's session, under every personality and then on the real kernel;
# then the upgrade that broke ALT Linux, replayed on the real tools (uvfs-run); then
# the session explained: the call that makes it depend on an era.
demo: deps all
	./$(BUILD)/tools/uvfsh/uvfsh --abi all examples/article.sh
	@echo
	@echo '== the same session on the running kernel (uvfsh --host):'
	./$(BUILD)/tools/uvfsh/uvfsh --host examples/article.sh
	@echo
	@echo '== the upgrade the seed patch is about, with the real start-stop-daemon under uvfs-run:'
	@echo '   a daemon binary replaced as rpm does, then start-stop-daemon --stop --exec'
	examples/upgrade-replay.sh ./$(BUILD)/tools/uvfs-run/uvfs-run
	@echo
	@echo '== which call makes the session depend on an era (uvfs-run --explain; exit 1: some do):'
	./$(BUILD)/tools/uvfs-run/uvfs-run --explain -- bash -c 'cd /tmp; touch foo bar; exec 42<bar; \
	  readlink /proc/self/fd/42; mv foo bar; readlink /proc/self/fd/42'; test $$? = 1

check: deps all
	meson test -C $(BUILD) --print-errorlogs --num-processes 2 --no-suite pjdfstest --no-suite ltp --no-suite gvisor $(CHECK_ARGS); \
	  rc=$$?; python3 tests/summarize.py $(BUILD)/meson-logs/testlog.json; exit $$rc

pjdfstest: deps all
	PJDFSTEST_SRC=$(PJDFSTEST_SRC) meson test -C $(BUILD) --print-errorlogs --suite pjdfstest

ltp: deps all
	LTP_DIR=$(LTP_DIR) meson test -C $(BUILD) --print-errorlogs --suite ltp

gvisor: deps all
	GVISOR_SRC=$(GVISOR_SRC) meson test -C $(BUILD) --print-errorlogs --suite gvisor

check-asan:
	$(MAKE) check BUILD=build-asan MESON_OPTS="-Db_sanitize=address,undefined -Db_lundef=false"

check-clang:
	CC=clang $(MAKE) check BUILD=build-clang

TSAN_TESTS = tests/test_core tests/test_stress
tsan: deps
	test -f build-tsan/build.ninja || CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false
	test -f build-tsan-gcc/build.ninja || CC=gcc meson setup build-tsan-gcc -Db_sanitize=thread -Db_lundef=false
	@set -e; for b in build-tsan build-tsan-gcc; do \
	  ninja -C $$b $(TSAN_TESTS) tools/uvfs-run/uvfs-run tests/append_threads tests/exec_thread; \
	  for t in $(TSAN_TESTS); do \
	    echo "== $$b/$$t"; \
	    TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1" ./$$b/$$t; \
	  done; \
	  echo "== $$b/tools/uvfs-run/uvfs-run (tests/uvfs-run/tsan.sh)"; \
	  TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66" \
	    tests/uvfs-run/tsan.sh $$b/tools/uvfs-run/uvfs-run $$b/tests/append_threads \
	      $$b/tests/exec_thread; \
	done

# Fuzzing (docs/TESTING.md).  The corpus grows in build-fuzz/corpus-TARGET, seeded
# each run from the scripts of tests/; the source tree is never written.
FUZZ_BUILD = build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = fuzz_ops fuzz_sysscript fuzz_shell fuzz_hostfs fuzz_uvfsrun
$(FUZZ_BUILD)/build.ninja:
	CC=clang meson setup $(FUZZ_BUILD) -Dfuzz=true -Db_sanitize=address,undefined \
	  -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link -Dwerror=true
fuzz: deps $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD) $(addprefix fuzz/,$(FUZZ_TARGETS))
	@mkdir -p $(FUZZ_BUILD)/findings
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
	  case $$t in \
	    fuzz_sysscript) seeds="tests/diff tests/regress";; \
	    fuzz_shell) seeds="tests/scripts examples";; \
	    *) seeds="";; \
	  esac; \
	  echo "== $$t, $(FUZZ_SECONDS) s"; \
	  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    ./$(FUZZ_BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 \
	    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/findings/ \
	    $(FUZZ_BUILD)/corpus-$$t $$seeds > $(FUZZ_BUILD)/$$t.log 2>&1; then \
	    grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb)' $(FUZZ_BUILD)/$$t.log; \
	  else \
	    tail -40 $(FUZZ_BUILD)/$$t.log; echo "fuzz: $$t found something (build-fuzz/findings)"; exit 1; \
	  fi; \
	done

# Benchmarks are not tests: they print ratios measured in the same rounds.  They
# measure what an embedder links: the release buildtype that make install ships
# (-O3, assertions off), the shared library through its exported calls.
BENCH_BUILD = build-release
$(BENCH_BUILD)/build.ninja:
	meson setup $(BENCH_BUILD) -Dbuildtype=release -Db_ndebug=true

bench: deps $(BENCH_BUILD)/build.ninja
	ninja -C $(BENCH_BUILD) bench/uvfs-bench
	./$(BENCH_BUILD)/bench/uvfs-bench --json > $(BENCH_BUILD)/bench.json
	python3 bench/report.py $(BENCH_BUILD)/bench.json $(BENCH_BUILD)/bench-lookup.png

BENCH_INSTR = "fstatat depth 1" "fstatat depth 4" "fstatat depth 4, dirfd-relative" \
	"fstatat depth 4, uid 1000, dirs 0750" \
	"fstatat depth 4, absolute path" "fstatat depth 16" "fstatat 4 x 100 bytes" \
	"fstatat ENOENT depth 4" "openat+close" "create+close+unlink" "mkdir+rmdir" \
	"rename, one directory" "RENAME_EXCHANGE, one directory" "readlink /proc/self/fd/N"
bench-instr: deps $(BENCH_BUILD)/build.ninja
	ninja -C $(BENCH_BUILD) bench/uvfs-bench
	@for b in $(BENCH_INSTR); do \
	  n=$$(valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=$(BENCH_BUILD)/callgrind.out \
	    ./$(BENCH_BUILD)/bench/uvfs-bench --instr "$$b" 2>/dev/null | sed 's/.*: \([0-9]*\) uvfs operations measured/\1/'); \
	  callgrind_annotate $(BENCH_BUILD)/callgrind.out 2>/dev/null | \
	    awk -v n="$$n" -v b="$$b" '/PROGRAM TOTALS/ {gsub(",","",$$1); printf "%-34s %8.0f instructions/op\n", b, $$1 / n}'; \
	done

# Regenerate the generated parts of the docs (the scenario table of SEMANTICS.md).
docs: all
	./$(BUILD)/tests/test_scenarios --markdown > $(BUILD)/scenarios.md
	python3 -c 'import sys; d=open("docs/SEMANTICS.md").read(); b="<!-- scenarios:begin -->\n"; \
	  e="<!-- scenarios:end -->"; t=open(sys.argv[1]).read(); \
	  open("docs/SEMANTICS.md","w").write(d[:d.index(b)+len(b)]+t+d[d.index(e):])' $(BUILD)/scenarios.md

# What a distribution does: a release build (meson's defaults, -O3, no -Werror),
# meson install, PREFIX and DESTDIR honoured.
DIST_BUILD = build-dist
install:
	@if [ -f $(DIST_BUILD)/build.ninja ]; then meson configure $(DIST_BUILD) --prefix=$(PREFIX); \
	  else meson setup $(DIST_BUILD) -Dbuildtype=release --prefix=$(PREFIX); fi
	ninja -C $(DIST_BUILD)
	DESTDIR="$(DESTDIR)" meson install -C $(DIST_BUILD) --no-rebuild

# The release build must be warning-free (-Werror here), install, and an embedder's
# program must build and run against the installed copy with pkg-config alone.
check-install: deps
	rm -rf build-install-check
	meson setup build-install-check -Dbuildtype=release -Dwerror=true --prefix=/usr
	ninja -C build-install-check
	DESTDIR=$(CURDIR)/build-install-check/root meson install -C build-install-check \
	  --no-rebuild --quiet
	sh tests/check_install.sh $(CURDIR)/build-install-check/root /usr

clean:
	rm -rf build build-asan build-clang build-release build-dist build-install-check \
	  build-tsan build-tsan-gcc build-fuzz
