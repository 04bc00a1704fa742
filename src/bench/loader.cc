#include "src/bench/loader.h"

#include <libdeflate.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "src/base/time_util.h"
#include "src/bench/bounded_queue.h"
#include "src/bench/http_client.h"
#include "src/base/json_value.h"
#include "src/bench/json_writer.h"
#include "src/bench/url.h"

namespace gnomon::bench {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A batch on its way to a worker: its own bytes (streamed input) or a view into the source's
// memory (a mapped file: no copy of the input at all).
struct QueuedBatch {
  std::string owned;
  std::string_view view;
  bool is_view = false;
  LineCounts counts;
  std::string_view body() const { return is_view ? view : std::string_view(owned); }
};

using BatchQueue = BoundedQueue<QueuedBatch>;

// State shared by the scanner, the workers and the monitor.
struct Shared {
  explicit Shared(size_t capacity) : queue(capacity) {}
  BatchQueue queue;
  std::atomic<uint64_t> rows{0};
  std::atomic<uint64_t> metrics{0};
  std::atomic<uint64_t> disk_position{0};
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  Status error;

  void Fail(Status s) {
    {
      std::lock_guard lock(error_mu);
      if (error.ok()) error = std::move(s);
    }
    failed.store(true);
    queue.Abort();
  }
};

class GzipCompressor {
 public:
  explicit GzipCompressor(int level) : c_(libdeflate_alloc_compressor(level)) {}
  ~GzipCompressor() { libdeflate_free_compressor(c_); }
  Status Compress(std::string_view in, std::string* out) {
    out->resize(libdeflate_gzip_compress_bound(c_, in.size()));
    size_t n = libdeflate_gzip_compress(c_, in.data(), in.size(), out->data(), out->size());
    if (n == 0) return Status::Internal("gzip compression failed");
    out->resize(n);
    return Status::OK();
  }

 private:
  libdeflate_compressor* c_;
};

void WorkerLoop(const LoadConfig& config, const Url& url, const std::string& target,
                Shared* shared, WorkerLoadStats* stats) {
  HttpClient client(url);
  std::unique_ptr<GzipCompressor> gzip;
  if (config.gzip) gzip = std::make_unique<GzipCompressor>(config.gzip_level);
  std::string compressed;
  while (std::optional<QueuedBatch> batch = shared->queue.Pop()) {
    Clock::time_point start = Clock::now();
    HttpRequest request;
    request.method = "POST";
    request.target = target;
    request.content_type = "text/plain; charset=utf-8";
    request.body = batch->body();
    if (gzip) {
      if (Status s = gzip->Compress(batch->body(), &compressed); !s.ok()) return shared->Fail(s);
      request.body = compressed;
      request.content_encoding = "gzip";
    }
    Result<HttpResponse> response = client.Send(request);
    if (!response.ok()) return shared->Fail(response.status());
    if (Status s = ExpectSuccess("POST " + target, *response); !s.ok()) return shared->Fail(s);
    stats->busy_s += SecondsSince(start);
    stats->rows += batch->counts.rows;
    stats->metrics += batch->counts.metrics;
    stats->body_bytes += request.body.size();
    ++stats->batches;
    shared->rows.fetch_add(batch->counts.rows, std::memory_order_relaxed);
    shared->metrics.fetch_add(batch->counts.metrics, std::memory_order_relaxed);
  }
  stats->connects = client.connects();
}

std::string HumanCount(double v) {
  char buf[32];
  if (v >= 1e9) std::snprintf(buf, sizeof(buf), "%.2fG", v / 1e9);
  else if (v >= 1e6) std::snprintf(buf, sizeof(buf), "%.2fM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof(buf), "%.1fk", v / 1e3);
  else std::snprintf(buf, sizeof(buf), "%.0f", v);
  return buf;
}

// Prints TSBS's periodic CSV report and/or a progress bar until `done`.
class Monitor {
 public:
  Monitor(const LoadConfig& config, Shared* shared, uint64_t size_on_disk, Clock::time_point start)
      : config_(config), shared_(shared), size_(size_on_disk), start_(start) {
    if (config_.report_out == nullptr && config_.progress_out == nullptr) return;
    thread_ = std::thread([this] { Run(); });
  }
  ~Monitor() { Stop(); }
  void Stop() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (config_.progress_out != nullptr && drew_) {
      std::fputs("\r\033[K", config_.progress_out);  // erase the bar before the summary
      std::fflush(config_.progress_out);
    }
  }

 private:
  void Run() {
    if (config_.report_out != nullptr && config_.reporting_period_s > 0) {
      std::fputs("time,per. metric/s,metric total,overall metric/s,per. row/s,row total,overall row/s\n",
                 config_.report_out);
      std::fflush(config_.report_out);
    }
    Clock::time_point last_report = start_;
    uint64_t last_rows = 0, last_metrics = 0;
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return done_; })) {
      Clock::time_point now = Clock::now();
      double since_start = std::chrono::duration<double>(now - start_).count();
      uint64_t rows = shared_->rows.load(std::memory_order_relaxed);
      uint64_t metrics = shared_->metrics.load(std::memory_order_relaxed);
      double period = std::chrono::duration<double>(now - last_report).count();
      if (config_.report_out != nullptr && config_.reporting_period_s > 0 &&
          period >= config_.reporting_period_s) {
        if (config_.progress_out != nullptr && drew_) {
          std::fputs("\r\033[K", config_.progress_out);  // the report line replaces the bar
          std::fflush(config_.progress_out);
        }
        std::fprintf(config_.report_out, "%lld,%0.2f,%E,%0.2f",
                     static_cast<long long>(NowNanos() / kNanosPerSecond),
                     (metrics - last_metrics) / period, static_cast<double>(metrics),
                     metrics / since_start);
        if (rows > 0) {
          std::fprintf(config_.report_out, ",%0.2f,%E,%0.2f\n", (rows - last_rows) / period,
                       static_cast<double>(rows), rows / since_start);
        } else {
          std::fputs(",-,-,-\n", config_.report_out);
        }
        std::fflush(config_.report_out);
        last_report = now;
        last_rows = rows;
        last_metrics = metrics;
      }
      if (config_.progress_out != nullptr) DrawBar(rows, since_start);
    }
  }

  void DrawBar(uint64_t rows, double since_start) {
    constexpr int kWidth = 30;
    std::string line = "\r";
    if (size_ > 0) {
      double frac = std::min(1.0, static_cast<double>(shared_->disk_position.load()) / size_);
      int filled = static_cast<int>(frac * kWidth);
      line += "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] ";
      char pct[16];
      std::snprintf(pct, sizeof(pct), "%5.1f%% ", frac * 100);
      line += pct;
    }
    line += HumanCount(static_cast<double>(rows)) + " rows, " +
            HumanCount(since_start > 0 ? rows / since_start : 0) + " rows/s, ";
    char secs[32];
    std::snprintf(secs, sizeof(secs), "%.0fs\033[K", since_start);
    line += secs;
    std::fputs(line.c_str(), config_.progress_out);
    std::fflush(config_.progress_out);
    drew_ = true;
  }

  const LoadConfig& config_;
  Shared* shared_;
  const uint64_t size_;
  const Clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool drew_ = false;
  std::thread thread_;
};

// Cuts batches from a source that is read piece by piece; each batch owns a copy of its lines.
Status ScanStream(const LoadConfig& config, ByteSource* source, Shared* shared, LoadStats* stats) {
  LineBatcher batcher(config.batch_size, [&](LineBatch&& batch) {
    ++stats->batches;
    QueuedBatch queued;
    queued.owned = std::move(batch.body);
    queued.counts = batch.counts;
    if (!shared->queue.Push(std::move(queued))) return Status::Aborted("load aborted");
    return Status::OK();
  });
  constexpr size_t kReadSize = 4 << 20;
  std::unique_ptr<char[]> buffer(new char[kReadSize]);
  while (!shared->failed.load()) {
    GNOMON_ASSIGN_OR_RETURN(size_t n, source->Read(buffer.get(), kReadSize));
    shared->disk_position.store(source->PositionOnDisk(), std::memory_order_relaxed);
    if (n == 0) return batcher.Finish();
    stats->bytes_read += n;
    GNOMON_RETURN_IF_ERROR(batcher.Add(std::string_view(buffer.get(), n)));
  }
  return Status::OK();
}

// Cuts batches from a source already in memory (a mapped file) as views into it: the input is
// neither read into a buffer nor copied into batch bodies. The requests are the same as
// ScanStream's.
Status ScanContents(const LoadConfig& config, ByteSource* source, Shared* shared, LoadStats* stats) {
  const std::string_view contents = source->Contents();
  // The file's bytes this far behind the scanner are sent: the queue holds `workers` batches
  // and each worker one more, a few MB each (a batch still being sent would only read its pages
  // back from the disk).
  constexpr uint64_t kReleaseLag = 256 << 20;
  auto push = [&](std::string_view body, const LineCounts& counts) {
    if (shared->failed.load()) return Status::Aborted("load aborted");
    ++stats->batches;
    QueuedBatch queued;
    queued.view = body;
    queued.is_view = true;
    queued.counts = counts;
    const uint64_t position = static_cast<uint64_t>(body.data() + body.size() - contents.data());
    shared->disk_position.store(position, std::memory_order_relaxed);
    if (position > kReleaseLag) source->Release(position - kReleaseLag);
    if (!shared->queue.Push(std::move(queued))) return Status::Aborted("load aborted");
    return Status::OK();
  };
  GNOMON_RETURN_IF_ERROR(CutLineBatches(contents, config.batch_size, push));
  stats->bytes_read = contents.size();
  return Status::OK();
}

}  // namespace

Status ValidateLoadConfig(const LoadConfig& config) {
  if (config.workers < 1) return Status::InvalidArgument("--workers must be at least 1");
  if (config.batch_size < 1) return Status::InvalidArgument("--batch-size must be at least 1");
  if (config.db.empty()) return Status::InvalidArgument("--db must not be empty");
  if (config.endpoint != "v1" && config.endpoint != "v2" && config.endpoint != "v3") {
    return Status::InvalidArgument("--endpoint must be v1, v2 or v3, not '" + config.endpoint + "'");
  }
  if (config.no_sync && config.endpoint != "v3") {
    return Status::InvalidArgument("--no-sync needs --endpoint v3 (only /api/v3/write_lp has no_sync)");
  }
  if (config.gzip_level < 1 || config.gzip_level > 12) {
    return Status::InvalidArgument("--gzip-level must be 1..12");
  }
  return ParseUrl(config.url).status();
}

std::string WriteTarget(const LoadConfig& config) {
  std::string db = FormUrlEncode(config.db);
  if (config.endpoint == "v2") return "/api/v2/write?bucket=" + db + "&precision=ns";
  if (config.endpoint == "v3") {
    return "/api/v3/write_lp?db=" + db + "&precision=nanosecond" +
           (config.no_sync ? "&no_sync=true" : "");
  }
  return "/write?db=" + db;
}

Status PrepareDatabase(const LoadConfig& config) {
  GNOMON_ASSIGN_OR_RETURN(Url url, ParseUrl(config.url));
  HttpClient client(url);
  HttpRequest show;
  show.method = "GET";
  show.target = "/query?q=SHOW+DATABASES";
  GNOMON_ASSIGN_OR_RETURN(HttpResponse response, client.Send(show));
  GNOMON_RETURN_IF_ERROR(ExpectSuccess("GET /query?q=SHOW DATABASES", response));
  auto doc = JsonValue::Parse(response.body);
  if (!doc.ok()) return doc.status().WithContext("SHOW DATABASES answer");
  bool exists = false;
  // {"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"],"values":[["x"]]}]}]}
  if (const JsonValue* results = doc->Find("results"); results && results->is_array()) {
    for (const JsonValue& result : results->array()) {
      const JsonValue* series = result.Find("series");
      if (series == nullptr || !series->is_array()) continue;
      for (const JsonValue& s : series->array()) {
        const JsonValue* values = s.Find("values");
        if (values == nullptr || !values->is_array()) continue;
        for (const JsonValue& row : values->array()) {
          if (row.is_array() && !row.array().empty() && row.array()[0].is_string() &&
              row.array()[0].string() == config.db) {
            exists = true;
          }
        }
      }
    }
  }
  if (exists || !config.create_db) {
    if (config.log_out != nullptr) {
      std::fprintf(config.log_out, "database '%s' %s\n", config.db.c_str(),
                   exists ? "exists" : "does not exist yet (created by the first write)");
    }
    return Status::OK();
  }
  std::string escaped;
  for (char c : config.db) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    escaped.push_back(c);
  }
  std::string body = "q=" + FormUrlEncode("CREATE DATABASE \"" + escaped + "\"");
  HttpRequest create;
  create.method = "POST";
  create.target = "/query";
  create.body = body;
  create.content_type = "application/x-www-form-urlencoded";
  GNOMON_ASSIGN_OR_RETURN(HttpResponse created, client.Send(create));
  GNOMON_RETURN_IF_ERROR(ExpectSuccess("POST /query (CREATE DATABASE)", created));
  auto answer = JsonValue::Parse(created.body);
  if (answer.ok()) {
    const JsonValue* results = answer->Find("results");
    if (results && results->is_array() && !results->array().empty()) {
      std::string error = results->array()[0].StringOr("error", "");
      if (!error.empty()) return Status::IOError("CREATE DATABASE " + config.db + ": " + error);
    }
  }
  if (config.log_out != nullptr) std::fprintf(config.log_out, "created database '%s'\n", config.db.c_str());
  return Status::OK();
}

Result<LoadStats> RunLoad(const LoadConfig& config, ByteSource* source) {
  GNOMON_RETURN_IF_ERROR(ValidateLoadConfig(config));
  GNOMON_ASSIGN_OR_RETURN(Url url, ParseUrl(config.url));
  if (config.check_db) GNOMON_RETURN_IF_ERROR(PrepareDatabase(config));
  const std::string target = WriteTarget(config);

  LoadStats stats;
  stats.workers.resize(config.workers);
  Shared shared(static_cast<size_t>(config.workers));
  stats.start_unix_ns = NowNanos();
  Clock::time_point start = Clock::now();
  std::vector<std::thread> workers;
  for (int i = 0; i < config.workers; ++i) {
    workers.emplace_back(WorkerLoop, std::cref(config), std::cref(url), std::cref(target), &shared,
                         &stats.workers[i]);
  }
  Monitor monitor(config, &shared, source->SizeOnDisk(), start);

  Status scan_status = source->Contents().empty() ? ScanStream(config, source, &shared, &stats)
                                                  : ScanContents(config, source, &shared, &stats);
  if (!scan_status.ok() && !shared.failed.load()) shared.Fail(scan_status);
  shared.queue.Finish();
  for (std::thread& t : workers) t.join();
  stats.elapsed_s = SecondsSince(start);
  stats.end_unix_ns = NowNanos();
  monitor.Stop();
  Status close_status = source->Close();
  if (shared.failed.load()) return shared.error;
  GNOMON_RETURN_IF_ERROR(close_status);
  stats.totals.rows = shared.rows.load();
  stats.totals.metrics = shared.metrics.load();
  return stats;
}

std::string FormatLoadSummary(const LoadStats& stats) {
  const double elapsed = stats.elapsed_s > 0 ? stats.elapsed_s : 1e-9;
  const size_t w = stats.workers.size();
  char line[512];
  std::string out = "\nSummary:\n";
  std::snprintf(line, sizeof(line),
                "loaded %llu metrics in %0.3fsec with %zu workers (mean rate %0.2f metrics/sec)\n",
                static_cast<unsigned long long>(stats.totals.metrics), stats.elapsed_s, w,
                stats.totals.metrics / elapsed);
  out += line;
  if (stats.totals.rows > 0) {
    std::snprintf(line, sizeof(line),
                  "loaded %llu rows in %0.3fsec with %zu workers (mean rate %0.2f rows/sec)\n",
                  static_cast<unsigned long long>(stats.totals.rows), stats.elapsed_s, w,
                  stats.totals.rows / elapsed);
    out += line;
  }
  for (size_t i = 0; i < w; ++i) {
    const WorkerLoadStats& ws = stats.workers[i];
    std::snprintf(line, sizeof(line),
                  "[worker %zu] %llu batches, %llu rows, %llu metrics; mean rate %0.2f rows/sec, "
                  "%0.2f rows/sec while busy (busy %0.3fsec)\n",
                  i, static_cast<unsigned long long>(ws.batches),
                  static_cast<unsigned long long>(ws.rows),
                  static_cast<unsigned long long>(ws.metrics), ws.rows / elapsed,
                  ws.busy_s > 0 ? ws.rows / ws.busy_s : 0.0, ws.busy_s);
    out += line;
  }
  return out;
}

std::string LoadStatsToJson(const LoadConfig& config, const LoadStats& stats,
                            const std::string& file) {
  const double elapsed = stats.elapsed_s > 0 ? stats.elapsed_s : 1e-9;
  JsonWriter j;
  j.BeginObject();
  j.Key("ResultFormatVersion").String("0.1");
  j.Key("RunnerConfig").BeginObject();
  j.Key("url").String(config.url);
  j.Key("db-name").String(config.db);
  j.Key("endpoint").String(config.endpoint);
  j.Key("write-target").String(WriteTarget(config));
  j.Key("workers").Int(config.workers);
  j.Key("batch-size").Uint(config.batch_size);
  j.Key("gzip").Bool(config.gzip);
  j.Key("no-sync").Bool(config.no_sync);
  j.Key("file").String(file);
  j.EndObject();
  j.Key("StartTime").Int(stats.start_unix_ns / kNanosPerSecond);
  j.Key("EndTime").Int(stats.end_unix_ns / kNanosPerSecond);
  j.Key("DurationMillis").Int(static_cast<int64_t>(stats.elapsed_s * 1000));
  j.Key("Totals").BeginObject();
  j.Key("metricRate").Double(stats.totals.metrics / elapsed);
  j.Key("rowRate").Double(stats.totals.rows / elapsed);
  j.Key("metricCount").Uint(stats.totals.metrics);
  j.Key("rowCount").Uint(stats.totals.rows);
  j.Key("batchCount").Uint(stats.batches);
  j.Key("bytesRead").Uint(stats.bytes_read);
  j.Key("elapsedSeconds").Double(stats.elapsed_s);
  j.EndObject();
  j.Key("Workers").BeginArray();
  for (const WorkerLoadStats& ws : stats.workers) {
    j.BeginObject();
    j.Key("rows").Uint(ws.rows);
    j.Key("metrics").Uint(ws.metrics);
    j.Key("batches").Uint(ws.batches);
    j.Key("bodyBytes").Uint(ws.body_bytes);
    j.Key("connects").Uint(ws.connects);
    j.Key("busySeconds").Double(ws.busy_s);
    j.Key("rowRate").Double(ws.rows / elapsed);
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
  return j.str() + "\n";
}

}  // namespace gnomon::bench
