#include "test/acceptance/tsbs_query_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace gnomon::acceptance {

Result<std::vector<TsbsQuery>> ReadTsbsQueryFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot open " + path);
  const std::string type = std::filesystem::path(path).stem().string();
  std::vector<TsbsQuery> out;
  std::string line;
  bool in_header = false;
  while (std::getline(in, line)) {
    if (line.rfind("-- query: ", 0) == 0) {
      out.push_back(TsbsQuery{type, std::atoi(line.c_str() + 10), ""});
      in_header = true;
      continue;
    }
    if (out.empty()) continue;
    if (in_header && line.rfind("-- ", 0) == 0) continue;
    in_header = false;
    out.back().sql += line + "\n";
  }
  for (TsbsQuery& q : out) {
    while (!q.sql.empty() && (q.sql.back() == '\n' || q.sql.back() == ' ')) q.sql.pop_back();
    if (q.sql.empty() || q.number <= 0) {
      return Status::Corruption(path + ": query " + std::to_string(q.number) + " has no statement");
    }
  }
  return out;
}

Result<std::vector<std::string>> ListTsbsQueryTypes(const std::string& folder) {
  std::error_code ec;
  std::vector<std::string> types;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".txt") types.push_back(entry.path().stem().string());
  }
  if (ec) return Status::IOError("cannot list " + folder + ": " + ec.message());
  std::sort(types.begin(), types.end());
  return types;
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

std::string RewriteGreptime(const std::string& sql) {
  return ReplaceAll(sql, "greptime_timestamp", "time");
}

std::string RewriteTimescale(const std::string& type, const std::string& sql) {
  static const std::regex kTagsFilter(
      R"(tags_id IN \(SELECT id FROM tags WHERE hostname IN \(([^)]*)\)\))");
  std::string out = std::regex_replace(sql, kTagsFilter, "hostname IN ($1)");
  if (type.rfind("double-groupby", 0) == 0) {
    out = ReplaceAll(out, "JOIN tags ON cpu_avg.tags_id = tags.id", "");
    out = ReplaceAll(out, "tags.hostname", "hostname");
    out = ReplaceAll(out, "tags_id", "hostname");
  }
  if (type == "lastpoint") {
    out = "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC";
  }
  return out;
}

}  // namespace gnomon::acceptance
