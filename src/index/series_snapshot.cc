#include "src/index/series_snapshot.h"

#include <zstd.h>

#include <algorithm>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/base/hash.h"
#include "src/index/series_index.h"

namespace gnomon::index {

namespace {

// Far above any real registry (1 M series is ~50 MB raw); guards the allocation a corrupted but
// CRC-passing header could ask for.
constexpr uint64_t kMaxBodyBytes = uint64_t{16} << 30;

Status BodyError(std::string_view body, std::string_view rest, std::string_view what) {
  return Status::Corruption("snapshot body offset " + std::to_string(body.size() - rest.size()) +
                            ": " + std::string(what));
}

}  // namespace

std::string FrameSnapshot(std::string_view body, SnapshotCompression compression) {
  std::string stored;
  std::string_view payload = body;
  if (compression == SnapshotCompression::kZstd) {
    stored.resize(ZSTD_compressBound(body.size()));
    size_t n = ZSTD_compress(stored.data(), stored.size(), body.data(), body.size(), 1);
    if (ZSTD_isError(n) || n >= body.size()) {
      compression = SnapshotCompression::kNone;  // incompressible (or zstd refused): store raw
    } else {
      stored.resize(n);
      payload = stored;
    }
  }
  std::string out;
  out.reserve(kSnapshotHeaderSize + payload.size() + 4);
  out.append(kSnapshotMagic);
  PutFixed32(&out, kSnapshotVersion);
  PutFixed32(&out, static_cast<uint32_t>(compression));
  PutFixed64(&out, body.size());
  PutFixed64(&out, payload.size());
  out.append(payload);
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out)));
  return out;
}

Result<std::string> UnframeSnapshot(std::string_view file, std::string_view name) {
  auto corrupt = [&](std::string what) {
    return Status::Corruption(std::string(name) + ": " + what);
  };
  if (file.size() < kSnapshotHeaderSize + 4) {
    return corrupt("file of " + std::to_string(file.size()) + " bytes is shorter than a snapshot");
  }
  if (file.substr(0, kSnapshotMagic.size()) != kSnapshotMagic) return corrupt("bad magic at offset 0");
  uint32_t version = DecodeFixed32(file.data() + 8);
  uint32_t compression = DecodeFixed32(file.data() + 12);
  uint64_t raw_len = DecodeFixed64(file.data() + 16);
  uint64_t stored_len = DecodeFixed64(file.data() + 24);
  if (stored_len != file.size() - kSnapshotHeaderSize - 4) {
    return corrupt("stored length " + std::to_string(stored_len) + " at offset 24 does not match file size " +
                   std::to_string(file.size()));
  }
  size_t crc_at = file.size() - 4;
  uint32_t expected = crc32c::Unmask(DecodeFixed32(file.data() + crc_at));
  if (crc32c::Value(file.data(), crc_at) != expected) {
    return corrupt("checksum mismatch (crc at offset " + std::to_string(crc_at) + ")");
  }
  // Checked after the CRC so that a torn or garbled header is reported as such, not as a version.
  if (version != kSnapshotVersion) {
    return Status::Unsupported(std::string(name) + ": snapshot version " + std::to_string(version) +
                               " (this build reads " + std::to_string(kSnapshotVersion) + ")");
  }
  std::string_view stored = file.substr(kSnapshotHeaderSize, stored_len);
  if (raw_len > kMaxBodyBytes) return corrupt("body length " + std::to_string(raw_len) + " too large");
  if (compression == static_cast<uint32_t>(SnapshotCompression::kNone)) {
    if (raw_len != stored_len) return corrupt("raw and stored lengths differ without compression");
    return std::string(stored);
  }
  if (compression != static_cast<uint32_t>(SnapshotCompression::kZstd)) {
    return corrupt("unknown compression " + std::to_string(compression) + " at offset 12");
  }
  std::string body(raw_len, '\0');
  size_t n = ZSTD_decompress(body.data(), body.size(), stored.data(), stored.size());
  if (ZSTD_isError(n) || n != raw_len) {
    return corrupt(std::string("zstd body does not decode to ") + std::to_string(raw_len) + " bytes" +
                   (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : std::string()));
  }
  return body;
}

// Body: keys (with their values), keysets, series. See docs/format/series-registry.md.
void SeriesIndex::EncodeSnapshotBody(uint32_t series, std::span<const uint32_t> value_counts,
                                     std::string* out) const {
  PutVarint32(out, static_cast<uint32_t>(value_counts.size()));
  for (size_t k = 0; k < value_counts.size(); ++k) {
    const TagKey& key = *keys_[k];
    PutLengthPrefixed(out, key.name());
    PutVarint32(out, value_counts[k]);
    for (uint32_t v = 0; v < value_counts[k]; ++v) PutLengthPrefixed(out, key.Value(v));
  }
  // Keysets used by the first `series` series are a prefix of keysets_ (ids are assigned in order).
  uint32_t keysets = 0;
  for (uint32_t id = 0; id < series; ++id) keysets = std::max(keysets, SeriesRun::Keyset(series_[id]) + 1);
  PutVarint32(out, keysets);
  for (uint32_t ks = 0; ks < keysets; ++ks) {
    const uint32_t* run = keysets_[ks];
    PutVarint32(out, run[0]);
    for (uint32_t i = 0; i < run[0]; ++i) PutVarint32(out, run[1 + i]);
  }
  PutVarint32(out, series);
  for (uint32_t id = 0; id < series; ++id) {
    const uint8_t* run = series_[id];
    const uint32_t keyset = SeriesRun::Keyset(run);
    PutVarint32(out, keyset);
    const uint32_t n = keysets_[keyset][0];
    SeriesRun::Reader values(run, n);
    for (uint32_t i = 0; i < n; ++i) PutVarint32(out, values.Next());
  }
}

Status SeriesIndex::DecodeSnapshotBody(std::string_view body) {
  GNOMON_CHECK(series_.size() == 0 && keys_.size() == 0);
  std::string_view in = body;
  uint32_t key_count;
  if (!GetVarint32(&in, &key_count)) return BodyError(body, in, "truncated key count");
  for (uint32_t k = 0; k < key_count; ++k) {
    std::string_view name;
    uint32_t value_count;
    if (!GetLengthPrefixed(&in, &name) || !GetVarint32(&in, &value_count)) {
      return BodyError(body, in, "truncated key " + std::to_string(k));
    }
    if (name.empty() || name.size() > kMaxTagKeyBytes || InternKey(name) != k) {
      return BodyError(body, in, "key " + std::to_string(k) + " is empty, too long or repeated");
    }
    TagKey& key = *keys_[k];
    for (uint32_t v = 0; v < value_count; ++v) {
      std::string_view value;
      if (!GetLengthPrefixed(&in, &value)) return BodyError(body, in, "truncated value");
      uint64_t h = Hash64(value);
      if (value.empty() || value.size() > kMaxTagValueBytes || key.FindValue(value, h)) {
        return BodyError(body, in, "value " + std::to_string(v) + " of key '" + std::string(name) +
                                       "' is empty, too long or repeated");
      }
      key.InternValue(value, h, &arena_);
    }
  }
  uint32_t keyset_count;
  if (!GetVarint32(&in, &keyset_count)) return BodyError(body, in, "truncated keyset count");
  std::vector<uint32_t> ids;
  for (uint32_t ks = 0; ks < keyset_count; ++ks) {
    uint32_t n;
    if (!GetVarint32(&in, &n) || n > kMaxTagsPerSeries) return BodyError(body, in, "bad keyset size");
    ids.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (!GetVarint32(&in, &ids[i]) || ids[i] >= key_count) {
        return BodyError(body, in, "bad key id in keyset " + std::to_string(ks));
      }
      if (i > 0 && !(keys_[ids[i - 1]]->name() < keys_[ids[i]]->name())) {
        return BodyError(body, in, "keyset " + std::to_string(ks) + " is not sorted by key");
      }
    }
    if (InternKeyset(ids) != ks) return BodyError(body, in, "keyset " + std::to_string(ks) + " repeated");
  }
  uint32_t series_count;
  if (!GetVarint32(&in, &series_count) || series_count > kMaxSeries) {
    return BodyError(body, in, "bad series count");
  }
  std::vector<uint32_t> values;
  std::vector<TagRef> tags;
  series_index_.Reserve(series_count);
  for (uint32_t id = 0; id < series_count; ++id) {
    uint32_t ks;
    if (!GetVarint32(&in, &ks) || ks >= keyset_count) {
      return BodyError(body, in, "bad keyset id of series " + std::to_string(id));
    }
    const uint32_t* keyset = keysets_[ks];
    std::span<const uint32_t> key_ids(keyset + 1, keyset[0]);
    values.resize(keyset[0]);
    tags.resize(keyset[0]);
    for (uint32_t i = 0; i < keyset[0]; ++i) {
      const TagKey& key = *keys_[key_ids[i]];
      if (!GetVarint32(&in, &values[i]) || values[i] >= key.value_count()) {
        return BodyError(body, in, "bad value id of series " + std::to_string(id));
      }
      tags[i] = TagRef{key.name(), key.Value(values[i])};
    }
    if (!AddInternedUnlessPresent(HashSeriesKey(tags), ks, key_ids, values, tags)) {
      return BodyError(body, in, "series " + std::to_string(id) + " repeated");
    }
  }
  if (!in.empty()) return BodyError(body, in, "trailing bytes");
  return Status::OK();
}

}  // namespace gnomon::index
