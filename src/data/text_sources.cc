#include "data/text_sources.h"

#include <charconv>
#include <cstdlib>

#include "base/error.h"
#include "data/file_util.h"

namespace sprout::data {

namespace {

std::string_view file_text(const Tensor& bytes) {
  return {static_cast<const char*>(bytes.raw_data()), static_cast<size_t>(bytes.numel())};
}

class StringListSource final : public RowSource {
 public:
  explicit StringListSource(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  int64_t size() const override { return static_cast<int64_t>(lines_.size()); }
  Row get(int64_t index) const override { return Row{Field::string(lines_[static_cast<size_t>(index)])}; }

 private:
  std::vector<std::string> lines_;
};

// Columns kept whole: numeric ones as (N,) tensors, text ones as strings. A row is one index into each.
class ColumnarSource final : public RowSource {
 public:
  struct Column {
    Tensor numbers;
    std::vector<std::string> strings;
  };
  ColumnarSource(std::vector<Column> columns, int64_t size) : columns_(std::move(columns)), size_(size) {}
  int64_t size() const override { return size_; }
  Row get(int64_t index) const override {
    Row row;
    for (const auto& c : columns_)
      row.push_back(c.numbers.defined() ? Field(c.numbers.select(0, index).clone())
                                        : Field::string(c.strings[static_cast<size_t>(index)]));
    return row;
  }

 private:
  std::vector<Column> columns_;
  int64_t size_;
};

}  // namespace

RowSourcePtr text_file_source(const std::vector<std::string>& files, std::vector<int64_t>* file_sizes) {
  std::vector<std::string> lines;
  for (const auto& path : files) {
    Tensor bytes = read_file_bytes("TextFileDataset", path);
    std::string_view text = file_text(bytes);
    const size_t before = lines.size();
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines.emplace_back(line);
      start = end + 1;
    }
    if (file_sizes) file_sizes->push_back(static_cast<int64_t>(lines.size() - before));
  }
  return std::make_shared<StringListSource>(std::move(lines));
}

std::vector<CsvRecord> parse_csv(const std::string& api, const std::string& path, std::string_view text, char delim) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  int64_t line = 1;
  bool in_quotes = false, field_started = false, quoted_field = false;
  record.first_line = 1;
  auto end_field = [&] {
    record.fields.push_back(std::move(field));
    field.clear();
    field_started = quoted_field = false;
  };
  auto end_record = [&] {
    end_field();
    // A blank line is no record.
    if (!(record.fields.size() == 1 && record.fields[0].empty())) records.push_back(std::move(record));
    record = CsvRecord{};
    record.first_line = line;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_quotes) {
      if (ch == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (ch == '\n') ++line;
        field += ch;
      }
      continue;
    }
    if (ch == '"' && !field_started) {
      in_quotes = quoted_field = field_started = true;
    } else if (ch == delim) {
      end_field();
    } else if (ch == '\n' || ch == '\r') {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      end_record();
    } else {
      SPROUT_CHECK(!quoted_field, ValueError, api, ": '", path, "' line ", line,
                   ": text after the closing quote of a quoted field");
      field += ch;
      field_started = true;
    }
  }
  SPROUT_CHECK(!in_quotes, ValueError, api, ": '", path, "' line ", record.first_line,
               ": a quoted field is not closed before the end of the file");
  if (field_started || !record.fields.empty()) end_record();
  return records;
}

RowSourcePtr csv_source(const std::vector<std::string>& files, char delimiter, const std::vector<CsvColumn>& columns,
                        bool skip_header, std::vector<int64_t>* file_sizes) {
  const char* api = "CSVDataset";
  std::vector<std::vector<std::string>> cells(columns.size());
  int64_t rows = 0;
  std::vector<std::pair<std::string, int64_t>> where;  // (file, line) of each row, for parse errors
  for (const auto& path : files) {
    Tensor bytes = read_file_bytes(api, path);
    std::vector<CsvRecord> records = parse_csv(api, path, file_text(bytes), delimiter);
    size_t first = skip_header && !records.empty() ? 1 : 0;
    for (size_t r = first; r < records.size(); ++r) {
      const CsvRecord& rec = records[r];
      SPROUT_CHECK(rec.fields.size() == columns.size(), ValueError, api, ": '", path, "' line ", rec.first_line,
                   " has ", rec.fields.size(), " fields, but the dataset has ", columns.size(), " columns");
      for (size_t c = 0; c < columns.size(); ++c) cells[c].push_back(rec.fields[c]);
      where.emplace_back(path, rec.first_line);
      ++rows;
    }
    if (file_sizes) file_sizes->push_back(static_cast<int64_t>(records.size() - first));
  }
  std::vector<ColumnarSource::Column> out(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    const CsvColumn& col = columns[c];
    if (col.type == CsvType::String) {
      out[c].strings = std::move(cells[c]);
      for (auto& s : out[c].strings)
        if (s.empty()) s = col.default_value;
      continue;
    }
    const bool is_int = col.type == CsvType::Int;
    Tensor t = Tensor::empty(Shape{rows}, is_int ? DType::Int32 : DType::Float32);
    for (int64_t r = 0; r < rows; ++r) {
      std::string text = cells[c][static_cast<size_t>(r)];
      const auto& [path, line] = where[static_cast<size_t>(r)];
      if (text.empty()) {
        SPROUT_CHECK(col.has_default, ValueError, api, ": '", path, "' line ", line, " field ", c,
                     " is empty and column ", c, " has no default in column_defaults");
        text = col.default_value;
      }
      const char* begin = text.data();
      const char* end = begin + text.size();
      if (is_int) {
        int32_t v = 0;
        auto [ptr, ec] = std::from_chars(begin, end, v);
        SPROUT_CHECK(ec == std::errc() && ptr == end, ValueError, api, ": '", path, "' line ", line, " field ", c,
                     " is '", text, "', not an int (column_defaults[", c, "] is an int)");
        t.data<int32_t>()[r] = v;
      } else {
        char* parsed_end = nullptr;
        const float v = std::strtof(text.c_str(), &parsed_end);
        SPROUT_CHECK(parsed_end == text.c_str() + text.size(), ValueError, api, ": '", path, "' line ", line,
                     " field ", c, " is '", text, "', not a number (column_defaults[", c, "] is a float)");
        t.data<float>()[r] = v;
      }
    }
    out[c].numbers = t;
  }
  return std::make_shared<ColumnarSource>(std::move(out), rows);
}

}  // namespace sprout::data
