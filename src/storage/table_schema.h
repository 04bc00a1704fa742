// The schema of one table: its tag keys and its field columns with their fixed types.
// Field column ids are dense and stable: a column keeps its id for the life of the table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/base/hash.h"
#include "src/base/status.h"
#include "src/base/value_type.h"

namespace gnomon::storage {

using ColumnId = uint32_t;

struct FieldColumn {
  std::string name;
  ValueType type;
};

class TableSchema {
 public:
  const std::vector<FieldColumn>& fields() const { return fields_; }
  const std::vector<std::string>& tag_keys() const { return tag_keys_; }  // sorted

  // Column id of field `name`, or -1.
  int FindField(std::string_view name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? -1 : static_cast<int>(it->second);
  }
  // Adds the field if new. TypeConflict if it exists with another type.
  Status AddField(std::string_view name, ValueType type, ColumnId* id);
  bool HasTagKey(std::string_view key) const;
  // Returns true if the key was new.
  bool AddTagKey(std::string_view key);

 private:
  std::vector<FieldColumn> fields_;
  std::unordered_map<std::string, ColumnId, StringHash, std::equal_to<>> by_name_;
  std::vector<std::string> tag_keys_;
};

}  // namespace gnomon::storage
