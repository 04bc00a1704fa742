# Helpers that keep every module's CMakeLists.txt a few lines long.

# gnomon_library(NAME SOURCES a.cc b.cc DEPS other_lib ...)
# Declares library gnomon_NAME; includes are rooted at the repository root ("src/base/status.h").
function(gnomon_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(gnomon_${name} STATIC ${ARG_SOURCES})
  target_include_directories(gnomon_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(gnomon_${name} PUBLIC ${ARG_DEPS})
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
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main GTest::gmock
                        rapidcheck)
  # GNOMON_TESTDATA_DIR: inputs the repository carries (test/testdata). GNOMON_SHARED_DIR: the
  # team's folder beside the repository, for extended tests only ($GNOMON_SHARED_DIR overrides it
  # at run time; see src/bench/tsbs_reference.h).
  target_compile_definitions(${name} PRIVATE
    GNOMON_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    GNOMON_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/test/testdata"
    GNOMON_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared"
    GNOMON_BINARY_DIR="${PROJECT_BINARY_DIR}")
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
# A fuzz target (LLVMFuzzerTestOneInput). Under clang with -DGNOMON_LIBFUZZER=ON it links libFuzzer;
# otherwise test/fuzz/fuzz_driver.cc runs it over its seed corpus plus deterministic mutations, as a test.
function(gnomon_fuzz name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;DEPS" ${ARGN})
  if(NOT GNOMON_BUILD_TESTS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/test/fuzz/fuzz_driver.cc)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  add_test(NAME ${name} COMMAND ${name} ${ARG_CORPUS})
  set_tests_properties(${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
endfunction()
