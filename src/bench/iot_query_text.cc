#include "src/bench/iot_query_text.h"

#include <initializer_list>

#include "src/base/time_util.h"
#include "src/bench/query_random.h"

namespace gnomon::bench {
namespace {

// TSBS builds its InfluxQL with fmt.Sprintf: each %s / %d in `format` takes the next argument.
std::string Fill(const char* format, std::initializer_list<std::string> args) {
  std::string out;
  auto arg = args.begin();
  for (const char* p = format; *p != '\0'; ++p) {
    if (p[0] == '%' && (p[1] == 's' || p[1] == 'd') && arg != args.end()) {
      out += *arg++;
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

// The TSBS influx builder's strings (Go raw literals: newline, two tabs, a space per level).
constexpr const char* kLastLocByTruck =
    "SELECT \"name\", \"driver\", \"latitude\", \"longitude\" \n\t\tFROM \"readings\" \n\t\tWHERE %s \n\t\t"
    "ORDER BY \"time\" \n\t\tLIMIT 1";
constexpr const char* kLastLocPerTruck =
    "SELECT \"latitude\", \"longitude\" \n\t\tFROM \"readings\" \n\t\tWHERE \"fleet\"='%s' \n\t\t"
    "GROUP BY \"name\",\"driver\" \n\t\tORDER BY \"time\" \n\t\tLIMIT 1";
constexpr const char* kLowFuel =
    "SELECT \"name\", \"driver\", \"fuel_state\" \n\t\tFROM \"diagnostics\" \n\t\t"
    "WHERE \"fuel_state\" <= 0.1 AND \"fleet\" = '%s' \n\t\tGROUP BY \"name\" \n\t\tORDER BY \"time\" DESC \n\t\tLIMIT 1";
constexpr const char* kHighLoad =
    "SELECT \"name\", \"driver\", \"current_load\", \"load_capacity\" \n\t\t"
    "FROM (SELECT  \"current_load\", \"load_capacity\" \n\t\t FROM \"diagnostics\" WHERE fleet = '%s' \n\t\t "
    "GROUP BY \"name\",\"driver\" \n\t\t ORDER BY \"time\" DESC \n\t\t LIMIT 1) \n\t\t"
    "WHERE \"current_load\" >= 0.9 * \"load_capacity\" \n\t\tGROUP BY \"name\" \n\t\tORDER BY \"time\" DESC";
constexpr const char* kStationary =
    "SELECT \"name\", \"driver\" \n\t\tFROM(SELECT mean(\"velocity\") as mean_velocity \n\t\t FROM \"readings\" "
    "\n\t\t WHERE time > '%s' AND time <= '%s' \n\t\t GROUP BY time(10m),\"name\",\"driver\",\"fleet\"  \n\t\t "
    "LIMIT 1) \n\t\tWHERE \"fleet\" = '%s' AND \"mean_velocity\" < 1 \n\t\tGROUP BY \"name\"";
constexpr const char* kLongSessions =
    "SELECT \"name\",\"driver\" \n\t\tFROM(SELECT count(*) AS ten_min \n\t\t FROM(SELECT mean(\"velocity\") AS "
    "mean_velocity \n\t\t  FROM readings \n\t\t  WHERE \"fleet\" = '%s' AND time > '%s' AND time <= '%s' \n\t\t  "
    "GROUP BY time(10m),\"name\",\"driver\") \n\t\t WHERE \"mean_velocity\" > 1 \n\t\t GROUP BY \"name\",\"driver\") "
    "\n\t\tWHERE ten_min_mean_velocity > %d";
constexpr const char* kAvgVsProjected =
    "SELECT mean(\"fuel_consumption\") AS \"mean_fuel_consumption\", mean(\"nominal_fuel_consumption\") AS "
    "\"nominal_fuel_consumption\" \n\t\tFROM \"readings\" \n\t\tWHERE \"velocity\" > 1 \n\t\tGROUP BY \"fleet\"";
constexpr const char* kAvgDailyDrivingDuration =
    "SELECT count(\"mv\")/6 as \"hours driven\" \n\t\tFROM (SELECT mean(\"velocity\") as \"mv\" \n\t\t FROM "
    "\"readings\" \n\t\t WHERE time > '%s' AND time < '%s' \n\t\t GROUP BY time(10m),\"fleet\", \"name\", \"driver\") "
    "\n\t\tWHERE time > '%s' AND time < '%s' \n\t\tGROUP BY time(1d),\"fleet\", \"name\", \"driver\"";
constexpr const char* kAvgDailyDrivingSession =
    "SELECT \"elapsed\" \n\t\tINTO \"random_measure2_1\" \n\t\tFROM (SELECT difference(\"difka\"), "
    "elapsed(\"difka\", 1m) \n\t\t FROM (SELECT \"difka\" \n\t\t  FROM (SELECT difference(\"mv\") AS difka \n\t\t   "
    "FROM (SELECT floor(mean(\"velocity\")/10)/floor(mean(\"velocity\")/10) AS \"mv\" \n\t\t    FROM \"readings\" "
    "\n\t\t    WHERE \"name\"!='' AND time > '%s' AND time < '%s' \n\t\t    GROUP BY time(10m), \"name\" fill(0)) "
    "\n\t\t   GROUP BY \"name\") \n\t\t  WHERE \"difka\"!=0 \n\t\t  GROUP BY \"name\") \n\t\t GROUP BY \"name\") "
    "\n\t\tWHERE \"difference\" = -2 \n\t\tGROUP BY \"name\"; \n\t\tSELECT mean(\"elapsed\") \n\t\t"
    "FROM \"random_measure2_1\" \n\t\tWHERE time > '%s' AND time < '%s' \n\t\tGROUP BY time(1d),\"name\"";
constexpr const char* kAvgLoad =
    "SELECT mean(\"ml\") AS mean_load_percentage \n\t\tFROM (SELECT \"current_load\"/\"load_capacity\" AS \"ml\" "
    "\n\t\t FROM \"diagnostics\" \n\t\t GROUP BY \"name\", \"fleet\", \"model\") \n\t\tGROUP BY \"fleet\", \"model\"";
constexpr const char* kDailyActivity =
    "SELECT count(\"ms\")/144 \n\t\tFROM (SELECT mean(\"status\") AS ms \n\t\t FROM \"diagnostics\" \n\t\t "
    "WHERE time >= '%s' AND time < '%s' \n\t\t GROUP BY time(10m), \"model\", \"fleet\") \n\t\t"
    "WHERE time >= '%s' AND time < '%s' AND \"ms\"<1 \n\t\tGROUP BY time(1d), \"model\", \"fleet\"";
constexpr const char* kBreakdownFrequency =
    "SELECT count(\"state_changed\") \n\t\tFROM (SELECT difference(\"broken_down\") AS \"state_changed\" \n\t\t "
    "FROM (SELECT floor(2*(sum(\"nzs\")/count(\"nzs\")))/floor(2*(sum(\"nzs\")/count(\"nzs\"))) AS \"broken_down\" "
    "\n\t\t  FROM (SELECT \"model\", \"status\"/\"status\" AS nzs \n\t\t   FROM \"diagnostics\" \n\t\t   "
    "WHERE time >= '%s' AND time < '%s') \n\t\t  WHERE time >= '%s' AND time < '%s' \n\t\t  "
    "GROUP BY time(10m),\"model\") \n\t\t GROUP BY \"model\") \n\t\tWHERE \"state_changed\" = 1 \n\t\t"
    "GROUP BY \"model\"";

// tenMinutePeriods: (minutes in the window - resting minutes per hour * hours) / 10.
int TenMinutePeriods(double rest_minutes_per_hour, double hours) {
  return static_cast<int>((hours * 60 - rest_minutes_per_hour * hours) / 10);
}

std::string Quoted(const std::vector<std::string>& names, const char* sep, const char* before) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? sep : "") + std::string(before) + names[i] + "'";
  return s;
}

}  // namespace

std::string TimescaleTime(int64_t ns) {
  std::string s = FormatRfc3339(FloorDiv(ns, 1000) * 1000);
  s[10] = ' ';
  s.pop_back();  // 'Z'
  return s + " +0000";
}

std::string IotInfluxQl(const std::string& type, const IotQueryChoices& c) {
  const std::string ws = Rfc3339Seconds(c.window_start), we = Rfc3339Seconds(c.window_end);
  const std::string rs = Rfc3339Seconds(c.range_start), re = Rfc3339Seconds(c.range_end);
  if (type == "last-loc") return Fill(kLastLocPerTruck, {c.fleet});
  if (type == "single-last-loc") return Fill(kLastLocByTruck, {"(" + Quoted(c.trucks, " or ", "\"name\" = '") + ")"});
  if (type == "low-fuel") return Fill(kLowFuel, {c.fleet});
  if (type == "high-load") return Fill(kHighLoad, {c.fleet});
  if (type == "stationary-trucks") return Fill(kStationary, {ws, we, c.fleet});
  if (type == "long-driving-sessions") {
    return Fill(kLongSessions, {c.fleet, ws, we, std::to_string(TenMinutePeriods(5, 4))});
  }
  if (type == "long-daily-sessions") {
    return Fill(kLongSessions, {c.fleet, ws, we, std::to_string(TenMinutePeriods(35, 24))});
  }
  if (type == "avg-vs-projected-fuel-consumption") return kAvgVsProjected;
  if (type == "avg-daily-driving-duration") return Fill(kAvgDailyDrivingDuration, {rs, re, rs, re});
  if (type == "avg-daily-driving-session") return Fill(kAvgDailyDrivingSession, {rs, re, rs, re});
  if (type == "avg-load") return kAvgLoad;
  if (type == "daily-activity") return Fill(kDailyActivity, {rs, re, rs, re});
  if (type == "breakdown-frequency") return Fill(kBreakdownFrequency, {rs, re, rs, re});
  return "";
}

// TimescaleDB's statements (databases/timescaledb/iot.go) with the tags in the table: `t.x` of the
// joined tags table is the table's own column x, a join on tags_id groups or partitions by the
// truck's tags instead, and the LATERAL "newest row per truck" is DISTINCT ON ... ORDER BY time DESC.
std::string IotSql(const std::string& type, const IotQueryChoices& c, const std::string& t) {
  const std::string window = t + " >= '" + TimescaleTime(c.window_start) + "' AND " + t + " < '" +
                             TimescaleTime(c.window_end) + "'";
  const std::string bucket10 = "time_bucket('10 minutes', " + t + ")";
  const std::string fleet = "fleet = '" + c.fleet + "'";
  auto newest = [&](const std::string& table, const std::string& cols, const std::string& where) {
    return "SELECT DISTINCT ON (name, driver) name, driver, " + cols + " FROM " + table + " WHERE " + where +
           " ORDER BY name, driver, " + t + " DESC";
  };
  if (type == "last-loc") return newest("readings", "longitude, latitude", "name IS NOT NULL AND " + fleet);
  if (type == "single-last-loc") {
    return newest("readings", "longitude, latitude", "name IN (" + Quoted(c.trucks, ",", "'") + ")");
  }
  if (type == "low-fuel") {
    return "SELECT name, driver, fuel_state FROM (" +
           newest("diagnostics", "fuel_state", "name IS NOT NULL AND " + fleet) + ") d WHERE fuel_state < 0.1";
  }
  if (type == "high-load") {
    return "SELECT name, driver, current_load, load_capacity FROM (" +
           newest("diagnostics", "current_load, load_capacity", "name IS NOT NULL AND " + fleet) +
           ") d WHERE current_load / load_capacity > 0.9";
  }
  if (type == "stationary-trucks") {
    return "SELECT name, driver FROM readings WHERE " + window + " AND name IS NOT NULL AND " + fleet +
           " GROUP BY 1, 2 HAVING avg(velocity) < 1";
  }
  if (type == "long-driving-sessions" || type == "long-daily-sessions") {
    const int periods = type == "long-driving-sessions" ? TenMinutePeriods(5, 4) : TenMinutePeriods(35, 24);
    return "SELECT name, driver FROM (SELECT " + bucket10 + " AS ten_minutes, name, driver FROM readings WHERE " +
           window + " AND name IS NOT NULL AND " + fleet +
           " GROUP BY ten_minutes, name, driver HAVING avg(velocity) > 1) r GROUP BY name, driver HAVING "
           "count(r.ten_minutes) > " + std::to_string(periods);
  }
  if (type == "avg-vs-projected-fuel-consumption") {
    return "SELECT fleet, avg(fuel_consumption) AS avg_fuel_consumption, avg(nominal_fuel_consumption) AS "
           "projected_fuel_consumption FROM readings WHERE velocity > 1 AND fleet IS NOT NULL AND "
           "nominal_fuel_consumption IS NOT NULL AND name IS NOT NULL GROUP BY fleet";
  }
  if (type == "avg-daily-driving-duration") {
    return "WITH ten_minute_driving_sessions AS (SELECT " + bucket10 +
           " AS ten_minutes, fleet, name, driver FROM readings GROUP BY fleet, name, driver, ten_minutes HAVING "
           "avg(velocity) > 1), daily_total_session AS (SELECT time_bucket('24 hours', ten_minutes) AS day, fleet, "
           "name, driver, count(*) / 6 AS hours FROM ten_minute_driving_sessions GROUP BY day, fleet, name, driver) "
           "SELECT fleet, name, driver, avg(hours) AS avg_daily_hours FROM daily_total_session GROUP BY fleet, "
           "name, driver";
  }
  if (type == "avg-daily-driving-session") {
    return "WITH driver_status AS (SELECT name, " + bucket10 +
           " AS ten_minutes, avg(velocity) > 5 AS driving FROM readings WHERE name IS NOT NULL GROUP BY name, "
           "ten_minutes), driver_status_change AS (SELECT name, ten_minutes AS start, lead(ten_minutes) OVER "
           "(PARTITION BY name ORDER BY ten_minutes) AS stop, driving FROM (SELECT name, ten_minutes, driving, "
           "lag(driving) OVER (PARTITION BY name ORDER BY ten_minutes) AS prev_driving FROM driver_status) x "
           "WHERE x.driving <> x.prev_driving) SELECT name, time_bucket('24 hours', start) AS day, "
           "avg(age(stop, start)) AS duration FROM driver_status_change WHERE driving = true GROUP BY name, day "
           "ORDER BY name, day";
  }
  if (type == "avg-load") {
    return "SELECT fleet, model, load_capacity, avg(avg_load / load_capacity) AS avg_load_percentage FROM "
           "(SELECT fleet, model, name, avg(load_capacity) AS load_capacity, avg(current_load) AS avg_load FROM "
           "diagnostics WHERE name IS NOT NULL GROUP BY fleet, model, name) d GROUP BY fleet, model, load_capacity";
  }
  if (type == "daily-activity") {
    return "SELECT fleet, model, day, sum(ten_mins_per_day) / 144 AS daily_activity FROM (SELECT "
           "time_bucket('24 hours', " + t + ") AS day, " + bucket10 +
           " AS ten_minutes, fleet, model, name, count(*) AS ten_mins_per_day FROM diagnostics WHERE name IS NOT "
           "NULL GROUP BY day, ten_minutes, fleet, model, name HAVING avg(status) < 1) y GROUP BY fleet, model, "
           "day ORDER BY day";
  }
  if (type == "breakdown-frequency") {
    return "WITH breakdown_per_truck_per_ten_minutes AS (SELECT " + bucket10 +
           " AS ten_minutes, model, name, count(status = 0) / count(*) >= 0.5 AS broken_down FROM diagnostics "
           "WHERE name IS NOT NULL GROUP BY ten_minutes, model, name), breakdowns_per_truck AS (SELECT "
           "ten_minutes, model, name, broken_down, lead(broken_down) OVER (PARTITION BY name ORDER BY "
           "ten_minutes) AS next_broken_down FROM breakdown_per_truck_per_ten_minutes) SELECT model, count(*) "
           "FROM breakdowns_per_truck WHERE broken_down = false AND next_broken_down = true GROUP BY model";
  }
  return "";
}

}  // namespace gnomon::bench
