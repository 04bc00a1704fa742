#include "src/index/series_registry.h"

#include <algorithm>
#include <utility>

#include "src/base/fault_point.h"
#include "src/base/logging.h"
#include "src/index/series_log.h"
#include "src/index/series_snapshot.h"

namespace gnomon::index {

SeriesRegistry::SeriesRegistry(port::Env* env, std::string dir, RegistryOptions options)
    : env_(env),
      dir_(std::move(dir)),
      log_path_(port::JoinPath(dir_, kSeriesLogName)),
      snapshot_path_(port::JoinPath(dir_, kSeriesSnapshotName)),
      options_(options) {}

SeriesRegistry::~SeriesRegistry() {
  // Best effort: a clean shutdown keeps what the engine did not sync. Errors have nowhere to go.
  (void)Sync();
  if (log_) (void)log_->Close();
}

Result<std::unique_ptr<SeriesRegistry>> SeriesRegistry::Open(port::Env* env, const std::string& dir,
                                                             RegistryOptions options) {
  std::unique_ptr<SeriesRegistry> registry(new SeriesRegistry(env, dir, options));
  GNOMON_RETURN_IF_ERROR(registry->Recover());
  return registry;
}

Status SeriesRegistry::Recover() {
  std::lock_guard<std::mutex> sync_lock(sync_mu_);
  std::unique_lock<std::shared_mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(env_->CreateDirs(dir_));
  // Leftovers of an interrupted WriteFileAtomic; the real files were never replaced by them.
  for (const std::string& tmp : {snapshot_path_ + ".tmp", log_path_ + ".tmp"}) {
    if (env_->FileExists(tmp)) GNOMON_RETURN_IF_ERROR(env_->RemoveFile(tmp));
  }
  if (env_->FileExists(snapshot_path_)) {
    GNOMON_ASSIGN_OR_RETURN(std::string file, port::ReadFileToString(env_, snapshot_path_));
    GNOMON_ASSIGN_OR_RETURN(std::string body, UnframeSnapshot(file, snapshot_path_));
    GNOMON_RETURN_IF_ERROR(index_.DecodeSnapshotBody(body).WithContext(snapshot_path_));
    snapshot_series_ = index_.series_count();
  }
  if (env_->FileExists(log_path_)) {
    GNOMON_RETURN_IF_ERROR(ReplayLog(log_path_));
  } else {
    GNOMON_RETURN_IF_ERROR(StartNewLog(snapshot_series_));
  }
  size_.store(index_.series_count(), std::memory_order_release);
  durable_.store(index_.series_count(), std::memory_order_release);
  return Status::OK();
}

Status SeriesRegistry::ReplayLog(const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(std::string contents, port::ReadFileToString(env_, path));
  const uint32_t in_snapshot = snapshot_series_;
  auto apply = [&](uint64_t offset, SeriesId id, std::span<const TagRef> tags) -> Status {
    auto where = [&] { return path + ": record of series " + std::to_string(id) + " at offset " +
                              std::to_string(offset); };
    uint64_t hash = HashSeriesKey(tags);
    std::optional<SeriesId> existing = index_.Find(hash, tags);
    if (id < in_snapshot) {
      // Left over from before the last checkpoint (crash before the log was reset): it must agree.
      if (existing != id) return Status::Corruption(where() + " disagrees with the snapshot");
      return Status::OK();
    }
    if (id != index_.series_count()) {
      return Status::Corruption(where() + ": ids jump from " + std::to_string(index_.series_count()));
    }
    if (existing) {
      return Status::Corruption(where() + " repeats series " + std::to_string(*existing));
    }
    index_.Add(hash, tags);
    return Status::OK();
  };
  LogReadResult result;
  GNOMON_RETURN_IF_ERROR(ReadSeriesLog(contents, path, apply, &result));
  if (result.base_id > in_snapshot) {
    return Status::Corruption(path + ": log starts at series " + std::to_string(result.base_id) +
                              " but the snapshot holds only " + std::to_string(in_snapshot));
  }
  log_base_ = result.base_id;
  if (uint64_t{result.base_id} + result.records < in_snapshot) {
    // A log from before the last checkpoint (the crash hit between the snapshot's rename and the
    // log's reset). Appending to it would leave a gap in ids: start the new log now.
    return StartNewLog(in_snapshot);
  }
  if (result.torn_tail && index_.series_count() < options_.known_series) {
    return Status::Corruption(path + ": damaged at offset " + std::to_string(result.valid_bytes) + ": " +
                              std::to_string(options_.known_series) + " series were written, " +
                              std::to_string(index_.series_count()) + " are readable");
  }
  if (result.torn_tail) {
    GNOMON_LOG_WARN("{}: cutting torn tail of {} bytes at offset {}", path,
                    contents.size() - result.valid_bytes, result.valid_bytes);
    GNOMON_RETURN_IF_ERROR(env_->TruncateFile(path, result.valid_bytes));
  }
  GNOMON_ASSIGN_OR_RETURN(log_, env_->NewAppendableFile(path));
  if (result.torn_tail) GNOMON_RETURN_IF_ERROR(log_->Sync());
  return Status::OK();
}

Status SeriesRegistry::StartNewLog(uint32_t base_id, std::string_view records) {
  std::string contents = EncodeLogHeader(base_id);
  contents.append(records);
  GNOMON_RETURN_IF_ERROR(port::WriteFileAtomic(env_, log_path_, contents));
  if (log_) {
    (void)log_->Close();  // the old file is already replaced; nothing of it is needed
    log_.reset();
  }
  GNOMON_ASSIGN_OR_RETURN(log_, env_->NewAppendableFile(log_path_));
  log_base_ = base_id;
  return Status::OK();
}

Result<SeriesId> SeriesRegistry::GetOrCreate(std::span<const TagRef> canonical_tags, bool* created) {
  return GetOrCreate(HashSeriesKey(canonical_tags), canonical_tags, created);
}

Result<SeriesId> SeriesRegistry::GetOrCreate(uint64_t hash, std::span<const TagRef> canonical_tags,
                                             bool* created) {
  if (created) *created = false;
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    if (auto id = index_.Find(hash, canonical_tags)) return *id;
  }
  // Only a miss pays for validation: a non-canonical tag set can never match a stored one.
  GNOMON_RETURN_IF_ERROR(ValidateCanonicalTags(canonical_tags));
  GNOMON_DCHECK(hash == HashSeriesKey(canonical_tags));
  std::unique_lock<std::shared_mutex> lock(mu_);
  if (auto id = index_.Find(hash, canonical_tags)) return *id;  // created meanwhile
  if (!bg_error_.ok()) return bg_error_;
  if (index_.series_count() >= kMaxSeries) {
    return Status::ResourceExhausted("series registry " + dir_ + " is full");
  }
  SeriesId id = index_.Add(hash, canonical_tags);
  AppendLogRecord(id, canonical_tags, &pending_);
  size_.store(id + 1, std::memory_order_release);
  if (created) *created = true;
  return id;
}

Status SeriesRegistry::GetOrCreateMany(std::span<const std::span<const TagRef>> tags,
                                       std::span<const uint64_t> hashes, std::span<SeriesId> ids,
                                       size_t* created) {
  GNOMON_DCHECK(tags.size() == hashes.size() && tags.size() == ids.size());
  if (created) *created = 0;
  std::vector<uint32_t> missing;
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (size_t i = 0; i < tags.size(); ++i) {
      if (auto id = index_.Find(hashes[i], tags[i])) {
        ids[i] = *id;
      } else {
        missing.push_back(static_cast<uint32_t>(i));
      }
    }
  }
  // Only a miss pays for validation: a non-canonical tag set can never match a stored one.
  for (uint32_t i : missing) {
    GNOMON_RETURN_IF_ERROR(ValidateCanonicalTags(tags[i]));
    GNOMON_DCHECK(hashes[i] == HashSeriesKey(tags[i]));
  }
  for (size_t begin = 0; begin < missing.size(); begin += kCreateChunk) {
    const size_t end = std::min(missing.size(), begin + kCreateChunk);
    std::unique_lock<std::shared_mutex> lock(mu_);
    if (!bg_error_.ok()) return bg_error_;
    for (size_t m = begin; m < end; ++m) {
      const uint32_t i = missing[m];
      // Created meanwhile by another writer, or earlier in this batch (a repeated tag set).
      if (auto id = index_.Find(hashes[i], tags[i])) {
        ids[i] = *id;
        continue;
      }
      if (index_.series_count() >= kMaxSeries) {
        return Status::ResourceExhausted("series registry " + dir_ + " is full");
      }
      const SeriesId id = index_.Add(hashes[i], tags[i]);
      AppendLogRecord(id, tags[i], &pending_);
      size_.store(id + 1, std::memory_order_release);
      ids[i] = id;
      if (created) ++*created;
    }
  }
  return Status::OK();
}

std::optional<SeriesId> SeriesRegistry::Find(std::span<const TagRef> canonical_tags) const {
  return Find(HashSeriesKey(canonical_tags), canonical_tags);
}

std::optional<SeriesId> SeriesRegistry::Find(uint64_t hash, std::span<const TagRef> canonical_tags) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return index_.Find(hash, canonical_tags);
}

Status SeriesRegistry::WriteToLog(std::string_view batch, uint32_t durable_through) {
  if (checkpointing_) since_cut_.append(batch);
  Status s = log_->Append(batch);
  if (s.ok()) GNOMON_FAULT_POINT("registry.before_sync");
  if (s.ok()) s = log_->Sync();
  if (!s.ok()) {
    s = s.WithContext(log_path_);
    std::unique_lock<std::shared_mutex> lock(mu_);
    bg_error_ = s;
    return s;
  }
  durable_.store(durable_through, std::memory_order_release);
  return Status::OK();
}

Status SeriesRegistry::Sync() {
  if (durable_.load(std::memory_order_acquire) == size_.load(std::memory_order_acquire)) {
    return Status::OK();
  }
  std::lock_guard<std::mutex> sync_lock(sync_mu_);
  std::string batch;
  uint32_t through;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    if (!bg_error_.ok()) return bg_error_;
    batch.swap(pending_);
    through = index_.series_count();
  }
  if (batch.empty()) return Status::OK();  // a concurrent Sync wrote it
  return WriteToLog(batch, through);
}

Status SeriesRegistry::Checkpoint() {
  std::lock_guard<std::mutex> checkpoint_lock(checkpoint_mu_);
  uint32_t series;
  std::vector<uint32_t> value_counts;
  {
    std::lock_guard<std::mutex> sync_lock(sync_mu_);
    std::string batch;
    {
      // One cut: the series, keys and values that exist now. Later ones go to the new log.
      std::unique_lock<std::shared_mutex> lock(mu_);
      if (!bg_error_.ok()) return bg_error_;
      batch.swap(pending_);
      series = index_.series_count();
      value_counts = index_.ValueCounts();
    }
    // First make the old log complete up to the cut, so that a failed snapshot loses nothing.
    if (!batch.empty()) GNOMON_RETURN_IF_ERROR(WriteToLog(batch, series));
    if (series == snapshot_series_ && log_base_ == snapshot_series_) return Status::OK();
    checkpointing_ = true;
    since_cut_.clear();
  }
  // Syncs go on into the old log meanwhile; the records they write are kept in since_cut_.
  auto stop_keeping = [&] {
    std::lock_guard<std::mutex> sync_lock(sync_mu_);
    checkpointing_ = false;
    std::string().swap(since_cut_);
  };
  std::string body;
  index_.EncodeSnapshotBody(series, value_counts, &body);  // reads only published, immutable data
  std::string file = FrameSnapshot(body, options_.compress_snapshot ? SnapshotCompression::kZstd
                                                                    : SnapshotCompression::kNone);
  Status s = port::WriteFileAtomic(env_, snapshot_path_, file);
  if (!s.ok()) {
    (void)env_->RemoveFile(snapshot_path_ + ".tmp");
    stop_keeping();
    return s.WithContext("checkpoint of " + dir_);  // old snapshot + complete log still valid
  }
  std::lock_guard<std::mutex> sync_lock(sync_mu_);
  snapshot_series_ = series;
  // The snapshot is durable; from here a crash leaves either the old log (its records below
  // `series` are skipped on replay) or the new one, which starts with the records synced since the
  // cut (all ids >= `series`, in order).
  s = StartNewLog(series, since_cut_);
  checkpointing_ = false;
  std::string().swap(since_cut_);
  if (!s.ok()) {
    // The handle may point at a replaced file: stop writing until reopened.
    s = s.WithContext(log_path_);
    std::unique_lock<std::shared_mutex> lock(mu_);
    bg_error_ = s;
    return s;
  }
  return Status::OK();
}

SeriesTags SeriesRegistry::Tags(SeriesId id) const {
  GNOMON_DCHECK(id < size());
  return index_.Tags(id);
}

std::string_view SeriesRegistry::TagValue(SeriesId id, std::string_view key) const {
  GNOMON_DCHECK(id < size());
  return index_.TagValue(id, key);
}

void SeriesRegistry::TagColumns(std::span<const SeriesId> ids, std::span<const std::string> keys,
                                std::string_view* out, uint32_t* value_ids) const {
  std::vector<uint32_t> key_ids;
  key_ids.reserve(keys.size());
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (const std::string& k : keys) key_ids.push_back(index_.FindKey(k).value_or(SeriesIndex::kNoKey));
  }
  // Runs and keysets of published series never change: read without the lock, as TagValue does.
  index_.TagColumns(ids, key_ids, out, value_ids);
}

Roaring SeriesRegistry::SeriesWithTag(std::string_view key, std::string_view value) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  const PostingList* p = index_.Postings(key, value);
  return p ? p->ToRoaring() : Roaring();
}

void SeriesRegistry::AppendSeriesWithTag(std::string_view key, std::string_view value,
                                         std::vector<SeriesId>* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  if (const PostingList* p = index_.Postings(key, value)) p->AppendTo(out);
}

uint64_t SeriesRegistry::CountSeriesWithTag(std::string_view key, std::string_view value) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  const PostingList* p = index_.Postings(key, value);
  return p ? p->cardinality() : 0;
}

std::vector<std::string> SeriesRegistry::TagKeys() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return index_.SortedKeyNames();
}

std::vector<std::string> SeriesRegistry::TagValues(std::string_view key) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return index_.SortedValues(key);
}

size_t SeriesRegistry::MemoryUsage() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return sizeof(*this) + index_.MemoryUsage() + pending_.capacity();
}

}  // namespace gnomon::index
