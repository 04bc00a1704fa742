#include "src/server/api/influxql_answer.h"

namespace gnomon::server::api {

std::unique_ptr<InfluxAnswer> InfluxAnswer::Make(const InfluxAnswerOptions& options) {
  if (options.format == InfluxAnswerFormat::kCsv) return MakeCsvAnswer(options);
  return MakeJsonAnswer(options);
}

void AppendSeriesKeyPart(std::string* out, std::string_view part) {
  for (char c : part) {
    if (c == ',' || c == '=' || c == ' ') out->push_back('\\');
    out->push_back(c);
  }
}

}  // namespace gnomon::server::api
