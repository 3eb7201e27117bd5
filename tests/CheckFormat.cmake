cmake_minimum_required(VERSION 3.22)
# Fails when a C++ source under core/, validation/, ui/, app/, bench/ or tests/ differs from what
# clang-format makes of it with the repository's .clang-format (cmake -DSOURCE_DIR=...
# -DCLANG_FORMAT=... -P CheckFormat.cmake). Fix with: clang-format -i FILE.
file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.[ch]pp" "${SOURCE_DIR}/validation/*.[ch]pp" "${SOURCE_DIR}/ui/*.[ch]pp"
     "${SOURCE_DIR}/app/*.[ch]pp" "${SOURCE_DIR}/bench/*.[ch]pp" "${SOURCE_DIR}/tests/*.[ch]pp" "${SOURCE_DIR}/python/*.[ch]pp")
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror --style=file ${sources}
                RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "[^\n]*: error: code should be clang-formatted[^\n]*" hits "${out}")
  list(LENGTH hits n)
  list(SUBLIST hits 0 20 shown)
  list(JOIN shown "\n  " text)
  message(FATAL_ERROR "${n} places differ from .clang-format (run clang-format -i on the files):\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "format: ${count} files follow .clang-format")
