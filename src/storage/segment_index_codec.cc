// Encoding of the segment index section (docs/format/segment.md, "Index").
#include <algorithm>
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

namespace {

void EncodeChunk(ValueType type, const ColumnChunkMeta& m, std::string* out) {
  out->push_back(static_cast<char>(m.presence));
  if (m.presence == ColumnChunkMeta::kAbsent) return;
  PutVarint64(out, m.offset);
  PutVarint64(out, m.length);
  PutFixed32(out, m.crc);
  if (m.presence == ColumnChunkMeta::kWithValidity) {
    PutVarint64(out, m.validity_offset);
    PutVarint64(out, m.validity_length);
    PutFixed32(out, m.validity_crc);
  }
  EncodeColumnStats(type, m.stats, out);
  PutVarint64(out, m.slice_stats_length);
  if (m.slice_stats_length > 0) {
    PutVarint64(out, m.slice_stats_offset);
    PutFixed32(out, m.slice_stats_crc);
  }
}

// One chunk of a group (or pack) of `rows` rows. False on bad bytes.
bool DecodeChunk(ValueType type, uint64_t rows, std::string_view* in, ColumnChunkMeta* m) {
  if (in->empty()) return false;
  auto presence = static_cast<uint8_t>((*in)[0]);
  in->remove_prefix(1);
  if (presence > ColumnChunkMeta::kWithValidity) return false;
  m->presence = static_cast<ColumnChunkMeta::Presence>(presence);
  if (m->presence == ColumnChunkMeta::kAbsent) return true;
  uint64_t off, len;
  if (!GetVarint64(in, &off) || !GetVarint64(in, &len) || len > UINT32_MAX || !GetFixed32(in, &m->crc)) {
    return false;
  }
  m->offset = off;
  m->length = static_cast<uint32_t>(len);
  if (m->presence == ColumnChunkMeta::kWithValidity) {
    if (!GetVarint64(in, &off) || !GetVarint64(in, &len) || len > UINT32_MAX || !GetFixed32(in, &m->validity_crc)) {
      return false;
    }
    m->validity_offset = off;
    m->validity_length = static_cast<uint32_t>(len);
  }
  if (!DecodeColumnStats(type, in, &m->stats) || m->stats.count > rows) return false;
  uint64_t sslen, ssoff;
  if (!GetVarint64(in, &sslen) || sslen > UINT32_MAX) return false;
  if (sslen > 0) {
    if (!GetVarint64(in, &ssoff) || !GetFixed32(in, &m->slice_stats_crc)) return false;
    m->slice_stats_offset = ssoff;
    m->slice_stats_length = static_cast<uint32_t>(sslen);
  }
  return true;
}

// max >= min, so the span fits in uint64 even where int64 subtraction would overflow.
void PutTimeSpan(std::string* out, int64_t min_time, int64_t max_time) {
  PutVarsint64(out, min_time);
  PutVarint64(out, static_cast<uint64_t>(max_time) - static_cast<uint64_t>(min_time));
}

// A span that would carry max_time past INT64_MAX is corrupt.
bool GetTimeSpan(std::string_view* in, int64_t* min_time, int64_t* max_time) {
  uint64_t span;
  if (!GetVarsint64(in, min_time) || !GetVarint64(in, &span)) return false;
  if (span > static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(*min_time)) return false;
  *max_time = static_cast<int64_t>(static_cast<uint64_t>(*min_time) + span);
  return true;
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
  PutVarint64(out, index.packs.size());
  for (const PackMeta& p : index.packs) {
    PutVarint64(out, p.rows);
    PutVarint64(out, p.time_offset);
    PutVarint64(out, p.time_length);
    PutFixed32(out, p.time_crc);
    for (size_t c = 0; c < index.columns.size(); ++c) {
      EncodeChunk(index.columns[c].type, index.chunks[p.first_column + c], out);
    }
  }
  PutVarint64(out, index.series.size());
  for (const SeriesMeta& s : index.series) {
    PutVarint64(out, s.id);
    if (s.packed()) {  // a packed series: ngroups 0, then where it is
      PutVarint64(out, 0);
      PutVarint64(out, s.pack);
      PutVarint64(out, s.rows);
      // Its times relative to the segment's first: a byte or two, not nine.
      PutVarint64(out, static_cast<uint64_t>(s.min_time) - static_cast<uint64_t>(index.min_time));
      PutVarint64(out, static_cast<uint64_t>(s.max_time) - static_cast<uint64_t>(s.min_time));
      continue;
    }
    PutVarint64(out, s.num_groups);
    for (uint32_t g = 0; g < s.num_groups; ++g) {
      const RowGroupMeta& group = index.groups[s.first_group + g];
      PutVarint64(out, group.rows);
      PutTimeSpan(out, group.min_time, group.max_time);
      PutVarint64(out, group.time_offset);
      PutVarint64(out, group.time_length);
      PutFixed32(out, group.time_crc);
      PutVarint64(out, group.slices_length);
      if (group.slices_length > 0) {
        PutVarint64(out, group.slices_offset);
        PutFixed32(out, group.slices_crc);
      }
      for (size_t c = 0; c < index.columns.size(); ++c) {
        EncodeChunk(index.columns[c].type, index.chunks[group.first_column + c], out);
      }
    }
  }
}

size_t SegmentIndex::MemoryUsage() const {
  size_t bytes = table.capacity() + series.MemoryUsage() + groups.capacity() * sizeof(RowGroupMeta) +
                 packs.capacity() * sizeof(PackMeta) + chunks.capacity() * sizeof(ColumnChunkMeta);
  for (const SegmentColumn& c : columns) bytes += sizeof(c) + c.name.capacity();
  return bytes;
}

RowGroupMeta PackGroup(const PackMeta& pack) {
  RowGroupMeta group;
  group.rows = pack.rows;
  group.time_offset = pack.time_offset;
  group.time_length = pack.time_length;
  group.time_crc = pack.time_crc;
  group.first_column = pack.first_column;
  return group;
}

RowGroupMeta SeriesGroup(const SegmentIndex& index, const SeriesMeta& meta, uint32_t k) {
  if (!meta.packed()) return index.groups[meta.first_group + k];
  RowGroupMeta group = PackGroup(index.packs[meta.pack]);
  group.rows = meta.rows;
  group.min_time = meta.min_time;
  group.max_time = meta.max_time;
  group.pack = meta.pack;
  group.pack_first_row = meta.pack_first_row;
  return group;
}

Status DecodeSegmentIndex(std::string_view in, SegmentIndex* index, uint32_t version) {
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
  auto decode_chunks = [&](uint64_t group_rows) -> Status {
    for (uint64_t c = 0; c < ncols; ++c) {
      ColumnChunkMeta m;
      if (!DecodeChunk(index->columns[c].type, group_rows, &in, &m)) return Bad("chunk", in.size(), total);
      index->chunks.push_back(m);
    }
    return Status::OK();
  };
  uint64_t npacks = 0;
  if (version >= 5 && (!GetVarint64(&in, &npacks) || npacks > in.size())) {
    return Bad("pack count", in.size(), total);
  }
  index->packs.resize(npacks);
  for (PackMeta& p : index->packs) {
    uint64_t prows, toff, tlen;
    if (!GetVarint64(&in, &prows) || prows == 0 || prows > kRowsPerPack || !GetVarint64(&in, &toff) ||
        !GetVarint64(&in, &tlen) || tlen > UINT32_MAX || !GetFixed32(&in, &p.time_crc)) {
      return Bad("pack", in.size(), total);
    }
    p.rows = static_cast<uint32_t>(prows);
    p.time_offset = toff;
    p.time_length = static_cast<uint32_t>(tlen);
    p.first_column = static_cast<uint32_t>(index->chunks.size());
    GNOMON_RETURN_IF_ERROR(decode_chunks(prows));
  }
  std::vector<uint32_t> pack_fill(npacks, 0);  // rows of each pack claimed by series so far
  if (!GetVarint64(&in, &nseries) || nseries > in.size()) return Bad("series count", in.size(), total);
  index->series.reserve(nseries);
  int64_t prev_id = -1;
  for (uint64_t i = 0; i < nseries; ++i) {
    SeriesMeta s;
    uint64_t id, ngroups;
    if (!GetVarint64(&in, &id) || id > UINT32_MAX || static_cast<int64_t>(id) <= prev_id ||
        !GetVarint64(&in, &ngroups) || (ngroups == 0 && npacks == 0) || ngroups > in.size()) {
      return Bad("series entry", in.size(), total);
    }
    prev_id = static_cast<int64_t>(id);
    s.id = static_cast<SeriesId>(id);
    s.first_group = static_cast<uint32_t>(index->groups.size());
    s.num_groups = static_cast<uint32_t>(std::max<uint64_t>(ngroups, 1));
    s.rows = 0;
    if (ngroups == 0) {
      // Packed: its rows follow those of the series before it in the same pack.
      uint64_t pack, srows;
      uint64_t from_start, span;
      if (!GetVarint64(&in, &pack) || pack >= npacks || !GetVarint64(&in, &srows) || srows == 0 ||
          srows > index->packs[pack].rows - pack_fill[pack] || !GetVarint64(&in, &from_start) ||
          !GetVarint64(&in, &span) ||
          from_start > static_cast<uint64_t>(index->max_time) - static_cast<uint64_t>(index->min_time) ||
          span > static_cast<uint64_t>(index->max_time) - static_cast<uint64_t>(index->min_time) - from_start) {
        return Bad("packed series", in.size(), total);
      }
      s.min_time = static_cast<int64_t>(static_cast<uint64_t>(index->min_time) + from_start);
      s.max_time = static_cast<int64_t>(static_cast<uint64_t>(s.min_time) + span);
      s.rows = static_cast<uint32_t>(srows);
      s.first_group = 0;
      s.pack = static_cast<uint32_t>(pack);
      s.pack_first_row = pack_fill[pack];
      pack_fill[pack] += s.rows;
      index->series.push_back(s);
      continue;
    }
    for (uint64_t g = 0; g < ngroups; ++g) {
      RowGroupMeta group;
      uint64_t grows, toff, tlen;
      if (!GetVarint64(&in, &grows) || grows == 0 || grows > kRowsPerGroup) return Bad("row group", in.size(), total);
      if (!GetTimeSpan(&in, &group.min_time, &group.max_time)) return Bad("row group time span", in.size(), total);
      if (!GetVarint64(&in, &toff) || !GetVarint64(&in, &tlen) || tlen > UINT32_MAX ||
          !GetFixed32(&in, &group.time_crc)) {
        return Bad("row group", in.size(), total);
      }
      group.rows = static_cast<uint32_t>(grows);
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
      GNOMON_RETURN_IF_ERROR(decode_chunks(grows));
      s.rows += group.rows;
      if (g == 0) s.min_time = group.min_time;
      s.max_time = group.max_time;
      index->groups.push_back(group);
    }
    index->series.push_back(s);
  }
  index->series.ShrinkToFit();
  for (size_t p = 0; p < npacks; ++p) {
    if (pack_fill[p] != index->packs[p].rows) return Bad("pack not covered by its series", in.size(), total);
  }
  if (!in.empty()) return Bad("trailing bytes", in.size(), total);
  return Status::OK();
}

}  // namespace gnomon::storage
