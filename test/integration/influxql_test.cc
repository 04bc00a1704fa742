// Declarative InfluxQL tests (test/influxql/*.test) against the real `gnomon server`: each file
// writes line protocol, then runs statements and compares the /query answer byte for byte. The
// expected answers were recorded from InfluxDB 1.6 (Debian's influxdb) on the same points, with
// test/influxql/compare_with_influxdb.py; docs/influxql.md lists the few intended differences.
//
//   write DB            line protocol follows, up to a blank line
//   query DB [epoch=U]  one statement on the next line, its exact answer on the line after
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/server/http/http_test_client.h"
#include "src/server/http/query_params.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::string kTests = std::string(GNOMON_SOURCE_DIR) + "/test/influxql";

std::string FormEncode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// The answer with every non-integer number rounded to 12 significant digits: sums of floats in
// another order differ in their last bits, and that is not a difference between the engines.
std::string RoundFloats(const std::string& json) {
  std::string out;
  for (size_t i = 0; i < json.size();) {
    char c = json[i];
    if (c == '"') {  // copy a string whole
      size_t j = i + 1;
      while (j < json.size() && json[j] != '"') j += json[j] == '\\' ? 2 : 1;
      out.append(json, i, j + 1 - i);
      i = j + 1;
      continue;
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      bool fractional = false;
      while (j < json.size() && (std::isdigit(static_cast<unsigned char>(json[j])) || std::strchr("-+.eE", json[j]))) {
        fractional = fractional || json[j] == '.' || json[j] == 'e' || json[j] == 'E';
        ++j;
      }
      std::string number = json.substr(i, j - i);
      if (fractional) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.12g", std::strtod(number.c_str(), nullptr));
        number = buf;
      }
      out += number;
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

class InfluxqlFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(InfluxqlFileTest, AnswersAsInfluxDb) {
  std::string dir = MakeTempDir("gnomon-influxql");
  ServerProcess server(kBinary, dir, {"--wal-sync", "none"});
  ASSERT_TRUE(server.Start().ok());
  std::ifstream in(kTests + "/" + GetParam());
  ASSERT_TRUE(in.good()) << GetParam();
  auto call = [&](std::string_view target, std::string_view body, std::string_view type) {
    return server::http::HttpRequestOnce("127.0.0.1", server.port(), "POST", target, body,
                                         {{"Content-Type", std::string(type)}});
  };
  std::string line;
  int line_no = 0, queries = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string verb, db, option;
    words >> verb >> db >> option;
    if (verb == "write") {
      std::string body, lp;
      while (std::getline(in, lp) && !lp.empty()) {
        ++line_no;
        body += lp + "\n";
      }
      ++line_no;
      ASSERT_TRUE(call("/query", "q=" + FormEncode("CREATE DATABASE " + db), "application/x-www-form-urlencoded").ok());
      auto w = call("/write?db=" + db, body, "text/plain");
      ASSERT_TRUE(w.ok());
      ASSERT_EQ(w->status, 204) << w->body;
    } else if (verb == "query") {
      std::string statement, expected;
      ASSERT_TRUE(std::getline(in, statement) && std::getline(in, expected)) << GetParam() << ":" << line_no;
      line_no += 2;
      std::string form = "db=" + db + "&q=" + FormEncode(statement);
      if (!option.empty()) form += "&" + option;
      auto r = call("/query", form, "application/x-www-form-urlencoded");
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(RoundFloats(r->body), RoundFloats(expected)) << GetParam() << ":" << line_no - 1 << ": " << statement;
      ++queries;
    } else {
      FAIL() << GetParam() << ":" << line_no << ": unknown directive " << verb;
    }
  }
  EXPECT_GT(queries, 0);
  RemoveTree(dir);
}

std::vector<std::string> TestFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kTests)) {
    if (e.path().extension() == ".test") files.push_back(e.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(Files, InfluxqlFileTest, ::testing::ValuesIn(TestFiles()),
                         [](const auto& info) {
                           std::string n = info.param.substr(0, info.param.size() - 5);
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace gnomon::test
