// Random window-function queries for the oracle: one set of choices, rendered for Gnomon and for
// SQLite (which has the same window functions and frames). Choices that would make the answer
// depend on how ties are broken are not made: functions that pick rows by position (row_number,
// ntile, lag, lead, first/last/nth_value, ROWS frames) get an order that is total within the
// partition (time, then hostname where the partition holds several hosts).
#include "test/oracle/oracle_queries.h"

namespace gnomon::oracle {
namespace {

std::string JoinWith(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

struct Rendered {
  std::string g, s;
};

enum class FrameKind { kDefault, kRows, kRangeOffset, kGroups };

// One window: PARTITION BY and ORDER BY. `total`: an order no two rows of a partition tie in;
// `time_only`: ORDER BY time alone (a RANGE offset needs one key).
Rendered RandomWindowSpec(std::mt19937_64& rng, bool total, bool time_only, bool ranking) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  static const std::vector<std::vector<std::string>> kPartitions = {
      {}, {"hostname"}, {"hostname"}, {"region"}, {"datacenter"}, {"region", "rack"}};
  const std::vector<std::string>& partition = kPartitions[uniform(0, static_cast<int>(kPartitions.size()) - 1)];
  const bool one_host = !partition.empty() && partition[0] == "hostname";
  std::vector<std::string> parts;
  if (!partition.empty()) parts.push_back("PARTITION BY " + JoinWith(partition, ", "));
  const std::string dir = chance(0.3) ? " DESC" : "";
  std::string order = "time" + dir;
  if (!time_only && !one_host && (total || chance(0.3))) order += ", hostname" + dir;
  // Ranks tie by design: ordering by a value is fine for them.
  if (ranking && chance(0.3)) order = "usage_user" + std::string(chance(0.5) ? " DESC" : "") + ", " + order;
  parts.push_back("ORDER BY " + order);
  return Rendered{JoinWith(parts, " "), JoinWith(parts, " ")};
}

Rendered RandomFrame(std::mt19937_64& rng, FrameKind kind) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  switch (kind) {
    case FrameKind::kDefault: return {"", ""};  // RANGE UNBOUNDED PRECEDING .. CURRENT ROW
    case FrameKind::kRows: {
      const int a = uniform(0, 5), b = uniform(0, 5);
      static const char* kStarts[] = {"UNBOUNDED PRECEDING", "%d PRECEDING", "CURRENT ROW"};
      static const char* kEnds[] = {"CURRENT ROW", "%d FOLLOWING", "UNBOUNDED FOLLOWING"};
      char start[40], end[40];
      std::snprintf(start, sizeof(start), kStarts[uniform(0, 2)], a);
      std::snprintf(end, sizeof(end), kEnds[uniform(0, 2)], b);
      std::string f = std::string(" ROWS BETWEEN ") + start + " AND " + end;
      if (uniform(0, 5) == 0) {  // a frame wholly before the row
        f = " ROWS BETWEEN " + std::to_string(a + 2) + " PRECEDING AND " + std::to_string(a % 2 + 1) + " PRECEDING";
      }
      return {f, f};
    }
    case FrameKind::kRangeOffset: {
      const int before = uniform(0, 6) * 10, after = uniform(0, 3) * 30;
      const bool minutes = before % 60 == 0 && before > 0;
      const std::string g = " RANGE BETWEEN INTERVAL '" +
                            (minutes ? std::to_string(before / 60) + " minutes" : std::to_string(before) + " seconds") +
                            "' PRECEDING AND INTERVAL '" + std::to_string(after) + " seconds' FOLLOWING";
      const std::string s = " RANGE BETWEEN " + std::to_string(before * 1000000000LL) + " PRECEDING AND " +
                            std::to_string(after * 1000000000LL) + " FOLLOWING";
      return {g, s};
    }
    case FrameKind::kGroups: {
      const std::string f = " GROUPS BETWEEN " + std::to_string(uniform(0, 3)) + " PRECEDING AND " +
                            std::to_string(uniform(0, 2)) + " FOLLOWING";
      return {f, f};
    }
  }
  return {"", ""};
}

}  // namespace

OracleQuery RandomQueryGenerator::Window(int index) {
  OracleQuery q;
  q.name = "random window #" + std::to_string(index);
  q.now_ns = data_.config().end_ns;
  const std::string f = Pick(data_.field_names());
  std::vector<std::string> gsel = {"time", "hostname", f}, ssel = gsel;
  const int calls = Uniform(1, 3);
  for (int c = 0; c < calls; ++c) {
    const int kind = Uniform(0, 13);
    const bool ranking = kind <= 3;            // rank, dense_rank, percent_rank, cume_dist: ties allowed
    const bool by_position = kind >= 4 && kind <= 9;  // row_number .. nth_value pick rows by position
    const bool aggregate = kind >= 10;
    FrameKind frame = FrameKind::kDefault;
    if (kind >= 8) frame = static_cast<FrameKind>(Uniform(0, 3));
    if (frame == FrameKind::kRangeOffset && !aggregate) frame = FrameKind::kRows;
    // ROWS frames and value functions pick rows by position too; RANGE and GROUPS frames take
    // peers whole, so aggregates over them do not care how ties fall.
    const bool total = by_position || frame == FrameKind::kRows;
    Rendered w = RandomWindowSpec(rng_, total, frame == FrameKind::kRangeOffset, ranking);
    std::string fn;
    switch (kind) {
      case 0: fn = "rank()"; break;
      case 1: fn = "dense_rank()"; break;
      case 2: fn = "percent_rank()"; break;
      case 3: fn = "cume_dist()"; break;
      case 4: fn = "row_number()"; break;
      case 5: fn = "ntile(" + std::to_string(Uniform(1, 7)) + ")"; break;
      case 6:
      case 7: {
        std::string args = f;
        if (Chance(0.5)) args += ", " + std::to_string(Uniform(1, 4)) + (Chance(0.5) ? ", -1" : "");
        fn = std::string(kind == 6 ? "lag(" : "lead(") + args + ")";
        break;
      }
      case 8: fn = (Chance(0.5) ? "first_value(" : "last_value(") + f + ")"; break;
      case 9: fn = "nth_value(" + f + ", " + std::to_string(Uniform(1, 3)) + ")"; break;
      case 10: fn = Chance(0.5) ? "count(*)" : "count(" + f + ")"; break;
      case 11: fn = "sum(" + f + ")"; break;
      case 12: fn = "avg(" + f + ")"; break;
      default: fn = (Chance(0.5) ? "min(" : "max(") + f + ")"; break;
    }
    const Rendered fr = RandomFrame(rng_, frame);
    const std::string alias = " AS w" + std::to_string(c);
    gsel.push_back(fn + " OVER (" + w.g + fr.g + ")" + alias);
    ssel.push_back(fn + " OVER (" + w.s + fr.s + ")" + alias);
  }
  std::vector<std::string> gw, sw;
  TimeWindow(&gw, &sw, q.now_ns);
  if (Chance(0.5)) TagFilter(&gw, &sw);
  const std::string where_g = gw.empty() ? "" : " WHERE " + JoinWith(gw, " AND ");
  const std::string where_s = sw.empty() ? "" : " WHERE " + JoinWith(sw, " AND ");
  // time + hostname identify a row: a total output order, then a bounded answer.
  std::string order = Chance(0.5) ? " ORDER BY hostname, time" : " ORDER BY time DESC, hostname";
  order += " LIMIT " + std::to_string(Uniform(50, 400));
  if (Chance(0.3)) order += " OFFSET " + std::to_string(Uniform(0, 500));
  q.ordered = true;
  q.gnomon_sql = "SELECT " + JoinWith(gsel, ", ") + " FROM cpu" + where_g + order;
  q.sqlite_sql = "SELECT " + JoinWith(ssel, ", ") + " FROM cpu" + where_s + order;
  return q;
}

}  // namespace gnomon::oracle
