# Gnomon: the two commands a new machine needs are `make run` and `make test`.
BUILD_DIR   ?= build
BUILD_TYPE  ?= Release
JOBS        ?= $(shell nproc)
DATA_DIR    ?= var
HTTP_ADDR   ?= 127.0.0.1:4000
CTEST_ARGS  ?=
CMAKE_FLAGS ?=

# ccache can serve files built with the tests' precompiled header only with these sloppinesses.
export CCACHE_SLOPPINESS := pch_defines,time_macros,include_file_mtime,include_file_ctime

CMAKE_CONFIGURE = cmake -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=$(2) \
	-DCMAKE_CXX_COMPILER_LAUNCHER=ccache $(CMAKE_FLAGS) $(3)

.PHONY: all deps configure build run test test-fast test-extended bench oracle torture torture-load asan tsan fuzz format tidy clean

all: build

deps:
	@bash scripts/bootstrap.sh

$(BUILD_DIR)/build.ninja:
	$(call CMAKE_CONFIGURE,$(BUILD_DIR),$(BUILD_TYPE),)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	mkdir -p $(DATA_DIR)
	$(BUILD_DIR)/gnomon server --data-dir $(DATA_DIR) --http-addr $(HTTP_ADDR)

# The whole suite but the extended set: everything it needs is in the repository.
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -LE extended $(CTEST_ARGS)

# Checks against inputs the repository does not carry (TSBS's own files in ../shared/tsbs, or
# $GNOMON_SHARED_DIR/tsbs); each case says it skipped where its input is missing.
test-extended: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L extended $(CTEST_ARGS)

# Unit tests only: the quick inner loop.
test-fast: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L unit $(CTEST_ARGS)

bench: build
	bash scripts/bench.sh $(BUILD_DIR)

# The InfluxDB oracle (docs/influxql.md): InfluxDB 1.x from Debian and Gnomon get the same TSBS
# data; every TSBS InfluxQL statement (ORACLE_PER_FILE of each file, 0 = all) and test/influxql
# run against both, answers compared. Needs `apt-get install influxdb`; outside CI.
ORACLE_PER_FILE ?= 3
oracle: build
	ORACLE_PER_FILE=$(ORACLE_PER_FILE) GNOMON=$(BUILD_DIR)/gnomon bash scripts/influxql_oracle.sh

# The long crash harness (docs/reliability.md): kill -9 and power loss, at random moments and at
# fault points, every row checked after every restart. make test runs 20 cycles.
TORTURE_CYCLES ?= 1000
TORTURE_SEED   ?= 1
torture: build
	$(BUILD_DIR)/gnomon torture crash --cycles $(TORTURE_CYCLES) --seed $(TORTURE_SEED)

# Sustained mixed load (docs/reliability.md): writers at full speed, every TSBS devops query type,
# count(*) checked against the writers' tallies, latency percentiles and RSS per interval.
LOAD_SECONDS ?= 600
torture-load: build
	$(BUILD_DIR)/gnomon torture load --seconds $(LOAD_SECONDS) --csv torture-load.csv --svg torture-load.svg

asan: deps
	$(call CMAKE_CONFIGURE,build-asan,Debug,-DGNOMON_SANITIZE=address)
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) -LE extended --timeout 900

tsan: deps
	$(call CMAKE_CONFIGURE,build-tsan,Debug,-DGNOMON_SANITIZE=thread)
	cmake --build build-tsan -j $(JOBS)
	cd build-tsan && ctest --output-on-failure -j $(JOBS) -LE 'extended|fuzz' --timeout 900

# Coverage-guided fuzzing with libFuzzer (clang, ASan + UBSan) in build-fuzz: every fuzz target
# for FUZZ_SECONDS each over a scratch copy of its seed corpus (scripts/fuzz.sh; FUZZ_TARGETS
# picks some). make test runs the same targets without libFuzzer (test/fuzz/fuzz_driver.cc).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	@bash scripts/bootstrap.sh --fuzz
	bash scripts/fuzz.sh $(FUZZ_SECONDS) build-fuzz $(FUZZ_TARGETS)

format:
	find src tools test bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

tidy: configure
	find src -name '*.cc' | xargs clang-tidy -p $(BUILD_DIR) --quiet

clean:
	rm -rf $(BUILD_DIR) build-asan build-tsan build-fuzz
