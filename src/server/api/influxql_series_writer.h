// InfluxDB 1.x's "series" of a SELECT: rows of one compiled query, cut into series where the
// grouping tags change, each with its name, tags, columns and values; SLIMIT/SOFFSET count series.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/query/influxql/influxql_compiler.h"
#include "src/query/result.h"
#include "src/server/api/influxql_answer.h"

namespace gnomon::server::api {

// Called after each chunk of rows: sends what the answer holds when it has grown (a non-OK return,
// the client gone, stops the query).
using AnswerFlush = std::function<Status()>;

// That a compiled query's result has its tag columns, then "time" and the values.
Status CheckCompiledColumns(const query::influxql::CompiledSelect& c, const std::vector<query::ResultColumn>& columns);

class SeriesWriter final : public query::ResultSink {
 public:
  // `flush` may be empty.
  SeriesWriter(const query::influxql::CompiledSelect& compiled, InfluxAnswer* out, const AnswerFlush& flush)
      : c_(compiled), out_(out), flush_(flush) {}

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;

 private:
  void OpenSeries(const std::vector<std::string>& tags);
  void CloseSeries();

  const query::influxql::CompiledSelect& c_;
  InfluxAnswer* out_;
  const AnswerFlush& flush_;
  int64_t series_seen_ = 0;  // series started, counting skipped ones (SLIMIT/SOFFSET)
  size_t ntags_ = 0;
  bool open_ = false;        // a series is being written
  bool skipping_ = false;    // the current series falls outside SOFFSET/SLIMIT
  std::vector<std::string> current_tags_;
  bool have_current_ = false;
};

}  // namespace gnomon::server::api
