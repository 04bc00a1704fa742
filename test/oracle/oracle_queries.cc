#include "test/oracle/oracle_queries.h"

#include <cstdio>
#include <regex>

namespace gnomon::oracle {
namespace {

constexpr int64_t kSec = 1000000000LL;
constexpr int64_t kMin = 60 * kSec;
constexpr int64_t kHour = 60 * kMin;
// time_bucket's origin (TimescaleDB): Monday 2000-01-03T00:00:00Z.
constexpr int64_t kTimescaleOrigin = 946857600LL * kSec;

// Howard Hinnant's days_from_civil / civil_from_days.
int64_t DaysFromCivilDate(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilDateFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += sep;
    s += parts[i];
  }
  return s;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

// Bucket expression for SQLite: floor to a multiple of `width` counted from `origin` (all data
// times are after every origin used, so integer division is a floor).
std::string SqliteBucket(int64_t width, int64_t origin) {
  if (origin == 0) return "(time / " + std::to_string(width) + " * " + std::to_string(width) + ")";
  return "((time - " + std::to_string(origin) + ") / " + std::to_string(width) + " * " + std::to_string(width) +
         " + " + std::to_string(origin) + ")";
}

}  // namespace

int64_t CivilToNanos(int y, int mo, int d, int h, int mi, int s, int64_t frac_ns) {
  int64_t days = DaysFromCivilDate(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return ((days * 24 + h) * 60 + mi) * 60 * kSec + s * kSec + frac_ns;
}

bool ParseRfc3339Seconds(const std::string& text, int64_t* ns) {
  int y, mo, d, h, mi, s;
  char z = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &z) != 7 || z != 'Z' ||
      text.size() != 20) {
    return false;
  }
  *ns = CivilToNanos(y, mo, d, h, mi, s, 0);
  return true;
}

Result<OracleQuery> TranslateTsbsQuery(const std::string& name, const std::string& gnomon_sql,
                                       const OracleData& data) {
  OracleQuery q;
  q.name = name;
  q.gnomon_sql = gnomon_sql;
  std::string s = gnomon_sql;
  q.ordered = s.find(" order by ") != std::string::npos;

  // lastpoint: last_value(col ORDER BY time) of every column, grouped by hostname.
  if (s.find("last_value(") != std::string::npos) {
    std::regex item(R"(last_value\((\w+) order by time\))");
    std::vector<std::string> cols;
    for (std::sregex_iterator it(s.begin(), s.end(), item), end; it != end; ++it) cols.push_back("c." + (*it)[1].str());
    if (cols.empty() || s.find("group by hostname") == std::string::npos) {
      return Status::InvalidArgument("unrecognised lastpoint shape: " + s);
    }
    q.sqlite_sql = "SELECT " + Join(cols, ", ") +
                   " FROM cpu c JOIN (SELECT hostname AS h, max(time) AS t FROM cpu GROUP BY hostname) l"
                   " ON c.hostname = l.h AND c.time = l.t";
    return q;
  }
  s = std::regex_replace(s, std::regex(R"(date_trunc\('minute', time\))"), SqliteBucket(kMin, 0));
  s = std::regex_replace(s, std::regex(R"(date_trunc\('hour', time\))"), SqliteBucket(kHour, 0));
  // Time literals -> integers.
  std::regex lit(R"('(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)')");
  std::string out;
  auto begin = s.cbegin();
  for (std::sregex_iterator it(s.begin(), s.end(), lit), end; it != end; ++it) {
    int64_t ns;
    if (!ParseRfc3339Seconds((*it)[1].str(), &ns)) return Status::InvalidArgument("bad literal in " + s);
    out.append(begin, (*it)[0].first);
    out += std::to_string(ns);
    begin = (*it)[0].second;
  }
  out.append(begin, s.cend());
  s = out;
  if (s.rfind("SELECT * from cpu", 0) == 0) s = "SELECT " + Join(data.columns(), ", ") + s.substr(8);
  if (s.find("date_trunc") != std::string::npos) return Status::InvalidArgument("untranslated bucket in " + s);
  q.sqlite_sql = s;
  return q;
}

// ---- Random queries ---------------------------------------------------------------------------

std::string RandomQueryGenerator::GnomonTime(int64_t ns) {
  int64_t days = ns >= 0 ? ns / (24 * kHour) : -((-ns + 24 * kHour - 1) / (24 * kHour));
  int64_t rem = ns - days * 24 * kHour;
  int64_t y;
  unsigned m, d;
  CivilDateFromDays(days, &y, &m, &d);
  int h = static_cast<int>(rem / kHour), mi = static_cast<int>(rem / kMin % 60), s = static_cast<int>(rem / kSec % 60);
  int64_t frac = rem % kSec;
  char buf[80];
  switch (Uniform(0, 4)) {
    case 0:  // RFC 3339, as TSBS's Influx/Greptime builders (whole seconds)
      if (frac == 0) {
        std::snprintf(buf, sizeof(buf), "'%04lld-%02u-%02uT%02d:%02d:%02dZ'", static_cast<long long>(y), m, d, h, mi, s);
        break;
      }
      [[fallthrough]];
    case 1:  // RFC 3339 with nanoseconds
      std::snprintf(buf, sizeof(buf), "'%04lld-%02u-%02uT%02d:%02d:%02d.%09lldZ'", static_cast<long long>(y), m, d, h,
                    mi, s, static_cast<long long>(frac));
      break;
    case 2:  // TimescaleDB: microseconds and +0000 (only exact when the time is whole µs)
      if (frac % 1000 == 0) {
        std::snprintf(buf, sizeof(buf), "'%04lld-%02u-%02u %02d:%02d:%02d.%06lld +0000'", static_cast<long long>(y), m,
                      d, h, mi, s, static_cast<long long>(frac / 1000));
        break;
      }
      [[fallthrough]];
    case 3: {  // an offset: the same instant written in UTC+02:00
      int64_t local = ns + 2 * kHour;
      int64_t ld = local / (24 * kHour);
      int64_t lr = local - ld * 24 * kHour;
      CivilDateFromDays(ld, &y, &m, &d);
      std::snprintf(buf, sizeof(buf), "'%04lld-%02u-%02uT%02d:%02d:%02d.%09lld+02:00'", static_cast<long long>(y), m,
                    d, static_cast<int>(lr / kHour), static_cast<int>(lr / kMin % 60),
                    static_cast<int>(lr / kSec % 60), static_cast<long long>(lr % kSec));
      break;
    }
    default:  // TIMESTAMP 'YYYY-MM-DD HH:MM:SS.fffffffff' (no zone: UTC)
      std::snprintf(buf, sizeof(buf), "TIMESTAMP '%04lld-%02u-%02u %02d:%02d:%02d.%09lld'", static_cast<long long>(y),
                    m, d, h, mi, s, static_cast<long long>(frac));
      break;
  }
  return buf;
}

void RandomQueryGenerator::TimeWindow(std::vector<std::string>* g, std::vector<std::string>* s, int64_t now_ns) {
  const int64_t start = data_.config().start_ns, end = data_.config().end_ns;
  auto random_time = [&]() -> int64_t {
    int64_t t = start - 10 * kMin + static_cast<int64_t>(std::uniform_real_distribution<double>(0, 1)(rng_) *
                                                         static_cast<double>(end - start + 20 * kMin));
    switch (Uniform(0, 3)) {
      case 0: return t / (10 * kSec) * (10 * kSec);  // exactly on a data point
      case 1: return t / kSec * kSec;
      default: return t;
    }
  };
  int64_t a = random_time(), b = random_time();
  if (a > b) std::swap(a, b);
  if (Chance(0.5)) b = std::min(b, a + Uniform(1, 180) * kMin);  // often a short window
  switch (Uniform(0, 6)) {
    case 0: break;  // no time bound
    case 1:
      g->push_back("time >= " + GnomonTime(a) + " AND time < " + GnomonTime(b));
      s->push_back("time >= " + std::to_string(a) + " AND time < " + std::to_string(b));
      break;
    case 2:
      g->push_back("time > " + GnomonTime(a) + " AND time <= " + GnomonTime(b));
      s->push_back("time > " + std::to_string(a) + " AND time <= " + std::to_string(b));
      break;
    case 3:
      g->push_back("time BETWEEN " + GnomonTime(a) + " AND " + GnomonTime(b));
      s->push_back("time BETWEEN " + std::to_string(a) + " AND " + std::to_string(b));
      break;
    case 4:
      g->push_back("time < " + GnomonTime(b));
      s->push_back("time < " + std::to_string(b));
      break;
    case 5:
      g->push_back(GnomonTime(a) + " <= time");
      s->push_back(std::to_string(a) + " <= time");
      break;
    default: {  // relative to now(): now = end of data
      int minutes = Uniform(1, 400);
      g->push_back("time > now() - INTERVAL '" + std::to_string(minutes) + " minutes'");
      s->push_back("time > " + std::to_string(now_ns - minutes * kMin));
      break;
    }
  }
}

void RandomQueryGenerator::TagFilter(std::vector<std::string>* g, std::vector<std::string>* s) {
  static const std::vector<std::string> kKeys = {"hostname", "hostname", "hostname", "region", "datacenter",
                                                 "rack", "os", "service_environment"};
  const std::string& key = Pick(kKeys);
  const auto& values = data_.TagValues(key);
  std::vector<std::string> chosen;
  int n = Uniform(1, std::min<int>(4, static_cast<int>(values.size())));
  for (int i = 0; i < n; ++i) chosen.push_back(Quote(Pick(values)));
  if (Chance(0.1)) chosen.push_back("'no_such_value'");
  std::string expr;
  switch (Uniform(0, 4)) {
    case 0: expr = key + " = " + chosen[0]; break;
    case 1: expr = key + " IN (" + Join(chosen, ", ") + ")"; break;
    case 2: {
      std::vector<std::string> ors;
      for (const auto& c : chosen) ors.push_back(key + " = " + c);
      expr = "(" + Join(ors, " OR ") + ")";
      break;
    }
    case 3: expr = key + " NOT IN (" + Join(chosen, ", ") + ")"; break;
    default: expr = key + " <> " + chosen[0]; break;
  }
  g->push_back(expr);
  s->push_back(expr);
}

void RandomQueryGenerator::FieldFilter(std::vector<std::string>* g, std::vector<std::string>* s) {
  const std::string& f = Pick(data_.field_names());
  int a = Uniform(0, 100), b = Uniform(0, 100);
  if (a > b) std::swap(a, b);
  std::string expr;
  switch (Uniform(0, 3)) {
    case 0: expr = f + " > " + std::to_string(a) + ".0"; break;  // TSBS high-cpu form
    case 1: expr = f + " BETWEEN " + std::to_string(a) + " AND " + std::to_string(b); break;
    case 2: expr = "(" + f + " < " + std::to_string(a) + " OR " + f + " >= " + std::to_string(b) + ")"; break;
    default: expr = "NOT (" + f + " <= " + std::to_string(b) + ")"; break;
  }
  g->push_back(expr);
  s->push_back(expr);
}

OracleQuery RandomQueryGenerator::Next(int index) {
  return Chance(0.85) ? Aggregate(index) : Scan(index);
}

OracleQuery RandomQueryGenerator::Aggregate(int index) {
  OracleQuery q;
  q.name = "random #" + std::to_string(index);
  q.now_ns = data_.config().end_ns;
  const auto& fields = data_.field_names();

  // Group keys: (gnomon text, sqlite text, alias).
  struct Key {
    std::string g, s, alias;
  };
  std::vector<Key> keys;
  const int shape = Uniform(0, 4);  // 0 none, 1 bucket, 2 tag, 3 bucket+tag, 4 two tags
  if (shape == 1 || shape == 3) {
    struct Width {
      const char* text;
      int64_t ns;
    };
    static const std::vector<Width> kWidths = {
        {"10 seconds", 10 * kSec}, {"1 minute", kMin},         {"60 seconds", kMin},   {"90 seconds", 90 * kSec},
        {"5 minutes", 5 * kMin},   {"7 minutes", 7 * kMin},    {"15m", 15 * kMin},     {"1 hour", kHour},
        {"1h30m", 90 * kMin},      {"2 hours", 2 * kHour},     {"5 hours", 5 * kHour}, {"1 day", 24 * kHour}};
    const Width& w = Pick(kWidths);
    Key k;
    k.alias = "b";
    switch (Uniform(0, 3)) {
      case 0:
        k.g = "time_bucket('" + std::string(w.text) + "', time)";
        k.s = SqliteBucket(w.ns, kTimescaleOrigin);
        break;
      case 1:
        k.g = "time_bucket(INTERVAL '" + std::string(w.text) + "', time)";
        k.s = SqliteBucket(w.ns, kTimescaleOrigin);
        break;
      case 2:
        k.g = "date_bin('" + std::string(w.text) + "', time)";
        k.s = SqliteBucket(w.ns, 0);
        break;
      default: {
        bool hour = Chance(0.5);
        k.g = std::string("date_trunc('") + (hour ? "hour" : "minute") + "', time)";
        k.s = SqliteBucket(hour ? kHour : kMin, 0);
        break;
      }
    }
    keys.push_back(k);
  }
  static const std::vector<std::string> kGroupTags = {"hostname", "region", "datacenter", "os", "arch", "team"};
  if (shape >= 2) {
    std::string t1 = Pick(kGroupTags);
    keys.push_back({t1, t1, ""});
    if (shape == 4) {
      std::string t2 = Pick(kGroupTags);
      if (t2 != t1) keys.push_back({t2, t2, ""});
    }
  }

  // Aggregates: (gnomon, sqlite, needs sqrt).
  struct Agg {
    std::string g, s;
    bool sqrt = false;
  };
  std::vector<Agg> aggs;
  int naggs = Uniform(1, 4);
  for (int i = 0; i < naggs; ++i) {
    std::string f = Pick(fields);
    std::string arg = f;
    if (Chance(0.15)) {
      std::string f2 = Pick(fields);
      arg = Chance(0.5) ? f + " + " + f2 : f + " - " + f2;
    } else if (Chance(0.1)) {
      arg = f + " * 2";
    }
    switch (Uniform(0, 9)) {
      case 0: aggs.push_back({"count(*)", "count(*)"}); break;
      case 1: aggs.push_back({"count(" + arg + ")", "count(" + arg + ")"}); break;
      case 2: aggs.push_back({"sum(" + arg + ")", "sum(" + arg + ")"}); break;
      case 3: aggs.push_back({"min(" + arg + ")", "min(" + arg + ")"}); break;
      case 4:
      case 5: aggs.push_back({"max(" + arg + ")", "max(" + arg + ")"}); break;
      case 6:
      case 7: aggs.push_back({(Chance(0.8) ? "avg(" : "mean(") + arg + ")", "avg(" + arg + ")"}); break;
      case 8: aggs.push_back({"count(DISTINCT " + f + ")", "count(DISTINCT " + f + ")"}); break;
      default: {
        // Sample variance from exact integer sums (SQLite has no stddev); compared as its sqrt.
        std::string var = "CASE WHEN count(" + f + ") > 1 THEN (sum(" + f + " * " + f + ") * 1.0 - sum(" + f +
                          ") * 1.0 * sum(" + f + ") / count(" + f + ")) / (count(" + f + ") - 1) END";
        bool pop = Chance(0.3);
        if (pop) {
          var = "CASE WHEN count(" + f + ") > 0 THEN (sum(" + f + " * " + f + ") * 1.0 - sum(" + f + ") * 1.0 * sum(" +
                f + ") / count(" + f + ")) / count(" + f + ") END";
        }
        aggs.push_back({std::string(pop ? "stddev_pop(" : "stddev(") + f + ")", var, true});
        break;
      }
    }
  }

  std::vector<std::string> gw, sw;
  TimeWindow(&gw, &sw, q.now_ns);
  if (Chance(0.6)) TagFilter(&gw, &sw);
  if (Chance(0.15)) TagFilter(&gw, &sw);
  if (Chance(0.2)) FieldFilter(&gw, &sw);

  std::vector<std::string> gsel, ssel;
  for (const Key& k : keys) {
    gsel.push_back(k.g + (k.alias.empty() ? "" : " AS " + k.alias));
    ssel.push_back(k.s + (k.alias.empty() ? "" : " AS " + k.alias));
  }
  for (size_t i = 0; i < aggs.size(); ++i) {
    gsel.push_back(aggs[i].g);
    ssel.push_back(aggs[i].s);
    if (aggs[i].sqrt) q.sqrt_columns.push_back(static_cast<int>(keys.size() + i));
  }
  if (Chance(0.2) && !keys.empty()) {  // keys after the aggregates
    std::rotate(gsel.begin(), gsel.begin() + static_cast<long>(keys.size()), gsel.end());
    std::rotate(ssel.begin(), ssel.begin() + static_cast<long>(keys.size()), ssel.end());
    for (int& c : q.sqrt_columns) c -= static_cast<int>(keys.size());
  }
  // Position (1-based) of each key in the select list, for GROUP BY / ORDER BY ordinals.
  auto key_position = [&](size_t k) {
    std::string want = keys[k].g + (keys[k].alias.empty() ? "" : " AS " + keys[k].alias);
    for (size_t i = 0; i < gsel.size(); ++i) {
      if (gsel[i] == want) return static_cast<int>(i) + 1;
    }
    return 0;
  };

  std::string g = "SELECT " + Join(gsel, ", ") + " FROM cpu";
  std::string s = "SELECT " + Join(ssel, ", ") + " FROM cpu";
  if (!gw.empty()) {
    g += " WHERE " + Join(gw, " AND ");
    s += " WHERE " + Join(sw, " AND ");
  }
  if (!keys.empty()) {
    std::vector<std::string> gg, sg;
    for (size_t k = 0; k < keys.size(); ++k) {
      switch (Uniform(0, 2)) {
        case 0: gg.push_back(keys[k].g); break;
        case 1: gg.push_back(keys[k].alias.empty() ? keys[k].g : keys[k].alias); break;
        default: gg.push_back(std::to_string(key_position(k))); break;
      }
      sg.push_back(keys[k].s);
    }
    g += " GROUP BY " + Join(gg, ", ");
    s += " GROUP BY " + Join(sg, ", ");
  }
  if (Chance(0.25)) {
    std::string f = Pick(fields);
    int n = Uniform(0, 100);
    std::string h;
    switch (Uniform(0, 2)) {
      case 0: h = "count(*) > " + std::to_string(Uniform(0, 300)); break;
      case 1: h = "max(" + f + ") >= " + std::to_string(n); break;
      default: h = "avg(" + f + ") < " + std::to_string(n); break;
    }
    g += " HAVING " + h;
    s += " HAVING " + h;
  }
  // ORDER BY every key (a total order over groups), LIMIT only then.
  if (!keys.empty() && Chance(0.5)) {
    q.ordered = true;
    std::vector<std::string> go, so;
    for (size_t k = 0; k < keys.size(); ++k) {
      bool desc = Chance(0.4);
      std::string dir = desc ? " DESC" : "";
      switch (Uniform(0, 2)) {
        case 0: go.push_back(keys[k].g + dir); break;
        case 1: go.push_back((keys[k].alias.empty() ? keys[k].g : keys[k].alias) + dir); break;
        default: go.push_back(std::to_string(key_position(k)) + dir); break;
      }
      so.push_back(keys[k].s + dir);
    }
    g += " ORDER BY " + Join(go, ", ");
    s += " ORDER BY " + Join(so, ", ");
    if (Chance(0.5)) {
      std::string lim = " LIMIT " + std::to_string(Uniform(1, 20));
      if (Chance(0.3)) lim += " OFFSET " + std::to_string(Uniform(0, 10));
      g += lim;
      s += lim;
    }
  }
  q.gnomon_sql = g;
  q.sqlite_sql = s;
  return q;
}

OracleQuery RandomQueryGenerator::Scan(int index) {
  OracleQuery q;
  q.name = "random scan #" + std::to_string(index);
  q.now_ns = data_.config().end_ns;
  std::vector<std::string> cols = {"time", "hostname"};
  int n = Uniform(1, 3);
  for (int i = 0; i < n; ++i) cols.push_back(Pick(data_.field_names()));
  if (Chance(0.3)) cols.push_back(Pick(std::vector<std::string>{"region", "rack", "service"}));
  std::vector<std::string> gw, sw;
  TimeWindow(&gw, &sw, q.now_ns);
  if (Chance(0.7)) TagFilter(&gw, &sw);
  if (Chance(0.5)) FieldFilter(&gw, &sw);
  std::string where_g = gw.empty() ? "" : " WHERE " + Join(gw, " AND ");
  std::string where_s = sw.empty() ? "" : " WHERE " + Join(sw, " AND ");
  // time + hostname identify a row, so this order is total.
  std::string order = Chance(0.5) ? " ORDER BY time DESC, hostname" : " ORDER BY hostname, time";
  std::string limit = " LIMIT " + std::to_string(Uniform(1, 50));
  if (Chance(0.3)) limit += " OFFSET " + std::to_string(Uniform(0, 20));
  q.ordered = true;
  q.gnomon_sql = "SELECT " + Join(cols, ", ") + " FROM cpu" + where_g + order + limit;
  q.sqlite_sql = "SELECT " + Join(cols, ", ") + " FROM cpu" + where_s + order + limit;
  return q;
}

}  // namespace gnomon::oracle
