#include "src/server/ingest/precision.h"

#include <string>

namespace gnomon::server {

Result<Precision> ParsePrecision(std::string_view text, bool allow_v1_units) {
  if (text.empty() || text == "ns" || text == "n") return Precision::kNanosecond;
  // "\xC2\xB5s" is MICRO SIGN + s, "\xCE\xBCs" GREEK SMALL LETTER MU + s; clients send either.
  if (text == "us" || text == "u" || text == "\xC2\xB5s" || text == "\xCE\xBCs") {
    return Precision::kMicrosecond;
  }
  if (text == "ms") return Precision::kMillisecond;
  if (text == "s") return Precision::kSecond;
  if (allow_v1_units) {
    if (text == "m") return Precision::kMinute;
    if (text == "h") return Precision::kHour;
  }
  std::string shown(text.substr(0, 64));
  return Status::InvalidArgument("invalid precision \"" + shown + "\": expected one of ns, us, ms, s" +
                                 (allow_v1_units ? ", m, h" : ""));
}

std::string_view PrecisionName(Precision p) {
  switch (p) {
    case Precision::kNanosecond: return "ns";
    case Precision::kMicrosecond: return "us";
    case Precision::kMillisecond: return "ms";
    case Precision::kSecond: return "s";
    case Precision::kMinute: return "m";
    case Precision::kHour: return "h";
  }
  return "ns";
}

}  // namespace gnomon::server
