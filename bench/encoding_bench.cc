// Codec micro-benchmarks (src/encoding): encode/decode throughput per data shape, and the storage
// figure that matters for the module, bytes per metric value on the real TSBS cpu-only data set.
//
//   build-encoding/bench/encoding_bench --benchmark_filter=Tsbs     # compression on TSBS cpu-only
//   build-encoding/bench/encoding_bench --benchmark_filter=Decode   # decode speed per shape
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"
#include "src/encoding/block_codec.h"
#include "src/encoding/encoding_test_util.h"

namespace gnomon::encoding {
namespace {

using testing::FloatShape;
using testing::IntShape;

// ---- TSBS cpu-only: per host, one timestamp column and ten integer field columns ----

struct TsbsColumns {
  std::vector<std::vector<int64_t>> timestamps;            // [host][row]
  std::vector<std::vector<std::vector<int64_t>>> fields;   // [host][field][row]
  size_t metric_values = 0;
  std::string error;
};

// The whole stream of `source`.
std::string ReadAll(std::unique_ptr<bench::ByteSource> source) {
  std::string out;
  char buf[1 << 16];
  for (;;) {
    auto n = source->Read(buf, sizeof(buf));
    if (!n.ok() || *n == 0) break;
    out.append(buf, *n);
  }
  (void)source->Close();
  return out;
}

// Parses "cpu,hostname=host_0,... f1=58i,f2=2i,... 1686441600000000000" lines; just enough for TSBS.
const TsbsColumns& LoadTsbs() {
  static const TsbsColumns* data = [] {
    auto* d = new TsbsColumns;
    // TSBS's cpu-only scale-100 day, generated (byte-identical to tsbs_generate_data's).
    const std::string text = ReadAll(bench::NewGeneratedByteSource(
        bench::TsbsReferenceConfig(*bench::FindTsbsReference("cpu-only-s100-1d"))));
    std::map<std::string, size_t> hosts;
    for (size_t pos = 0, nl; (nl = text.find('\n', pos)) != std::string::npos; pos = nl + 1) {
      std::string_view s(text.data() + pos, nl - pos + 1);
      const size_t sp1 = s.find(' ');
      const size_t sp2 = s.rfind(' ');
      const size_t h = s.find("hostname=");
      if (sp1 == std::string_view::npos || sp2 <= sp1 || h == std::string_view::npos) continue;
      const size_t h_end = s.find(',', h);
      const std::string host(s.substr(h + 9, h_end - h - 9));
      auto [it, inserted] = hosts.try_emplace(host, hosts.size());
      if (inserted) {
        d->timestamps.emplace_back();
        d->fields.emplace_back();
      }
      const size_t idx = it->second;
      d->timestamps[idx].push_back(std::stoll(std::string(s.substr(sp2 + 1))));
      std::string_view fields = s.substr(sp1 + 1, sp2 - sp1 - 1);
      size_t f = 0;
      while (!fields.empty()) {
        const size_t comma = fields.find(',');
        std::string_view kv = fields.substr(0, comma);
        const size_t eq = kv.find('=');
        std::string_view num = kv.substr(eq + 1);
        if (!num.empty() && num.back() == 'i') num.remove_suffix(1);
        if (d->fields[idx].size() <= f) d->fields[idx].emplace_back();
        d->fields[idx][f].push_back(std::stoll(std::string(num)));
        ++d->metric_values;
        ++f;
        if (comma == std::string_view::npos) break;
        fields.remove_prefix(comma + 1);
      }
    }
    if (d->metric_values == 0) d->error = "the generator produced no cpu-only data";
    return d;
  }();
  return *data;
}

// Encodes every column in blocks of `block_rows` rows; reports bytes per metric value (timestamps
// included, as their cost is shared by the ten fields of a row).
void BM_TsbsCpuOnlyCompression(benchmark::State& state) {
  const TsbsColumns& d = LoadTsbs();
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  const size_t block_rows = static_cast<size_t>(state.range(0));
  // Arg 1: 1 = fields cut at hour starts (360 rows); 2 = at hours and half hours (180 rows), as
  // segments write them.
  const ChunkLayout layout = state.range(1) == 0   ? ChunkLayout{}
                             : state.range(1) == 1 ? ChunkLayout{360, 360}
                                                   : ChunkLayout{360, 180};
  size_t field_bytes = 0, ts_bytes = 0;
  std::map<std::string, size_t> codec_blocks;
  for (auto _ : state) {
    field_bytes = ts_bytes = 0;
    codec_blocks.clear();
    std::string block;
    for (size_t h = 0; h < d.timestamps.size(); ++h) {
      auto encode = [&](std::span<const int64_t> col, bool timestamps, size_t* total) {
        for (size_t at = 0; at < col.size(); at += block_rows) {
          block.clear();
          auto part = col.subspan(at, std::min(block_rows, col.size() - at));
          timestamps ? EncodeTimestamps(part, &block) : EncodeInt64s(part, layout, &block);
          *total += block.size();
          ++codec_blocks[std::string(CodecName(static_cast<uint8_t>(block[0])))];
        }
      };
      encode(d.timestamps[h], true, &ts_bytes);
      for (const auto& col : d.fields[h]) encode(col, false, &field_bytes);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.metric_values));
  state.counters["bytes_per_metric"] = static_cast<double>(field_bytes + ts_bytes) / d.metric_values;
  state.counters["field_bytes_per_value"] = static_cast<double>(field_bytes) / d.metric_values;
  state.counters["timestamp_bytes_total"] = static_cast<double>(ts_bytes);
  state.counters["total_bytes"] = static_cast<double>(field_bytes + ts_bytes);
  std::string label;
  for (const auto& [name, count] : codec_blocks) label += name + ":" + std::to_string(count) + " ";
  state.SetLabel(label);
}
BENCHMARK(BM_TsbsCpuOnlyCompression)
    ->Args({8640, 0})
    ->Args({8640, 1})
    ->Args({8640, 2})
    ->Args({4096, 0})
    ->Args({1024, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// One block per host and field column (a day each), encoded with `layout`; or, with piece > 0,
// each column cut into blocks of `piece` rows (the last one shorter).
std::vector<std::string> FieldBlocks(const TsbsColumns& d, const ChunkLayout& layout, size_t piece = 0) {
  std::vector<std::string> blocks;
  for (size_t h = 0; h < d.fields.size(); ++h) {
    for (const auto& col : d.fields[h]) {
      const size_t step = piece > 0 ? piece : col.size();
      for (size_t b = 0; b < col.size(); b += step) {
        blocks.emplace_back();
        EncodeInt64s(std::span<const int64_t>(col).subspan(b, std::min(step, col.size() - b)), layout,
                     &blocks.back());
      }
    }
  }
  return blocks;
}

void BM_TsbsCpuOnlyDecode(benchmark::State& state) {
  const TsbsColumns& d = LoadTsbs();
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  // Arg 0: delta_varint+huffman blocks of a day; 1: chunked_delta cut every 360 rows (one hour);
  // 2: blocks of 300 rows, as a flush of a load's last minutes writes them (too short for chunks).
  const ChunkLayout layout = state.range(0) == 1 ? ChunkLayout{360, 360} : ChunkLayout{};
  const std::vector<std::string> blocks = FieldBlocks(d, layout, state.range(0) == 2 ? 300 : 0);
  std::vector<int64_t> out;
  for (auto _ : state) {
    for (const std::string& b : blocks) {
      benchmark::DoNotOptimize(DecodeInt64s(b, &out));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.metric_values));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.metric_values * 8));
}
BENCHMARK(BM_TsbsCpuOnlyDecode)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// A partial hour, as a query whose range starts mid-hour needs it: rows [h*360 + 180, (h+1)*360) of
// each column. Items are the values produced (180 per block).
void BM_TsbsCpuOnlyDecodePartialHour(benchmark::State& state) {
  const TsbsColumns& d = LoadTsbs();
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  const ChunkLayout layout = state.range(0) != 0 ? ChunkLayout{360, 360} : ChunkLayout{};
  const std::vector<std::string> blocks = FieldBlocks(d, layout);
  std::vector<int64_t> out;
  uint32_t hour = 0;
  for (auto _ : state) {
    for (const std::string& b : blocks) {
      hour = (hour + 7) % 23;
      benchmark::DoNotOptimize(DecodeInt64Range(b, hour * 360 + 180, hour * 360 + 360, &out));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * blocks.size() * 180));
}
BENCHMARK(BM_TsbsCpuOnlyDecodePartialHour)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// ---- synthetic shapes: throughput per codec path ----

constexpr size_t kBlockValues = 8192;

const char* IntShapeName(IntShape s) {
  switch (s) {
    case IntShape::kStep: return "step_timestamps";
    case IntShape::kJitteredTimestamps: return "jittered_timestamps";
    case IntShape::kBoundedWalk: return "bounded_walk";
    case IntShape::kSmallRandom: return "small_random";
    case IntShape::kRandom: return "random";
    case IntShape::kRuns: return "runs";
    case IntShape::kCountersWithResets: return "counters";
    default: return "other";
  }
}

// Items are values; bytes are the uncompressed input size; bits_per_value is the encoded density.
void Report(benchmark::State& state, const std::string& block, size_t values, size_t raw_bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw_bytes));
  state.counters["bits_per_value"] = block.size() * 8.0 / values;
}

void BM_EncodeInt(benchmark::State& state) {
  const auto shape = static_cast<IntShape>(state.range(0));
  const std::vector<int64_t> v = testing::MakeInts(shape, kBlockValues);
  std::string block;
  for (auto _ : state) {
    block.clear();
    EncodeInt64s(v, &block);
    benchmark::DoNotOptimize(block.data());
  }
  Report(state, block, v.size(), v.size() * 8);
  state.SetLabel(std::string(IntShapeName(shape)) + " " + std::string(CodecName(static_cast<uint8_t>(block[0]))));
}

void BM_DecodeInt(benchmark::State& state) {
  const auto shape = static_cast<IntShape>(state.range(0));
  const std::vector<int64_t> v = testing::MakeInts(shape, kBlockValues);
  std::string block;
  EncodeInt64s(v, &block);
  std::vector<int64_t> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodeInt64s(block, &out));
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, block, v.size(), v.size() * 8);
  state.SetLabel(std::string(IntShapeName(shape)) + " " + std::string(CodecName(static_cast<uint8_t>(block[0]))));
}

void IntShapes(benchmark::internal::Benchmark* b) {
  for (IntShape s : {IntShape::kStep, IntShape::kJitteredTimestamps, IntShape::kBoundedWalk, IntShape::kSmallRandom,
                     IntShape::kRandom, IntShape::kRuns, IntShape::kCountersWithResets}) {
    b->Arg(static_cast<int>(s));
  }
}
BENCHMARK(BM_EncodeInt)->Apply(IntShapes);
BENCHMARK(BM_DecodeInt)->Apply(IntShapes);

const char* FloatShapeName(FloatShape s) {
  switch (s) {
    case FloatShape::kDecimalWalk: return "decimal_walk";
    case FloatShape::kIntegral: return "integral";
    case FloatShape::kRandom: return "random";
    case FloatShape::kMostlyDecimal: return "mostly_decimal";
    case FloatShape::kTinyAndHuge: return "tiny_and_huge";
    default: return "other";
  }
}

void BM_EncodeFloat(benchmark::State& state) {
  const auto shape = static_cast<FloatShape>(state.range(0));
  const std::vector<double> v = testing::MakeFloats(shape, kBlockValues);
  std::string block;
  for (auto _ : state) {
    block.clear();
    EncodeFloat64s(v, &block);
    benchmark::DoNotOptimize(block.data());
  }
  Report(state, block, v.size(), v.size() * 8);
  state.SetLabel(std::string(FloatShapeName(shape)) + " " + std::string(CodecName(static_cast<uint8_t>(block[0]))));
}

void BM_DecodeFloat(benchmark::State& state) {
  const auto shape = static_cast<FloatShape>(state.range(0));
  const std::vector<double> v = testing::MakeFloats(shape, kBlockValues);
  std::string block;
  EncodeFloat64s(v, &block);
  std::vector<double> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodeFloat64s(block, &out));
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, block, v.size(), v.size() * 8);
  state.SetLabel(std::string(FloatShapeName(shape)) + " " + std::string(CodecName(static_cast<uint8_t>(block[0]))));
}

void FloatShapes(benchmark::internal::Benchmark* b) {
  for (FloatShape s : {FloatShape::kDecimalWalk, FloatShape::kIntegral, FloatShape::kRandom,
                       FloatShape::kMostlyDecimal, FloatShape::kTinyAndHuge}) {
    b->Arg(static_cast<int>(s));
  }
}
BENCHMARK(BM_EncodeFloat)->Apply(FloatShapes);
BENCHMARK(BM_DecodeFloat)->Apply(FloatShapes);

// Bools: 0 = random bits (bit-packed), 1 = long runs (RLE).
std::vector<uint8_t> BenchBools(int shape) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> v(kBlockValues);
  uint8_t run = 0;
  for (auto& b : v) {
    if (shape == 0) {
      b = rng() & 1;
    } else {
      if (rng() % 300 == 0) run ^= 1;
      b = run;
    }
  }
  return v;
}

void BM_DecodeBools(benchmark::State& state) {
  const std::vector<uint8_t> v = BenchBools(static_cast<int>(state.range(0)));
  std::string block;
  EncodeBools(v, &block);
  std::vector<uint8_t> out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodeBools(block, &out));
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, block, v.size(), v.size());
  state.SetLabel(std::string(CodecName(static_cast<uint8_t>(block[0]))));
}
BENCHMARK(BM_DecodeBools)->Arg(0)->Arg(1);

// Strings: 0 = 20 distinct host names (dictionary), 1 = unique log-like lines (plain).
std::vector<std::string> BenchStrings(int shape) {
  std::vector<std::string> v(kBlockValues);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = shape == 0 ? "host_" + std::to_string(i % 20)
                      : "GET /api/v1/items/" + std::to_string(i * 7919 % 100000) + " 200 " + std::to_string(i % 97) + "ms";
  }
  return v;
}

void BM_EncodeStrings(benchmark::State& state) {
  const std::vector<std::string> owned = BenchStrings(static_cast<int>(state.range(0)));
  const std::vector<std::string_view> v(owned.begin(), owned.end());
  size_t raw = 0;
  for (const auto& s : owned) raw += s.size();
  std::string block;
  for (auto _ : state) {
    block.clear();
    EncodeStrings(v, &block);
    benchmark::DoNotOptimize(block.data());
  }
  Report(state, block, v.size(), raw);
  state.SetLabel(std::string(CodecName(static_cast<uint8_t>(block[0]))));
}

void BM_DecodeStrings(benchmark::State& state) {
  const std::vector<std::string> owned = BenchStrings(static_cast<int>(state.range(0)));
  const std::vector<std::string_view> v(owned.begin(), owned.end());
  size_t raw = 0;
  for (const auto& s : owned) raw += s.size();
  std::string block;
  EncodeStrings(v, &block);
  std::vector<std::string_view> out;
  std::string arena;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodeStrings(block, &out, &arena));
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, block, v.size(), raw);
  state.SetLabel(std::string(CodecName(static_cast<uint8_t>(block[0]))));
}
BENCHMARK(BM_EncodeStrings)->Arg(0)->Arg(1);
BENCHMARK(BM_DecodeStrings)->Arg(0)->Arg(1);

}  // namespace
}  // namespace gnomon::encoding
