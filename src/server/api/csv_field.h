// One CSV field, quoted as RFC 4180 asks: in double quotes, with '"' doubled, when it holds a
// comma, a quote or a line break. kGoCsv also quotes what Go's encoding/csv quotes (a field that
// starts with a space or tab, and `\.`), so answers match InfluxDB's byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gnomon::server::api {

enum class CsvQuoting : uint8_t { kRfc4180, kGoCsv };

inline bool NeedsCsvQuotes(std::string_view f, CsvQuoting quoting = CsvQuoting::kRfc4180) {
  if (f.find_first_of(",\"\r\n") != std::string_view::npos) return true;
  if (quoting == CsvQuoting::kRfc4180 || f.empty()) return false;
  const char c = f[0];
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || f == "\\.";
}

// Writes the field's quoted text at p (room for 2 + 2 * f.size()); returns its end.
inline char* WriteQuotedCsvField(char* p, std::string_view f) {
  *p++ = '"';
  for (char c : f) {
    if (c == '"') *p++ = '"';
    *p++ = c;
  }
  *p++ = '"';
  return p;
}

inline void AppendCsvField(std::string* out, std::string_view f, CsvQuoting quoting = CsvQuoting::kRfc4180) {
  if (!NeedsCsvQuotes(f, quoting)) {
    out->append(f);
    return;
  }
  const size_t at = out->size();
  out->resize(at + 2 + 2 * f.size());
  char* end = WriteQuotedCsvField(out->data() + at, f);
  out->resize(static_cast<size_t>(end - out->data()));
}

}  // namespace gnomon::server::api
