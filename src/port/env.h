// Env: the file-system interface every layer above uses, so tests can run on an in-memory or a
// fault-injecting file system (LevelDB's idea). All methods are thread-safe unless noted.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"

namespace gnomon::port {

// Appends to a file. Not thread-safe: one writer at a time.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(std::string_view data) = 0;
  // Hands buffered bytes to the OS (they survive a process crash, not a power loss).
  virtual Status Flush() = 0;
  // Makes all appended bytes durable (fdatasync).
  virtual Status Sync() = 0;
  virtual Status Close() = 0;
  // Bytes appended so far, including those in the file before it was opened for append.
  virtual uint64_t Size() const = 0;
};

// Reads a file front to back. Not thread-safe.
class SequentialFile {
 public:
  virtual ~SequentialFile() = default;
  // Reads up to n bytes into scratch (room for n); *result may point into scratch. Short at EOF.
  virtual Status Read(size_t n, std::string_view* result, char* scratch) = 0;
  virtual Status Skip(uint64_t n) = 0;
};

// Reads at offsets; thread-safe.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to n bytes at offset. *result may point into scratch or into a mapping owned by the
  // file, valid while the file lives. Reading past the end is Corruption (callers know sizes).
  virtual Status Read(uint64_t offset, size_t n, std::string_view* result, char* scratch) const = 0;
  virtual uint64_t Size() const = 0;
  // The whole file as one view when it is memory-mapped or in memory; empty otherwise.
  virtual std::string_view Contents() const { return {}; }
  // Hint: the bytes read so far are not needed again soon. A mapped file stops counting them in
  // the process's resident memory (they stay in the page cache; a later read maps them again).
  virtual void ReleaseResidentPages() const {}
};

// A held lock on a file; released when destroyed (or when the process ends).
class FileLock {
 public:
  virtual ~FileLock() = default;
};

class Env {
 public:
  virtual ~Env() = default;

  // The process-wide POSIX environment. Never deleted.
  static Env* Default();

  // Creates or truncates.
  virtual Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) = 0;
  // Opens for appending, creating it if absent.
  virtual Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) = 0;
  virtual Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) = 0;
  virtual Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) = 0;

  virtual bool FileExists(const std::string& path) = 0;
  // Names (not paths) of the entries in dir, without "." and "..".
  virtual Result<std::vector<std::string>> GetChildren(const std::string& dir) = 0;
  virtual Result<uint64_t> GetFileSize(const std::string& path) = 0;
  virtual Status RemoveFile(const std::string& path) = 0;
  // Removes dir and everything below it; ok if it does not exist.
  virtual Status RemoveDirRecursive(const std::string& dir) = 0;
  // Creates dir and any missing parents; ok if it exists.
  virtual Status CreateDirs(const std::string& dir) = 0;
  // Atomically replaces `to` with `from` (POSIX rename).
  virtual Status RenameFile(const std::string& from, const std::string& to) = 0;
  virtual Status TruncateFile(const std::string& path, uint64_t size) = 0;
  // Makes a directory's entries (creations, renames, removals) durable.
  virtual Status SyncDir(const std::string& dir) = 0;
  // Takes an exclusive lock on `path` (created if absent) against other processes and other
  // holders in this one. Unavailable when another holder has it. The default (in-memory
  // environments, whose files no other process can see) grants every request.
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) {
    return std::unique_ptr<FileLock>(new FileLock);
  }
};

// Helpers over any Env.
Result<std::string> ReadFileToString(Env* env, const std::string& path);
// Writes data to path durably and atomically: write a temporary, sync, rename, sync the directory.
// A non-empty `fault_name` passes the fault points "<fault_name>.before_rename" and
// "<fault_name>.before_dir_sync" (src/base/fault_point.h).
Status WriteFileAtomic(Env* env, const std::string& path, std::string_view data,
                       std::string_view fault_name = {});
std::string JoinPath(std::string_view dir, std::string_view name);
std::string DirName(std::string_view path);

}  // namespace gnomon::port
