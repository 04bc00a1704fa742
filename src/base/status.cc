#include "src/base/status.h"

#include <cerrno>
#include <cstring>

namespace gnomon {

std::string_view StatusCodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "OK";
    case Status::Code::kInvalidArgument: return "Invalid argument";
    case Status::Code::kNotFound: return "Not found";
    case Status::Code::kAlreadyExists: return "Already exists";
    case Status::Code::kCorruption: return "Corruption";
    case Status::Code::kIOError: return "IO error";
    case Status::Code::kTypeConflict: return "Type conflict";
    case Status::Code::kOutOfRange: return "Out of range";
    case Status::Code::kResourceExhausted: return "Resource exhausted";
    case Status::Code::kUnsupported: return "Unsupported";
    case Status::Code::kAborted: return "Aborted";
    case Status::Code::kTimeout: return "Timeout";
    case Status::Code::kInternal: return "Internal";
    case Status::Code::kPermissionDenied: return "Permission denied";
    case Status::Code::kNoSpace: return "No space";
  }
  return "Unknown";
}

Status Status::FromErrno(std::string_view context, int err) {
  std::string message(context);
  message += ": ";
  message += std::strerror(err);
  const bool full = err == ENOSPC || err == EDQUOT;
  return Status(full ? Code::kNoSpace : Code::kIOError, std::move(message));
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string message(context);
  message += ": ";
  message += message_;
  return Status(code_, std::move(message));
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(code_));
  out += ": ";
  out += message_;
  return out;
}

}  // namespace gnomon
