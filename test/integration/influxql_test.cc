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
#include <memory>
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

// The answer formats of /query over a real server: InfluxDB 1.6.7's answers to the same requests.
class QueryFormatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("gnomon-influxql-formats");
    server_ = std::make_unique<ServerProcess>(kBinary, dir_, std::vector<std::string>{"--wal-sync", "none"});
    ASSERT_TRUE(server_->Start().ok());
    auto w = Call("POST", "/write?db=db",
                  "cpu,host=a v=1 1000000000\ncpu,host=a v=2.5 2000000000\n"
                  "cpu,host=b v=3 3000000000\ncpu,host=b v=4 4000000000\ncpu,host=b v=5 5000000000\n");
    ASSERT_EQ(w.status, 204) << w.body;
  }
  void TearDown() override {
    server_.reset();
    RemoveTree(dir_);
  }
  server::http::TestReply Call(std::string_view method, std::string_view target, std::string_view body = "",
                               std::vector<std::pair<std::string, std::string>> headers = {}) {
    auto r = server::http::HttpRequestOnce("127.0.0.1", server_->port(), method, target, body, headers);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : server::http::TestReply{};
  }
  server::http::TestReply Get(std::string_view target) { return Call("GET", target); }

  std::string dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(QueryFormatsTest, CsvWhenTheClientAcceptsIt) {
  auto r = Call("GET", "/query?db=db&epoch=s&q=SELECT+v+FROM+cpu+GROUP+BY+host%3BSHOW+DATABASES", "",
                  {{"Accept", "application/csv"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("content-type"), "text/csv");
  EXPECT_EQ(r.body,
            "name,tags,time,v\ncpu,host=a,1,1\ncpu,host=a,2,2.5\ncpu,host=b,3,3\ncpu,host=b,4,4\ncpu,host=b,5,5\n"
            "\nname,tags,name\ndatabases,,db\n");
  auto bad = Call("GET", "/query?q=SELEC+v", "", {{"Accept", "text/csv"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.Header("content-type"), "text/csv");
  EXPECT_EQ(bad.body.substr(0, 28), "error\n\"error parsing query: ");
  auto json = Call("GET", "/query?db=db&q=SHOW+DATABASES", "", {{"Accept", "application/json"}});
  EXPECT_EQ(json.Header("content-type"), "application/json");
}

TEST_F(QueryFormatsTest, ChunkedAnswersComeAsOneDocumentPerPiece) {
  auto r = Get("/query?db=db&chunked=true&chunk_size=2&q=SELECT+v+FROM+cpu+WHERE+host%3D%27b%27");
  EXPECT_EQ(r.body,
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],"values":)"
            R"([["1970-01-01T00:00:03Z",3],["1970-01-01T00:00:04Z",4]],"partial":true}],"partial":true}]})"
            "\n"
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],"values":)"
            R"([["1970-01-01T00:00:05Z",5]]}]}]})"
            "\n");
  // Only chunked=true turns it on, as in InfluxDB; a bad chunk_size is the default, 10,000.
  EXPECT_EQ(Get("/query?db=db&chunked=1&q=SHOW+DATABASES").body.find('\n'), std::string::npos);
  EXPECT_EQ(Get("/query?db=db&chunked=true&chunk_size=x&q=SELECT+v+FROM+cpu").body,
            R"({"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],"values":)"
            R"([["1970-01-01T00:00:01Z",1],["1970-01-01T00:00:02Z",2.5],["1970-01-01T00:00:03Z",3],)"
            R"(["1970-01-01T00:00:04Z",4],["1970-01-01T00:00:05Z",5]]}]}]})"
            "\n");
}

TEST_F(QueryFormatsTest, BoundParameters) {
  auto r = Get("/query?db=db&epoch=s&q=SELECT+v+FROM+%24m+WHERE+host+%3D+%24h+AND+v+%3E+%24x&params=" +
                 std::string("%7B%22h%22%3A%22b%22%2C%22x%22%3A3%2C%22m%22%3A%7B%22identifier%22%3A%22cpu%22%7D%7D"));
  EXPECT_EQ(r.body, R"({"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],)"
                    R"("values":[[4,4],[5,5]]}]}]})");
  auto missing = Get("/query?db=db&q=SELECT+v+FROM+cpu+WHERE+v+%3E+%24x&params=%7B%7D");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, R"({"error":"error parsing query: missing parameter: x at line 1, char 29"})");
  auto bad = Get("/query?db=db&q=SELECT+v+FROM+cpu&params=%7B");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body.rfind(R"({"error":"error parsing query parameters: )", 0), 0u) << bad.body;
}

// Answers past the 1 MB the server holds go out streamed; every point arrives, in every format.
TEST_F(QueryFormatsTest, LargeAnswersStreamWhole) {
  constexpr int kPoints = 60'000;
  std::string lp;
  for (int i = 0; i < kPoints; ++i) lp += "big,host=h v=" + std::to_string(i) + " " + std::to_string(1'000'000'000LL * (i + 1)) + "\n";
  ASSERT_EQ(Call("POST", "/write?db=db", lp).status, 204);
  auto json = Get("/query?db=db&q=SELECT+v+FROM+big");
  EXPECT_EQ(json.status, 200);
  EXPECT_GT(json.body.size(), 1u << 20);
  EXPECT_EQ(json.Header("content-length"), "");  // it streamed
  EXPECT_NE(json.body.find("[\"1970-01-01T16:40:00Z\",59999]]}]}]}"), std::string::npos);
  auto chunked = Get("/query?db=db&chunked=true&chunk_size=1000&q=SELECT+v+FROM+big");
  size_t lines = 0, partial = 0;
  for (size_t p = 0; (p = chunked.body.find('\n', p)) != std::string::npos; ++p) ++lines;
  for (size_t p = 0; (p = chunked.body.find("\"partial\":true}],\"partial\":true}]}", p)) != std::string::npos; ++p) ++partial;
  EXPECT_EQ(lines, 60u);
  EXPECT_EQ(partial, 59u);  // every piece but the last: its series and its statement go on
  auto csv = Call("GET", "/query?db=db&q=SELECT+v+FROM+big", "", {{"Accept", "application/csv"}});
  size_t rows = 0;
  for (size_t p = 0; (p = csv.body.find('\n', p)) != std::string::npos; ++p) ++rows;
  EXPECT_EQ(rows, kPoints + 1u);  // and the header
  EXPECT_EQ(csv.body.substr(csv.body.size() - 26), "big,,60000000000000,59999\n");
}

}  // namespace
}  // namespace gnomon::test
