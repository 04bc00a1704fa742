// /query answers as JSON: one document, or (chunked=true) one document per piece of a series.
#include "src/base/time_util.h"
#include "src/server/api/influxql_answer.h"
#include "src/server/api/row_renderer.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

using http::JsonWriter;

void WriteTime(JsonWriter& j, int64_t ns, int64_t divisor, const TimeZone* zone) {
  if (divisor > 0) {
    j.Int(ns / divisor);
  } else {
    thread_local std::string text;  // kept: no allocation per timestamp
    text.clear();
    if (zone != nullptr) {
      zone->AppendRfc3339(&text, ns);
    } else {
      AppendRfc3339(&text, ns);
    }
    j.PlainString(text);
  }
}

// {"name", "tags", "columns"} of a series object (the object is open; "values" follows).
void WriteSeriesHead(JsonWriter& j, const std::string* name, std::span<const std::string> tag_keys,
                     std::span<const std::string> tag_values, std::span<const std::string> columns) {
  if (name != nullptr) j.Key("name").String(*name);
  if (!tag_keys.empty()) {
    j.Key("tags").BeginObject();
    for (size_t i = 0; i < tag_keys.size(); ++i) j.Key(tag_keys[i]).String(tag_values[i]);
    j.EndObject();
  }
  j.Key("columns").BeginArray();
  for (const auto& c : columns) j.String(c);
  j.EndArray();
}

// Cells go straight to a JsonWriter; the two formats differ in how series and statements close.
class JsonCells : public InfluxAnswer {
 public:
  explicit JsonCells(int64_t divisor) : divisor_(divisor) {}
  void BeginRow() override { j_.BeginArray(); }
  void Null() override { j_.Null(); }
  void Int(int64_t v) override { j_.Int(v); }
  void UInt(uint64_t v) override { j_.UInt(v); }
  void Double(double v) override { j_.Double(v); }
  void Bool(bool v) override { j_.Bool(v); }
  void String(std::string_view v) override { j_.String(v); }
  void Time(int64_t ns) override { WriteTime(j_, ns, divisor_, zone_.get()); }
  void EndRow() override { j_.EndArray(); }
  std::string& bytes() override { return j_.mutable_str(); }
  const char* content_type() const override { return "application/json"; }

 protected:
  JsonWriter j_;
  int64_t divisor_;
};

class JsonAnswer final : public JsonCells {
 public:
  explicit JsonAnswer(int64_t divisor)
      : JsonCells(divisor), rows_(ResultFormat::kJson, TimeFormat{divisor, /*truncate=*/true}) {
    j_.BeginObject().Key("results").BeginArray();
  }

  void BeginStatement(size_t id) override {
    j_.BeginObject().Key("statement_id").UInt(id);
    in_series_list_ = false;
  }
  void BeginSeries(const std::string* name, std::span<const std::string> tag_keys,
                   std::span<const std::string> tag_values, std::span<const std::string> columns) override {
    if (!in_series_list_) j_.Key("series").BeginArray();
    in_series_list_ = true;
    j_.BeginObject();
    WriteSeriesHead(j_, name, tag_keys, tag_values, columns);
    series_open_ = true;
    values_open_ = false;
  }
  void BeginRow() override {
    OpenValues();
    JsonCells::BeginRow();
  }
  void Rows(const query::ResultChunk& chunk, size_t first_column, size_t begin, size_t end) override {
    if (begin == end) return;
    if (zone_ != nullptr && divisor_ == 0) {
      // RowRenderer writes UTC times: a zone's offsets take the cell-by-cell path.
      InfluxAnswer::Rows(chunk, first_column, begin, end);
      return;
    }
    OpenValues();
    j_.Raw("");  // the ',' before the first row when the array has some
    rows_.Render(chunk, first_column, begin, end, /*comma_first=*/false, &j_.mutable_str());
  }
  void EndSeries() override {
    if (values_open_) j_.EndArray();
    j_.EndObject();
    series_open_ = values_open_ = false;
  }
  void Error(std::string_view message) override {
    CloseSeriesList();
    j_.Key("error").String(message);
  }
  void EndStatement() override {
    CloseSeriesList();
    j_.EndObject();
  }
  void Finish() override { j_.EndArray().EndObject(); }

 private:
  void OpenValues() {
    if (!values_open_) j_.Key("values").BeginArray();
    values_open_ = true;
  }
  // Also a series a failed query left open.
  void CloseSeriesList() {
    if (series_open_) EndSeries();
    if (in_series_list_) j_.EndArray();
    in_series_list_ = false;
  }

  RowRenderer rows_;
  bool in_series_list_ = false;
  bool series_open_ = false;
  bool values_open_ = false;
};

// A piece is written as soon as its first row comes, and closed once what follows shows whether
// its series or its statement goes on ("partial"): the next row (a full piece), the next series,
// an error or the statement's end.
class ChunkedJsonAnswer final : public JsonCells {
 public:
  ChunkedJsonAnswer(int64_t divisor, size_t chunk_size) : JsonCells(divisor), chunk_size_(chunk_size) {}

  void BeginStatement(size_t id) override {
    id_ = id;
    wrote_any_ = false;
  }
  void BeginSeries(const std::string* name, std::span<const std::string> tag_keys,
                   std::span<const std::string> tag_values, std::span<const std::string> columns) override {
    CloseOpenPiece(/*statement_goes_on=*/true);
    has_name_ = name != nullptr;
    name_ = has_name_ ? *name : std::string();
    tag_keys_.assign(tag_keys.begin(), tag_keys.end());
    tag_values_.assign(tag_values.begin(), tag_values.end());
    columns_.assign(columns.begin(), columns.end());
  }
  void BeginRow() override {
    if (piece_open_ && rows_ == chunk_size_) ClosePiece(/*series_goes_on=*/true, /*statement_goes_on=*/true);
    if (!piece_open_) OpenPiece(/*with_values=*/true);
    ++rows_;
    JsonCells::BeginRow();
  }
  void EndSeries() override {
    if (!piece_open_) OpenPiece(/*with_values=*/false);  // a series without rows still shows
  }
  void Error(std::string_view message) override {
    CloseOpenPiece(/*statement_goes_on=*/true);
    Line().Key("error").String(message);
    EndLine();
  }
  void EndStatement() override {
    if (piece_open_) {
      CloseOpenPiece(/*statement_goes_on=*/false);
    } else if (!wrote_any_) {
      Line();
      EndLine();
    }
  }
  void Finish() override {}

 private:
  // {"results":[{"statement_id":N  (the result object left open)
  JsonWriter& Line() {
    j_.BeginObject().Key("results").BeginArray().BeginObject().Key("statement_id").UInt(id_);
    wrote_any_ = true;
    return j_;
  }
  void EndLine() {
    j_.EndObject().EndArray().EndObject();
    j_.mutable_str().push_back('\n');
  }
  void OpenPiece(bool with_values) {
    Line().Key("series").BeginArray().BeginObject();
    WriteSeriesHead(j_, has_name_ ? &name_ : nullptr, tag_keys_, std::span<const std::string>(tag_values_), columns_);
    if (with_values) j_.Key("values").BeginArray();
    piece_open_ = true;
    values_open_ = with_values;
    rows_ = 0;
  }
  void ClosePiece(bool series_goes_on, bool statement_goes_on) {
    if (values_open_) j_.EndArray();
    if (series_goes_on) j_.Key("partial").Bool(true);
    j_.EndObject().EndArray();
    if (statement_goes_on) j_.Key("partial").Bool(true);
    EndLine();
    piece_open_ = values_open_ = false;
  }
  // The last piece of a series, once it is known whether the statement goes on.
  void CloseOpenPiece(bool statement_goes_on) {
    if (piece_open_) ClosePiece(/*series_goes_on=*/false, statement_goes_on);
  }

  const size_t chunk_size_;
  size_t id_ = 0;
  bool wrote_any_ = false;   // this statement has a line out
  bool piece_open_ = false;  // a piece's line is open
  bool values_open_ = false;
  size_t rows_ = 0;          // in the open piece
  bool has_name_ = false;
  std::string name_;
  std::vector<std::string> tag_keys_, tag_values_, columns_;
};

}  // namespace

std::unique_ptr<InfluxAnswer> MakeJsonAnswer(const InfluxAnswerOptions& options) {
  if (options.format == InfluxAnswerFormat::kChunkedJson) {
    return std::make_unique<ChunkedJsonAnswer>(options.epoch_divisor, options.chunk_size > 0 ? options.chunk_size : 10'000);
  }
  return std::make_unique<JsonAnswer>(options.epoch_divisor);
}

}  // namespace gnomon::server::api
