// Cutting a line into fields at a separator byte, for the simple delimited texts the tests and
// harnesses read back (CSV answers without quoting, tab-separated test files).
#pragma once

#include <string_view>
#include <vector>

namespace gnomon {

// The pieces of `text` between occurrences of `separator`, empty ones included: "a,,b" gives
// {"a", "", "b"}, "" gives {""}. The pieces view `text`.
inline std::vector<std::string_view> SplitOn(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    if (at == std::string_view::npos) {
      pieces.push_back(text.substr(start));
      return pieces;
    }
    pieces.push_back(text.substr(start, at - start));
    start = at + 1;
  }
}

}  // namespace gnomon
