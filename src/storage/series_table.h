// SeriesTable: the series of a segment's index (ascending id), held compactly, because a segment
// of a large fleet lists millions of short series and every open segment keeps its list in
// memory. A packed series costs 16 bytes instead of a 40-byte SeriesMeta: its id, its pack, its
// place in the pack (first row and rows, 16 bits each: a pack holds at most kRowsPerGroup rows)
// and a reference to its time span, stored once for a run of series that share it (a fleet
// sampled at the same instants shares one span per flush). Unpacked series, few and long, keep
// their whole SeriesMeta.
//
// Entries are read back as SeriesMeta values. Thread-safety: const methods may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "src/storage/scan.h"

namespace gnomon::storage {

inline constexpr uint32_t kNoPack = UINT32_MAX;

// A series of a segment. An unpacked one owns groups [first_group, first_group + num_groups) of
// SegmentIndex::groups; a packed one (pack != kNoPack) owns no entry there: its one group is
// rows [pack_first_row, pack_first_row + rows) of its pack (SeriesGroup makes it).
struct SeriesMeta {
  SeriesId id = 0;
  uint32_t first_group = 0;  // index into SegmentIndex::groups (unpacked series)
  uint32_t num_groups = 0;   // 1 for a packed series
  uint32_t rows = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
  uint32_t pack = kNoPack;   // index into SegmentIndex::packs, for a packed series
  uint32_t pack_first_row = 0;

  bool packed() const { return pack != kNoPack; }
};

class SeriesTable {
 public:
  static constexpr size_t kNotFound = SIZE_MAX;

  class Iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = SeriesMeta;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = SeriesMeta;
    Iterator() = default;
    Iterator(const SeriesTable* table, size_t i) : table_(table), i_(i) {}
    SeriesMeta operator*() const { return (*table_)[i_]; }
    Iterator& operator++() { ++i_; return *this; }
    Iterator operator++(int) { Iterator old = *this; ++i_; return old; }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }

   private:
    const SeriesTable* table_ = nullptr;
    size_t i_ = 0;
  };

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  SeriesId id(size_t i) const { return ids_[i]; }
  SeriesMeta operator[](size_t i) const;
  SeriesMeta front() const { return (*this)[0]; }
  SeriesMeta back() const { return (*this)[size() - 1]; }
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }

  // Position of series `id`, or kNotFound.
  size_t Find(SeriesId id) const;

  // REQUIRES: meta.id above every id already added; a packed meta's rows and pack_first_row
  // below 2^16.
  void push_back(const SeriesMeta& meta);
  void reserve(size_t series);
  // Drops spare capacity (a table decoded or written whole grows no more).
  void ShrinkToFit();

  // Heap bytes held.
  size_t MemoryUsage() const;

 private:
  struct TimeSpan {
    int64_t min_time;
    int64_t max_time;
  };

  std::vector<SeriesId> ids_;
  std::vector<uint32_t> pack_;   // kNoPack: an unpacked series
  std::vector<uint32_t> place_;  // packed: pack_first_row | rows << 16
  std::vector<uint32_t> ref_;    // packed: index into spans_; unpacked: into unpacked_
  std::vector<TimeSpan> spans_;
  std::vector<SeriesMeta> unpacked_;
};

}  // namespace gnomon::storage
