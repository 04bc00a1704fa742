// InfluxDB 1.x's "series" of a SELECT: rows of one compiled query, cut into series where the
// grouping tags change, each {"name", "tags", "columns", "values"}; SLIMIT/SOFFSET count series.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/query/influxql/influxql_compiler.h"
#include "src/query/result.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {

// Timestamps as RFC 3339 text (divisor 0) or as integers of `divisor` nanoseconds (epoch=...).
struct SeriesFormat {
  int64_t epoch_divisor = 0;
};

// Accumulates the series of one statement, from one or more compiled queries.
class SeriesSet {
 public:
  explicit SeriesSet(SeriesFormat format) : format_(format) { json_.BeginArray(); }
  size_t count() const { return count_; }
  // The JSON array of the series (call once, at the end).
  std::string Finish();

  SeriesFormat format() const { return format_; }
  http::JsonWriter& json() { return json_; }
  void Added() { ++count_; }

 private:
  SeriesFormat format_;
  http::JsonWriter json_;
  size_t count_ = 0;
};

// That a compiled query's result has its tag columns, then "time" and the values.
Status CheckCompiledColumns(const query::influxql::CompiledSelect& c, const std::vector<query::ResultColumn>& columns);

class SeriesWriter final : public query::ResultSink {
 public:
  SeriesWriter(const query::influxql::CompiledSelect& compiled, SeriesSet* out) : c_(compiled), out_(out) {}

  Status Begin(const std::vector<query::ResultColumn>& columns) override;
  Status Chunk(const query::ResultChunk& chunk) override;
  Status End(const query::QueryStats& stats) override;

 private:
  void OpenSeries(const std::vector<std::string>& tags);
  void CloseSeries();
  void WriteCell(const query::ResultVector& v, size_t row);

  const query::influxql::CompiledSelect& c_;
  SeriesSet* out_;
  size_t ntags_ = 0;
  bool open_ = false;        // a series object is being written
  bool skipping_ = false;    // the current series falls outside SOFFSET/SLIMIT
  int64_t series_seen_ = 0;  // series started, counting skipped ones
  std::vector<std::string> current_tags_;
  bool have_current_ = false;
};

}  // namespace gnomon::server::api
