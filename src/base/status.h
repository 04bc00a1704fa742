// Status: the outcome of an operation that can fail for reasons outside the program's control
// (bad input, bad bytes on disk, I/O). Cheap when ok (no allocation).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gnomon {

class [[nodiscard]] Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kInvalidArgument,   // bad input from a user: syntax, values, parameters
    kNotFound,          // a named thing (database, table, column, file) does not exist
    kAlreadyExists,
    kCorruption,        // bytes on disk or on the wire fail their checks
    kIOError,
    kTypeConflict,      // a value's type disagrees with its column's fixed type
    kOutOfRange,        // a number or timestamp outside what is representable
    kResourceExhausted, // a memory, size or time limit was hit
    kUnsupported,
    kAborted,           // cancelled or shut down
    kTimeout,
    kInternal,
    kPermissionDenied,  // the caller is known but may not do this (HTTP 403)
    kNoSpace,           // the disk (or a quota) is full: ENOSPC, EDQUOT (HTTP 507)
  };

  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {Code::kAlreadyExists, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {Code::kIOError, std::move(m)}; }
  static Status TypeConflict(std::string m) { return {Code::kTypeConflict, std::move(m)}; }
  static Status OutOfRange(std::string m) { return {Code::kOutOfRange, std::move(m)}; }
  static Status ResourceExhausted(std::string m) { return {Code::kResourceExhausted, std::move(m)}; }
  static Status Unsupported(std::string m) { return {Code::kUnsupported, std::move(m)}; }
  static Status Aborted(std::string m) { return {Code::kAborted, std::move(m)}; }
  static Status Timeout(std::string m) { return {Code::kTimeout, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }
  static Status PermissionDenied(std::string m) { return {Code::kPermissionDenied, std::move(m)}; }
  static Status NoSpace(std::string m) { return {Code::kNoSpace, std::move(m)}; }
  // An I/O error carrying errno's text: "open /x/y: No such file or directory".
  static Status FromErrno(std::string_view context, int err);

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }

  // Prefixes context to the message ("segment 000012.seg: " + message); no-op when ok.
  Status WithContext(std::string_view context) const;
  // "Corruption: crc mismatch at offset 12".
  std::string ToString() const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

std::string_view StatusCodeName(Status::Code code);

}  // namespace gnomon

#define GNOMON_STATUS_CONCAT_INNER(a, b) a##b
#define GNOMON_STATUS_CONCAT(a, b) GNOMON_STATUS_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it is not ok.
#define GNOMON_RETURN_IF_ERROR(expr)                        \
  do {                                                      \
    ::gnomon::Status _gnomon_status = (expr);               \
    if (!_gnomon_status.ok()) return _gnomon_status;        \
  } while (0)
