// Line-protocol ingest throughput on real TSBS data: (a) the tokenizer alone, (b) the whole
// ParseLineProtocol into a WriteBatch. The data set is generated once (first ~100 MB) and cut
// into chunks of 5000 lines, the size of a TSBS loader batch; every chunk gets a fresh WriteBatch.
//
//   build-lp/bench/line_protocol_bench --benchmark_filter=Cpu
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"
#include "src/server/ingest/line_protocol.h"
#include "src/server/ingest/line_protocol_parser.h"
#include "src/storage/write_batch.h"

namespace gnomon::server {
namespace {

constexpr size_t kLinesPerChunk = 5000;

struct Dataset {
  std::string text;
  std::vector<std::string_view> chunks;
  size_t lines = 0;
  std::string error;
};

// Generates up to `max_bytes` of a TSBS reference data set (whole lines only; byte-identical to
// TSBS's) and cuts it into chunks.
const Dataset& Load(const std::string& name, size_t max_bytes) {
  static std::map<std::string, Dataset> cache;
  auto [it, fresh] = cache.try_emplace(name);
  Dataset& d = it->second;
  if (!fresh) return d;
  auto source = bench::NewGeneratedByteSource(bench::TsbsReferenceConfig(*bench::FindTsbsReference(name)));
  d.text.resize(max_bytes);
  size_t n = 0;
  while (n < max_bytes) {
    auto got = source->Read(d.text.data() + n, max_bytes - n);
    if (!got.ok() || *got == 0) break;
    n += *got;
  }
  (void)source->Close();  // stops the generator
  d.text.resize(n);
  size_t last_nl = d.text.rfind('\n');
  d.text.resize(last_nl == std::string::npos ? 0 : last_nl + 1);
  if (d.text.empty()) {
    d.error = "no data generated for " + name;
    return d;
  }
  size_t start = 0;
  size_t lines_in_chunk = 0;
  for (size_t i = 0; i < d.text.size(); ++i) {
    if (d.text[i] != '\n') continue;
    ++d.lines;
    if (++lines_in_chunk == kLinesPerChunk || i + 1 == d.text.size()) {
      d.chunks.emplace_back(d.text.data() + start, i + 1 - start);
      start = i + 1;
      lines_in_chunk = 0;
    }
  }
  return d;
}

void Tokenize(benchmark::State& state, const std::string& file, size_t max_bytes) {
  const Dataset& d = Load(file, max_bytes);
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  LineParser parser;
  ParsedLine parsed;
  LineSyntaxError error;
  std::string_view measurement;
  std::vector<ParsedTag> tags;
  size_t bad = 0;
  for (auto _ : state) {
    for (std::string_view chunk : d.chunks) {
      size_t pos = 0;
      while (pos < chunk.size()) {
        size_t nl = chunk.find('\n', pos);
        std::string_view line = chunk.substr(pos, nl - pos);
        pos = nl + 1;
        if (!parser.Parse(line, &parsed, &error) ||
            !parser.ParseSeriesKey(parsed.series_key, parsed.series_key_offset, &measurement,
                                   &tags, &error)) {
          ++bad;
        }
        benchmark::DoNotOptimize(parsed.fields.data());
        benchmark::DoNotOptimize(tags.data());
      }
    }
  }
  if (bad != 0) state.SkipWithError("tokenizer rejected lines of a valid file");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.text.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.lines));
}

void Parse(benchmark::State& state, const std::string& file, size_t max_bytes) {
  const Dataset& d = Load(file, max_bytes);
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  ParseOptions options;
  size_t accepted = 0;
  for (auto _ : state) {
    for (std::string_view chunk : d.chunks) {
      storage::WriteBatch batch("bench");
      ParseResult r = ParseLineProtocol(chunk, options, &batch);
      accepted += r.lines_accepted;
      benchmark::DoNotOptimize(batch.tables().data());
    }
  }
  if (accepted != state.iterations() * d.lines) {
    state.SkipWithError("ParseLineProtocol rejected lines of a valid file");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.text.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.lines));
}

constexpr size_t k100MB = size_t{100} << 20;
constexpr size_t k50MB = size_t{50} << 20;

void BM_TokenizeCpuOnly(benchmark::State& s) { Tokenize(s, "cpu-only-s100-1d", k100MB); }
void BM_ParseCpuOnly(benchmark::State& s) { Parse(s, "cpu-only-s100-1d", k100MB); }
void BM_TokenizeIot(benchmark::State& s) { Tokenize(s, "iot-s100-1d", k50MB); }
void BM_ParseIot(benchmark::State& s) { Parse(s, "iot-s100-1d", k50MB); }

BENCHMARK(BM_TokenizeCpuOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseCpuOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TokenizeIot)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseIot)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gnomon::server
