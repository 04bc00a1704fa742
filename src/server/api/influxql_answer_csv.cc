// /query answers as CSV, laid out as InfluxDB 1.x lays them out (RFC 4180 quoting as Go's
// encoding/csv does it: a field is quoted when it holds a comma, a quote or a line break, or
// starts with a space).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "src/server/api/csv_field.h"
#include "src/server/api/influxql_answer.h"

namespace gnomon::server::api {
namespace {

void AppendField(std::string* out, std::string_view f) { AppendCsvField(out, f, CsvQuoting::kGoCsv); }

class CsvAnswer final : public InfluxAnswer {
 public:
  explicit CsvAnswer(int64_t divisor) : divisor_(divisor) {}

  void BeginStatement(size_t) override { statement_started_ = false; }
  void BeginSeries(const std::string* name, std::span<const std::string> tag_keys,
                   std::span<const std::string> tag_values, std::span<const std::string> columns) override {
    StartStatementOutput();
    std::vector<std::string> header = {"name", "tags"};
    header.insert(header.end(), columns.begin(), columns.end());
    if (header != header_) {
      header_ = std::move(header);
      for (size_t i = 0; i < header_.size(); ++i) {
        if (i > 0) out_.push_back(',');
        AppendField(&out_, header_[i]);
      }
      out_.push_back('\n');
    }
    prefix_.clear();
    AppendField(&prefix_, name != nullptr ? *name : std::string_view());
    prefix_.push_back(',');
    std::vector<size_t> order(tag_keys.size());  // a series key lists its tags by key
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return tag_keys[a] < tag_keys[b]; });
    std::string key;
    for (size_t i : order) {
      if (!key.empty()) key.push_back(',');
      AppendSeriesKeyPart(&key, tag_keys[i]);
      key.push_back('=');
      AppendSeriesKeyPart(&key, tag_values[i]);
    }
    AppendField(&prefix_, key);
  }
  void BeginRow() override { out_.append(prefix_); }
  void Null() override { out_.push_back(','); }
  void Int(int64_t v) override { Number(v); }
  void UInt(uint64_t v) override { Number(v); }
  void Double(double v) override {
    out_.push_back(',');
    if (!std::isfinite(v)) return;  // never stored; shown as InfluxDB shows a missing value
    char buf[400];  // fixed notation of the largest double: 309 digits
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed).ptr);
  }
  void Bool(bool v) override { out_.append(v ? ",true" : ",false"); }
  void String(std::string_view v) override {
    out_.push_back(',');
    AppendField(&out_, v);
  }
  void Time(int64_t ns) override { Number(divisor_ > 0 ? ns / divisor_ : ns); }
  void EndRow() override { out_.push_back('\n'); }
  void EndSeries() override {}
  // InfluxDB 1.x leaves a failed statement out of a CSV answer; here it shows, as an answer that
  // failed as a whole shows ("error" over the message).
  void Error(std::string_view message) override {
    StartStatementOutput();
    out_.append("error\n");
    AppendField(&out_, message);
    out_.push_back('\n');
    header_ = {"error"};
  }
  void EndStatement() override {}
  void Finish() override {}
  std::string& bytes() override { return out_; }
  const char* content_type() const override { return "text/csv"; }

 private:
  template <typename T>
  void Number(T v) {
    char buf[24];
    out_.push_back(',');
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
  // Statements are separated by a blank line, and each starts with its header.
  void StartStatementOutput() {
    if (statement_started_) return;
    statement_started_ = true;
    if (wrote_any_) out_.push_back('\n');
    wrote_any_ = true;
    header_.clear();
  }

  const int64_t divisor_;
  std::string out_;
  std::string prefix_;  // name and tags of the current series' rows
  std::vector<std::string> header_;
  bool statement_started_ = false;
  bool wrote_any_ = false;
};

}  // namespace

std::unique_ptr<InfluxAnswer> MakeCsvAnswer(const InfluxAnswerOptions& options) {
  return std::make_unique<CsvAnswer>(options.epoch_divisor);
}

}  // namespace gnomon::server::api
