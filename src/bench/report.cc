#include "src/bench/report.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "src/base/time_util.h"
#include "src/bench/json_writer.h"
#include "src/port/env.h"

namespace gnomon::bench {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

// 1234567.8 -> "1,234,568"
std::string Grouped(double v) {
  std::string digits = Fixed(std::round(v), 0);
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out.push_back(digits[i]);
    int left = n - 1 - i;
    if (left > 0 && left % 3 == 0 && digits[i] != '-') out.push_back(',');
  }
  return out;
}

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string MarkdownCell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out.push_back(c);
  }
  return out;
}

uint64_t StorageMetrics(const ReportInput& input) {
  if (input.storage_metrics > 0) return input.storage_metrics;
  return input.load ? input.load->metrics : 0;
}

}  // namespace

ReportEnvironment CollectEnvironment(const std::string& gnomon_version) {
  ReportEnvironment env;
  env.gnomon_version = gnomon_version;
  env.cores = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        env.cpu_model = line.substr(line.find_first_not_of(' ', colon + 1));
        break;
      }
    }
  }
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    unsigned long long kb = 0;
    if (std::sscanf(line.c_str(), "MemTotal: %llu kB", &kb) == 1) {
      env.memory_bytes = kb * 1024;
      break;
    }
  }
  struct utsname u;
  if (::uname(&u) == 0) {
    env.kernel = std::string(u.sysname) + " " + u.release;
    env.hostname = u.nodename;
  }
  env.generated_at = FormatRfc3339(NowNanos() / kNanosPerSecond * kNanosPerSecond);
  return env;
}

Result<LoadFigures> LoadFiguresFromJson(const JsonValue& doc) {
  const JsonValue* totals = doc.Find("Totals");
  if (totals == nullptr || !totals->is_object()) {
    return Status::InvalidArgument("load results: no \"Totals\" object");
  }
  LoadFigures f;
  f.rows = static_cast<uint64_t>(totals->NumberOr("rowCount", 0));
  f.metrics = static_cast<uint64_t>(totals->NumberOr("metricCount", 0));
  f.row_rate = totals->NumberOr("rowRate", 0);
  f.metric_rate = totals->NumberOr("metricRate", 0);
  f.elapsed_s = totals->NumberOr("elapsedSeconds", doc.NumberOr("DurationMillis", 0) / 1000);
  if (const JsonValue* config = doc.Find("RunnerConfig"); config != nullptr) {
    f.workers = static_cast<int>(config->NumberOr("workers", 0));
    f.batch_size = static_cast<uint64_t>(config->NumberOr("batch-size", 0));
    const JsonValue* gzip = config->Find("gzip");
    f.gzip = gzip != nullptr && gzip->kind() == JsonValue::Kind::kBool && gzip->bool_value();
    f.endpoint = config->StringOr("endpoint", "");
    f.file = config->StringOr("file", "");
  }
  return f;
}

Result<std::vector<QueryFigures>> QueryFiguresFromJson(const JsonValue& doc, const std::string& name) {
  const JsonValue* groups = doc.Find("Groups");
  if (groups == nullptr || !groups->is_array()) {
    return Status::InvalidArgument("query results " + name + ": no \"Groups\" array");
  }
  std::vector<QueryFigures> out;
  for (const JsonValue& g : groups->array()) {
    std::string label = g.StringOr("label", "");
    if (label == StatGroups::kAllQueries) continue;
    QueryFigures q;
    q.name = name;
    q.label = label;
    q.latency.count = static_cast<uint64_t>(g.NumberOr("count", 0));
    q.latency.min_ms = g.NumberOr("minMs", 0);
    q.latency.median_ms = g.NumberOr("medianMs", 0);
    q.latency.mean_ms = g.NumberOr("meanMs", 0);
    q.latency.p90_ms = g.NumberOr("p90Ms", 0);
    q.latency.p95_ms = g.NumberOr("p95Ms", 0);
    q.latency.p99_ms = g.NumberOr("p99Ms", 0);
    q.latency.max_ms = g.NumberOr("maxMs", 0);
    q.latency.stddev_ms = g.NumberOr("stddevMs", 0);
    q.latency.sum_ms = g.NumberOr("sumMs", 0);
    q.queries_per_second = g.NumberOr("queriesPerSecond", 0);
    out.push_back(std::move(q));
  }
  // A file holding several labels names each bar by its label.
  if (out.size() > 1) {
    for (QueryFigures& q : out) q.name = name + ": " + q.label;
  }
  return out;
}

namespace {

// The server process figures of a profile run (CPU per row, RSS, stop and restart times).
void RenderServerMarkdown(const ReportInput& input, std::ostringstream& md) {
  const ServerFigures& s = *input.server;
  auto seconds = [](double v) { return v < 0 ? std::string("-") : Fixed(v, v < 10 ? 2 : 1) + " s"; };
  auto mb = [](uint64_t v) { return v == 0 ? std::string("-") : Grouped(v / 1048576.0) + " MB"; };
  std::string per_row = "-";
  if (s.load_cpu_s >= 0 && input.load && input.load->rows > 0) {
    per_row = Fixed(s.load_cpu_s / static_cast<double>(input.load->rows) * 1e6, 2) + " µs";
  }
  md << "## Server\n\n| | |\n|---|---|\n";
  md << "| CPU during the load | " << seconds(s.load_cpu_s) << " |\n";
  md << "| CPU per row | " << per_row << " |\n";
  md << "| peak RSS during the load | " << mb(s.load_peak_rss) << " |\n";
  md << "| peak RSS, whole run | " << mb(s.peak_rss) << " |\n";
  md << "| flush and compaction | " << seconds(s.compact_s) << " |\n";
  md << "| clean stop | " << seconds(s.stop_s) << " |\n";
  md << "| start to serving after the stop | " << seconds(s.restart_s) << " |\n\n";
}

void RenderServerJson(const ServerFigures& s, JsonWriter& j) {
  auto seconds = [&j](const char* key, double v) {
    j.Key(key);
    if (v < 0) j.Null();
    else j.Double(v);
  };
  j.Key("server").BeginObject();
  seconds("loadCpuSeconds", s.load_cpu_s);
  j.Key("loadPeakRssBytes").Uint(s.load_peak_rss).Key("peakRssBytes").Uint(s.peak_rss);
  seconds("compactSeconds", s.compact_s);
  seconds("stopSeconds", s.stop_s);
  seconds("restartSeconds", s.restart_s);
  j.EndObject();
}

}  // namespace

std::string RenderReportMarkdown(const ReportInput& input, const std::string& chart_file) {
  std::ostringstream md;
  const ReportEnvironment& e = input.env;
  md << "# Gnomon benchmark report\n\n";
  md << "Generated " << e.generated_at << " by `gnomon bench report`.\n\n";
  md << "## Environment\n\n| | |\n|---|---|\n";
  md << "| CPU | " << MarkdownCell(e.cpu_model) << " |\n";
  md << "| cores | " << e.cores << " |\n";
  md << "| memory | " << Fixed(e.memory_bytes / 1073741824.0, 1) << " GiB |\n";
  md << "| kernel | " << MarkdownCell(e.kernel) << " |\n";
  md << "| host | " << MarkdownCell(e.hostname) << " |\n";
  md << "| gnomon | " << MarkdownCell(e.gnomon_version) << " |\n\n";
  if (!input.settings.empty() || input.load) {
    md << "## Settings\n\n| | |\n|---|---|\n";
    for (const auto& [k, v] : input.settings) md << "| " << MarkdownCell(k) << " | " << MarkdownCell(v) << " |\n";
    if (input.load) {
      md << "| load workers | " << input.load->workers << " |\n";
      md << "| batch size | " << input.load->batch_size << " lines |\n";
      md << "| write endpoint | " << MarkdownCell(input.load->endpoint) << (input.load->gzip ? " (gzip)" : "") << " |\n";
      if (!input.load->file.empty()) md << "| data file | `" << input.load->file << "` |\n";
    }
    md << "\n";
  }
  if (input.load) {
    const LoadFigures& l = *input.load;
    md << "## Ingest\n\n| rows | metrics | time | rows/s | metrics/s |\n|---:|---:|---:|---:|---:|\n";
    md << "| " << Grouped(l.rows) << " | " << Grouped(l.metrics) << " | " << Fixed(l.elapsed_s, 3)
       << " s | " << Grouped(l.row_rate) << " | " << Grouped(l.metric_rate) << " |\n\n";
  }
  if (input.server) RenderServerMarkdown(input, md);
  if (input.storage_bytes > 0) {
    uint64_t metrics = StorageMetrics(input);
    md << "## Storage\n\n| bytes on disk | metrics | bytes per metric |\n|---:|---:|---:|\n";
    md << "| " << Grouped(static_cast<double>(input.storage_bytes)) << " | " << Grouped(metrics)
       << " | " << (metrics > 0 ? Fixed(static_cast<double>(input.storage_bytes) / metrics, 3) : "-")
       << " |\n\n";
  }
  if (!input.queries.empty()) {
    md << "## Queries\n\nLatency in ms, from sending the request to the last byte of the answer "
          "(TSBS's definition; mean is the figure TSBS reports quote).\n\n";
    md << "| query type | count | min | median | mean | p90 | p99 | max | stddev | queries/s |\n";
    md << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const QueryFigures& q : input.queries) {
      const LatencySummary& s = q.latency;
      md << "| " << MarkdownCell(q.name) << " | " << s.count << " | " << Fixed(s.min_ms, 2) << " | "
         << Fixed(s.median_ms, 2) << " | " << Fixed(s.mean_ms, 2) << " | " << Fixed(s.p90_ms, 2)
         << " | " << Fixed(s.p99_ms, 2) << " | " << Fixed(s.max_ms, 2) << " | "
         << Fixed(s.stddev_ms, 2) << " | " << Fixed(q.queries_per_second, 2) << " |\n";
    }
    md << "\n![mean latency per query type](" << chart_file << ")\n";
  }
  return md.str();
}

std::string RenderReportJson(const ReportInput& input) {
  JsonWriter j;
  j.BeginObject();
  j.Key("environment").BeginObject();
  j.Key("cpuModel").String(input.env.cpu_model);
  j.Key("cores").Int(input.env.cores);
  j.Key("memoryBytes").Uint(input.env.memory_bytes);
  j.Key("kernel").String(input.env.kernel);
  j.Key("hostname").String(input.env.hostname);
  j.Key("gnomonVersion").String(input.env.gnomon_version);
  j.Key("generatedAt").String(input.env.generated_at);
  j.EndObject();
  j.Key("settings").BeginObject();
  for (const auto& [k, v] : input.settings) j.Key(k).String(v);
  j.EndObject();
  if (input.load) {
    const LoadFigures& l = *input.load;
    j.Key("ingest").BeginObject();
    j.Key("rows").Uint(l.rows).Key("metrics").Uint(l.metrics).Key("seconds").Double(l.elapsed_s);
    j.Key("rowsPerSecond").Double(l.row_rate).Key("metricsPerSecond").Double(l.metric_rate);
    j.Key("workers").Int(l.workers).Key("batchSize").Uint(l.batch_size);
    j.Key("endpoint").String(l.endpoint).Key("gzip").Bool(l.gzip).Key("file").String(l.file);
    j.EndObject();
  }
  if (input.server) RenderServerJson(*input.server, j);
  if (input.storage_bytes > 0) {
    uint64_t metrics = StorageMetrics(input);
    j.Key("storage").BeginObject();
    j.Key("bytes").Uint(input.storage_bytes).Key("metrics").Uint(metrics);
    j.Key("bytesPerMetric");
    if (metrics > 0) j.Double(static_cast<double>(input.storage_bytes) / metrics);
    else j.Null();
    j.EndObject();
  }
  j.Key("queries").BeginArray();
  for (const QueryFigures& q : input.queries) {
    const LatencySummary& s = q.latency;
    j.BeginObject();
    j.Key("name").String(q.name).Key("label").String(q.label).Key("count").Uint(s.count);
    j.Key("minMs").Double(s.min_ms).Key("medianMs").Double(s.median_ms);
    j.Key("meanMs").Double(s.mean_ms).Key("p90Ms").Double(s.p90_ms).Key("p99Ms").Double(s.p99_ms);
    j.Key("maxMs").Double(s.max_ms).Key("stddevMs").Double(s.stddev_ms);
    j.Key("queriesPerSecond").Double(q.queries_per_second);
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
  return j.str() + "\n";
}

std::string RenderLatencyChartSvg(const std::vector<QueryFigures>& queries) {
  constexpr int kLabelWidth = 260, kBarArea = 460, kRight = 100, kRow = 26, kTop = 44, kBottom = 36;
  const int width = kLabelWidth + kBarArea + kRight;
  const int height = kTop + kRow * static_cast<int>(std::max<size_t>(queries.size(), 1)) + kBottom;
  double max_mean = 0;
  for (const QueryFigures& q : queries) max_mean = std::max(max_mean, q.latency.mean_ms);
  if (max_mean <= 0) max_mean = 1;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height
      << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << width / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" "
         "font-weight=\"bold\">Mean query latency (ms)</text>\n";
  // Grid: five vertical lines at round fractions of the longest bar.
  for (int g = 0; g <= 4; ++g) {
    double x = kLabelWidth + kBarArea * g / 4.0;
    svg << "<line x1=\"" << Fixed(x, 1) << "\" y1=\"" << kTop - 6 << "\" x2=\"" << Fixed(x, 1)
        << "\" y2=\"" << height - kBottom + 4 << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << Fixed(x, 1) << "\" y=\"" << height - kBottom + 18
        << "\" text-anchor=\"middle\" fill=\"#555\">" << Fixed(max_mean * g / 4.0, max_mean < 10 ? 2 : 1)
        << "</text>\n";
  }
  for (size_t i = 0; i < queries.size(); ++i) {
    const QueryFigures& q = queries[i];
    double y = kTop + kRow * static_cast<double>(i);
    double w = kBarArea * q.latency.mean_ms / max_mean;
    svg << "<text x=\"" << kLabelWidth - 8 << "\" y=\"" << Fixed(y + kRow * 0.65, 1)
        << "\" text-anchor=\"end\">" << XmlEscape(q.name) << "</text>\n";
    svg << "<rect x=\"" << kLabelWidth << "\" y=\"" << Fixed(y + 4, 1) << "\" width=\""
        << Fixed(std::max(w, 0.5), 1) << "\" height=\"" << kRow - 8
        << "\" fill=\"#4878a8\"><title>" << XmlEscape(q.label) << ": mean "
        << Fixed(q.latency.mean_ms, 3) << " ms, p99 " << Fixed(q.latency.p99_ms, 3)
        << " ms</title></rect>\n";
    svg << "<text x=\"" << Fixed(kLabelWidth + w + 6, 1) << "\" y=\"" << Fixed(y + kRow * 0.65, 1)
        << "\">" << Fixed(q.latency.mean_ms, 2) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

Status WriteReport(const ReportInput& input, const std::string& out_dir) {
  port::Env* env = port::Env::Default();
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(out_dir));
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(env, port::JoinPath(out_dir, "summary.md"),
                                               RenderReportMarkdown(input, "latency.svg")));
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(env, port::JoinPath(out_dir, "summary.json"),
                                               RenderReportJson(input)));
  return port::WriteFileAtomic(env, port::JoinPath(out_dir, "latency.svg"),
                               RenderLatencyChartSvg(input.queries));
}

}  // namespace gnomon::bench
