#include "src/storage/series_table.h"

#include <algorithm>

#include "src/base/check.h"

namespace gnomon::storage {

SeriesMeta SeriesTable::Decode(size_t i, const Cursor& before) const {
  const uint16_t word = words_[i];
  if (word == 0) return whole_[before.whole];
  SeriesMeta meta;
  meta.id = ids_[i];
  meta.num_groups = 1;
  meta.rows = word & kRowsMask;
  const bool new_pack = (word & kNewPack) != 0;
  meta.pack = new_pack ? before.pack + 1 : before.pack;
  meta.pack_first_row = new_pack ? 0 : before.next_row;
  const TimeSpan& span = spans_[(word & kNewSpan) != 0 ? before.span + 1 : before.span];
  meta.min_time = span.min_time;
  meta.max_time = span.max_time;
  return meta;
}

void SeriesTable::Advance(size_t i, Cursor* cursor) const {
  const uint16_t word = words_[i];
  if (word == 0) {
    ++cursor->whole;
    return;
  }
  if ((word & kNewPack) != 0) {
    ++cursor->pack;
    cursor->next_row = 0;
  }
  cursor->next_row += word & kRowsMask;
  if ((word & kNewSpan) != 0) ++cursor->span;
}

SeriesMeta SeriesTable::operator[](size_t i) const {
  const size_t anchor = i / kAnchorEvery;
  Cursor cursor = anchors_[anchor];
  for (size_t j = anchor * kAnchorEvery; j < i; ++j) Advance(j, &cursor);
  return Decode(i, cursor);
}

size_t SeriesTable::Find(SeriesId id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) return kNotFound;
  return static_cast<size_t>(it - ids_.begin());
}

size_t SeriesTable::FindFrom(SeriesId id, size_t* hint) const {
  const size_t n = ids_.size();
  size_t lo = std::min(*hint, n);
  if (lo > 0 && ids_[lo - 1] >= id) lo = 0;  // the hint is past the id
  size_t p = lo;
  if (lo < n && ids_[lo] < id) {
    // Gallop: ids_[lo + bound / 2] < id, then search the rest of the last step.
    size_t bound = 1;
    while (lo + bound < n && ids_[lo + bound] < id) bound *= 2;
    p = static_cast<size_t>(std::lower_bound(ids_.begin() + lo + bound / 2 + 1,
                                             ids_.begin() + std::min(lo + bound + 1, n), id) -
                            ids_.begin());
  }
  *hint = p;
  return p < n && ids_[p] == id ? p : kNotFound;
}

void SeriesTable::push_back(const SeriesMeta& meta) {
  GNOMON_CHECK(ids_.empty() || ids_.back() < meta.id);
  if (ids_.size() % kAnchorEvery == 0) anchors_.push_back(tail_);
  ids_.push_back(meta.id);
  // A packed series is compact when it continues the pattern: the next rows of the current pack,
  // or the first rows of the next pack, with a row count that fits the word.
  const bool continues = meta.pack == tail_.pack && meta.pack_first_row == tail_.next_row;
  const bool opens = meta.pack == tail_.pack + 1 && meta.pack_first_row == 0;
  if (!meta.packed() || meta.num_groups != 1 || meta.first_group != 0 || meta.rows == 0 ||
      meta.rows > kRowsMask || !(continues || opens)) {
    words_.push_back(0);
    whole_.push_back(meta);
    ++tail_.whole;
    return;
  }
  uint16_t word = static_cast<uint16_t>(meta.rows);
  if (opens) word |= kNewPack;
  if (spans_.empty() || spans_.back().min_time != meta.min_time || spans_.back().max_time != meta.max_time) {
    word |= kNewSpan;
    spans_.push_back(TimeSpan{meta.min_time, meta.max_time});
  }
  words_.push_back(word);
  Advance(words_.size() - 1, &tail_);
}

void SeriesTable::reserve(size_t series) {
  ids_.reserve(series);
  words_.reserve(series);
  anchors_.reserve(series / kAnchorEvery + 1);
}

void SeriesTable::ShrinkToFit() {
  ids_.shrink_to_fit();
  words_.shrink_to_fit();
  anchors_.shrink_to_fit();
  spans_.shrink_to_fit();
  whole_.shrink_to_fit();
}

size_t SeriesTable::MemoryUsage() const {
  return ids_.capacity() * sizeof(SeriesId) + words_.capacity() * sizeof(uint16_t) +
         anchors_.capacity() * sizeof(Cursor) + spans_.capacity() * sizeof(TimeSpan) +
         whole_.capacity() * sizeof(SeriesMeta);
}

}  // namespace gnomon::storage
