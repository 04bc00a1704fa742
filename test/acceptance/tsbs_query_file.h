// The decoded TSBS query files (test/testdata/tsbs/queries/<format>/<type>.txt, see the
// README there) and the rewrites that make their SQL run on Gnomon: greptime's time column is
// `greptime_timestamp`; TimescaleDB's statements keep tags in a separate `tags` table.
#pragma once

#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::acceptance {

struct TsbsQuery {
  std::string type;  // the file's stem, e.g. "cpu-max-all-1"
  int number = 0;    // "-- query: n", 1-based in generation order
  std::string sql;   // verbatim, trailing newlines and blanks trimmed
};

// Reads one file: blocks of "-- query: n" and "-- key: value" header lines, then the statement,
// then a blank line. Errors: the file cannot be opened, a block has no statement.
Result<std::vector<TsbsQuery>> ReadTsbsQueryFile(const std::string& path);

// The stems of the *.txt files in `folder`, sorted.
Result<std::vector<std::string>> ListTsbsQueryTypes(const std::string& folder);

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to);

// greptime -> Gnomon: the time column is called `time`.
std::string RewriteGreptime(const std::string& sql);

// TimescaleDB -> Gnomon, for a table that keeps its tags (TSBS's --timescale-use-tags=false
// shape): `tags_id IN (SELECT id FROM tags WHERE hostname IN (...))` becomes
// `hostname IN (...)`; the double-groupby CTE groups by hostname instead of joining tags; and
// lastpoint (a LATERAL join over tags) becomes
// `SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC`.
// Mirrors RewriteTagsInTable in src/query/parser/tsbs_queries_test.cc.
std::string RewriteTimescale(const std::string& type, const std::string& sql);

}  // namespace gnomon::acceptance
