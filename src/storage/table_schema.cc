#include "src/storage/table_schema.h"

#include <algorithm>

#include "src/storage/identifier.h"

namespace gnomon::storage {

Status TableSchema::AddField(std::string_view name, ValueType type, ColumnId* id) {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) {
    const FieldColumn& existing = fields_[it->second];
    if (existing.type != type) {
      return Status::TypeConflict("field " + std::string(name) + " is " +
                                  std::string(ValueTypeName(existing.type)) + ", got " +
                                  std::string(ValueTypeName(type)));
    }
    *id = it->second;
    return Status::OK();
  }
  GNOMON_RETURN_IF_ERROR(ValidateColumnName(name));
  *id = static_cast<ColumnId>(fields_.size());
  fields_.push_back(FieldColumn{std::string(name), type});
  by_name_.emplace(std::string(name), *id);
  return Status::OK();
}

bool TableSchema::HasTagKey(std::string_view key) const {
  return std::binary_search(tag_keys_.begin(), tag_keys_.end(), key);
}

bool TableSchema::AddTagKey(std::string_view key) {
  auto it = std::lower_bound(tag_keys_.begin(), tag_keys_.end(), key);
  if (it != tag_keys_.end() && *it == key) return false;
  tag_keys_.insert(it, std::string(key));
  return true;
}

}  // namespace gnomon::storage
