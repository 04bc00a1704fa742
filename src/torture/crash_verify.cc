#include "src/torture/crash_verify.h"

#include <cstdlib>
#include <string_view>

#include "src/base/split.h"
#include "src/bench/http_client.h"

namespace gnomon::torture {
namespace {

bool ParseInt(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  std::string s(text);
  char* end = nullptr;
  *out = std::strtoll(s.c_str(), &end, 10);
  return *end == '\0';
}

// "w<writer>s<series>" -> writer and series; false for other hosts.
bool ParseHost(std::string_view host, int writers, int series_per_writer, int* writer, uint32_t* series) {
  if (host.size() < 4 || host[0] != 'w') return false;
  size_t s = host.find('s');
  int64_t w = 0, k = 0;
  if (s == std::string_view::npos || !ParseInt(host.substr(1, s - 1), &w) || !ParseInt(host.substr(s + 1), &k)) {
    return false;
  }
  if (w < 0 || w >= writers || k < 0 || k >= series_per_writer) return false;
  *writer = static_cast<int>(w);
  *series = static_cast<uint32_t>(k);
  return true;
}

// Parses one CSV line (host,time,v,n,s) of `table` into *observed.
void AddRow(std::string_view line, uint32_t table, const WorkloadShape& shape, int* setup_rows,
            ObservedRows* observed) {
  std::vector<std::string_view> f = SplitOn(line, ',');  // the tables' strings hold no commas
  const std::string where = "table " + DatabaseName(DatabaseOf(table)) + "." + TableName(table) + " row '" +
                            std::string(line) + "'";
  if (f.size() != 5) {
    observed->violations.push_back(where + ": expected 5 columns");
    return;
  }
  if (f[0] == kSetupHost) {
    ++*setup_rows;
    return;
  }
  int writer = 0;
  RowKey key;
  key.table = table;
  if (!ParseHost(f[0], shape.writers, shape.series_per_writer, &writer, &key.series) ||
      !ParseInt(f[1], &key.time)) {
    observed->violations.push_back(where + ": no writer owns this host, or the time does not parse");
    return;
  }
  RowValue value;
  int64_t n = 0;
  if (!f[2].empty()) value.v = std::strtod(std::string(f[2]).c_str(), nullptr);
  if (!f[3].empty()) {
    if (!ParseInt(f[3], &n)) observed->violations.push_back(where + ": n does not parse");
    value.n = n;
  }
  if (!f[4].empty()) value.s = std::string(f[4]);
  auto [it, inserted] = observed->by_writer[writer].emplace(key, std::move(value));
  if (!inserted) observed->violations.push_back(where + ": the same series and time appear twice");
  ++observed->rows;
}

}  // namespace

std::string SetupLines(const WorkloadShape& shape, uint32_t database) {
  std::string out;
  // Before the writers' first row; in the retained database two days later, clear of retention.
  const int64_t time = database == kRetainedDatabase ? shape.base_time_ns + 2 * kPartitionNs
                                                     : shape.base_time_ns - shape.step_ns;
  for (uint32_t t = 0; t < kTablesPerDatabase; ++t) {
    out += TableName(database * kTablesPerDatabase + t) + ",host=" + kSetupHost + " v=0.5,n=0i,s=\"setup\" " +
           std::to_string(time) + "\n";
  }
  return out;
}

Result<ObservedRows> ReadAllRows(const bench::Url& url, const WorkloadShape& shape) {
  ObservedRows observed;
  observed.by_writer.resize(shape.writers);
  bench::HttpClient client(url);
  for (uint32_t table = 0; table < kTables; ++table) {
    const std::string target = "/v1/sql?db=" + DatabaseName(DatabaseOf(table)) + "&format=csv&epoch=ns";
    const std::string sql = "SELECT host, time, v, n, s FROM " + TableName(table) + " ORDER BY host, time";
    bench::HttpRequest request;
    request.target = target;
    request.body = sql;
    request.content_type = "text/plain";
    GNOMON_ASSIGN_OR_RETURN(bench::HttpResponse response, client.Send(request));
    GNOMON_RETURN_IF_ERROR(bench::ExpectSuccess(sql, response));
    std::string_view body = response.body;
    int setup_rows = 0;
    bool header = true;
    while (!body.empty()) {
      size_t eol = body.find('\n');
      std::string_view line = body.substr(0, eol);
      body = eol == std::string_view::npos ? std::string_view() : body.substr(eol + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty()) continue;
      if (header) {
        header = false;
        continue;
      }
      AddRow(line, table, shape, &setup_rows, &observed);
    }
    if (setup_rows != 1) {
      observed.violations.push_back("table " + DatabaseName(DatabaseOf(table)) + "." + TableName(table) +
                                    ": " + std::to_string(setup_rows) + " setup rows, expected 1");
    }
  }
  return observed;
}

}  // namespace gnomon::torture
