#include "src/index/series_key.h"

#include <cstring>
#include <string>

#include "src/base/coding.h"
#include "src/base/hash.h"

namespace gnomon::index {

void AppendSeriesKey(std::span<const TagRef> tags, std::string* dst) {
  for (const TagRef& t : tags) {
    PutLengthPrefixed(dst, t.key);
    PutLengthPrefixed(dst, t.value);
  }
}

uint64_t HashSeriesKey(std::span<const TagRef> tags) {
  // Most series keys are a few hundred bytes: encode on the stack and hash once, which is faster
  // than XXH3's streaming state for short inputs.
  char stack[1024];
  size_t need = 0;
  for (const TagRef& t : tags) need += t.key.size() + t.value.size() + 2 * kMaxVarint64Bytes;
  if (need <= sizeof(stack)) {
    char* p = stack;
    for (const TagRef& t : tags) {
      p = EncodeVarint64(p, t.key.size());
      std::memcpy(p, t.key.data(), t.key.size());
      p += t.key.size();
      p = EncodeVarint64(p, t.value.size());
      std::memcpy(p, t.value.data(), t.value.size());
      p += t.value.size();
    }
    return Hash64(stack, static_cast<size_t>(p - stack));
  }
  std::string buf;
  buf.reserve(need);
  AppendSeriesKey(tags, &buf);
  return Hash64(buf);
}

Status ValidateCanonicalTags(std::span<const TagRef> tags) {
  if (tags.size() > kMaxTagsPerSeries) {
    return Status::InvalidArgument("series has " + std::to_string(tags.size()) +
                                   " tags, more than the limit of " +
                                   std::to_string(kMaxTagsPerSeries));
  }
  for (size_t i = 0; i < tags.size(); ++i) {
    const TagRef& t = tags[i];
    if (t.key.empty()) return Status::InvalidArgument("tag " + std::to_string(i) + " has an empty key");
    if (t.value.empty()) {
      return Status::InvalidArgument("tag '" + std::string(t.key) + "' has an empty value");
    }
    if (t.key.size() > kMaxTagKeyBytes || t.value.size() > kMaxTagValueBytes) {
      return Status::InvalidArgument("tag '" + std::string(t.key.substr(0, 64)) +
                                     "' is longer than the 64 KiB limit");
    }
    if (i > 0 && !(tags[i - 1].key < t.key)) {
      return Status::InvalidArgument("tags are not canonical: key '" + std::string(t.key) +
                                     "' does not sort strictly after '" +
                                     std::string(tags[i - 1].key) + "'");
    }
  }
  return Status::OK();
}

}  // namespace gnomon::index
