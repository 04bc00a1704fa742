#include "src/port/fault_injection_env.h"

#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "src/port/mem_env.h"

namespace gnomon::port {

namespace {

// Base files closed after a simulated crash, never closed (closing would write their buffers).
void Abandon(std::unique_ptr<WritableFile> file) {
  static std::mutex mu;
  static auto* abandoned = new std::vector<std::unique_ptr<WritableFile>>();
  std::lock_guard<std::mutex> lock(mu);
  abandoned->push_back(std::move(file));
}

}  // namespace

// Forwards to the base file, asking the env for permission before and reporting after, so the
// env knows each file's size and durable prefix. Every call that can move bytes into the base
// file runs under the env's lock after checking that the file system is up, so nothing written
// by a thread already inside a call lands after SimulateCrash has truncated the file. Not
// thread-safe (like every WritableFile).
class FaultWritableFile final : public WritableFile {
 public:
  FaultWritableFile(FaultInjectionEnv* env, std::string path, std::unique_ptr<WritableFile> base)
      : env_(env), path_(std::move(path)), base_(std::move(base)) {}

  // After a crash the base file's buffer must not reach the disk: it is abandoned, as a dying
  // process's buffers would be (kept reachable, so leak checkers do not report it).
  ~FaultWritableFile() override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    if (!env_->active_) Abandon(std::move(base_));
    base_.reset();
  }

  Status Append(std::string_view data) override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    size_t allowed = 0;
    Status permission = env_->BeforeAppendLocked(data.size(), &allowed);
    if (allowed > 0) {
      GNOMON_RETURN_IF_ERROR(base_->Append(data.substr(0, allowed)));
      env_->AfterAppendLocked(path_, allowed);
    }
    return permission;
  }

  Status Flush() override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    GNOMON_RETURN_IF_ERROR(env_->CheckActive("flush", path_));
    return base_->Flush();
  }

  // The buffer goes to the base file under the lock; the slow part, the fsync itself, outside
  // it, so that concurrent syncs of different files still overlap.
  Status Sync() override {
    GNOMON_RETURN_IF_ERROR(env_->BeforeSync());
    {
      std::lock_guard<std::mutex> lock(env_->mu_);
      GNOMON_RETURN_IF_ERROR(env_->CheckActive("sync", path_));
      GNOMON_RETURN_IF_ERROR(base_->Flush());
    }
    GNOMON_RETURN_IF_ERROR(base_->Sync());
    return env_->AfterSync(path_, base_->Size());
  }

  Status Close() override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    GNOMON_RETURN_IF_ERROR(env_->CheckActive("close", path_));
    return base_->Close();
  }
  uint64_t Size() const override { return base_->Size(); }

 private:
  FaultInjectionEnv* env_;
  std::string path_;
  std::unique_ptr<WritableFile> base_;
};

FaultInjectionEnv::FaultInjectionEnv(Env* base) : base_(base) {}
FaultInjectionEnv::~FaultInjectionEnv() = default;

Status FaultInjectionEnv::CheckActive(std::string_view op, const std::string& path) const {
  if (active_) return Status::OK();
  return Status::IOError(std::string(op) + " " + path + ": file system inactive (simulated crash)");
}

Status FaultInjectionEnv::BeforeAppendLocked(size_t requested, size_t* allowed) {
  *allowed = 0;
  if (!active_) return Status::IOError("append: file system inactive (simulated crash)");
  auto injected = [&](std::string what) {
    return write_no_space_ ? Status::NoSpace(what + ": No space left on device")
                           : Status::IOError(std::move(what));
  };
  if (write_calls_left_ == 0) return injected("append: injected write error");
  if (write_calls_left_ != UINT64_MAX) --write_calls_left_;
  if (requested > write_bytes_left_) {
    *allowed = static_cast<size_t>(write_bytes_left_);
    write_bytes_left_ = 0;
    return injected("append: injected write error (short write of " + std::to_string(*allowed) + " of " +
                    std::to_string(requested) + " bytes)");
  }
  if (write_bytes_left_ != UINT64_MAX) write_bytes_left_ -= requested;
  *allowed = requested;
  return Status::OK();
}

void FaultInjectionEnv::AfterAppendLocked(const std::string& path, size_t n) {
  files_[path].size += n;
  appends_.fetch_add(1);
  bytes_appended_.fetch_add(n);
}

Status FaultInjectionEnv::BeforeSync() {
  std::chrono::microseconds delay;
  {
    std::lock_guard<std::mutex> lock(mu_);
    delay = sync_delay_;
  }
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  std::lock_guard<std::mutex> lock(mu_);
  if (!active_) return Status::IOError("sync: file system inactive (simulated crash)");
  if (syncs_left_ == 0) return Status::IOError("sync: injected sync error");
  if (syncs_left_ != UINT64_MAX) --syncs_left_;
  return Status::OK();
}

Status FaultInjectionEnv::AfterSync(const std::string& path, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  // A crash that came before this point already dropped the bytes: the sync failed.
  GNOMON_RETURN_IF_ERROR(CheckActive("sync", path));
  FileState& state = files_[path];
  state.synced = std::max(state.synced, std::min(size, state.size));
  syncs_.fetch_add(1);
  return Status::OK();
}

Result<std::unique_ptr<WritableFile>> FaultInjectionEnv::Track(const std::string& raw_path,
                                                               bool truncate) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("open", path));
  bool existed = base_->FileExists(path);
  std::unique_ptr<WritableFile> file;
  if (truncate) {
    GNOMON_ASSIGN_OR_RETURN(file, base_->NewWritableFile(path));
  } else {
    GNOMON_ASSIGN_OR_RETURN(file, base_->NewAppendableFile(path));
  }
  auto it = files_.find(path);
  if (it == files_.end()) {
    // Bytes already in an untracked file are taken as durable.
    FileState state;
    state.size = file->Size();
    state.synced = file->Size();
    state.new_entry = !existed;
    files_[path] = state;
  } else {
    it->second.size = file->Size();
    it->second.synced = std::min(it->second.synced, it->second.size);
  }
  return std::unique_ptr<WritableFile>(new FaultWritableFile(this, path, std::move(file)));
}

Result<std::unique_ptr<WritableFile>> FaultInjectionEnv::NewWritableFile(const std::string& path) {
  return Track(path, /*truncate=*/true);
}

Result<std::unique_ptr<WritableFile>> FaultInjectionEnv::NewAppendableFile(
    const std::string& path) {
  return Track(path, /*truncate=*/false);
}

Result<std::unique_ptr<SequentialFile>> FaultInjectionEnv::NewSequentialFile(
    const std::string& path) {
  return base_->NewSequentialFile(path);
}

Result<std::unique_ptr<RandomAccessFile>> FaultInjectionEnv::NewRandomAccessFile(
    const std::string& path) {
  return base_->NewRandomAccessFile(path);
}

bool FaultInjectionEnv::FileExists(const std::string& path) { return base_->FileExists(path); }

Result<std::vector<std::string>> FaultInjectionEnv::GetChildren(const std::string& dir) {
  return base_->GetChildren(dir);
}

Result<uint64_t> FaultInjectionEnv::GetFileSize(const std::string& path) {
  return base_->GetFileSize(path);
}

Status FaultInjectionEnv::RemoveFile(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("unlink", path));
  GNOMON_RETURN_IF_ERROR(base_->RemoveFile(path));
  files_.erase(path);
  return Status::OK();
}

Status FaultInjectionEnv::RemoveDirRecursive(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("remove", dir));
  GNOMON_RETURN_IF_ERROR(base_->RemoveDirRecursive(dir));
  std::erase_if(files_, [&](const auto& kv) {
    return kv.first.size() > dir.size() && kv.first.compare(0, dir.size(), dir) == 0 &&
           kv.first[dir.size()] == '/';
  });
  return Status::OK();
}

Status FaultInjectionEnv::CreateDirs(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("mkdir", dir));
  return base_->CreateDirs(dir);
}

Status FaultInjectionEnv::RenameFile(const std::string& raw_from, const std::string& raw_to) {
  std::string from = NormalizePath(raw_from);
  std::string to = NormalizePath(raw_to);
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("rename", from));
  GNOMON_RETURN_IF_ERROR(base_->RenameFile(from, to));
  auto it = files_.find(from);
  if (it == files_.end()) {
    files_.erase(to);
  } else {
    FileState state = it->second;
    // Renames count as durable at once (header): the target's directory entry survives a crash
    // even if the source was created since the last directory sync.
    state.new_entry = false;
    files_.erase(it);
    files_[to] = state;
  }
  return Status::OK();
}

Status FaultInjectionEnv::TruncateFile(const std::string& raw_path, uint64_t size) {
  std::string path = NormalizePath(raw_path);
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("truncate", path));
  GNOMON_RETURN_IF_ERROR(base_->TruncateFile(path, size));
  auto it = files_.find(path);
  if (it != files_.end()) {
    it->second.size = size;
    it->second.synced = std::min(it->second.synced, size);
  }
  return Status::OK();
}

Status FaultInjectionEnv::SyncDir(const std::string& raw_dir) {
  std::string dir = NormalizePath(raw_dir);
  std::vector<std::string> entries;  // created before the sync began: the ones it makes durable
  {
    std::lock_guard<std::mutex> lock(mu_);
    GNOMON_RETURN_IF_ERROR(CheckActive("fsync dir", dir));
    for (const auto& [path, state] : files_) {
      if (state.new_entry && NormalizePath(DirName(path)) == dir) entries.push_back(path);
    }
  }
  // The directory's fsync runs unlocked (it is slow and changes no bytes); what it made durable
  // is recorded only if the file system is still up.
  GNOMON_RETURN_IF_ERROR(base_->SyncDir(dir));
  std::lock_guard<std::mutex> lock(mu_);
  GNOMON_RETURN_IF_ERROR(CheckActive("fsync dir", dir));
  for (const std::string& path : entries) {
    auto it = files_.find(path);
    if (it != files_.end()) it->second.new_entry = false;
  }
  dir_syncs_.fetch_add(1);
  return Status::OK();
}

Status FaultInjectionEnv::SimulateCrash(CrashMode mode, uint64_t seed, bool reboot) {
  std::lock_guard<std::mutex> lock(mu_);
  active_ = false;  // nothing written meanwhile lands after the truncation
  std::mt19937_64 rng(seed);
  for (auto it = files_.begin(); it != files_.end();) {
    const std::string& path = it->first;
    FileState& state = it->second;
    if (state.new_entry) {
      Status s = base_->RemoveFile(path);
      if (!s.ok() && base_->FileExists(path)) return s;
      it = files_.erase(it);
      continue;
    }
    GNOMON_ASSIGN_OR_RETURN(uint64_t actual, base_->GetFileSize(path));
    uint64_t old_size = std::max(actual, state.size);
    uint64_t unsynced = old_size > state.synced ? old_size - state.synced : 0;
    uint64_t keep = state.synced;
    if (mode != CrashMode::kDropUnsynced && unsynced > 0) keep += rng() % (unsynced + 1);
    GNOMON_RETURN_IF_ERROR(base_->TruncateFile(path, keep));
    if ((mode == CrashMode::kZeroTail || mode == CrashMode::kGarbageTail) && keep < old_size) {
      std::string tail(old_size - keep, '\0');
      if (mode == CrashMode::kGarbageTail) {
        for (char& c : tail) c = static_cast<char>(rng());
      }
      GNOMON_ASSIGN_OR_RETURN(auto file, base_->NewAppendableFile(path));
      GNOMON_RETURN_IF_ERROR(file->Append(tail));
      GNOMON_RETURN_IF_ERROR(file->Close());
    }
    GNOMON_ASSIGN_OR_RETURN(uint64_t now, base_->GetFileSize(path));
    state.size = now;
    state.synced = now;  // after the reboot, what is on disk is durable
    ++it;
  }
  if (!reboot) return Status::OK();
  active_ = true;
  write_bytes_left_ = UINT64_MAX;
  write_calls_left_ = UINT64_MAX;
  syncs_left_ = UINT64_MAX;
  return Status::OK();
}

void FaultInjectionEnv::SetFilesystemActive(bool active) {
  std::lock_guard<std::mutex> lock(mu_);
  active_ = active;
}

void FaultInjectionEnv::FailWritesAfterBytes(uint64_t n, bool no_space) {
  std::lock_guard<std::mutex> lock(mu_);
  write_bytes_left_ = n;
  write_no_space_ = no_space;
}

void FaultInjectionEnv::FailWritesAfterCalls(uint64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  write_calls_left_ = n;
}

void FaultInjectionEnv::FailSyncsAfter(uint64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  syncs_left_ = n;
}

void FaultInjectionEnv::ClearFaults() {
  std::lock_guard<std::mutex> lock(mu_);
  write_bytes_left_ = UINT64_MAX;
  write_calls_left_ = UINT64_MAX;
  syncs_left_ = UINT64_MAX;
  write_no_space_ = false;
}

void FaultInjectionEnv::SetSyncDelay(std::chrono::microseconds delay) {
  std::lock_guard<std::mutex> lock(mu_);
  sync_delay_ = delay;
}

Status FaultInjectionEnv::CorruptByte(const std::string& raw_path, uint64_t offset, uint8_t mask) {
  std::string path = NormalizePath(raw_path);
  GNOMON_ASSIGN_OR_RETURN(std::string data, ReadFileToString(base_, path));
  if (offset >= data.size()) {
    return Status::InvalidArgument("corrupt " + path + ": offset " + std::to_string(offset) +
                                   " is past its end (" + std::to_string(data.size()) + " bytes)");
  }
  data[offset] = static_cast<char>(data[offset] ^ mask);
  GNOMON_ASSIGN_OR_RETURN(auto file, base_->NewWritableFile(path));
  GNOMON_RETURN_IF_ERROR(file->Append(data));
  GNOMON_RETURN_IF_ERROR(file->Sync());
  return file->Close();
}

Result<uint64_t> FaultInjectionEnv::DurableSize(const std::string& raw_path) {
  std::string path = NormalizePath(raw_path);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) return it->second.new_entry ? 0 : it->second.synced;
  }
  return base_->GetFileSize(path);
}

}  // namespace gnomon::port
