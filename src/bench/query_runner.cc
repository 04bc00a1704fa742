#include "src/bench/query_runner.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "src/base/time_util.h"
#include "src/bench/async_http_client.h"
#include "src/bench/http_client.h"
#include "src/bench/json_writer.h"
#include "src/bench/url.h"

namespace gnomon::bench {
namespace {

using Clock = std::chrono::steady_clock;

// One TSBS worker: a connection and the request body in flight.
struct Worker {
  Worker(EventLoop* loop, const Url& url) : client(loop, url) {}
  AsyncHttpClient client;
  std::string body;
};

// The statistics collector: every result passes through Record() under one lock.
class Collector {
 public:
  Collector(const QueryRunConfig& config, QueryRunResult* result)
      : config_(config), result_(result), start_(Clock::now()), last_print_(start_) {}

  void Record(const QueryRecord& query, double ms, const std::string& body) {
    std::lock_guard lock(mu_);
    ++result_->received;
    result_->response_bytes += body.size();
    if (config_.responses_out != nullptr) {
      std::fprintf(config_.responses_out, "-- query %llu: %s\n%s\n",
                   static_cast<unsigned long long>(query.number), query.label.c_str(), body.c_str());
    }
    if (result_->received <= config_.burn_in) {
      if (result_->received == config_.burn_in && config_.interval_out != nullptr) {
        std::fprintf(config_.interval_out, "burn-in complete after %llu queries with %d workers\n",
                     static_cast<unsigned long long>(config_.burn_in), config_.workers);
      }
      return;
    }
    result_->groups.Add(query.label, ms);
    ++result_->measured;
    if (config_.interval_out != nullptr && config_.print_interval > 0 &&
        result_->measured % config_.print_interval == 0 &&
        !(config_.max_queries > 0 && result_->measured == config_.max_queries)) {
      Clock::time_point now = Clock::now();
      double interval = std::chrono::duration<double>(now - last_print_).count();
      double overall = std::chrono::duration<double>(now - start_).count();
      std::fprintf(config_.interval_out,
                   "After %llu queries with %d workers:\nInterval query rate: %0.2f "
                   "queries/sec\tOverall query rate: %0.2f queries/sec\n%s\n",
                   static_cast<unsigned long long>(result_->measured), config_.workers,
                   (result_->received - last_received_) / interval, result_->received / overall,
                   FormatTsbsGroups(result_->groups).c_str());
      last_print_ = now;
      last_received_ = result_->received;
    }
  }

 private:
  const QueryRunConfig& config_;
  QueryRunResult* result_;
  std::mutex mu_;
  Clock::time_point start_, last_print_;
  uint64_t last_received_ = 0;
};

std::string SanitizeLabel(const std::string& label) {
  std::string out;
  bool in_run = false;
  for (unsigned char c : label) {
    if (std::isalnum(c)) {
      out.push_back(static_cast<char>(c));
      in_run = false;
    } else if (!in_run) {
      out.push_back('_');
      in_run = true;
    }
  }
  return out;
}

}  // namespace

Status ValidateQueryRunConfig(const QueryRunConfig& config) {
  if (config.workers < 1) return Status::InvalidArgument("--workers must be at least 1");
  if (config.db.empty()) return Status::InvalidArgument("--db must not be empty");
  if (config.max_queries > 0 && config.burn_in > config.max_queries) {
    return Status::InvalidArgument("burn-in is larger than limit");
  }
  return ParseUrl(config.url).status();
}

std::string SqlTarget(const std::string& db) { return "/v1/sql?db=" + FormUrlEncode(db); }

std::string SqlRequestBody(std::string_view sql) { return "sql=" + FormUrlEncode(sql); }

std::string QueryTarget(QueryLanguage language, const std::string& db) {
  return language == QueryLanguage::kInfluxql ? "/query?db=" + FormUrlEncode(db) : SqlTarget(db);
}

std::string QueryRequestBody(QueryLanguage language, std::string_view text) {
  return language == QueryLanguage::kInfluxql ? "q=" + FormUrlEncode(text) : SqlRequestBody(text);
}

Result<QueryRunResult> RunQueries(const QueryRunConfig& config,
                                  const std::vector<QueryRecord>& queries) {
  GNOMON_RETURN_IF_ERROR(ValidateQueryRunConfig(config));
  GNOMON_ASSIGN_OR_RETURN(Url url, ParseUrl(config.url));
  size_t total = queries.size();
  if (config.max_queries > 0) total = std::min<size_t>(total, config.max_queries);
  if (config.burn_in >= total && total > 0) {
    return Status::InvalidArgument("burn-in (" + std::to_string(config.burn_in) +
                                   ") leaves none of the " + std::to_string(total) +
                                   " queries to measure");
  }
  const std::string target = QueryTarget(config.language, config.db);

  QueryRunResult result;
  result.start_unix_ns = NowNanos();
  Clock::time_point start = Clock::now();
  // Workers take the next query's index from one counter: file order, as TSBS's channel hands
  // them out.
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  Collector collector(config, &result);
  std::mutex error_mu;
  Status error;
  auto fail = [&](Status s) {
    {
      std::lock_guard lock(error_mu);
      if (error.ok()) error = std::move(s);
    }
    failed.store(true);
  };

  // The workers' connections, spread over one event loop per core (at most one per worker).
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::unique_ptr<EventLoop>> loops(static_cast<size_t>(std::min(config.workers, cores)));
  for (auto& loop : loops) loop = std::make_unique<EventLoop>();
  std::vector<std::unique_ptr<Worker>> workers;
  for (int w = 0; w < config.workers; ++w) {
    workers.push_back(std::make_unique<Worker>(loops[static_cast<size_t>(w) % loops.size()].get(), url));
  }
  // Each worker's closed loop: take the next query, send it, record its answer, repeat.
  std::function<void(Worker*)> next_query = [&](Worker* worker) {
    size_t index;
    if (failed.load(std::memory_order_relaxed) || (index = next.fetch_add(1)) >= total) return;
    const QueryRecord& query = queries[index];
    worker->body = QueryRequestBody(config.language, query.text);
    HttpRequest request;
    request.method = "POST";
    request.target = target;
    request.body = worker->body;
    request.content_type = "application/x-www-form-urlencoded";
    const Clock::time_point sent = Clock::now();
    worker->client.Send(request, [&, worker, q = &query, sent](Status status, HttpResponse* response) {
      const QueryRecord& query = *q;
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
      auto what = [&] { return "query " + std::to_string(query.number) + " (" + query.label + ")"; };
      if (!status.ok()) return fail(status.WithContext(what()));
      if (!response->ok()) return fail(ExpectSuccess(what() + ": POST " + target, *response));
      collector.Record(query, ms, response->body);
      worker->client.Recycle(std::move(response->body));
      next_query(worker);
    });
  };
  for (auto& worker : workers) next_query(worker.get());
  std::vector<std::thread> threads;
  for (size_t l = 1; l < loops.size(); ++l) threads.emplace_back([&, l] { loops[l]->Run(); });
  loops[0]->Run();
  for (std::thread& t : threads) t.join();
  result.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  result.end_unix_ns = NowNanos();
  if (!error.ok()) return error;
  return result;
}

std::string FormatRunSummary(const QueryRunConfig& config, const QueryRunResult& result) {
  const double wall = result.wall_s > 0 ? result.wall_s : 1e-9;
  char line[512];
  std::snprintf(line, sizeof(line),
                "Run complete after %llu queries with %d workers (Overall query rate %0.2f "
                "queries/sec):\n",
                static_cast<unsigned long long>(result.measured), config.workers,
                result.received / wall);
  std::string out = line;
  out += FormatTsbsGroups(result.groups);
  std::snprintf(line, sizeof(line), "wall clock time: %fsec\n", result.wall_s);
  out += line;
  size_t width = 0;
  for (const auto& [label, stats] : result.groups.groups()) width = std::max(width, label.size());
  out += "\nPercentiles and rates:\n";
  for (const auto& [label, stats] : result.groups.groups()) {
    LatencySummary s = stats.Summarize();
    std::snprintf(line, sizeof(line), "p90: %8.2fms, p99: %8.2fms, rate: %8.2f queries/sec\n",
                  s.p90_ms, s.p99_ms, s.count / wall);
    out += label + std::string(width - label.size(), ' ') + ": " + line;
  }
  return out;
}

std::string QueryRunToJson(const QueryRunConfig& config, const QueryRunResult& result,
                           const std::string& file) {
  const double wall = result.wall_s > 0 ? result.wall_s : 1e-9;
  JsonWriter j;
  j.BeginObject();
  j.Key("ResultFormatVersion").String("0.1");
  j.Key("RunnerConfig").BeginObject();
  j.Key("url").String(config.url);
  j.Key("db-name").String(config.db);
  j.Key("workers").Int(config.workers);
  j.Key("burn-in").Uint(config.burn_in);
  j.Key("max-queries").Uint(config.max_queries);
  j.Key("file").String(file);
  j.EndObject();
  j.Key("StartTime").Int(result.start_unix_ns / kNanosPerSecond * 1000);
  j.Key("EndTime").Int(result.end_unix_ns / kNanosPerSecond * 1000);
  j.Key("DurationMillis").Int(static_cast<int64_t>(result.wall_s * 1000));
  j.Key("Totals").BeginObject();
  j.Key("prewarmQueries").Bool(false);
  j.Key("limit").Uint(config.max_queries);
  j.Key("burnIn").Uint(config.burn_in);
  j.Key("overallQueryRates").BeginObject();
  for (const auto& [label, stats] : result.groups.groups()) {
    j.Key(SanitizeLabel(label)).Double(stats.count() / wall);
  }
  j.EndObject();
  j.Key("overallQuantiles").BeginObject();
  for (const auto& [label, stats] : result.groups.groups()) {
    LatencySummary s = stats.Summarize();
    j.Key(SanitizeLabel(label)).BeginObject();
    j.Key("q0").Double(s.min_ms).Key("q50").Double(s.median_ms).Key("q95").Double(s.p95_ms);
    j.Key("q99").Double(s.p99_ms).Key("q999").Double(s.p999_ms).Key("q100").Double(s.max_ms);
    j.EndObject();
  }
  j.EndObject();
  j.Key("overallStats").BeginObject();
  for (const auto& [label, stats] : result.groups.groups()) {
    j.Key(SanitizeLabel(label)).BeginObject();
    j.Key("count").Uint(stats.count()).Key("meanMilliseconds").Double(stats.Summarize().mean_ms);
    j.EndObject();
  }
  j.EndObject();
  j.EndObject();
  j.Key("Measured").Uint(result.measured);
  j.Key("Received").Uint(result.received);
  j.Key("ResponseBytes").Uint(result.response_bytes);
  j.Key("WallSeconds").Double(result.wall_s);
  j.Key("Groups").BeginArray();
  for (const auto& [label, stats] : result.groups.groups()) {
    LatencySummary s = stats.Summarize();
    j.BeginObject();
    j.Key("label").String(label);
    j.Key("count").Uint(s.count);
    j.Key("minMs").Double(s.min_ms).Key("medianMs").Double(s.median_ms);
    j.Key("meanMs").Double(s.mean_ms).Key("p90Ms").Double(s.p90_ms);
    j.Key("p95Ms").Double(s.p95_ms).Key("p99Ms").Double(s.p99_ms);
    j.Key("maxMs").Double(s.max_ms).Key("stddevMs").Double(s.stddev_ms);
    j.Key("sumMs").Double(s.sum_ms).Key("queriesPerSecond").Double(s.count / wall);
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
  return j.str() + "\n";
}

}  // namespace gnomon::bench
