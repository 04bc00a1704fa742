#include "src/server/api/precision_detect.h"

namespace gnomon::server::api {

Precision PrecisionForMagnitude(int64_t timestamp) {
  uint64_t magnitude = timestamp < 0 ? 0 - static_cast<uint64_t>(timestamp)
                                     : static_cast<uint64_t>(timestamp);
  if (magnitude < 5'000'000'000ull) return Precision::kSecond;
  if (magnitude < 5'000'000'000'000ull) return Precision::kMillisecond;
  if (magnitude < 5'000'000'000'000'000ull) return Precision::kMicrosecond;
  return Precision::kNanosecond;
}

namespace {

// The timestamp of one line: its last space-separated token when that is an integer.
bool LineTimestamp(std::string_view line, int64_t* out) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  size_t space = line.rfind(' ');
  if (space == std::string_view::npos) return false;
  std::string_view token = line.substr(space + 1);
  bool negative = !token.empty() && token[0] == '-';
  if (negative) token.remove_prefix(1);
  if (token.empty() || token.size() > 19) return false;
  uint64_t v = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

}  // namespace

Precision DetectBodyPrecision(std::string_view body) {
  while (!body.empty()) {
    size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + 1);
    size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string_view::npos || line[start] == '#') continue;
    int64_t ts;
    if (LineTimestamp(line, &ts)) return PrecisionForMagnitude(ts);
  }
  return Precision::kNanosecond;
}

}  // namespace gnomon::server::api
