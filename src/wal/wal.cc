#include "src/wal/wal.h"

#include "src/base/check.h"
#include "src/base/fault_point.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal_format.h"

namespace gnomon::wal {
namespace {
// A leader keeps its batch buffer between groups, unless a huge record grew it past this.
constexpr size_t kMaxRetainedBatchCapacity = 8 << 20;
}  // namespace

struct Wal::Writer {
  enum class Kind { kAppend, kRotate, kSync, kClose };
  Writer(Kind k, std::string_view r = {}, bool s = false) : kind(k), record(r), sync(s) {}

  const Kind kind;
  const std::string_view record;
  const bool sync;
  // Set by whoever runs this writer, under mu_.
  bool done = false;
  Status status;
  uint64_t result = 0;  // LSN for appends, segment number for rotations
  std::condition_variable cv;
};

Wal::Wal(port::Env* env, const WalOptions& options)
    : env_(env),
      dir_(options.dir),
      segment_bytes_(options.segment_bytes),
      max_group_bytes_(options.max_group_bytes) {}

Wal::~Wal() { (void)Close(); }

Result<std::unique_ptr<Wal>> Wal::Open(const WalOptions& options) {
  port::Env* env = options.env != nullptr ? options.env : port::Env::Default();
  if (options.dir.empty()) return Status::InvalidArgument("WAL directory is empty");
  if (options.segment_bytes < kMinSegmentBytes || options.segment_bytes > kMaxSegmentBytes) {
    return Status::InvalidArgument("WAL segment_bytes " + std::to_string(options.segment_bytes) +
                                   " outside [" + std::to_string(kMinSegmentBytes) + ", " +
                                   std::to_string(kMaxSegmentBytes) + "]");
  }
  if (options.max_group_bytes == 0) return Status::InvalidArgument("WAL max_group_bytes is 0");

  bool existed = env->FileExists(options.dir);
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(options.dir));
  if (!existed) GNOMON_RETURN_IF_ERROR(env->SyncDir(port::DirName(options.dir)));
  GNOMON_ASSIGN_OR_RETURN(auto segments, ListSegments(env, options.dir));

  std::unique_ptr<Wal> wal(new Wal(env, options));
  uint64_t next = 1;
  for (const SegmentFile& seg : segments) {
    wal->sealed_[seg.number] = seg.size;
    wal->total_bytes_ += seg.size;
    next = seg.number + 1;
  }
  if (next > kMaxSegmentNumber) {
    return Status::ResourceExhausted("WAL " + options.dir + ": segment numbers exhausted");
  }
  GNOMON_RETURN_IF_ERROR(wal->CreateSegment(next));
  wal->current_segment_ = next;
  return wal;
}

Result<uint64_t> Wal::Append(std::string_view record, bool sync) {
  if (record.size() > kMaxRecordSize) {
    return Status::InvalidArgument("WAL record of " + std::to_string(record.size()) +
                                   " bytes exceeds the maximum of " +
                                   std::to_string(kMaxRecordSize));
  }
  Writer w(Writer::Kind::kAppend, record, sync);
  Submit(&w);
  if (!w.status.ok()) return w.status;
  return w.result;
}

Result<uint64_t> Wal::Rotate() {
  Writer w(Writer::Kind::kRotate);
  Submit(&w);
  if (!w.status.ok()) return w.status;
  return w.result;
}

Status Wal::Sync() {
  Writer w(Writer::Kind::kSync);
  Submit(&w);
  return w.status;
}

Status Wal::Close() {
  Writer w(Writer::Kind::kClose);
  Submit(&w);
  return w.status;
}

void Wal::Submit(Writer* w) {
  std::unique_lock<std::mutex> lock(mu_);
  writers_.push_back(w);
  while (!w->done && w != writers_.front()) w->cv.wait(lock);
  if (w->done) return;  // a leader ran us as part of its group

  // We lead. The active segment is ours until we leave the head of the queue, so the file work
  // below runs without mu_ while others queue behind us.
  std::vector<Writer*> group;
  Status s;
  if (closed_) {
    if (w->kind != Writer::Kind::kClose) s = Status::Aborted("WAL " + dir_ + " is closed");
  } else if (w->kind == Writer::Kind::kClose) {
    Status prior = error_;
    lock.unlock();
    s = DoClose(prior);
    lock.lock();
    closed_ = true;
  } else if (!error_.ok()) {
    s = error_;
  } else {
    bool rotate_first = false;
    if (w->kind == Writer::Kind::kAppend) BuildGroup(w, &group, &rotate_first);
    lock.unlock();
    switch (w->kind) {
      case Writer::Kind::kAppend:
        s = WriteGroup(group, rotate_first);
        break;
      case Writer::Kind::kRotate:
        s = DoRotate(&w->result);
        break;
      case Writer::Kind::kSync:
        s = file_->Sync();
        if (s.ok()) ++stat_syncs_;
        break;
      case Writer::Kind::kClose:
        break;  // handled above
    }
    lock.lock();
    if (!s.ok()) error_ = s;
  }

  if (group.empty()) group.push_back(w);
  for (Writer* g : group) {
    GNOMON_CHECK(writers_.front() == g);
    writers_.pop_front();
    g->status = s;
    g->done = true;
    if (g != w) g->cv.notify_one();
  }
  if (!writers_.empty()) writers_.front()->cv.notify_one();
}

void Wal::BuildGroup(Writer* leader, std::vector<Writer*>* group, bool* rotate_first) {
  uint64_t end = RecordEncoder::EndOffset(encoder_.offset(), leader->record.size());
  // A record that does not fit starts a new segment, unless this one is still empty of records
  // (then the record is simply larger than a segment and gets this one to itself).
  *rotate_first = end > segment_bytes_ && records_in_segment_ > 0;
  if (*rotate_first) {
    end = RecordEncoder::EndOffset(kSegmentHeaderRecordSize, leader->record.size());
  }
  group->push_back(leader);
  uint64_t bytes = leader->record.size();
  for (auto it = writers_.begin() + 1; it != writers_.end(); ++it) {
    Writer* w = *it;
    if (w->kind != Writer::Kind::kAppend) break;  // rotations and syncs keep their place
    if (bytes + w->record.size() > max_group_bytes_) break;
    uint64_t next_end = RecordEncoder::EndOffset(end, w->record.size());
    if (next_end > segment_bytes_) break;  // the next leader rotates
    group->push_back(w);
    bytes += w->record.size();
    end = next_end;
  }
}

Status Wal::WriteGroup(const std::vector<Writer*>& group, bool rotate_first) {
  if (rotate_first) GNOMON_RETURN_IF_ERROR(SwitchSegment());
  const uint64_t segment = current_segment_.load();
  bool sync = false;
  batch_.clear();
  for (Writer* w : group) {
    w->result = MakeLsn(segment, encoder_.AddRecord(w->record, &batch_));
    sync |= w->sync;
  }
  GNOMON_RETURN_IF_ERROR(file_->Append(batch_));
  if (sync) GNOMON_FAULT_POINT("wal.before_sync");
  // Flush even without sync: an acknowledged record must survive a crash of this process.
  GNOMON_RETURN_IF_ERROR(sync ? file_->Sync() : file_->Flush());
  records_in_segment_ += group.size();
  total_bytes_ += batch_.size();
  stat_records_ += group.size();
  stat_groups_ += 1;
  stat_bytes_ += batch_.size();
  if (sync) ++stat_syncs_;
  if (batch_.capacity() > kMaxRetainedBatchCapacity) std::string().swap(batch_);
  return Status::OK();
}

Status Wal::DoRotate(uint64_t* number) {
  if (records_in_segment_ > 0) GNOMON_RETURN_IF_ERROR(SwitchSegment());
  *number = current_segment_.load();
  return Status::OK();
}

Status Wal::SwitchSegment() {
  const uint64_t old = current_segment_.load();
  if (old >= kMaxSegmentNumber) {
    return Status::ResourceExhausted("WAL " + dir_ + ": segment numbers exhausted");
  }
  // A sealed segment is durable in full, so only the newest segment can end in a torn write:
  // ReplayWal relies on this to tell a torn tail from data lost in the middle of the log.
  GNOMON_RETURN_IF_ERROR(file_->Sync());
  ++stat_syncs_;
  GNOMON_RETURN_IF_ERROR(file_->Close());
  const uint64_t old_size = encoder_.offset();
  GNOMON_RETURN_IF_ERROR(CreateSegment(old + 1));
  std::lock_guard<std::mutex> lock(mu_);
  sealed_[old] = old_size;
  current_segment_ = old + 1;
  return Status::OK();
}

Status Wal::CreateSegment(uint64_t number) {
  std::string path = port::JoinPath(dir_, SegmentFileName(number));
  if (env_->FileExists(path)) {
    return Status::AlreadyExists(path + ": WAL segment exists (is another process writing it?)");
  }
  GNOMON_ASSIGN_OR_RETURN(auto file, env_->NewWritableFile(path));
  RecordEncoder encoder(0);
  std::string header;
  encoder.AddSegmentHeader(number, &header);
  GNOMON_RETURN_IF_ERROR(file->Append(header));
  GNOMON_RETURN_IF_ERROR(file->Flush());
  GNOMON_FAULT_POINT("wal.rotate.after_create");
  // The directory entry must be durable before any record synced into the file counts as such.
  GNOMON_RETURN_IF_ERROR(env_->SyncDir(dir_));
  file_ = std::move(file);
  encoder_ = encoder;
  records_in_segment_ = 0;
  total_bytes_ += header.size();
  stat_bytes_ += header.size();
  ++stat_segments_;
  return Status::OK();
}

Status Wal::DoClose(const Status& prior) {
  if (file_ == nullptr) return prior;
  Status s = prior;
  if (s.ok()) {
    s = file_->Sync();
    if (s.ok()) ++stat_syncs_;
  }
  Status c = file_->Close();
  if (s.ok()) s = c;
  file_.reset();
  return s;
}

Status Wal::RemoveSegmentsBefore(uint64_t segment) {
  std::vector<std::pair<uint64_t, uint64_t>> victims;  // number, bytes
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (segment > current_segment_.load()) {
      return Status::InvalidArgument("WAL " + dir_ + ": cannot remove segments before " +
                                     std::to_string(segment) + ": the active segment is " +
                                     std::to_string(current_segment_.load()));
    }
    for (auto it = sealed_.begin(); it != sealed_.end() && it->first < segment;) {
      victims.emplace_back(it->first, it->second);
      it = sealed_.erase(it);
    }
  }
  // Oldest first, stopping at a failure, so the log never has a hole in its middle.
  size_t removed = 0;
  Status s;
  for (; removed < victims.size(); ++removed) {
    std::string path = port::JoinPath(dir_, SegmentFileName(victims[removed].first));
    s = env_->RemoveFile(path);
    if (!s.ok() && env_->FileExists(path)) break;
    s = Status::OK();
    total_bytes_ -= victims[removed].second;
  }
  if (removed < victims.size()) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = removed; i < victims.size(); ++i) sealed_.insert(victims[i]);
    return s;
  }
  return victims.empty() ? Status::OK() : env_->SyncDir(dir_);
}

Status Wal::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

WalStats Wal::Stats() const {
  WalStats stats;
  stats.records = stat_records_.load();
  stats.groups = stat_groups_.load();
  stats.syncs = stat_syncs_.load();
  stats.bytes = stat_bytes_.load();
  stats.segments_created = stat_segments_.load();
  return stats;
}

}  // namespace gnomon::wal
