// FaultInjectionEnv: wraps another Env (usually a MemEnv) to test what survives failures.
//  - Power loss: it tracks, per file written through it, how many bytes were made durable by
//    Sync(), and which files were created since their directory was last synced. SimulateCrash()
//    then drops (or tears, zero-fills, garbles) the unsynced tail of every file and removes files
//    whose creation was never made durable.
//  - Injected errors: writes fail after N more bytes or calls (the crossing write is applied in
//    part, as a short write would be), syncs fail after N more calls, or the whole file system
//    goes "down" (SetFilesystemActive(false)) so every mutation fails and changes nothing.
//  - Slow disks: a delay before each Sync, so that concurrent writers pile up (group commit).
//  - Bit rot: CorruptByte() flips bits of a stored file.
// Simplifications: removals, renames and truncations are durable at once; only creations wait
// for SyncDir. Reads see every written byte (as from the page cache). Thread-safe: every
// mutation reaches the base env under one lock after checking that the file system is up, so a
// crash falls between operations, never inside one (a rename is old or new, never half).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "src/port/env.h"

namespace gnomon::port {

class FaultInjectionEnv final : public Env {
 public:
  // `base` is not owned and must outlive this env.
  explicit FaultInjectionEnv(Env* base);
  ~FaultInjectionEnv() override;

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override;
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override;
  bool FileExists(const std::string& path) override;
  Result<std::vector<std::string>> GetChildren(const std::string& dir) override;
  Result<uint64_t> GetFileSize(const std::string& path) override;
  Status RemoveFile(const std::string& path) override;
  Status RemoveDirRecursive(const std::string& dir) override;
  Status CreateDirs(const std::string& dir) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status TruncateFile(const std::string& path, uint64_t size) override;
  Status SyncDir(const std::string& dir) override;

  // What happens to the bytes a file received after its last successful Sync().
  enum class CrashMode {
    kDropUnsynced,  // all lost
    kTornTail,      // a random-length prefix of them survives
    kZeroTail,      // a random prefix survives, the rest of the old length reads as zeros
    kGarbageTail,   // a random prefix survives, the rest of the old length is random bytes
  };
  // Simulates power loss and reboot, then reactivates the file system and clears injected faults.
  // REQUIRES: every WritableFile obtained from this env is closed or destroyed (a buffered file
  // would otherwise write its buffer after the "crash"), unless `reboot` is false: the file system
  // then stays down (every mutation fails), for a process that dies right after with files open.
  Status SimulateCrash(CrashMode mode = CrashMode::kDropUnsynced, uint64_t seed = 0,
                       bool reboot = true);

  // While inactive, appends, flushes, syncs, creations, removals and renames fail with IOError
  // and change nothing: the moment of a crash, as the process would see it.
  void SetFilesystemActive(bool active);

  // The next `n` bytes appended (over all files) succeed; the append that crosses the budget
  // applies only what fits and fails, and every later append fails (with NoSpace, as a full
  // disk, when `no_space`; else IOError).
  void FailWritesAfterBytes(uint64_t n, bool no_space = false);
  // The next `n` appends succeed; later ones fail without writing.
  void FailWritesAfterCalls(uint64_t n);
  // The next `n` syncs succeed; later ones fail and leave the data unsynced.
  void FailSyncsAfter(uint64_t n);
  void ClearFaults();
  // Every WritableFile::Sync sleeps this long before syncing (a slow disk).
  void SetSyncDelay(std::chrono::microseconds delay);

  // XORs the byte at `offset` of `path` with `mask`, in the base env. The change counts as durable.
  Status CorruptByte(const std::string& path, uint64_t offset, uint8_t mask = 0x80);

  uint64_t sync_count() const { return syncs_.load(); }          // successful WritableFile syncs
  uint64_t dir_sync_count() const { return dir_syncs_.load(); }  // successful SyncDir calls
  uint64_t append_count() const { return appends_.load(); }      // successful appends
  uint64_t bytes_appended() const { return bytes_appended_.load(); }
  // Bytes of `path` that would survive a crash now (its size if it is not tracked).
  Result<uint64_t> DurableSize(const std::string& path);

 private:
  friend class FaultWritableFile;

  struct FileState {
    uint64_t size = 0;      // bytes appended through this env, including those there before
    uint64_t synced = 0;    // prefix made durable by Sync
    bool new_entry = true;  // created since its directory was last synced
  };

  // Hooks for FaultWritableFile; `path` is normalised. *Locked: REQUIRES mu_ held.
  Status BeforeAppendLocked(size_t requested, size_t* allowed);
  void AfterAppendLocked(const std::string& path, size_t n);
  Status BeforeSync();
  Status AfterSync(const std::string& path, uint64_t size);
  Status CheckActive(std::string_view op, const std::string& path) const;  // REQUIRES: mu_ held
  Result<std::unique_ptr<WritableFile>> Track(const std::string& path, bool truncate);

  Env* const base_;
  mutable std::mutex mu_;
  std::map<std::string, FileState> files_;  // files written through this env
  bool active_ = true;
  uint64_t write_bytes_left_ = UINT64_MAX;
  uint64_t write_calls_left_ = UINT64_MAX;
  uint64_t syncs_left_ = UINT64_MAX;
  bool write_no_space_ = false;
  std::chrono::microseconds sync_delay_{0};
  std::atomic<uint64_t> syncs_{0};
  std::atomic<uint64_t> dir_syncs_{0};
  std::atomic<uint64_t> appends_{0};
  std::atomic<uint64_t> bytes_appended_{0};
};

}  // namespace gnomon::port
