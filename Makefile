# SPDX-License-Identifier: LGPL-2.1-or-later
# The two commands of the README, and a few more.  Meson does the building.
#   make demo        install what is missing (as root), build, run the demonstration
#   make check       build and run every test
#   make check-asan  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-clang build with clang (-Werror) and run the suite
#   make docs        regenerate the scenario table in docs/SEMANTICS.md
#   make bench       benchmarks against the kernel (ratios), JSON and a plot, on the
#                    release build (build-release: -O2, no assertions, only the bench)
#   make bench-instr callgrind instruction counts of the uvfs side (release build)

BUILD ?= build
PACKAGES = meson ninja-build pkg-config gcc clang python3 liburcu-dev libcmocka-dev \
           libfuse3-dev fuse3 libedit-dev util-linux diffutils valgrind gnuplot-nox
MESON_OPTS ?=

.PHONY: all demo check check-asan check-clang deps docs bench bench-instr clean

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

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

# The seed article's session, under every personality and then on the real kernel.
demo: deps all
	./$(BUILD)/tools/uvfsh/uvfsh --abi all examples/article.sh
	@echo
	@echo '== the same session on the running kernel (uvfsh --host):'
	./$(BUILD)/tools/uvfsh/uvfsh --host examples/article.sh

check: deps all
	meson test -C $(BUILD) --print-errorlogs --num-processes 2; \
	  rc=$$?; python3 tests/summarize.py $(BUILD)/meson-logs/testlog.json; exit $$rc

check-asan:
	$(MAKE) check BUILD=build-asan MESON_OPTS="-Db_sanitize=address,undefined -Db_lundef=false"

check-clang:
	CC=clang $(MAKE) check BUILD=build-clang

# Benchmarks are not tests: they print ratios measured in the same rounds.  They
# measure what an embedder links: -O2, assertions off.
BENCH_BUILD = build-release
$(BENCH_BUILD)/build.ninja:
	meson setup $(BENCH_BUILD) -Doptimization=2 -Ddebug=false -Db_ndebug=true

bench: deps $(BENCH_BUILD)/build.ninja
	ninja -C $(BENCH_BUILD) bench/uvfs-bench
	./$(BENCH_BUILD)/bench/uvfs-bench --json > $(BENCH_BUILD)/bench.json
	python3 bench/report.py $(BENCH_BUILD)/bench.json $(BENCH_BUILD)/bench-lookup.png

BENCH_INSTR = "fstatat depth 1" "fstatat depth 4" "fstatat depth 16" "fstatat 4 x 100 bytes" \
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

clean:
	rm -rf build build-asan build-clang build-release
