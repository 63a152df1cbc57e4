// format.h - the three encodings of a module, read and written as a stream.
//
// A module streams as a header (level, files, externs, data) followed by one
// function at a time, with module pieces (more files, externs and data)
// between functions. ModuleReader yields functions one by one and
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
#include <vector>

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

// ---- Module pieces (FORMAT.md section 1, "Module pieces") ----
// Header contents that arrive between functions, so that a producer (c2ast)
// can send a function before it knows the rest of the module. A piece adds
// source files, externs and data items to the header in effect; the symbols a
// function's nodes name as data items or externs, and the files its
// locations name, come in the header or in a piece before the function.
struct ModulePiece {
  std::vector<std::string> files;  // appended to ModuleHeader::files (indexes continue)
  std::vector<Extern> externs;     // appended to ModuleHeader::externs
  std::vector<DataItem> data;      // appended to ModuleHeader::data
  bool empty() const { return files.empty() && externs.empty() && data.empty(); }
  bool operator==(const ModulePiece&) const = default;
};
// Appends the piece's lists to the header's (what a reader does when one arrives).
void append_piece(ModuleHeader& header, const ModulePiece& piece);
// The piece's structural rules (those of check_header_structure, ir.h, on
// its externs); throws FormatError naming the extern.
void check_piece_structure(const ModulePiece& piece);

class ModuleReader {
 public:
  virtual ~ModuleReader() = default;
  const ModuleHeader& header() const { return header_; }
  // Reads the next function into `fn` (replacing its contents); false at the
  // end of the module. Throws FormatError on bad input.
  virtual bool next(Function& fn) = 0;

  // ---- Module pieces (FORMAT.md section 1, "Module pieces") ----
  // Every non-empty piece read so far, in stream order; next() reads the
  // pieces before the function it returns (and at the end those after the
  // last one), appending each to header() as it arrives. A stage that
  // passes the module through writes them out again (Tool::write does);
  // one that collects the whole module just uses header() at the end.
  const std::vector<ModulePiece>& pieces() const { return pieces_; }

 protected:
  // Checks the piece's structure, appends it to header_ and records it.
  void add_piece(ModulePiece piece);
  ModuleHeader header_;
  std::vector<ModulePiece> pieces_;
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
  // A module piece between functions (before the function that first needs
  // it); an empty piece writes nothing. Does not flush: the next function
  // or end() does.
  virtual void piece(const ModulePiece& piece) = 0;
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
