// `gnomon bench report`: one Markdown + JSON summary and an SVG latency chart from the JSON files
// of `bench load --json` and `bench run-queries --json`.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "src/base/json_value.h"
#include "src/bench/report.h"
#include "src/port/env.h"
#include "tools/gnomon/bench_driver_commands.h"
#include "tools/gnomon/commands.h"

#ifndef GNOMON_VERSION
#define GNOMON_VERSION "dev"
#endif

namespace gnomon::tools {
namespace {

struct ReportFlags {
  std::string load;
  std::vector<std::string> queries;
  uint64_t storage_bytes = 0;
  uint64_t metrics = 0;
  std::vector<std::string> settings;
  std::string out;
};

Result<JsonValue> ReadJson(const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(std::string text, port::ReadFileToString(port::Env::Default(), path));
  auto doc = JsonValue::Parse(text);
  if (!doc.ok()) return doc.status().WithContext(path);
  return doc;
}

// "dir/single-groupby-1-1-1.json" -> "single-groupby-1-1-1"
std::string Stem(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 5 && name.substr(name.size() - 5) == ".json") name.resize(name.size() - 5);
  return name;
}

Status RunReportCommand(const ReportFlags& f) {
  bench::ReportInput input;
  input.env = bench::CollectEnvironment(GNOMON_VERSION);
  if (!f.load.empty()) {
    GNOMON_ASSIGN_OR_RETURN(JsonValue doc, ReadJson(f.load));
    auto figures = bench::LoadFiguresFromJson(doc);
    if (!figures.ok()) return figures.status().WithContext(f.load);
    input.load = *figures;
  }
  for (const std::string& path : f.queries) {
    GNOMON_ASSIGN_OR_RETURN(JsonValue doc, ReadJson(path));
    auto figures = bench::QueryFiguresFromJson(doc, Stem(path));
    if (!figures.ok()) return figures.status().WithContext(path);
    input.queries.insert(input.queries.end(), figures->begin(), figures->end());
  }
  for (const std::string& kv : f.settings) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) return Status::InvalidArgument("--setting wants KEY=VALUE, got '" + kv + "'");
    input.settings.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  input.storage_bytes = f.storage_bytes;
  input.storage_metrics = f.metrics;
  GNOMON_RETURN_IF_ERROR(bench::WriteReport(input, f.out));
  std::fprintf(stderr, "report written to %s/summary.md, summary.json, latency.svg\n", f.out.c_str());
  return Status::OK();
}

}  // namespace

void RegisterBenchReportCommand(CLI::App* bench) {
  auto flags = std::make_shared<ReportFlags>();
  auto* cmd = bench->add_subcommand("report", "Summarise load and query results (Markdown, JSON, SVG)");
  cmd->add_option("--load", flags->load, "JSON from `bench load --json`");
  cmd->add_option("--queries", flags->queries, "JSON files from `bench run-queries --json`");
  cmd->add_option("--storage-bytes", flags->storage_bytes, "Bytes the data directory holds");
  cmd->add_option("--metrics", flags->metrics, "Metrics stored (default: the load's metric count)");
  cmd->add_option("--setting", flags->settings, "Extra KEY=VALUE lines for the settings table");
  cmd->add_option("--out", flags->out, "Output directory")->required();
  cmd->callback([flags] {
    Status s = RunReportCommand(*flags);
    if (!s.ok()) {
      std::fprintf(stderr, "gnomon bench report: %s\n", s.ToString().c_str());
      SetExitCode(1);
    }
  });
}

}  // namespace gnomon::tools
