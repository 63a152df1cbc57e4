// format.h - the three encodings of a module, read and written as a stream.
//
// A module streams as a header (level, files, externs, data) followed by one
// function at a time. ModuleReader yields functions one by one and
// ModuleWriter takes them one by one, so a stage holds only the function it
// works on and a pipe of stages works on several functions at once.
//
//   auto reader = open_reader(src);            // detects the encoding
//   auto writer = make_writer(Encoding::Binary, out);
//   writer->begin(reader->header());
//   Function fn;
//   while (reader->next(fn)) { transform(fn); writer->function(fn); }
//   writer->end();
//
// Every reader validates as it goes and throws FormatError with a position
// (line:col for JSON and text, byte offset for binary) or, for graph errors,
// the function and node/block; each function it yields has passed
// check_structure() (ir.h). A bare graph in the seed's shape (JSON object with
// `nodes`, or one `pipeline { ... }`) reads as a module of one function named
// "" whose level is infer_bare_level().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ir/error.h"
#include "encoding/io.h"
#include "ir/ir.h"

namespace pl {

enum class Encoding { Json, Binary, Text };
std::optional<Encoding> parse_encoding(std::string_view name);  // json|bin|text
std::string_view encoding_name(Encoding e);

// Guess the encoding from the first bytes of the input (does not consume):
// the binary magic "PIPEBIN\0" -> Binary; first non-blank byte '{' -> Json;
// anything else -> Text.
Encoding detect_encoding(ByteSource& src);

class ModuleReader {
 public:
  virtual ~ModuleReader() = default;
  const ModuleHeader& header() const { return header_; }
  // Reads the next function into `fn` (replacing its contents); false at the
  // end of the module. Throws FormatError on bad input.
  virtual bool next(Function& fn) = 0;

 protected:
  ModuleHeader header_;
};

// Each factory reads the header before returning.
std::unique_ptr<ModuleReader> make_json_reader(ByteSource& src);
std::unique_ptr<ModuleReader> make_binary_reader(ByteSource& src);
std::unique_ptr<ModuleReader> make_text_reader(ByteSource& src);
std::unique_ptr<ModuleReader> open_reader(ByteSource& src);  // detects

class StringSink : public ByteSink {
 public:
  void write(std::string_view bytes) override { text.append(bytes); }
  std::string text;
};

class ModuleWriter {
 public:
  virtual ~ModuleWriter() = default;
  virtual void begin(const ModuleHeader& header) = 0;
  // Writes one function and flushes the sink, so the next stage can start.
  virtual void function(const Function& fn) = 0;
  virtual void end() = 0;
};

std::unique_ptr<ModuleWriter> make_json_writer(ByteSink& sink);
std::unique_ptr<ModuleWriter> make_binary_writer(ByteSink& sink);
std::unique_ptr<ModuleWriter> make_text_writer(ByteSink& sink);
std::unique_ptr<ModuleWriter> make_writer(Encoding e, ByteSink& sink);

// Whole-module conveniences (tests, small tools).
Module read_module(ByteSource& src);
Module read_module_from_string(std::string bytes, std::string name = "<string>");
std::string write_module_to_string(const Module& m, Encoding e);
// Writes the header and `fns` to `path` (atomically: OutputFile); throws
// std::runtime_error when it cannot (sonopt's --dump-changed, --check-each).
void write_module_file(const std::string& path, Encoding e, const ModuleHeader& header,
                       const std::vector<const Function*>& fns);

}  // namespace pl
