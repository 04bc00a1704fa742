// Encoding of the segment index section (docs/format/segment.md, "Index").
#include <cstdint>
#include <cstring>

#include "src/base/coding.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage {
namespace {

uint64_t DoubleBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double BitsDouble(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

}  // namespace

void EncodeColumnStats(ValueType type, const ColumnStats& s, std::string* out) {
  PutVarint64(out, s.count);
  switch (type) {
    case ValueType::kInt64:
      PutVarsint64(out, s.imin);
      PutVarsint64(out, s.imax);
      // The exact sum as a zigzag varint when it fits int64 (tag 0; tag 2: followed by the
      // head sum), else a double (tag 1).
      if (s.isum_exact && s.has_head) {
        out->push_back(2);
        PutVarsint64(out, s.isum);
        PutVarsint64(out, s.head_isum);
      } else if (s.isum_exact) {
        out->push_back(0);
        PutVarsint64(out, s.isum);
      } else {
        out->push_back(1);
        PutFixed64(out, DoubleBits(s.sum));
      }
      break;
    case ValueType::kFloat64:
    case ValueType::kUInt64:
    case ValueType::kBool:
      PutFixed64(out, DoubleBits(s.min));
      PutFixed64(out, DoubleBits(s.max));
      PutFixed64(out, DoubleBits(s.sum));
      break;
    default: break;
  }
}

bool DecodeColumnStats(ValueType type, std::string_view* in, ColumnStats* s) {
  uint64_t count;
  if (!GetVarint64(in, &count) || count > UINT32_MAX) return false;
  s->count = static_cast<uint32_t>(count);
  uint64_t a, b, c;
  switch (type) {
    case ValueType::kInt64: {
      if (!GetVarsint64(in, &s->imin) || !GetVarsint64(in, &s->imax) || in->empty()) return false;
      const char tag = (*in)[0];
      in->remove_prefix(1);
      if (tag == 0 || tag == 2) {
        if (!GetVarsint64(in, &s->isum)) return false;
        s->isum_exact = true;
        s->sum = static_cast<double>(s->isum);
        if (tag == 2) {
          if (!GetVarsint64(in, &s->head_isum)) return false;
          s->has_head = true;
        }
      } else if (tag == 1) {
        if (!GetFixed64(in, &c)) return false;
        s->sum = BitsDouble(c);
      } else {
        return false;
      }
      s->min = static_cast<double>(s->imin);
      s->max = static_cast<double>(s->imax);
      s->has_numeric = true;
      return true;
    }
    case ValueType::kFloat64:
    case ValueType::kUInt64:
    case ValueType::kBool:
      if (!GetFixed64(in, &a) || !GetFixed64(in, &b) || !GetFixed64(in, &c)) return false;
      s->min = BitsDouble(a);
      s->max = BitsDouble(b);
      s->sum = BitsDouble(c);
      s->has_numeric = true;
      return true;
    default: return true;
  }
}

namespace {

Status Bad(std::string_view what, size_t remaining, size_t total) {
  return Status::Corruption("segment index: bad " + std::string(what) + " at index offset " +
                            std::to_string(total - remaining));
}

}  // namespace

void EncodeSegmentIndex(const SegmentIndex& index, std::string* out) {
  PutLengthPrefixed(out, index.table);
  PutVarsint64(out, index.min_time);
  PutVarsint64(out, index.max_time);
  PutVarint64(out, index.rows);
  PutVarint64(out, index.columns.size());
  for (const SegmentColumn& c : index.columns) {
    PutLengthPrefixed(out, c.name);
    out->push_back(static_cast<char>(c.type));
  }
  PutVarint64(out, index.series.size());
  for (const SeriesMeta& s : index.series) {
    PutVarint64(out, s.id);
    PutVarint64(out, s.num_groups);
    for (uint32_t g = 0; g < s.num_groups; ++g) {
      const RowGroupMeta& group = index.groups[s.first_group + g];
      PutVarint64(out, group.rows);
      PutVarsint64(out, group.min_time);
      // max >= min, so the span fits in uint64 even where int64 subtraction would overflow.
      PutVarint64(out, static_cast<uint64_t>(group.max_time) - static_cast<uint64_t>(group.min_time));
      PutVarint64(out, group.time_offset);
      PutVarint64(out, group.time_length);
      PutFixed32(out, group.time_crc);
      PutVarint64(out, group.slices_length);
      if (group.slices_length > 0) {
        PutVarint64(out, group.slices_offset);
        PutFixed32(out, group.slices_crc);
      }
      for (size_t c = 0; c < index.columns.size(); ++c) {
        const ColumnChunkMeta& m = index.chunks[group.first_column + c];
        out->push_back(static_cast<char>(m.presence));
        if (m.presence == ColumnChunkMeta::kAbsent) continue;
        PutVarint64(out, m.offset);
        PutVarint64(out, m.length);
        PutFixed32(out, m.crc);
        if (m.presence == ColumnChunkMeta::kWithValidity) {
          PutVarint64(out, m.validity_offset);
          PutVarint64(out, m.validity_length);
          PutFixed32(out, m.validity_crc);
        }
        EncodeColumnStats(index.columns[c].type, m.stats, out);
        PutVarint64(out, m.slice_stats_length);
        if (m.slice_stats_length > 0) {
          PutVarint64(out, m.slice_stats_offset);
          PutFixed32(out, m.slice_stats_crc);
        }
      }
    }
  }
}

Status DecodeSegmentIndex(std::string_view in, SegmentIndex* index) {
  const size_t total = in.size();
  std::string_view table;
  uint64_t rows, ncols, nseries;
  if (!GetLengthPrefixed(&in, &table)) return Bad("table name", in.size(), total);
  index->table = std::string(table);
  if (!GetVarsint64(&in, &index->min_time) || !GetVarsint64(&in, &index->max_time) ||
      !GetVarint64(&in, &rows)) {
    return Bad("header", in.size(), total);
  }
  index->rows = rows;
  if (!GetVarint64(&in, &ncols) || ncols > in.size()) return Bad("column count", in.size(), total);
  index->columns.resize(ncols);
  for (auto& c : index->columns) {
    std::string_view name;
    if (!GetLengthPrefixed(&in, &name) || in.empty()) return Bad("column", in.size(), total);
    auto type = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    if (!IsValidFieldType(type)) return Bad("column type", in.size(), total);
    c.name = std::string(name);
    c.type = static_cast<ValueType>(type);
  }
  if (!GetVarint64(&in, &nseries) || nseries > in.size()) return Bad("series count", in.size(), total);
  index->series.resize(nseries);
  int64_t prev_id = -1;
  for (auto& s : index->series) {
    uint64_t id, ngroups;
    if (!GetVarint64(&in, &id) || id > UINT32_MAX || static_cast<int64_t>(id) <= prev_id ||
        !GetVarint64(&in, &ngroups) || ngroups == 0 || ngroups > in.size()) {
      return Bad("series entry", in.size(), total);
    }
    prev_id = static_cast<int64_t>(id);
    s.id = static_cast<SeriesId>(id);
    s.first_group = static_cast<uint32_t>(index->groups.size());
    s.num_groups = static_cast<uint32_t>(ngroups);
    s.rows = 0;
    for (uint64_t g = 0; g < ngroups; ++g) {
      RowGroupMeta group;
      uint64_t grows, span, toff, tlen;
      if (!GetVarint64(&in, &grows) || grows == 0 || grows > kRowsPerGroup ||
          !GetVarsint64(&in, &group.min_time) || !GetVarint64(&in, &span) ||
          !GetVarint64(&in, &toff) || !GetVarint64(&in, &tlen) || tlen > UINT32_MAX ||
          !GetFixed32(&in, &group.time_crc)) {
        return Bad("row group", in.size(), total);
      }
      group.rows = static_cast<uint32_t>(grows);
      // A span that would carry max_time past INT64_MAX is corrupt.
      if (span > static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(group.min_time)) {
        return Bad("row group time span", in.size(), total);
      }
      group.max_time = static_cast<int64_t>(static_cast<uint64_t>(group.min_time) + span);
      group.time_offset = toff;
      group.time_length = static_cast<uint32_t>(tlen);
      group.first_column = static_cast<uint32_t>(index->chunks.size());
      uint64_t slen, soff;
      if (!GetVarint64(&in, &slen) || slen > UINT32_MAX) return Bad("row group slices", in.size(), total);
      if (slen > 0) {
        if (!GetVarint64(&in, &soff) || !GetFixed32(&in, &group.slices_crc)) {
          return Bad("row group slices", in.size(), total);
        }
        group.slices_offset = soff;
        group.slices_length = static_cast<uint32_t>(slen);
      }
      for (uint64_t c = 0; c < ncols; ++c) {
        ColumnChunkMeta m;
        if (in.empty()) return Bad("chunk", in.size(), total);
        auto presence = static_cast<uint8_t>(in[0]);
        in.remove_prefix(1);
        if (presence > ColumnChunkMeta::kWithValidity) return Bad("chunk presence", in.size(), total);
        m.presence = static_cast<ColumnChunkMeta::Presence>(presence);
        if (m.presence != ColumnChunkMeta::kAbsent) {
          uint64_t off, len;
          if (!GetVarint64(&in, &off) || !GetVarint64(&in, &len) || len > UINT32_MAX ||
              !GetFixed32(&in, &m.crc)) {
            return Bad("chunk location", in.size(), total);
          }
          m.offset = off;
          m.length = static_cast<uint32_t>(len);
          if (m.presence == ColumnChunkMeta::kWithValidity) {
            if (!GetVarint64(&in, &off) || !GetVarint64(&in, &len) || len > UINT32_MAX ||
                !GetFixed32(&in, &m.validity_crc)) {
              return Bad("validity location", in.size(), total);
            }
            m.validity_offset = off;
            m.validity_length = static_cast<uint32_t>(len);
          }
          if (!DecodeColumnStats(index->columns[c].type, &in, &m.stats) || m.stats.count > grows) {
            return Bad("chunk statistics", in.size(), total);
          }
          uint64_t sslen, ssoff;
          if (!GetVarint64(&in, &sslen) || sslen > UINT32_MAX) return Bad("slice statistics", in.size(), total);
          if (sslen > 0) {
            if (!GetVarint64(&in, &ssoff) || !GetFixed32(&in, &m.slice_stats_crc)) {
              return Bad("slice statistics", in.size(), total);
            }
            m.slice_stats_offset = ssoff;
            m.slice_stats_length = static_cast<uint32_t>(sslen);
          }
        }
        index->chunks.push_back(m);
      }
      s.rows += group.rows;
      if (g == 0) s.min_time = group.min_time;
      s.max_time = group.max_time;
      index->groups.push_back(group);
    }
  }
  if (!in.empty()) return Bad("trailing bytes", in.size(), total);
  return Status::OK();
}

}  // namespace gnomon::storage
