#include "src/storage/manifest.h"

#include <cstring>

#include "src/base/coding.h"
#include "src/base/crc32c.h"

namespace gnomon::storage {
namespace {

constexpr char kMagic[8] = {'G', 'N', 'O', 'M', 'M', 'A', 'N', '1'};

Status Bad(std::string_view what) {
  return Status::Corruption(std::string(kManifestFileName) + ": bad " + std::string(what));
}

}  // namespace

std::string EncodeManifest(const Manifest& m) {
  std::string out(kMagic, sizeof(kMagic));
  PutVarint64(&out, m.next_file_number);
  PutVarint64(&out, m.next_sequence);
  PutVarint64(&out, m.wal_first_live_segment);
  PutVarint64(&out, m.databases.size());
  for (const ManifestDatabase& db : m.databases) {
    PutLengthPrefixed(&out, db.name);
    PutLengthPrefixed(&out, db.dir_name);
    PutVarsint64(&out, db.retention_ns);
    PutVarint64(&out, db.tables.size());
    for (const ManifestTable& t : db.tables) {
      PutLengthPrefixed(&out, t.name);
      PutLengthPrefixed(&out, t.dir_name);
      PutVarint64(&out, t.fields.size());
      for (const auto& [name, type] : t.fields) {
        PutLengthPrefixed(&out, name);
        out.push_back(static_cast<char>(type));
      }
      PutVarint64(&out, t.tag_keys.size());
      for (const std::string& k : t.tag_keys) PutLengthPrefixed(&out, k);
      PutVarint64(&out, t.segments.size());
      for (const ManifestSegment& s : t.segments) {
        PutVarint64(&out, s.file_number);
        PutVarint64(&out, s.sequence);
        PutVarsint64(&out, s.partition_start);
        PutVarsint64(&out, s.min_time);
        PutVarsint64(&out, s.max_time);
        PutVarint64(&out, s.rows);
        PutVarint64(&out, s.bytes);
      }
    }
  }
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out)));
  return out;
}

Status DecodeManifest(std::string_view bytes, Manifest* m) {
  if (bytes.size() < sizeof(kMagic) + 4 || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return Bad("magic");
  }
  uint32_t stored = DecodeFixed32(bytes.data() + bytes.size() - 4);
  if (crc32c::Unmask(stored) != crc32c::Value(bytes.data(), bytes.size() - 4)) return Bad("checksum");
  std::string_view in = bytes.substr(sizeof(kMagic), bytes.size() - sizeof(kMagic) - 4);
  uint64_t ndb;
  if (!GetVarint64(&in, &m->next_file_number) || !GetVarint64(&in, &m->next_sequence) ||
      !GetVarint64(&in, &m->wal_first_live_segment) || !GetVarint64(&in, &ndb) || ndb > in.size()) {
    return Bad("header");
  }
  m->databases.resize(ndb);
  for (ManifestDatabase& db : m->databases) {
    std::string_view name, dir;
    uint64_t ntables;
    if (!GetLengthPrefixed(&in, &name) || !GetLengthPrefixed(&in, &dir) ||
        !GetVarsint64(&in, &db.retention_ns) || !GetVarint64(&in, &ntables) || ntables > in.size()) {
      return Bad("database");
    }
    db.name = std::string(name);
    db.dir_name = std::string(dir);
    db.tables.resize(ntables);
    for (ManifestTable& t : db.tables) {
      uint64_t nfields, ntags, nsegs;
      if (!GetLengthPrefixed(&in, &name) || !GetLengthPrefixed(&in, &dir) ||
          !GetVarint64(&in, &nfields) || nfields > in.size()) {
        return Bad("table");
      }
      t.name = std::string(name);
      t.dir_name = std::string(dir);
      t.fields.resize(nfields);
      for (auto& [fname, type] : t.fields) {
        std::string_view f;
        if (!GetLengthPrefixed(&in, &f) || in.empty() || !IsValidFieldType(in[0])) return Bad("field");
        fname = std::string(f);
        type = static_cast<ValueType>(in[0]);
        in.remove_prefix(1);
      }
      if (!GetVarint64(&in, &ntags) || ntags > in.size()) return Bad("tag keys");
      t.tag_keys.resize(ntags);
      for (std::string& k : t.tag_keys) {
        std::string_view key;
        if (!GetLengthPrefixed(&in, &key)) return Bad("tag key");
        k = std::string(key);
      }
      if (!GetVarint64(&in, &nsegs) || nsegs > in.size()) return Bad("segments");
      t.segments.resize(nsegs);
      for (ManifestSegment& s : t.segments) {
        if (!GetVarint64(&in, &s.file_number) || !GetVarint64(&in, &s.sequence) ||
            !GetVarsint64(&in, &s.partition_start) || !GetVarsint64(&in, &s.min_time) ||
            !GetVarsint64(&in, &s.max_time) || !GetVarint64(&in, &s.rows) ||
            !GetVarint64(&in, &s.bytes)) {
          return Bad("segment");
        }
      }
    }
  }
  if (!in.empty()) return Bad("trailing bytes");
  return Status::OK();
}

Result<Manifest> LoadManifest(port::Env* env, const std::string& data_dir) {
  std::string path = port::JoinPath(data_dir, kManifestFileName);
  Manifest m;
  if (!env->FileExists(path)) return m;
  GNOMON_ASSIGN_OR_RETURN(std::string bytes, port::ReadFileToString(env, path));
  GNOMON_RETURN_IF_ERROR(DecodeManifest(bytes, &m).WithContext(path));
  return m;
}

Status SaveManifest(port::Env* env, const std::string& data_dir, const Manifest& m) {
  return port::WriteFileAtomic(env, port::JoinPath(data_dir, kManifestFileName), EncodeManifest(m),
                               "manifest");
}

std::string EscapeFileName(std::string_view name) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : name) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '-';
    if (safe) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  if (out.empty()) out = "%";
  return out;
}

}  // namespace gnomon::storage
