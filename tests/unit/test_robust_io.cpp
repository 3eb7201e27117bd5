// Reading and writing files whatever they hold (issue 21, the fuzzing findings): strict numbers in
// results CSVs, '.' decimals under any C locale, files replaced whole or not at all, JSON read
// strictly (nesting, duplicate keys), echoed text cut to a line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <clocale>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "io/FlexibleLinkSpec.hpp"
#include "io/JsonReader.hpp"
#include "io/TableFile.hpp"
#include "results/CsvReader.hpp"
#include "results/CsvWriter.hpp"
#include "TestFiles.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return test::scratchFolder("robust", name); }
using test::readAll;

// Sets the C locale to de_DE.UTF-8 (decimal comma) for the scope; available() false when not installed.
class GermanLocale {
 public:
  GermanLocale() {
    const char* old = std::setlocale(LC_ALL, nullptr);
    saved_ = old ? old : "C";
    ok_ = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr;
  }
  ~GermanLocale() { std::setlocale(LC_ALL, saved_.c_str()); }
  bool available() const { return ok_; }

 private:
  std::string saved_;
  bool ok_ = false;
};

}  // namespace

TEST(RobustIo, ResultsCellsMustBeFiniteDecimalNumbers) {
  for (const std::string& cell : {std::string("nan"), std::string("inf"), std::string("-inf"), std::string("0x10"),
                                  std::string("1\0", 2), std::string("1e999"), std::string("1.5x"), std::string("--1")}) {
    std::stringstream in("t,a\n0," + cell + "\n");
    const Result<Results> r = readCsv(in);
    ASSERT_FALSE(r) << cell;
    EXPECT_NE(r.error().text().find("line 2, column a: "), std::string::npos) << r.error().text();
  }
  std::stringstream in("t,a,b\n0,-1.5e-07,\n0.5,+2,.25\n");
  const Result<Results> r = readCsv(in);
  ASSERT_TRUE(r) << r.error().text();
  EXPECT_EQ(r->value(0, 1), -1.5e-07);
  EXPECT_TRUE(std::isnan(r->value(0, 2)));  // an empty cell: no value
  EXPECT_EQ(r->value(1, 1), 2.0);
  EXPECT_EQ(r->value(1, 2), 0.25);
}

TEST(RobustIo, NumbersAreWrittenAndReadWithAPointUnderAnyLocale) {
  GermanLocale german;
  if (!german.available()) GTEST_SKIP() << "the locale de_DE.UTF-8 is not installed (localedef -i de_DE -f UTF-8 de_DE.UTF-8)";
  EXPECT_EQ(formatNumber(0.5), "0.5");
  EXPECT_EQ(formatNumber(-1.25e-7), "-1.25e-07");
  EXPECT_EQ(formatShort(3.14159265, 3), "3.14");
  Results res;
  res.setChannels({{"t", "s"}, {"x", "m"}});
  const double row[2] = {0.5, 1.0 / 3.0};
  res.appendRow(row);
  std::stringstream csv;
  writeCsv(res, csv);
  EXPECT_NE(csv.str().find("\n0.5,0.3333333333333333\n"), std::string::npos) << csv.str();
  EXPECT_EQ(csv.str().rfind("t,x\n", 0), 0u) << csv.str();  // the header first: no comment lines
  const Result<Results> back = readCsv(csv);
  ASSERT_TRUE(back) << back.error().text();
  EXPECT_EQ(back->value(0, 1), 1.0 / 3.0);
  // The sidecar's numbers too: JSON has '.' whatever the locale, and reads back exactly.
  const fs::path run_dir = scratch("locale-run");
  res.end_time = 0.5;
  res.stats.wall_time = 0.25;
  res.stats.last_step = 1.0 / 3.0;
  ASSERT_TRUE(writeCsvFile(res, run_dir / "run.csv"));
  const std::string meta = readAll(run_dir / "run.meta.json");
  EXPECT_NE(meta.find("\"end_time\": 0.5,"), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"wall_time\": 0.25"), std::string::npos) << meta;
  const Result<Results> file_back = readCsvFile(run_dir / "run.csv");
  ASSERT_TRUE(file_back) << file_back.error().text();
  EXPECT_EQ(file_back->end_time, 0.5);
  EXPECT_EQ(file_back->stats.last_step, 1.0 / 3.0);
  EXPECT_EQ(file_back->value(0, 1), 1.0 / 3.0);
  fs::remove_all(run_dir);
  const fs::path dir = scratch("locale-table");
  std::ofstream(dir / "t.csv") << "t,value\n0,0.5\n1.5,2.25\n";
  const Result<Table> table = readTableFile(dir / "t.csv");
  ASSERT_TRUE(table) << table.error().text();
  EXPECT_EQ(table->t[1], 1.5);
  EXPECT_EQ(table->value[1], 2.25);
  fs::remove_all(dir);
  // The URDF import's flexible-link spec (flexarm-cli import-urdf and the workbench's dialog).
  const Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec("arm=length=0.7,section=tube:0.08:0.072,material=aluminium");
  ASSERT_TRUE(spec) << spec.error().text();
  EXPECT_EQ(spec->length.value_or(0.0), 0.7);
  EXPECT_EQ(spec->flex["section"]["outer_diameter"], 0.08) << spec->flex.dump();
}

TEST(RobustIo, AFileIsReplacedWholeOrNotAtAll) {
  const fs::path dir = scratch("atomic");
  const fs::path file = dir / "kept.txt";
  std::ofstream(file) << "old\n";
  const Status failed = writeFileAtomically(file, [](std::ostream& out) {
    out << "half";
    throw std::runtime_error("type_error.316");
  });
  EXPECT_FALSE(failed);
  EXPECT_NE(failed.error().text().find("type_error.316"), std::string::npos);
  EXPECT_EQ(readAll(file), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no temporary file left";
  ASSERT_TRUE(writeFileAtomically(file, std::string("new\n")));
  EXPECT_EQ(readAll(file), "new\n");
  EXPECT_FALSE(writeFileAtomically(dir / "no-such-folder" / "x.txt", std::string("x")));
  fs::remove_all(dir);
}

// Files an image or plot library writes itself (the workbench's PNG, PDF and SVG exports) go through a
// temporary file with the same extension beside them, then a rename.
TEST(RobustIo, AFileAWriterMakesItselfIsReplacedWholeOrNotAtAll) {
  const fs::path dir = scratch("through");
  const fs::path file = dir / "plot.png";
  std::ofstream(file) << "old\n";
  fs::path seen;
  auto writeHalfAndFail = [&seen](const fs::path& tmp) {
    seen = tmp;
    std::ofstream(tmp) << "half";
    return std::string("the disk is full");
  };
  Status written = writeFileThrough(file, writeHalfAndFail);
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().text(), "cannot write \"" + file.string() + "\": the disk is full");
  EXPECT_EQ(seen.parent_path(), dir);
  EXPECT_EQ(seen.extension(), ".png");  // the library tells the format by it
  EXPECT_NE(seen, file);
  EXPECT_EQ(readAll(file), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no temporary file left";
  // A writer that says it succeeded but wrote nothing, or threw, fails the same way.
  written = writeFileThrough(file, [](const fs::path&) { return std::string(); });
  EXPECT_NE(written.error().text().find("nothing was written"), std::string::npos);
  written = writeFileThrough(file, [](const fs::path& tmp) -> std::string {
    std::ofstream(tmp) << "x";
    throw std::runtime_error("bad_alloc");
  });
  EXPECT_NE(written.error().text().find("bad_alloc"), std::string::npos);
  EXPECT_EQ(readAll(file), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  ASSERT_TRUE(writeFileThrough(file, [](const fs::path& tmp) {
    std::ofstream(tmp) << "new\n";
    return std::string();
  }));
  EXPECT_EQ(readAll(file), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(RobustIo, OnlyRegularFilesOfBoundedSizeAreRead) {
  EXPECT_NE(readRegularFile("/dev/zero").error().text().find("not a regular file"), std::string::npos);
  EXPECT_NE(readRegularFile("/nonexistent/x").error().text().find("no such file"), std::string::npos);
  const fs::path dir = scratch("bounded");
  std::ofstream(dir / "big.txt") << std::string(1000, 'x');
  EXPECT_FALSE(readRegularFile(dir / "big.txt", 999));
  EXPECT_TRUE(readRegularFile(dir / "big.txt", 1000));
  EXPECT_NE(readRegularFile(dir).error().text().find("folder"), std::string::npos);
  EXPECT_FALSE(checkWritable(""));
  EXPECT_FALSE(checkWritable(dir));
  EXPECT_FALSE(checkWritable(dir / "missing" / "x.csv"));
  EXPECT_TRUE(checkWritable(dir / "x.csv"));
  fs::remove_all(dir);
}

TEST(RobustIo, JsonIsReadStrictly) {
  Result<Json> j = parseJsonText("{\"a\": {\"b\": 1, \"c\": [1, {\"d\": 2, \"d\": 3}]}}");
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().text(), "a.c[1].d: this key is given twice in the same object (each key may appear once)");
  j = parseJsonText(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']'));
  EXPECT_TRUE(j) << j.error().text();
  j = parseJsonText("\n" + std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']'));
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().text(), "not valid JSON at line 2, column 201: arrays and objects nested more than 200 levels deep");
  j = parseJsonText("[\"[[[[\", \"\\\"[[\"]");  // brackets inside strings do not count
  EXPECT_TRUE(j) << j.error().text();
}

// Found by tests/fuzz: nlohmann's parse error quotes the whole token it last read, a long string
// with a raw newline or a bad byte in it made a message of megabytes over several lines.
TEST(RobustIo, AJsonSyntaxErrorQuotesAShortExcerptOnOneLine) {
  for (const std::string& bad : {std::string("\n"), std::string("\xff"), std::string(1, '\0')}) {
    const Result<Json> j = parseJsonText("{\"name\": \"" + std::string(100000, 'z') + bad + "\"}");
    ASSERT_FALSE(j);
    const std::string text = j.error().text();
    EXPECT_LT(text.size(), 400u) << text.substr(0, 400);
    EXPECT_EQ(text.find('\n'), std::string::npos) << text.substr(0, 400);
    EXPECT_EQ(text.rfind("not valid JSON at line 1, column ", 0), 0u) << text.substr(0, 400);
    EXPECT_NE(text.find("last read: \"\"zzz"), std::string::npos) << text.substr(0, 400);
  }
}

TEST(RobustIo, EchoedTextIsCutAtACharacterAndKeptOnOneLine) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(100, 'x')), std::string(80, 'x') + "...");
  EXPECT_EQ(excerpt("a\nb"), "a?b");
  EXPECT_EQ(excerpt("\xc3\xa9\xc3\xa9", 3), "\xc3\xa9...");  // not inside the second 'é'
  EXPECT_TRUE(isValidUtf8("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  for (const char* bad : {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) EXPECT_FALSE(isValidUtf8(bad)) << bad;
}
