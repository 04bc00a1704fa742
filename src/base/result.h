// Result<T>: a value or the Status that explains why there is none (GCC 12 lacks std::expected).
#pragma once

#include <optional>
#include <utility>

#include "src/base/check.h"
#include "src/base/status.h"

namespace gnomon {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design, like expected
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    GNOMON_CHECK_MSG(!status_.ok(), "Result constructed from an OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok().
  T& value() & { GNOMON_CHECK(ok()); return *value_; }
  const T& value() const& { GNOMON_CHECK(ok()); return *value_; }
  T&& value() && { GNOMON_CHECK(ok()); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace gnomon

// Evaluates `expr` (a Result); returns its Status when not ok, else moves the value into `lhs`.
#define GNOMON_ASSIGN_OR_RETURN(lhs, expr) \
  GNOMON_ASSIGN_OR_RETURN_IMPL(GNOMON_STATUS_CONCAT(_gnomon_result_, __LINE__), lhs, expr)
#define GNOMON_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()
