#include "src/server/api/influxql_answer.h"

namespace gnomon::server::api {

std::unique_ptr<InfluxAnswer> InfluxAnswer::Make(const InfluxAnswerOptions& options) {
  if (options.format == InfluxAnswerFormat::kCsv) return MakeCsvAnswer(options);
  return MakeJsonAnswer(options);
}

void InfluxAnswer::Rows(const query::ResultChunk& chunk, size_t first_column, size_t begin, size_t end) {
  for (size_t row = begin; row < end; ++row) {
    BeginRow();
    for (size_t c = first_column; c < chunk.columns.size(); ++c) {
      const query::ResultVector& v = chunk.columns[c];
      if (v.type == ValueType::kNull || v.IsNull(row)) {
        Null();
        continue;
      }
      switch (v.type) {
        case ValueType::kInt64: Int(v.i64[row]); break;
        case ValueType::kUInt64: UInt(v.u64[row]); break;
        case ValueType::kFloat64: Double(v.f64[row]); break;
        case ValueType::kBool: Bool(v.b[row] != 0); break;
        case ValueType::kString: String(v.str[row]); break;
        case ValueType::kTimestamp: Time(v.i64[row]); break;
        default: Null(); break;
      }
    }
    EndRow();
  }
}

void AppendSeriesKeyPart(std::string* out, std::string_view part) {
  for (char c : part) {
    if (c == ',' || c == '=' || c == ' ') out->push_back('\\');
    out->push_back(c);
  }
}

}  // namespace gnomon::server::api
