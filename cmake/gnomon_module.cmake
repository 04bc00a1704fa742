# Helpers that keep every module's CMakeLists.txt a few lines long.

# gnomon_library(NAME SOURCES a.cc b.cc DEPS other_lib ... [UNITY n])
# Declares library gnomon_NAME; includes are rooted at the repository root ("src/base/status.h").
# UNITY n compiles its sources n to a unit: for libraries of many small files that each parse the
# same heavy headers (a clean build is most of CI's time on two cores). Their file-local names
# then share a unit, so they must not collide.
function(gnomon_library name)
  cmake_parse_arguments(ARG "" "UNITY" "SOURCES;DEPS" ${ARGN})
  add_library(gnomon_${name} STATIC ${ARG_SOURCES})
  target_include_directories(gnomon_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(gnomon_${name} PUBLIC ${ARG_DEPS})
  if(ARG_UNITY)
    set_target_properties(gnomon_${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARG_UNITY})
  endif()
endfunction()

# Compile definitions every test target carries; the shared precompiled header is built with the
# same ones, as GCC requires of a header it reuses.
set(GNOMON_TEST_DEFINITIONS
  # GNOMON_TESTDATA_DIR: inputs the repository carries (test/testdata). GNOMON_SHARED_DIR: the
  # team's folder beside the repository, for extended tests only ($GNOMON_SHARED_DIR overrides it
  # at run time; see src/bench/tsbs_reference.h).
  GNOMON_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  GNOMON_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/test/testdata"
  GNOMON_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared"
  GNOMON_BINARY_DIR="${PROJECT_BINARY_DIR}")

# Test sources compile at -O1 in Release: the code under test is the libraries' (-O3), and a test
# file's own code runs once; -O3 made them the larger half of a clean build.
# -pthread on all of them: some libraries' pkg-config flags add it (RE2's), and a test target with
# it may not reuse a precompiled header built without it (GCC: "_REENTRANT is defined"), which
# silently cost ~40 test files their precompiled header.
set(GNOMON_TEST_OPTIONS $<$<CONFIG:Release>:-O1> -pthread)

# One precompiled header for all tests: GoogleTest, GoogleMock and rapidcheck cost every test file
# several seconds to parse, more than most test files themselves.
function(gnomon_test_pch)
  if(NOT GNOMON_BUILD_TESTS OR TARGET gnomon_test_pch)
    return()
  endif()
  add_executable(gnomon_test_pch ${PROJECT_SOURCE_DIR}/test/pch/test_pch_main.cc)
  target_link_libraries(gnomon_test_pch PRIVATE GTest::gtest GTest::gmock rapidcheck)
  target_compile_definitions(gnomon_test_pch PRIVATE ${GNOMON_TEST_DEFINITIONS})
  target_compile_options(gnomon_test_pch PRIVATE ${GNOMON_TEST_OPTIONS})
  target_precompile_headers(gnomon_test_pch PRIVATE
    <gtest/gtest.h> <gmock/gmock.h> <rapidcheck.h> <rapidcheck/gtest.h>
    <algorithm> <cstdint> <map> <memory> <optional> <string> <string_view> <vector>)
endfunction()

# gnomon_test(NAME SOURCES a_test.cc ... DEPS libs ... [LABELS unit|sql|integration|slow] [TIMEOUT s])
# One GoogleTest binary; each TEST becomes its own ctest entry (discovered when ctest runs).
function(gnomon_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS" ${ARGN})
  if(NOT GNOMON_BUILD_TESTS)
    return()
  endif()
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # A sanitized build runs 5-15 times slower (ThreadSanitizer most): the same tests, more time.
  if(GNOMON_SANITIZE)
    math(EXPR ARG_TIMEOUT "${ARG_TIMEOUT} * 4")
  endif()
  gnomon_test_pch()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main GTest::gmock
                        rapidcheck)
  target_compile_definitions(${name} PRIVATE ${GNOMON_TEST_DEFINITIONS})
  target_compile_options(${name} PRIVATE ${GNOMON_TEST_OPTIONS})
  target_precompile_headers(${name} REUSE_FROM gnomon_test_pch)
  # Several labels survive test discovery only as one string; `ctest -L` matches a regex, so
  # "unit,sql" is selected by both -L unit and -L sql.
  string(JOIN "," labels ${ARG_LABELS})
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
                       PROPERTIES LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT})
endfunction()

# gnomon_benchmark(NAME SOURCES a_bench.cc ... DEPS libs ...)
function(gnomon_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT GNOMON_BUILD_BENCHMARKS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark benchmark::benchmark_main)
  target_compile_definitions(${name} PRIVATE GNOMON_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endfunction()

# gnomon_fuzz(NAME SOURCES target.cc DEPS libs ... CORPUS dir)
# A fuzz target (LLVMFuzzerTestOneInput). Under clang with -DGNOMON_LIBFUZZER=ON it links libFuzzer
# (-fsanitize=fuzzer; the libraries are instrumented by the top-level CMakeLists.txt) and its test
# only replays the corpus (-runs=0); scripts/fuzz.sh runs it for real. Otherwise
# test/fuzz/fuzz_driver.cc runs it over its seed corpus plus deterministic mutations, as a test.
function(gnomon_fuzz name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;DEPS" ${ARGN})
  if(GNOMON_LIBFUZZER)
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_DEPS})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    add_test(NAME ${name} COMMAND ${name} -runs=0 ${ARG_CORPUS})
    set_tests_properties(${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
    # What scripts/fuzz.sh runs: name, executable, seed corpus.
    file(APPEND ${PROJECT_BINARY_DIR}/fuzz_targets.txt
         "${name} ${CMAKE_CURRENT_BINARY_DIR}/${name} ${ARG_CORPUS}\n")
    return()
  endif()
  if(NOT GNOMON_BUILD_TESTS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/test/fuzz/fuzz_driver.cc)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  add_test(NAME ${name} COMMAND ${name} ${ARG_CORPUS})
  set_tests_properties(${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
endfunction()
