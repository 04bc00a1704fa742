// The body of a /query answer as InfluxDB 1.x renders it, built statement by statement:
//  * JSON: {"results":[{"statement_id":0,"series":[{"name","tags","columns","values"}]}, ...]}
//  * chunked JSON (chunked=true): one such document per line, each holding one piece of at most
//    chunk_size rows of one series; "partial":true on a series continued in the next piece and on
//    a result whose statement has more pieces to come;
//  * CSV (Accept: application/csv): "name,tags,<columns>" headers, a row per point with the tags
//    as a series key ("host=a,region=x"), times as integers, a blank line between statements.
// Rendered bytes accumulate in bytes(); the caller may send and clear them at any point, so an
// answer of any size streams in bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "src/base/time_zone.h"
#include "src/query/result.h"

namespace gnomon::server::api {

enum class InfluxAnswerFormat : uint8_t { kJson, kChunkedJson, kCsv };

struct InfluxAnswerOptions {
  InfluxAnswerFormat format = InfluxAnswerFormat::kJson;
  // epoch=...: timestamps as integers of this many nanoseconds. 0: RFC 3339 text in JSON,
  // nanoseconds in CSV (as InfluxDB writes them).
  int64_t epoch_divisor = 0;
  size_t chunk_size = 10'000;  // rows per piece, chunked JSON
};

class InfluxAnswer {
 public:
  static std::unique_ptr<InfluxAnswer> Make(const InfluxAnswerOptions& options);
  virtual ~InfluxAnswer() = default;

  virtual void BeginStatement(size_t statement_id) = 0;
  // `name` may be null (SHOW answers without a measurement). Tags are keys and values in order.
  virtual void BeginSeries(const std::string* name, std::span<const std::string> tag_keys,
                           std::span<const std::string> tag_values, std::span<const std::string> columns) = 0;
  virtual void BeginRow() = 0;
  virtual void Null() = 0;
  virtual void Int(int64_t v) = 0;
  virtual void UInt(uint64_t v) = 0;
  virtual void Double(double v) = 0;
  virtual void Bool(bool v) = 0;
  virtual void String(std::string_view v) = 0;
  virtual void Time(int64_t ns) = 0;
  virtual void EndRow() = 0;
  // Rows [begin, end) of `chunk` (no constant vectors), the cells of its columns first_column
  // onward: each row as BeginRow, a cell per column and EndRow write it. JSON renders them in one
  // pass (RowRenderer's, as /v1/sql's rows).
  virtual void Rows(const query::ResultChunk& chunk, size_t first_column, size_t begin, size_t end);
  virtual void EndSeries() = 0;
  // The statement failed; what it wrote before stays (a streamed answer cannot take it back).
  virtual void Error(std::string_view message) = 0;
  virtual void EndStatement() = 0;
  // After the last statement.
  virtual void Finish() = 0;

  // tz(): RFC 3339 times of the statements that follow carry this zone's offsets (null: UTC).
  void SetTimeZone(std::shared_ptr<const TimeZone> zone) { zone_ = std::move(zone); }

  // Rendered and not yet taken.
  virtual std::string& bytes() = 0;
  virtual const char* content_type() const = 0;

 protected:
  std::shared_ptr<const TimeZone> zone_;
};

// The renderers Make picks from (influxql_answer_json.cc, influxql_answer_csv.cc).
std::unique_ptr<InfluxAnswer> MakeJsonAnswer(const InfluxAnswerOptions& options);  // JSON, chunked JSON
std::unique_ptr<InfluxAnswer> MakeCsvAnswer(const InfluxAnswerOptions& options);

// InfluxDB's series-key escaping of a measurement, tag key or tag value: ',', '=' and ' ' get a
// backslash.
void AppendSeriesKeyPart(std::string* out, std::string_view part);

}  // namespace gnomon::server::api
