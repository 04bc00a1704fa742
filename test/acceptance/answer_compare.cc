#include "test/acceptance/answer_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <regex>

#include "src/base/value_type.h"

namespace gnomon::acceptance {
namespace {

// Floats agree within 1e-9 relative.
bool FloatsMatch(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

// Cell (a, ra) against cell (b, rb) of a column of the same type.
bool CellsMatch(const query::ResultVector& a, size_t ra, const query::ResultVector& b, size_t rb) {
  const bool a_null = a.IsNull(ra) || a.type == ValueType::kNull;
  const bool b_null = b.IsNull(rb) || b.type == ValueType::kNull;
  if (a_null || b_null) return a_null && b_null;
  switch (a.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return a.i64[ra] == b.i64[rb];
    case ValueType::kFloat64: return FloatsMatch(a.f64[ra], b.f64[rb]);
    case ValueType::kUInt64: return a.u64[ra] == b.u64[rb];
    case ValueType::kBool: return a.b[ra] == b.b[rb];
    case ValueType::kString: return a.str[ra] == b.str[rb];
    default: return false;
  }
}

// Float columns rounded to 9 significant digits, the sort key for unordered comparison: last-bit
// differences between two answers must not pair up the wrong rows.
std::vector<double> RoundedFloats(const query::ResultVector& v, size_t rows) {
  std::vector<double> out(rows);
  for (size_t r = 0; r < rows; ++r) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v.f64[r]);
    out[r] = std::strtod(buf, nullptr);
  }
  return out;
}

template <typename T>
int Three(const T& x, const T& y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

// The answer's row numbers sorted by all columns (NULLs first).
std::vector<size_t> SortedRows(const QueryAnswer& a) {
  std::vector<std::vector<double>> rounded(a.columns.size());
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (a.data[c].type == ValueType::kFloat64) rounded[c] = RoundedFloats(a.data[c], a.rows);
  }
  auto compare = [&](size_t x, size_t y) {
    for (size_t c = 0; c < a.columns.size(); ++c) {
      const query::ResultVector& v = a.data[c];
      const bool xn = v.type == ValueType::kNull || v.IsNull(x);
      const bool yn = v.type == ValueType::kNull || v.IsNull(y);
      int r = 0;
      if (xn || yn) {
        r = Three(!xn, !yn);
      } else {
        switch (v.type) {
          case ValueType::kInt64:
          case ValueType::kTimestamp: r = Three(v.i64[x], v.i64[y]); break;
          case ValueType::kFloat64: r = Three(rounded[c][x], rounded[c][y]); break;
          case ValueType::kUInt64: r = Three(v.u64[x], v.u64[y]); break;
          case ValueType::kBool: r = Three(v.b[x], v.b[y]); break;
          case ValueType::kString: r = v.str[x].compare(v.str[y]); break;
          default: break;
        }
      }
      if (r != 0) return r < 0;
    }
    return false;
  };
  std::vector<size_t> order(a.rows);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), compare);
  return order;
}

std::string RenderColumns(const QueryAnswer& a) {
  std::string s;
  for (const auto& c : a.columns) s += (s.empty() ? "" : ", ") + c.name + " " + std::string(ValueTypeName(c.type));
  return "[" + s + "]";
}

}  // namespace

std::string CanonicalColumnName(const std::string& name) {
  static const std::regex aggregate(R"(^(max|avg)\((\w+)\)$)", std::regex::icase);
  static const std::regex last_value(R"(^last_value\((\w+) order by time\)$)", std::regex::icase);
  static const std::regex bucket(R"(^(date_trunc\(.*\)|hour|minute)$)", std::regex::icase);
  std::smatch m;
  if (std::regex_match(name, m, aggregate)) {
    std::string function = m[1].str();
    std::transform(function.begin(), function.end(), function.begin(), ::tolower);
    return (function == "avg" ? "mean_" : "max_") + m[2].str();
  }
  if (std::regex_match(name, m, last_value)) return m[1].str();
  if (std::regex_match(name, bucket)) return "bucket";
  return name;
}

Result<QueryAnswer> Project(const QueryAnswer& answer, const std::vector<std::string>& columns) {
  QueryAnswer out;
  out.rows = answer.rows;
  for (const std::string& want : columns) {
    size_t i = 0;
    while (i < answer.columns.size() && CanonicalColumnName(answer.columns[i].name) != want) ++i;
    if (i == answer.columns.size()) {
      return Status::InvalidArgument("no column " + want + " in " + RenderColumns(answer));
    }
    out.columns.push_back(answer.columns[i]);
    out.data.push_back(answer.data[i]);
  }
  return out;
}

Result<std::vector<std::string>> CanonicalColumns(const QueryAnswer& greptime, const QueryAnswer& timescale,
                                                  const std::vector<std::string>& timescale_only) {
  auto mismatch = [&](const std::string& why) {
    return Status::InvalidArgument(why + "; greptime " + RenderColumns(greptime) + ", timescaledb " +
                                   RenderColumns(timescale));
  };
  std::vector<std::string> names;
  for (const auto& c : greptime.columns) {
    const std::string name = CanonicalColumnName(c.name);
    if (std::find(names.begin(), names.end(), name) != names.end()) return mismatch("duplicate column " + name);
    names.push_back(name);
  }
  std::vector<std::string> extra;
  size_t matched = 0;
  for (const auto& c : timescale.columns) {
    const std::string name = CanonicalColumnName(c.name);
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      extra.push_back(name);
      continue;
    }
    ++matched;
    if (greptime.columns[it - names.begin()].type != c.type) return mismatch("column " + name + " differs in type");
  }
  if (extra != timescale_only || matched != names.size()) return mismatch("column sets differ");
  return names;
}

std::string RenderRow(const QueryAnswer& a, size_t row) {
  std::string s;
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (c > 0) s += " | ";
    const query::Value v = a.Get(row, c);
    if (v.type == ValueType::kFloat64) {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", v.f);
      s += buf;
    } else {
      s += v.ToString();
    }
  }
  return s;
}

std::string CompareRows(const QueryAnswer& a, const QueryAnswer& b, bool ordered) {
  if (a.columns.size() != b.columns.size()) {
    return "column counts differ: " + RenderColumns(a) + " vs " + RenderColumns(b);
  }
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (a.data[c].type != b.data[c].type) return "column types differ: " + RenderColumns(a) + " vs " + RenderColumns(b);
  }
  std::vector<size_t> x(a.rows), y(b.rows);
  if (ordered) {
    std::iota(x.begin(), x.end(), 0);
    std::iota(y.begin(), y.end(), 0);
  } else {
    x = SortedRows(a);
    y = SortedRows(b);
  }
  for (size_t r = 0; r < std::max(x.size(), y.size()); ++r) {
    bool same = r < x.size() && r < y.size();
    for (size_t c = 0; same && c < a.columns.size(); ++c) same = CellsMatch(a.data[c], x[r], b.data[c], y[r]);
    if (!same) {
      return "rows " + std::to_string(x.size()) + " vs " + std::to_string(y.size()) +
             "; first difference at row " + std::to_string(r) + (ordered ? "" : " (after sorting)") +
             ":\n    " + (r < x.size() ? RenderRow(a, x[r]) : "(none)") + "\n    " +
             (r < y.size() ? RenderRow(b, y[r]) : "(none)");
    }
  }
  return "";
}

}  // namespace gnomon::acceptance
