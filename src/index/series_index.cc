#include "src/index/series_index.h"

#include <algorithm>

#include "src/base/hash.h"

namespace gnomon::index {

bool SeriesIndex::Matches(SeriesId id, std::span<const TagRef> tags) const {
  const uint8_t* run = series_[id];
  const uint32_t* keyset = keysets_[SeriesRun::Keyset(run)];
  if (keyset[0] != tags.size()) return false;
  SeriesRun::Reader values(run, keyset[0]);
  for (size_t i = 0; i < tags.size(); ++i) {
    const TagKey& k = *keys_[keyset[1 + i]];
    if (k.name() != tags[i].key || k.Value(values.Next()) != tags[i].value) return false;
  }
  return true;
}

std::optional<SeriesId> SeriesIndex::Find(uint64_t hash, std::span<const TagRef> tags) const {
  return series_index_.Find(hash, [&](uint32_t id) { return Matches(id, tags); });
}

std::optional<uint32_t> SeriesIndex::FindKey(std::string_view key) const {
  return key_index_.Find(Hash64(key), [&](uint32_t id) { return keys_[id]->name() == key; });
}

const PostingList* SeriesIndex::Postings(std::string_view key, std::string_view value) const {
  auto k = FindKey(key);
  if (!k) return nullptr;
  const TagKey& tag_key = *keys_[*k];
  auto v = tag_key.FindValue(value, Hash64(value));
  if (!v) return nullptr;
  return &tag_key.postings(*v);
}

std::vector<std::string> SeriesIndex::SortedKeyNames() const {
  std::vector<std::string> out;
  out.reserve(keys_.size());
  for (size_t k = 0; k < keys_.size(); ++k) out.emplace_back(keys_[k]->name());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> SeriesIndex::SortedValues(std::string_view key) const {
  std::vector<std::string> out;
  auto k = FindKey(key);
  if (!k) return out;
  const TagKey& tag_key = *keys_[*k];
  out.reserve(tag_key.value_count());
  for (uint32_t v = 0; v < tag_key.value_count(); ++v) out.emplace_back(tag_key.Value(v));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint32_t> SeriesIndex::ValueCounts() const {
  std::vector<uint32_t> counts(keys_.size());
  for (size_t k = 0; k < keys_.size(); ++k) counts[k] = keys_[k]->value_count();
  return counts;
}

size_t SeriesIndex::MemoryUsage() const {
  size_t bytes = sizeof(*this) + arena_.MemoryUsage() + keys_.MemoryUsage() +
                 key_owners_.capacity() * sizeof(key_owners_[0]) + key_index_.MemoryUsage() +
                 keysets_.MemoryUsage() + keyset_index_.MemoryUsage() + series_.MemoryUsage() +
                 series_index_.MemoryUsage();
  for (const auto& k : key_owners_) bytes += k->MemoryUsage();
  return bytes;
}

uint32_t SeriesIndex::InternKey(std::string_view name) {
  uint64_t h = Hash64(name);
  if (auto id = key_index_.Find(h, [&](uint32_t id) { return keys_[id]->name() == name; })) {
    return *id;
  }
  auto id = static_cast<uint32_t>(keys_.size());
  key_owners_.push_back(std::make_unique<TagKey>(arena_.CopyString(name)));
  keys_.push_back(key_owners_.back().get());
  key_index_.Insert(h, id);
  return id;
}

uint32_t SeriesIndex::InternKeyset(std::span<const uint32_t> key_ids) {
  uint64_t h = Hash64(key_ids.data(), key_ids.size_bytes());
  auto found = keyset_index_.Find(h, [&](uint32_t id) {
    const uint32_t* ks = keysets_[id];
    return ks[0] == key_ids.size() && std::equal(key_ids.begin(), key_ids.end(), ks + 1);
  });
  if (found) return *found;
  uint32_t* run = arena_.AllocateU32(1 + key_ids.size());
  run[0] = static_cast<uint32_t>(key_ids.size());
  std::copy(key_ids.begin(), key_ids.end(), run + 1);
  auto id = static_cast<uint32_t>(keysets_.size());
  keysets_.push_back(run);
  keyset_index_.Insert(h, id);
  return id;
}

SeriesId SeriesIndex::AddInterned(uint64_t hash, uint32_t keyset,
                                  std::span<const uint32_t> key_ids,
                                  std::span<const uint32_t> value_ids) {
  GNOMON_CHECK(series_.size() < kMaxSeries);
  auto id = static_cast<SeriesId>(series_.size());
  series_index_.Insert(hash, id);
  StoreInterned(id, keyset, key_ids, value_ids);
  return id;
}

std::optional<SeriesId> SeriesIndex::AddInternedUnlessPresent(uint64_t hash, uint32_t keyset,
                                                              std::span<const uint32_t> key_ids,
                                                              std::span<const uint32_t> value_ids,
                                                              std::span<const TagRef> tags) {
  GNOMON_CHECK(series_.size() < kMaxSeries);
  auto id = static_cast<SeriesId>(series_.size());
  const uint32_t existing =
      series_index_.InsertUnlessPresent(hash, id, [&](uint32_t other) { return Matches(other, tags); });
  if (existing != HashIndex::kNoId) return std::nullopt;
  StoreInterned(id, keyset, key_ids, value_ids);
  return id;
}

void SeriesIndex::StoreInterned(SeriesId id, uint32_t keyset, std::span<const uint32_t> key_ids,
                                std::span<const uint32_t> value_ids) {
  GNOMON_DCHECK(id == series_.size());
  series_.push_back(SeriesRun::Write(keyset, value_ids, &arena_));
  for (size_t i = 0; i < key_ids.size(); ++i) keys_[key_ids[i]]->postings(value_ids[i]).Add(id);
}

SeriesId SeriesIndex::Add(uint64_t hash, std::span<const TagRef> tags) {
  // Small fixed buffers cover real tag sets; the vector path keeps kMaxTagsPerSeries legal.
  uint32_t key_buf[64], value_buf[64];
  std::vector<uint32_t> key_vec, value_vec;
  uint32_t* key_ids = key_buf;
  uint32_t* value_ids = value_buf;
  if (tags.size() > 64) {
    key_vec.resize(tags.size());
    value_vec.resize(tags.size());
    key_ids = key_vec.data();
    value_ids = value_vec.data();
  }
  for (size_t i = 0; i < tags.size(); ++i) {
    key_ids[i] = InternKey(tags[i].key);
    value_ids[i] = keys_[key_ids[i]]->InternValue(tags[i].value, Hash64(tags[i].value), &arena_);
  }
  std::span<const uint32_t> keys(key_ids, tags.size()), values(value_ids, tags.size());
  return AddInterned(hash, InternKeyset(keys), keys, values);
}

std::string_view SeriesIndex::TagValue(SeriesId id, std::string_view key) const {
  const uint8_t* run = series_[id];
  const uint32_t* keyset = keysets_[SeriesRun::Keyset(run)];
  // Keys of a series are sorted by name: binary search.
  size_t lo = 0, hi = keyset[0];
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const TagKey& k = *keys_[keyset[1 + mid]];
    int c = k.name().compare(key);
    if (c == 0) return k.Value(SeriesRun::Value(run, keyset[0], mid));
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return {};
}

void SeriesIndex::TagColumns(std::span<const SeriesId> ids, std::span<const uint32_t> key_ids,
                             std::string_view* out, uint32_t* value_ids) const {
  const size_t nkeys = key_ids.size();
  // A table's series share a few keysets, mostly one: the keys' places in the keyset of the
  // previous series usually serve the next.
  uint32_t keyset_id = UINT32_MAX;
  const uint32_t* keyset = nullptr;
  std::vector<int> place(nkeys, -1);  // per requested key: its index in the keyset, or -1
  std::vector<uint32_t> values;       // the series' value ids, in keyset order
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint8_t* run = series_[ids[i]];
    if (SeriesRun::Keyset(run) != keyset_id) {
      keyset_id = SeriesRun::Keyset(run);
      keyset = keysets_[keyset_id];
      for (size_t k = 0; k < nkeys; ++k) {
        const uint32_t* first = keyset + 1;
        const uint32_t* found = std::find(first, first + keyset[0], key_ids[k]);
        place[k] = found == first + keyset[0] ? -1 : static_cast<int>(found - first);
      }
      values.resize(keyset[0]);
    }
    SeriesRun::Reader reader(run, keyset[0]);
    for (uint32_t& v : values) v = reader.Next();
    std::string_view* row = out + i * nkeys;
    for (size_t k = 0; k < nkeys; ++k) {
      row[k] = place[k] < 0 ? std::string_view() : keys_[key_ids[k]]->Value(values[place[k]]);
    }
    if (value_ids != nullptr) {
      uint32_t* row_ids = value_ids + i * nkeys;
      for (size_t k = 0; k < nkeys; ++k) row_ids[k] = place[k] < 0 ? kNoValue : values[place[k]];
    }
  }
}

}  // namespace gnomon::index
