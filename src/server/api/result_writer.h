// Writers that turn a query's streamed result into response bytes: JSON
// {"columns":[{"name":..,"type":..}],"rows":[[..],..]} or CSV with a header line.
// Each writes incrementally into `out`; the caller may drain `out` between chunks. The rows are
// RowRenderer's; large chunks render in two halves at once when given a TaskPool (the query
// engine's).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/query/result.h"
#include "src/server/api/row_renderer.h"

namespace gnomon {
class TaskPool;
}

namespace gnomon::server::api {

// Integer timestamps in this unit instead of RFC 3339 strings (epoch=ns|us|ms|s).
enum class EpochUnit { kNone, kNanosecond, kMicrosecond, kMillisecond, kSecond };

class ResultWriter : public query::ResultSink {
 public:
  // `pool`: where the second half of a large chunk renders; nullptr renders every row here.
  ResultWriter(ResultFormat format, EpochUnit epoch, std::string* out, TaskPool* pool = nullptr);

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;
  bool AcceptsConstantVectors() const override { return true; }
  bool AcceptsStringViews() const override { return true; }

  bool begun() const { return begun_; }
  uint64_t rows() const { return rows_; }

 private:
  ResultFormat format_;
  EpochUnit epoch_;
  std::string* out_;
  TaskPool* pool_;
  std::vector<query::ResultColumn> columns_;
  bool begun_ = false;
  uint64_t rows_ = 0;
  RowRenderer renderer_;
  // Large chunks: the second half renders by helper_ into helper_text_.
  std::string helper_text_;
  std::unique_ptr<RowRenderer> helper_;
};

}  // namespace gnomon::server::api
