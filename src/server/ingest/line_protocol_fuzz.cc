// Fuzz target: any byte string through ParseLineProtocol must not crash, and what it reports must
// be consistent with what it put in the batch.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "src/server/ingest/line_protocol.h"
#include "src/server/ingest/line_protocol_parser.h"

namespace {

void Require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  gnomon::storage::WriteBatch batch;
  gnomon::server::ParseOptions options;
  options.precision = size > 0 && (data[0] & 1) ? gnomon::server::Precision::kSecond
                                                 : gnomon::server::Precision::kNanosecond;
  options.max_errors = 5;
  gnomon::server::ParseResult r = gnomon::server::ParseLineProtocol(body, options, &batch);

  Require(batch.RowCount() == r.lines_accepted);
  Require(r.errors.size() == std::min<size_t>(r.lines_rejected, options.max_errors));
  for (const auto& e : r.errors) {
    Require(e.line >= 1 && e.column >= 1 && !e.reason.empty() && e.text.size() <= 200);
  }
  for (const auto& t : batch.tables()) {
    Require(!t->name().empty() && !t->rows().empty());
    for (const auto& row : t->rows()) {
      Require(row.series < t->series().size() && row.value_count >= 1);
      Require(row.value_begin + row.value_count <= t->values().size());
      for (uint32_t i = 0; i < row.value_count; ++i) {
        Require(t->values()[row.value_begin + i].field < t->fields().size());
      }
    }
    for (const auto& tags : t->series()) {
      for (size_t i = 0; i < tags.size(); ++i) {
        Require(!tags[i].key.empty() && !tags[i].value.empty());
        if (i > 0) Require(tags[i - 1].key < tags[i].key);
      }
    }
  }

  // The tokenizer on its own, line by line.
  gnomon::server::LineParser parser;
  gnomon::server::ParsedLine parsed;
  gnomon::server::LineSyntaxError error;
  std::string_view measurement;
  std::vector<gnomon::server::ParsedTag> tags;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t nl = body.find('\n', pos);
    std::string_view line = body.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    pos = nl == std::string_view::npos ? body.size() : nl + 1;
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    if (parser.Parse(line, &parsed, &error)) {
      Require(!parsed.fields.empty() && !parsed.series_key.empty());
      if (!parser.ParseSeriesKey(parsed.series_key, parsed.series_key_offset, &measurement, &tags,
                                 &error)) {
        Require(error.offset <= line.size());
      }
    } else {
      Require(error.offset <= line.size() && !error.reason.empty());
    }
  }
  return 0;
}
