// SeriesTable: the series of a segment's index (ascending id), held compactly, because a segment
// of a large fleet lists millions of short series and every open segment keeps its list in
// memory. A packed series costs about 6.5 bytes instead of a 40-byte SeriesMeta: its id and one
// 16-bit word (its rows, and whether it opens a new pack or a new time span). Everything else
// follows from the series before it: packed series fill their pack in id order (each starts where
// the one before it in the same pack ended), packs are numbered in order, and a fleet sampled at
// the same instants shares one time span per flush. Every 32nd series has an anchor holding that
// running state, so a lookup replays at most 31 words; iteration carries the state along.
// Series that do not follow the pattern (unpacked series, few and long, or a packed series out
// of place) keep their whole SeriesMeta.
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

  // The running state of the compact encoding before a series: the pack and span of the last
  // compact series, the row where the next one in that pack starts, and how many series so far
  // were stored whole.
  struct Cursor {
    uint32_t pack = kNoPack;  // kNoPack + 1 wraps to pack 0
    uint32_t span = UINT32_MAX;
    uint32_t next_row = 0;
    uint32_t whole = 0;
  };

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = SeriesMeta;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = SeriesMeta;
    Iterator() = default;
    Iterator(const SeriesTable* table, size_t i, Cursor cursor) : table_(table), i_(i), cursor_(cursor) {}
    SeriesMeta operator*() const { return table_->Decode(i_, cursor_); }
    // The current series' id, without decoding the rest.
    SeriesId id() const { return table_->ids_[i_]; }
    Iterator& operator++() { table_->Advance(i_++, &cursor_); return *this; }
    Iterator operator++(int) { Iterator old = *this; ++*this; return old; }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }

   private:
    const SeriesTable* table_ = nullptr;
    size_t i_ = 0;
    Cursor cursor_;
  };

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  SeriesId id(size_t i) const { return ids_[i]; }
  // Replays up to 31 words from the nearest anchor; iterate to visit many.
  SeriesMeta operator[](size_t i) const;
  SeriesMeta front() const { return (*this)[0]; }
  SeriesMeta back() const { return (*this)[size() - 1]; }
  Iterator begin() const { return Iterator(this, 0, Cursor{}); }
  Iterator end() const { return Iterator(this, size(), Cursor{}); }

  // Position of series `id`, or kNotFound.
  size_t Find(SeriesId id) const;
  // The same, searching forward from *hint (0 to start), which moves to where the search ended:
  // a scan of ascending ids that keeps its hint costs O(1) a series where the ids are dense and
  // O(log gap) where they are sparse, instead of a binary search over the whole table each.
  // Any hint is correct; one past the id restarts from the front.
  size_t FindFrom(SeriesId id, size_t* hint) const;

  // REQUIRES: meta.id above every id already added.
  void push_back(const SeriesMeta& meta);
  void reserve(size_t series);
  // Drops spare capacity (a table decoded or written whole grows no more).
  void ShrinkToFit();

  // Heap bytes held.
  size_t MemoryUsage() const;

 private:
  static constexpr size_t kAnchorEvery = 32;
  // A word: the series' rows in the low 14 bits (a pack holds at most 8,192), and two flags.
  // Word 0 marks a series stored whole.
  static constexpr uint16_t kRowsMask = 0x3FFF;
  static constexpr uint16_t kNewPack = 0x4000;
  static constexpr uint16_t kNewSpan = 0x8000;

  struct TimeSpan {
    int64_t min_time;
    int64_t max_time;
  };

  // Series i read with the state before it.
  SeriesMeta Decode(size_t i, const Cursor& before) const;
  // Moves `cursor` from before series i to after it.
  void Advance(size_t i, Cursor* cursor) const;

  std::vector<SeriesId> ids_;
  std::vector<uint16_t> words_;
  std::vector<Cursor> anchors_;  // the state before series k * kAnchorEvery
  std::vector<TimeSpan> spans_;
  std::vector<SeriesMeta> whole_;
  Cursor tail_;  // the state after the last series (push_back continues from it)
};

}  // namespace gnomon::storage
