// The sliver of InfluxQL that /query answers: database administration (what TSBS and InfluxDB 1.x
// clients send before writing) and SHOW MEASUREMENTS. Any other well-formed-looking statement
// parses as kUnsupported so /query can say so per statement, as InfluxDB reports execution errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"

namespace gnomon::server::api {

struct InfluxqlStatement {
  enum class Kind { kShowDatabases, kCreateDatabase, kDropDatabase, kShowMeasurements, kUnsupported };
  Kind kind = Kind::kUnsupported;
  std::string text;      // the statement as written, trimmed
  std::string database;  // CREATE/DROP DATABASE name; SHOW MEASUREMENTS ON name
  // CREATE DATABASE ... WITH DURATION d: retention in nanoseconds (0 = INF / not given).
  int64_t retention_ns = 0;
};

// Splits `query` on ';' (outside quotes and comments) and parses each statement.
// InvalidArgument in InfluxDB's words ("found EOF, expected identifier at line 1, char 17") when
// any statement is malformed; /query then answers 400 without running any of them.
Result<std::vector<InfluxqlStatement>> ParseInfluxql(std::string_view query);

}  // namespace gnomon::server::api
