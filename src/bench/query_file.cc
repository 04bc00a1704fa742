#include "src/bench/query_file.h"

#include <charconv>

#include "src/port/env.h"

namespace gnomon::bench {
namespace {

constexpr std::string_view kQueryPrefix = "-- query: ";

std::string_view StripCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool IsQueryLine(std::string_view line) {
  return StripCr(line).substr(0, kQueryPrefix.size()) == kQueryPrefix;
}

// "-- key: value" with key of [a-z0-9_-]; false for anything else (e.g. SQL comments in the text).
bool ParseHeader(std::string_view line, std::string* key, std::string* value) {
  line = StripCr(line);
  if (line.substr(0, 3) != "-- ") return false;
  size_t colon = line.find(':', 3);
  if (colon == std::string_view::npos || colon == 3) return false;
  std::string_view k = line.substr(3, colon - 3);
  for (char c : k) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  std::string_view v = line.substr(colon + 1);
  if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  *key = std::string(k);
  *value = std::string(v);
  return true;
}

}  // namespace

Result<std::vector<QueryRecord>> ParseQueryFile(std::string_view contents) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos < contents.size();) {
    size_t nl = contents.find('\n', pos);
    if (nl == std::string_view::npos) nl = contents.size();
    lines.push_back(contents.substr(pos, nl - pos));
    pos = nl + 1;
  }
  std::vector<QueryRecord> records;
  size_t i = 0;
  for (; i < lines.size() && !IsQueryLine(lines[i]); ++i) {
    if (!StripCr(lines[i]).empty()) {
      return Status::InvalidArgument("line " + std::to_string(i + 1) +
                                     ": expected '-- query: N' before any query text");
    }
  }
  while (i < lines.size()) {
    QueryRecord record;
    record.line = i + 1;
    std::string_view number = StripCr(lines[i]).substr(kQueryPrefix.size());
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), record.number);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size()) {
      return Status::InvalidArgument("line " + std::to_string(i + 1) + ": bad query number '" +
                                     std::string(number) + "'");
    }
    ++i;
    std::string key, value;
    while (i < lines.size() && !IsQueryLine(lines[i]) && ParseHeader(lines[i], &key, &value)) {
      if (key == "label") record.label = value;
      else if (key == "description") record.description = value;
      record.headers.emplace_back(key, value);
      ++i;
    }
    size_t text_begin = i;
    while (i < lines.size() && !IsQueryLine(lines[i])) ++i;
    for (size_t k = text_begin; k < i; ++k) {
      if (k > text_begin) record.text += '\n';
      record.text.append(StripCr(lines[k]));
    }
    while (!record.text.empty() && record.text.back() == '\n') record.text.pop_back();
    std::string where = "query " + std::to_string(record.number) + " (line " +
                        std::to_string(record.line) + ")";
    if (record.label.empty()) return Status::InvalidArgument(where + ": no '-- label:' line");
    if (record.text.find_first_not_of(" \t\n") == std::string::npos) {
      return Status::InvalidArgument(where + ": no query text");
    }
    records.push_back(std::move(record));
  }
  return records;
}

Result<std::vector<QueryRecord>> ReadQueryFile(const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(std::string contents, port::ReadFileToString(port::Env::Default(), path));
  auto records = ParseQueryFile(contents);
  if (!records.ok()) return records.status().WithContext(path);
  return records;
}

}  // namespace gnomon::bench
