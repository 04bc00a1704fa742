// SeriesIndex: the in-memory heart of a table's series registry. It interns tag keys and values,
// assigns dense series ids, maps a canonical tag set to its id (XXH3 of the canonical key bytes in
// a HashIndex), and keeps the inverted index key=value -> series ids. No I/O and no locking: the
// SeriesRegistry wraps it with a lock, the log and the snapshot.
//
// Layout (memory per series matters at millions of series):
//   keys_       key id -> TagKey (name, interned values, postings per value)
//   keysets_    keyset id -> [n, key id 0 .. key id n-1]   (series of one table share a few)
//   series_     series id -> its SeriesRun: keyset id, value ids at 1-4 bytes each (per key)
// All three are StableVectors of pointers into an Arena, so published entries never move.
//
// Thread-safety: methods marked "lock-free" read only immutable, never-moving memory and are safe
// concurrently with a writer once the id (or key) was published to the caller. Every other const
// method needs at least a shared lock, every non-const method an exclusive one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/index/arena.h"
#include "src/index/hash_index.h"
#include "src/index/series_key.h"
#include "src/index/series_run.h"
#include "src/index/stable_vector.h"
#include "src/index/tag_key.h"

namespace gnomon::index {

class SeriesIndex;

// The tags of one series as views into registry-owned memory; cheap to copy (three pointers).
// Each element is resolved on access. Valid as long as the registry lives.
class SeriesTags {
 public:
  class Iterator {
   public:
    using value_type = TagRef;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(const SeriesTags* tags, size_t i) : tags_(tags), i_(i) {}
    TagRef operator*() const { return (*tags_)[i_]; }
    Iterator& operator++() { ++i_; return *this; }
    Iterator operator++(int) { Iterator old = *this; ++i_; return old; }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }

   private:
    const SeriesTags* tags_ = nullptr;
    size_t i_ = 0;
  };

  size_t size() const { return keyset_[0]; }
  bool empty() const { return size() == 0; }
  TagRef operator[](size_t i) const;
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }
  std::vector<TagRef> ToVector() const { return {begin(), end()}; }

 private:
  friend class SeriesIndex;
  SeriesTags(const SeriesIndex* index, const uint32_t* keyset, const uint8_t* run)
      : index_(index), keyset_(keyset), run_(run) {}

  const SeriesIndex* index_;
  const uint32_t* keyset_;  // [n, key ids...]
  const uint8_t* run_;      // the series' SeriesRun
};

class SeriesIndex {
 public:
  SeriesIndex() = default;
  SeriesIndex(const SeriesIndex&) = delete;
  SeriesIndex& operator=(const SeriesIndex&) = delete;

  // Writer-side counts (a reader without the lock uses the registry's published size).
  uint32_t series_count() const { return static_cast<uint32_t>(series_.size()); }
  uint32_t key_count() const { return static_cast<uint32_t>(keys_.size()); }

  // --- Shared lock.
  // `hash` is HashSeriesKey(tags); tags need not be canonical (then nothing matches).
  std::optional<SeriesId> Find(uint64_t hash, std::span<const TagRef> tags) const;
  // The posting list of key=value, or null if no series has that tag.
  const PostingList* Postings(std::string_view key, std::string_view value) const;
  std::optional<uint32_t> FindKey(std::string_view key) const;
  std::vector<std::string> SortedKeyNames() const;
  std::vector<std::string> SortedValues(std::string_view key) const;
  size_t MemoryUsage() const;

  // --- Exclusive lock.
  // REQUIRES: tags are canonical (ValidateCanonicalTags) and Find(hash, tags) found nothing;
  // series_count() < kMaxSeries. Returns the new id, series_count() before the call.
  SeriesId Add(uint64_t hash, std::span<const TagRef> tags);

  // --- Lock-free for a published id.
  // REQUIRES: id < a series count published to the caller.
  SeriesTags Tags(SeriesId id) const {
    const uint8_t* run = series_[id];
    return SeriesTags(this, keysets_[SeriesRun::Keyset(run)], run);
  }
  // Value of tag `key` of series `id`; empty if the series has no such tag.
  std::string_view TagValue(SeriesId id, std::string_view key) const;
  // The values of keys `key_ids` (FindKey's ids; kNoKey for a key no series has) of every series
  // of `ids`, row by row: out[i * key_ids.size() + k], empty where series i lacks key k. Finds
  // each key's place once per keyset, not by name per series and key as TagValue does. With
  // `value_ids`, also each value's id among its key's values at the same place (equal ids: equal
  // values), kNoValue where the series lacks the key.
  static constexpr uint32_t kNoKey = UINT32_MAX;
  static constexpr uint32_t kNoValue = UINT32_MAX;
  void TagColumns(std::span<const SeriesId> ids, std::span<const uint32_t> key_ids,
                  std::string_view* out, uint32_t* value_ids = nullptr) const;
  const TagKey& key(uint32_t key_id) const { return *keys_[key_id]; }

  // --- Snapshot body codec (series_snapshot.cc).
  // Encodes the first `series` series, the first `value_counts.size()` keys and for key k its
  // first value_counts[k] values: a consistent cut taken under the lock while the index may grow.
  void EncodeSnapshotBody(uint32_t series, std::span<const uint32_t> value_counts,
                          std::string* out) const;
  // Loads a snapshot body into an empty index. Bad bytes -> Corruption naming the body offset.
  Status DecodeSnapshotBody(std::string_view body);
  // Per-key value counts now (for a snapshot cut). Exclusive or shared lock.
  std::vector<uint32_t> ValueCounts() const;

 private:
  friend class SeriesTags;

  bool Matches(SeriesId id, std::span<const TagRef> tags) const;
  uint32_t InternKey(std::string_view name);
  uint32_t InternKeyset(std::span<const uint32_t> key_ids);
  // Stores a series given interned ids; returns its id.
  SeriesId AddInterned(uint64_t hash, uint32_t keyset, std::span<const uint32_t> key_ids,
                       std::span<const uint32_t> value_ids);
  // The same for a series (`tags`) not known to be new: nullopt, storing nothing, when it is
  // already present. One hash probe instead of Find's and then Add's.
  std::optional<SeriesId> AddInternedUnlessPresent(uint64_t hash, uint32_t keyset, std::span<const uint32_t> key_ids,
                                                   std::span<const uint32_t> value_ids, std::span<const TagRef> tags);
  // The series' run and postings, once its id is in series_index_.
  void StoreInterned(SeriesId id, uint32_t keyset, std::span<const uint32_t> key_ids,
                     std::span<const uint32_t> value_ids);

  Arena arena_;
  StableVector<TagKey*> keys_;
  std::vector<std::unique_ptr<TagKey>> key_owners_;
  HashIndex key_index_;
  StableVector<const uint32_t*> keysets_;
  HashIndex keyset_index_;
  StableVector<const uint8_t*, 8> series_;
  HashIndex series_index_{8};
};

inline TagRef SeriesTags::operator[](size_t i) const {
  const TagKey& k = index_->key(keyset_[1 + i]);
  return TagRef{k.name(), k.Value(SeriesRun::Value(run_, keyset_[0], i))};
}

}  // namespace gnomon::index
