#include "src/bench/iot_query_generator.h"

#include <cstdio>

#include "src/base/time_util.h"
#include "src/bench/go_rand.h"
#include "src/bench/iot_query_text.h"
#include "src/bench/iot_truck.h"
#include "src/bench/query_random.h"

namespace gnomon::bench {
namespace {


struct TypeInfo {
  const char* type;
  const char* label;        // TSBS's influx builder's human label
  const char* description;  // its human description after "label: " ("" = the label alone)
  int64_t window;           // the random window's length (0: none)
  bool fleet;               // draws a fleet (after the window)
  int trucks;               // draws this many trucks
};

constexpr int64_t kMin = kNanosPerMinute;
constexpr TypeInfo kTypes[] = {
    {"last-loc", "Influx last location per truck", "", 0, true, 0},
    {"single-last-loc", "Influx last location by specific truck", "random    1 trucks", 0, false, 1},
    {"low-fuel", "Influx trucks with low fuel", "under 10 percent", 0, true, 0},
    {"high-load", "Influx trucks with high load", "over 90 percent", 0, true, 0},
    {"stationary-trucks", "Influx stationary trucks", "with low avg velocity in last 10 minutes", 10 * kMin, true, 0},
    {"long-driving-sessions", "Influx trucks with longer driving sessions",
     "stopped less than 20 mins in 4 hour period", 4 * 60 * kMin, true, 0},
    {"long-daily-sessions", "Influx trucks with longer daily sessions",
     "drove more than 10 hours in the last 24 hours", 24 * 60 * kMin, true, 0},
    {"avg-vs-projected-fuel-consumption", "Influx average vs projected fuel consumption per fleet", "", 0, false, 0},
    {"avg-daily-driving-duration", "Influx average driver driving duration per day", "", 0, false, 0},
    {"avg-daily-driving-session", "Influx average driver driving session without stopping per day", "", 0, false, 0},
    {"avg-load", "Influx average load per truck model per fleet", "", 0, false, 0},
    {"daily-activity", "Influx daily truck activity per fleet per model", "", 0, false, 0},
    {"breakdown-frequency", "Influx truck breakdown frequency per model", "", 0, false, 0},
};

const TypeInfo* Find(const std::string& type) {
  for (const TypeInfo& t : kTypes) {
    if (type == t.type) return &t;
  }
  return nullptr;
}

// The draws in the builders' order: trucks, or the window (a statement before the Sprintf) then
// the fleet (one of its arguments).
Result<IotQueryChoices> Draw(const TypeInfo& info, const QueryGenConfig& config, GoRand* rng) {
  IotQueryChoices c;
  c.range_start = config.start_ns;
  c.range_end = config.end_ns;
  if (info.trucks > 0) {
    GNOMON_ASSIGN_OR_RETURN(std::vector<int64_t> ids, RandSubset(rng, info.trucks, config.scale, "trucks"));
    for (int64_t id : ids) c.trucks.push_back("truck_" + std::to_string(id));
  }
  if (info.window > 0) {
    GNOMON_ASSIGN_OR_RETURN(Window w, RandWindow(rng, config.start_ns, config.end_ns, info.window));
    c.window_start = w.start;
    c.window_end = w.end;
  }
  if (info.fleet) c.fleet = std::string(kIotFleets[rng->Intn(4)]);
  return c;
}

}  // namespace

const std::vector<std::string>& IotQueryTypes() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const TypeInfo& t : kTypes) v.push_back(t.type);
    return v;
  }();
  return kNames;
}

Result<std::vector<GeneratedQuery>> GenerateIotQueries(const QueryGenConfig& config, IotQueryFormat format) {
  const TypeInfo* info = Find(config.query_type);
  if (info == nullptr) return Status::InvalidArgument("unknown iot query type '" + config.query_type + "'");
  if (config.scale == 0) return Status::InvalidArgument("scale must be > 0");
  if (config.time_column.empty()) return Status::InvalidArgument("empty time column name");
  int64_t seed = config.seed;
  if (seed == 0) seed = NowNanos() % kNanosPerSecond;
  GoRand rng(seed);  // TSBS seeds after building the query builder, which draws nothing
  std::vector<GeneratedQuery> out;
  out.reserve(config.queries);
  for (uint64_t i = 0; i < config.queries; ++i) {
    GNOMON_ASSIGN_OR_RETURN(IotQueryChoices c, Draw(*info, config, &rng));
    GeneratedQuery q;
    q.label = info->label;
    q.description = info->description[0] == '\0' ? q.label : q.label + ": " + info->description;
    q.sql = format == IotQueryFormat::kInflux ? IotInfluxQl(info->type, c) : IotSql(info->type, c, config.time_column);
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace gnomon::bench
