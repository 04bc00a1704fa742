// Series identity inside one table: a canonical tag set (tags sorted by key, keys unique, keys and
// values non-empty) and the bytes and hash that stand for it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::index {

using SeriesId = uint32_t;

// One tag as views into memory the caller (or the registry, for results) owns.
struct TagRef {
  std::string_view key;
  std::string_view value;
  friend bool operator==(const TagRef&, const TagRef&) = default;
};

// Limits that keep a single log record and the symbol tables bounded; longer input is rejected
// as InvalidArgument rather than stored.
constexpr size_t kMaxTagKeyBytes = 64 * 1024;
constexpr size_t kMaxTagValueBytes = 64 * 1024;
constexpr size_t kMaxTagsPerSeries = 1024;
// Ids are dense from 0; UINT32_MAX is reserved as "no id" inside hash tables.
constexpr uint64_t kMaxSeries = UINT32_MAX - 1;

// Appends the canonical key bytes of `tags`: for each tag, varint(len key) key varint(len value)
// value. The registry's log records carry exactly these bytes; HashSeriesKey hashes them.
void AppendSeriesKey(std::span<const TagRef> tags, std::string* dst);

// XXH3-64 of the canonical key bytes. The write path may compute it once per distinct raw series
// key and pass it to SeriesRegistry::Find/GetOrCreate overloads that take a hash.
uint64_t HashSeriesKey(std::span<const TagRef> tags);

// Ok when tags are canonical: strictly ascending keys (bytewise), non-empty keys and values, and
// within the limits above. The message names the offending tag.
Status ValidateCanonicalTags(std::span<const TagRef> tags);

}  // namespace gnomon::index
