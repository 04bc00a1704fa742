// SELECT ... INTO: the rows of one compiled query written back as points of the target
// measurement, through the engine's ordinary (WAL-logged, fsynced) write path. The series' GROUP BY
// tags become the points' tags, the non-null values their fields; a row with no value is no point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/query/influxql/influxql_compiler.h"
#include "src/query/result.h"
#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace gnomon::server::api {

class IntoWriter final : public query::ResultSink {
 public:
  IntoWriter(const query::influxql::CompiledSelect& compiled, storage::Engine* engine, std::string database,
             std::string measurement);

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;

  int64_t written() const { return written_; }

 private:
  Status AddRow(const query::ResultChunk& chunk, size_t row);
  Status Flush();

  const query::influxql::CompiledSelect& c_;
  storage::Engine* engine_;
  std::string database_, measurement_;
  storage::WriteBatch batch_;
  storage::TableBatch* table_ = nullptr;
  std::vector<storage::FieldValue> values_;  // one row's, reused
  static constexpr uint32_t kNoSeries = UINT32_MAX;
  uint32_t series_ = kNoSeries;  // the batch's entry for last_tags_
  storage::TagSet last_tags_;
  size_t ntags_ = 0;
  int64_t written_ = 0;
};

}  // namespace gnomon::server::api
