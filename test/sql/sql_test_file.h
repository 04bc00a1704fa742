// A declarative SQL test file (test/sql/*.test): the format is documented in test/sql/README.md.
// ParseSqlTestFile turns the text into a list of steps; the runner (sql_test_runner.cc) executes them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"

namespace gnomon::sqltest {

enum class StepKind {
  kDatabase,   // `database NAME`: later loads and queries use this database
  kNow,        // `now TIME`: the value of now() for later queries
  kLoad,       // `load` ... `end`: line protocol written through the ingest parser
  kFlush,      // `flush`: memtables -> segments
  kCompact,    // `compact`: merge each partition's segments
  kRestart,    // `restart`: close the engine and open it again (WAL replay)
  kStatement,  // `statement` SQL `end`: must succeed; result ignored
  kQuery,      // `query [rowsort] [typed]` SQL `----` header [types] rows `end`
  kError,      // `error` SQL `----` expected message substring `end`
};

struct SqlTestStep {
  StepKind kind;
  int line = 0;             // 1-based line of the directive, for messages
  std::string argument;     // database name, now literal, or load body
  std::string sql;          // statement / query / error
  bool rowsort = false;     // query: compare rows as a sorted multiset
  bool typed = false;       // query: a line of column types follows the header
  std::vector<std::string> header;               // query: column names
  std::vector<std::string> types;                // query (typed): ValueTypeName of each column
  std::vector<std::vector<std::string>> rows;    // query: expected cells
  std::string expected_error;                    // error: substring of Status::ToString()
  std::string skip_reason;  // non-empty: a known engine bug; failure is counted, not fatal
};

// Splits a result line into cells at tabs.
std::vector<std::string> SplitCells(std::string_view line);

// Parses a whole file. Errors name the file line.
Result<std::vector<SqlTestStep>> ParseSqlTestFile(std::string_view text);

}  // namespace gnomon::sqltest
