#include "src/storage/series_table.h"

#include <algorithm>

#include "src/base/check.h"

namespace gnomon::storage {

SeriesMeta SeriesTable::operator[](size_t i) const {
  if (pack_[i] == kNoPack) return unpacked_[ref_[i]];
  SeriesMeta meta;
  meta.id = ids_[i];
  meta.num_groups = 1;
  meta.rows = place_[i] >> 16;
  meta.pack = pack_[i];
  meta.pack_first_row = place_[i] & 0xFFFF;
  const TimeSpan& span = spans_[ref_[i]];
  meta.min_time = span.min_time;
  meta.max_time = span.max_time;
  return meta;
}

size_t SeriesTable::Find(SeriesId id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) return kNotFound;
  return static_cast<size_t>(it - ids_.begin());
}

void SeriesTable::push_back(const SeriesMeta& meta) {
  GNOMON_CHECK(ids_.empty() || ids_.back() < meta.id);
  ids_.push_back(meta.id);
  pack_.push_back(meta.pack);
  if (!meta.packed()) {
    place_.push_back(0);
    ref_.push_back(static_cast<uint32_t>(unpacked_.size()));
    unpacked_.push_back(meta);
    return;
  }
  GNOMON_CHECK(meta.rows < (1u << 16) && meta.pack_first_row < (1u << 16));
  place_.push_back(meta.pack_first_row | (meta.rows << 16));
  if (spans_.empty() || spans_.back().min_time != meta.min_time || spans_.back().max_time != meta.max_time) {
    spans_.push_back(TimeSpan{meta.min_time, meta.max_time});
  }
  ref_.push_back(static_cast<uint32_t>(spans_.size() - 1));
}

void SeriesTable::reserve(size_t series) {
  ids_.reserve(series);
  pack_.reserve(series);
  place_.reserve(series);
  ref_.reserve(series);
}

void SeriesTable::ShrinkToFit() {
  ids_.shrink_to_fit();
  pack_.shrink_to_fit();
  place_.shrink_to_fit();
  ref_.shrink_to_fit();
  spans_.shrink_to_fit();
  unpacked_.shrink_to_fit();
}

size_t SeriesTable::MemoryUsage() const {
  return (ids_.capacity() + pack_.capacity() + place_.capacity() + ref_.capacity()) * sizeof(uint32_t) +
         spans_.capacity() * sizeof(TimeSpan) + unpacked_.capacity() * sizeof(SeriesMeta);
}

}  // namespace gnomon::storage
