// The types a column can hold. Field columns take their type from their first write and keep it.
#pragma once

#include <cstdint>
#include <string_view>

namespace gnomon {

enum class ValueType : uint8_t {
  kNull = 0,
  kFloat64 = 1,    // line protocol: 1.5, 1e3
  kInt64 = 2,      // line protocol: 12i
  kUInt64 = 3,     // line protocol: 12u
  kBool = 4,       // line protocol: t, T, true, True, TRUE, f, F, false, False, FALSE
  kString = 5,     // line protocol: "quoted"; also every tag column
  kTimestamp = 6,  // int64 nanoseconds since the Unix epoch, UTC: the `time` column
};

inline std::string_view ValueTypeName(ValueType t) {
  switch (t) {
    case ValueType::kNull: return "null";
    case ValueType::kFloat64: return "float64";
    case ValueType::kInt64: return "int64";
    case ValueType::kUInt64: return "uint64";
    case ValueType::kBool: return "boolean";
    case ValueType::kString: return "string";
    case ValueType::kTimestamp: return "timestamp";
  }
  return "unknown";
}

inline bool IsValidFieldType(uint8_t t) { return t >= 1 && t <= 5; }

}  // namespace gnomon
