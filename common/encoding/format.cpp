// format.cpp - encoding detection and whole-module conveniences.
#include "encoding/format.h"

#include "ir/error.h"

namespace pl {

namespace {
constexpr std::string_view kBinaryMagic("PIPEBIN\0", 8);
}

std::optional<Encoding> parse_encoding(std::string_view name) {
  if (name == "json") return Encoding::Json;
  if (name == "bin") return Encoding::Binary;
  if (name == "text") return Encoding::Text;
  return std::nullopt;
}

std::string_view encoding_name(Encoding e) {
  switch (e) {
    case Encoding::Json: return "json";
    case Encoding::Binary: return "bin";
    case Encoding::Text: return "text";
  }
  return "?";
}

Encoding detect_encoding(ByteSource& src) {
  src.ensure(kBinaryMagic.size());
  std::string_view w = src.window();
  if (w.substr(0, kBinaryMagic.size()) == kBinaryMagic) return Encoding::Binary;
  for (size_t i = 0;; ++i) {
    if (i == w.size()) {
      if (!src.fill()) return Encoding::Text;
      w = src.window();
    }
    char c = w[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' ? Encoding::Json : Encoding::Text;
  }
}

namespace {
std::unique_ptr<ModuleReader> make_reader(Encoding e, ByteSource& src) {
  switch (e) {
    case Encoding::Json: return make_json_reader(src);
    case Encoding::Binary: return make_binary_reader(src);
    case Encoding::Text: return make_text_reader(src);
  }
  return nullptr;
}
}  // namespace

std::unique_ptr<ModuleReader> open_reader(ByteSource& src) {
  std::unique_ptr<ModuleReader> reader = make_reader(detect_encoding(src), src);
  check_header_structure(reader->header());
  return reader;
}

std::unique_ptr<ModuleWriter> make_writer(Encoding e, ByteSink& sink) {
  switch (e) {
    case Encoding::Json: return make_json_writer(sink);
    case Encoding::Binary: return make_binary_writer(sink);
    case Encoding::Text: return make_text_writer(sink);
  }
  return nullptr;
}

// ---- Module pieces ----
void append_piece(ModuleHeader& header, const ModulePiece& piece) {
  header.files.insert(header.files.end(), piece.files.begin(), piece.files.end());
  header.externs.insert(header.externs.end(), piece.externs.begin(), piece.externs.end());
  header.data.insert(header.data.end(), piece.data.begin(), piece.data.end());
}

void check_piece_structure(const ModulePiece& piece) {
  ModuleHeader externs_only;
  externs_only.externs = piece.externs;
  check_header_structure(externs_only);
}

void ModuleReader::add_piece(ModulePiece piece) {
  if (piece.empty()) return;
  check_piece_structure(piece);
  append_piece(header_, piece);
  pieces_.push_back(std::move(piece));
}

// The pieces end up in the header (the module's canonical, collected form).
Module read_module(ByteSource& src) {
  auto reader = open_reader(src);
  Module m;
  Function fn;
  while (reader->next(fn)) m.functions.push_back(std::move(fn));
  m.header = reader->header();
  return m;
}

Module read_module_from_string(std::string bytes, std::string name) {
  ByteSource src = ByteSource::from_string(std::move(name), std::move(bytes));
  return read_module(src);
}

std::string write_module_to_string(const Module& m, Encoding e) {
  StringSink sink;
  auto writer = make_writer(e, sink);
  writer->begin(m.header);
  for (const Function& fn : m.functions) writer->function(fn);
  writer->end();
  return std::move(sink.text);
}

void write_module_file(const std::string& path, Encoding e, const ModuleHeader& header,
                       const std::vector<const Function*>& fns) {
  OutputFile out(path);
  auto writer = make_writer(e, out);
  writer->begin(header);
  for (const Function* fn : fns) writer->function(*fn);
  writer->end();
  out.commit();
}

}  // namespace pl
