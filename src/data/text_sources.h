// Text sources: TextFileDataset (one row per line) and CSVDataset (one row per record, RFC 4180
// quoting). Files are parsed whole at build time; a malformed record fails then, naming file and line.
#pragma once

#include <string>
#include <vector>

#include "data/sources.h"

namespace sprout::data {

// Rows: text (a string per line, without its line ending). `file_sizes` receives the line count of
// each file (for file-level shuffling).
RowSourcePtr text_file_source(const std::vector<std::string>& files, std::vector<int64_t>* file_sizes);

enum class CsvType { Int, Float, String };
struct CsvColumn {
  CsvType type = CsvType::String;
  std::string default_value;  // used for empty fields; empty for String columns means ""
  bool has_default = false;   // an empty Int/Float field without a default is an error
};

// `skip_header`: the first record of every file names the columns and is not a row.
// Int columns are Int32, Float columns Float32, String columns text, as in MindSpore.
RowSourcePtr csv_source(const std::vector<std::string>& files, char delimiter, const std::vector<CsvColumn>& columns,
                        bool skip_header, std::vector<int64_t>* file_sizes);

// Splits one CSV document into records of fields, honouring quotes ("a ""b""", newlines inside
// quotes). `first_line` of each record is reported for errors.
struct CsvRecord {
  std::vector<std::string> fields;
  int64_t first_line = 0;
};
std::vector<CsvRecord> parse_csv(const std::string& api, const std::string& path, std::string_view text, char delimiter);

}  // namespace sprout::data
