#include "src/server/api/row_renderer.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "src/base/double_format.h"
#include "src/base/time_util.h"
#include "src/server/api/csv_field.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

// Longest renderings of the fixed-size cell types.
constexpr size_t kIntBound = 20;     // -9223372036854775808
constexpr size_t kDoubleBound = kDoubleFormatRoom;  // text of at most 24 ("-Infinity" 9), written in place
constexpr size_t kTimeBound = 48;    // quoted RFC 3339 (years beyond 9999 included)

// Bytes a JSON string may copy verbatim: printable ASCII other than '"' and '\\'.
struct PlainJsonTable {
  bool plain[256];
  constexpr PlainJsonTable() : plain() {
    for (int c = 0; c < 256; ++c) plain[c] = c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  }
};
constexpr PlainJsonTable kPlainJson;

bool IsPlainJson(std::string_view s) {
  // Eight bytes at a time: any byte >= 0x80, < 0x20, '"' or '\\' makes the word not plain.
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const uint64_t special = (w & kHigh) | ((w - kOnes * 0x20) & ~w & kHigh) |
                             has_zero(w ^ (kOnes * '"')) | has_zero(w ^ (kOnes * '\\'));
    if (special != 0) return false;
  }
  for (; i < s.size(); ++i) {
    if (!kPlainJson.plain[static_cast<unsigned char>(s[i])]) return false;
  }
  return true;
}

char* Copy(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

char* WriteJsonString(char* p, std::string_view s) {
  if (IsPlainJson(s)) {
    *p++ = '"';
    p = Copy(p, s);
    *p++ = '"';
    return p;
  }
  // Escapes, control bytes and non-ASCII (UTF-8 checked) take the general path.
  std::string escaped;
  http::AppendJsonString(&escaped, s);
  return Copy(p, escaped);
}

char* WriteCsvString(char* p, std::string_view s) {
  return NeedsCsvQuotes(s) ? WriteQuotedCsvField(p, s) : Copy(p, s);
}

template <typename T>
char* WriteInteger(char* p, T v) {
  if (static_cast<uint64_t>(v) < 100) {
    // Small non-negative values (most metrics) without the general conversion.
    if (v < 10) {
      *p = static_cast<char>('0' + v);
      return p + 1;
    }
    p[0] = static_cast<char>('0' + v / 10);
    p[1] = static_cast<char>('0' + v % 10);
    return p + 2;
  }
  return std::to_chars(p, p + kIntBound, v).ptr;
}


char* TwoDigits(char* p, int64_t v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

}  // namespace

char* WriteRfc3339(char* p, int64_t nanos, int64_t* cached_day, char day_text[10]) {
  const int64_t days = FloorDiv(nanos, kNanosPerDay);
  const int64_t rem = NanosOfDay(nanos);
  if (days != *cached_day) {
    int64_t y;
    unsigned mo, d;
    CivilFromDays(days, &y, &mo, &d);
    if (y < 0 || y > 9999) {
      // Rare: years of other widths take the general formatter.
      std::string s;
      AppendRfc3339(&s, nanos);
      return Copy(p, s);
    }
    char* q = day_text;
    q[0] = static_cast<char>('0' + y / 1000);
    q[1] = static_cast<char>('0' + y / 100 % 10);
    q[2] = static_cast<char>('0' + y / 10 % 10);
    q[3] = static_cast<char>('0' + y % 10);
    q[4] = '-';
    TwoDigits(q + 5, mo);
    q[7] = '-';
    TwoDigits(q + 8, d);
    *cached_day = days;
  }
  std::memcpy(p, day_text, 10);
  return WriteRfc3339TimeOfDay(p + 10, rem);
}

char* RowRenderer::WriteTimestamp(char* p, int64_t t) {
  if (time_.divisor == 0) {
    const bool json = format_ == ResultFormat::kJson;
    if (json) *p++ = '"';
    p = WriteRfc3339(p, t, &cached_day_, day_text_);
    if (json) *p++ = '"';
    return p;
  }
  if (time_.divisor == 1) return WriteInteger(p, t);
  return WriteInteger(p, time_.truncate ? t / time_.divisor : FloorDiv(t, time_.divisor));
}

// Inlined into the row loop: a call per cell was a fifth of the rendering time.
[[gnu::always_inline]] inline char* RowRenderer::WriteCell(char* p, const query::ResultVector& v,
                                                           size_t row) {
  const bool json = format_ == ResultFormat::kJson;
  if (v.type == ValueType::kNull || v.IsNull(row)) {
    if (json) p = Copy(p, "null");
    return p;
  }
  switch (v.type) {
    case ValueType::kInt64: return WriteInteger(p, v.i64[row]);
    case ValueType::kUInt64: return WriteInteger(p, v.u64[row]);
    case ValueType::kFloat64: {
      const double d = v.f64[row];
      if (!std::isfinite(d)) {
        // JSON has no NaN/Infinity: null there, the usual spellings in CSV.
        if (json) return Copy(p, "null");
        return Copy(p, std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
      }
      return FormatDouble(p, d);  // as std::to_chars, faster (kDoubleBound >= kDoubleFormatRoom)
    }
    case ValueType::kBool: return Copy(p, v.b[row] ? "true" : "false");
    case ValueType::kString: return json ? WriteJsonString(p, v.StrAt(row)) : WriteCsvString(p, v.StrAt(row));
    case ValueType::kTimestamp: return WriteTimestamp(p, v.i64[row]);
    default: return p;
  }
}

size_t RowRenderer::FixedRowBound(const query::ResultChunk& chunk) const {
  // Row framing: "[", "]", the separating "," (JSON) or "\r\n" (CSV), and commas between cells;
  // then every cell but strings, whose room is made cell by cell.
  size_t bound = 3 + chunk.columns.size();
  for (const query::ResultVector& v : chunk.columns) {
    switch (v.type) {
      case ValueType::kInt64:
      case ValueType::kUInt64: bound += kIntBound; break;
      case ValueType::kFloat64: bound += kDoubleBound; break;
      case ValueType::kTimestamp: bound += kTimeBound; break;
      case ValueType::kString: bound += 4; break;  // "null"
      default: bound += 5; break;  // null, true, false
    }
  }
  return bound;
}

void RowRenderer::Render(const query::ResultChunk& chunk, size_t first_column, size_t begin, size_t end,
                         bool comma_first, std::string* out) {
  const bool json = format_ == ResultFormat::kJson;
  const size_t ncols = chunk.columns.size();
  const size_t row_bound = FixedRowBound(chunk);
  // Rows render into the scratch buffer, which goes to `out` whenever the next piece might not
  // fit (and at the end): no per-byte appends and no pass over the chunk to size it.
  constexpr size_t kScratchBytes = 64 << 10;
  if (scratch_size_ < std::max(kScratchBytes, row_bound)) {
    scratch_size_ = std::max(kScratchBytes, row_bound);
    scratch_.reset(new char[scratch_size_]);
  }
  // Constant columns (one series' tag) render once per chunk.
  constant_text_.resize(ncols);
  for (size_t c = first_column; c < ncols; ++c) {
    const query::ResultVector& v = chunk.columns[c];
    if (!v.constant) continue;
    const size_t bound = (v.type == ValueType::kString && (v.views ? !v.str_views.empty() : !v.str.empty())
                              ? v.StrAt(0).size() * 6 : 0) + 64;
    std::string& text = constant_text_[c];
    text.resize(bound);
    text.resize(WriteCell(text.data(), v, 0) - text.data());
  }
  char* start = scratch_.get();
  char* p = start;
  auto make_room = [&](size_t n) {
    if (static_cast<size_t>(start + scratch_size_ - p) >= n) return;
    out->append(start, p - start);
    if (n > scratch_size_) {
      scratch_size_ = n;
      scratch_.reset(new char[scratch_size_]);
      start = scratch_.get();
    }
    p = start;
  };
  for (size_t r = begin; r < end; ++r) {
    make_room(row_bound);
    if (json) {
      if (r > begin || comma_first) *p++ = ',';
      *p++ = '[';
    }
    for (size_t c = first_column; c < ncols; ++c) {
      if (c > first_column) *p++ = ',';
      const query::ResultVector& v = chunk.columns[c];
      if (v.constant) {
        make_room(constant_text_[c].size() + row_bound);
        p = Copy(p, constant_text_[c]);
        continue;
      }
      if (v.type == ValueType::kString) {
        // JSON escapes take up to 6 bytes per input byte ("\u001f", "\ufffd"); CSV doubles quotes.
        make_room(v.StrAt(r).size() * (json ? 6 : 2) + 2 + row_bound);
      }
      p = WriteCell(p, v, r);
    }
    if (json) {
      *p++ = ']';
    } else {
      *p++ = '\r';
      *p++ = '\n';
    }
  }
  out->append(start, p - start);
}

}  // namespace gnomon::server::api
