// Writers that turn a query's streamed result into response bytes: JSON
// {"columns":[{"name":..,"type":..}],"rows":[[..],..]} or CSV with a header line.
// Each writes incrementally into `out`; the caller may drain `out` between chunks.
#pragma once

#include <string>

#include "src/query/result.h"

namespace gnomon::server::api {

enum class ResultFormat { kJson, kCsv };
// Integer timestamps in this unit instead of RFC 3339 strings (epoch=ns|us|ms|s).
enum class EpochUnit { kNone, kNanosecond, kMicrosecond, kMillisecond, kSecond };

class ResultWriter : public query::ResultSink {
 public:
  ResultWriter(ResultFormat format, EpochUnit epoch, std::string* out)
      : format_(format), epoch_(epoch), out_(out) {}

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;

  bool begun() const { return begun_; }
  uint64_t rows() const { return rows_; }

 private:
  void AppendCell(const query::ResultVector& v, size_t row);

  ResultFormat format_;
  EpochUnit epoch_;
  std::string* out_;
  std::vector<query::ResultColumn> columns_;
  bool begun_ = false;
  uint64_t rows_ = 0;
};

}  // namespace gnomon::server::api
