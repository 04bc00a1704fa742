#include "src/torture/load_torture.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "src/bench/http_client.h"
#include "src/bench/query_generator.h"
#include "src/bench/query_runner.h"
#include "src/bench/server_process.h"

namespace gnomon::torture {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kBaseTimeNs = 1451606400LL * 1000000000;  // 2016-01-01, TSBS's default start
constexpr int64_t kStepNs = 10LL * 1000000000;              // TSBS's 10 s interval
constexpr char kDatabase[] = "load";

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

LatencySummary Summarize(std::vector<double>* ms) {
  LatencySummary s;
  s.count = ms->size();
  if (ms->empty()) return s;
  std::sort(ms->begin(), ms->end());
  auto at = [&](double q) { return (*ms)[std::min(ms->size() - 1, static_cast<size_t>(q * ms->size()))]; };
  s.p50 = at(0.50);
  s.p99 = at(0.99);
  s.max = ms->back();
  return s;
}

// What the clients share: tallies, latencies of the current interval, violations.
struct Shared {
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> rows_sent{0};   // rows of requests started
  std::atomic<uint64_t> rows_acked{0};  // rows of requests answered 204
  std::atomic<uint64_t> write_requests{0};
  std::atomic<uint64_t> queries{0};
  std::atomic<uint64_t> count_checks{0};
  std::mutex mu;
  std::vector<double> write_ms, query_ms;  // this interval
  double longest_write_ms = 0;
  std::vector<std::string> violations;

  void Violation(std::string what) {
    std::lock_guard lock(mu);
    if (violations.size() < 100) violations.push_back(std::move(what));
  }
};

std::string CpuLines(int first_host, int hosts, uint64_t* cursor, int rows, uint64_t seed) {
  std::string out;
  out.reserve(static_cast<size_t>(rows) * 200);
  for (int r = 0; r < rows; ++r, ++*cursor) {
    const uint64_t host = static_cast<uint64_t>(first_host) + *cursor % static_cast<uint64_t>(hosts);
    const int64_t time = kBaseTimeNs + static_cast<int64_t>(*cursor / static_cast<uint64_t>(hosts)) * kStepNs;
    const uint64_t v = (*cursor * 2654435761u) ^ seed;
    // TSBS's ten tags (lastpoint returns them all), fixed per host.
    out += "cpu,hostname=host_" + std::to_string(host) + ",region=eu-west-" + std::to_string(host % 3) +
           ",datacenter=eu-west-1" + char('a' + host % 3) + ",rack=" + std::to_string(host % 100) +
           ",os=Ubuntu16.10,arch=x64,team=SF,service=" + std::to_string(host % 20) +
           ",service_version=1,service_environment=production ";
    static const char* kFields[] = {"usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
                                    "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};
    for (int f = 0; f < 10; ++f) {
      if (f > 0) out += ',';
      out += kFields[f];
      out += '=';
      out += std::to_string((v >> (f * 3)) % 100);
      out += 'i';
    }
    out += ' ';
    out += std::to_string(time);
    out += '\n';
  }
  return out;
}

void RunWriter(const bench::Url& url, const LoadTortureOptions& o, int writer, Shared* shared) {
  bench::HttpClient client(url);
  const int per_writer = std::max(1, o.hosts / o.writers);
  const int first_host = writer * per_writer;
  const std::string target = std::string("/write?db=") + kDatabase;
  uint64_t cursor = 0;
  while (!shared->stop.load()) {
    const std::string body = CpuLines(first_host, per_writer, &cursor, o.rows_per_request, o.seed + writer);
    bench::HttpRequest request;
    request.target = target;
    request.body = body;
    request.content_type = "text/plain";
    shared->rows_sent.fetch_add(o.rows_per_request);
    const auto start = Clock::now();
    auto response = client.Send(request);
    const double ms = Ms(Clock::now() - start);
    shared->write_requests.fetch_add(1);
    {
      std::lock_guard lock(shared->mu);
      shared->write_ms.push_back(ms);
      shared->longest_write_ms = std::max(shared->longest_write_ms, ms);
    }
    if (!response.ok() || !response->ok()) {
      shared->Violation("writer " + std::to_string(writer) + ": " +
                        (response.ok() ? std::to_string(response->status) + " " + response->body.substr(0, 300)
                                       : response.status().ToString()));
      continue;
    }
    shared->rows_acked.fetch_add(o.rows_per_request);
    if (ms > static_cast<double>(o.max_write_stall.count())) {
      shared->Violation("writer " + std::to_string(writer) + ": a write took " + std::to_string(ms) + " ms");
    }
  }
}

// One round of every devops query type, then a count(*) checked against the writers' tallies.
std::vector<std::string> QueryMix(const LoadTortureOptions& o, int client) {
  std::vector<std::string> mix;
  for (const std::string& type : bench::DevopsQueryTypes()) {
    bench::QueryGenConfig config;
    config.query_type = type;
    config.scale = static_cast<uint64_t>(o.hosts);
    config.seed = static_cast<int64_t>(o.seed) + client;
    config.start_ns = kBaseTimeNs;
    config.end_ns = kBaseTimeNs + 3LL * 24 * 3600 * 1000000000;
    config.queries = 1;
    auto queries = bench::GenerateQueries(config);
    if (queries.ok()) {
      for (const auto& q : *queries) mix.push_back(q.sql);
    }
  }
  return mix;
}

void RunQueries(const bench::Url& url, const LoadTortureOptions& o, int client, Shared* shared) {
  bench::HttpClient http(url);
  const std::string target = std::string("/v1/sql?db=") + kDatabase;
  const std::vector<std::string> mix = QueryMix(o, client);
  auto send = [&](const std::string& sql) -> Result<bench::HttpResponse> {
    const std::string body = bench::SqlRequestBody(sql);
    bench::HttpRequest request;
    request.target = target;
    request.body = body;
    request.content_type = "application/x-www-form-urlencoded";
    return http.Send(request);
  };
  while (!shared->stop.load() && shared->rows_acked.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  for (size_t i = 0; !shared->stop.load(); ++i) {
    const std::string& sql = mix[i % mix.size()];
    const auto start = Clock::now();
    auto response = send(sql);
    const double ms = Ms(Clock::now() - start);
    shared->queries.fetch_add(1);
    {
      std::lock_guard lock(shared->mu);
      shared->query_ms.push_back(ms);
    }
    if (!response.ok() || !response->ok()) {
      shared->Violation("query client " + std::to_string(client) + ": " + sql.substr(0, 120) + ": " +
                        (response.ok() ? std::to_string(response->status) + " " + response->body.substr(0, 300)
                                       : response.status().ToString()));
    }
    if (i % mix.size() != mix.size() - 1) continue;
    const uint64_t acked_before = shared->rows_acked.load();
    auto count = send("SELECT count(*) FROM cpu");
    const uint64_t sent_after = shared->rows_sent.load();
    shared->count_checks.fetch_add(1);
    const std::string needle = "\"rows\":[[";
    size_t at = count.ok() ? count->body.find(needle) : std::string::npos;
    if (at == std::string::npos) {
      shared->Violation("count(*) failed: " + (count.ok() ? count->body.substr(0, 300) : count.status().ToString()));
      continue;
    }
    const uint64_t n = std::strtoull(count->body.c_str() + at + needle.size(), nullptr, 10);
    if (n < acked_before || n > sent_after) {
      shared->Violation("count(*) = " + std::to_string(n) + ", but " + std::to_string(acked_before) +
                        " rows were acknowledged before it and " + std::to_string(sent_after) + " sent by its answer");
    }
  }
}

uint64_t CurrentRss(pid_t pid) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kb = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "VmRSS: %lu kB", &kb) == 1) break;
  }
  std::fclose(f);
  return kb * 1024;
}

}  // namespace

Result<LoadTortureReport> RunLoadTorture(const LoadTortureOptions& o) {
  bench::ServerProcess server(o.gnomon_binary, o.data_dir, o.server_args);
  GNOMON_RETURN_IF_ERROR(server.Start());
  GNOMON_ASSIGN_OR_RETURN(bench::Url url, bench::ParseUrl(server.url()));
  Shared shared;
  std::vector<std::thread> threads;
  for (int w = 0; w < o.writers; ++w) threads.emplace_back(RunWriter, url, std::cref(o), w, &shared);
  for (int q = 0; q < o.query_clients; ++q) threads.emplace_back(RunQueries, url, std::cref(o), q, &shared);

  LoadTortureReport report;
  const auto begin = Clock::now();
  uint64_t rows_before = 0;
  for (auto next = begin + o.interval; next <= begin + o.duration; next += o.interval) {
    std::this_thread::sleep_until(next);
    LoadInterval in;
    in.end_s = std::chrono::duration<double>(Clock::now() - begin).count();
    in.seconds = in.end_s - (report.intervals.empty() ? 0 : report.intervals.back().end_s);
    const uint64_t rows = shared.rows_acked.load();
    in.rows_written = rows - rows_before;
    rows_before = rows;
    {
      std::lock_guard lock(shared.mu);
      in.writes = Summarize(&shared.write_ms);
      in.queries = Summarize(&shared.query_ms);
      shared.write_ms.clear();
      shared.query_ms.clear();
    }
    in.rss_bytes = CurrentRss(server.pid());
    if (o.log != nullptr) {
      std::fprintf(o.log, "load: %6.0f s  %9.0f rows/s  write p99 %7.1f ms  %6.1f queries/s  query p99 %8.1f ms  RSS %6.0f MiB\n",
                   in.end_s, in.rows_written / in.seconds, in.writes.p99, in.queries.count / in.seconds, in.queries.p99,
                   in.rss_bytes / 1048576.0);
      std::fflush(o.log);
    }
    report.intervals.push_back(in);
    if (server.PollExit()) {
      shared.Violation("the server died during the load (log " + server.log_path() + ")");
      break;
    }
  }
  shared.stop = true;
  for (std::thread& t : threads) t.join();
  auto peak = server.PeakRssBytes();
  report.peak_rss_bytes = peak.ok() ? *peak : 0;
  auto code = server.Stop(SIGTERM, std::chrono::seconds(120));
  if (!code.ok() || *code != 0) shared.Violation("the server did not stop cleanly (log " + server.log_path() + ")");
  report.rows_acknowledged = shared.rows_acked.load();
  report.write_requests = shared.write_requests.load();
  report.queries = shared.queries.load();
  report.count_checks = shared.count_checks.load();
  report.longest_write_ms = shared.longest_write_ms;
  report.violations = std::move(shared.violations);
  return report;
}

std::string FormatLoadReport(const LoadTortureReport& r) {
  char line[512];
  std::snprintf(line, sizeof(line),
                "rows acknowledged: %llu in %llu write requests (longest %.1f ms)\n"
                "queries answered: %llu, count checks: %llu\n"
                "server peak RSS: %.0f MiB\n"
                "violations: %zu\n",
                static_cast<unsigned long long>(r.rows_acknowledged), static_cast<unsigned long long>(r.write_requests),
                r.longest_write_ms, static_cast<unsigned long long>(r.queries),
                static_cast<unsigned long long>(r.count_checks), r.peak_rss_bytes / 1048576.0, r.violations.size());
  std::string out = line;
  for (const std::string& v : r.violations) out += "  " + v + "\n";
  return out;
}

std::string LoadReportCsv(const LoadTortureReport& r) {
  std::string out = "end_s,rows_per_s,write_p50_ms,write_p99_ms,write_max_ms,queries_per_s,query_p50_ms,query_p99_ms,query_max_ms,rss_mib\n";
  char line[512];
  for (const LoadInterval& in : r.intervals) {
    const double span = std::max(1e-9, in.seconds);
    std::snprintf(line, sizeof(line), "%.1f,%.0f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f\n", in.end_s,
                  in.rows_written / span, in.writes.p50, in.writes.p99, in.writes.max, in.queries.count / span,
                  in.queries.p50, in.queries.p99, in.queries.max, in.rss_bytes / 1048576.0);
    out += line;
  }
  return out;
}

}  // namespace gnomon::torture
