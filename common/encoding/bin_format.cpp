// bin_format.cpp - the binary encoding: "PIPEBIN\0" + framed FlatBuffers.
//
// Stream layout (schema/FORMAT.md, "Binary encoding"; schema/pipe.fbs):
//   magic   8 bytes "PIPEBIN\0"
//   frame   u32 LE length L, u32 reserved (0), L bytes of one FlatBuffer,
//           zero bytes up to the next multiple of 8
//   ...     first frame: module header (identifier "PIPH"); then one frame
//           per function (identifier "PIPF"); then the end frame, a frame
//           with L = 0 (8 zero bytes). Nothing may follow it.
// Everything before a FlatBuffer is a multiple of 8 bytes, so each FlatBuffer
// starts 8-aligned in the input; a mapped file (page aligned) or a streamed
// buffer (heap aligned) is read in place and scalars are read directly.
//
// Reading a frame, in this order, never touching bytes before they are
// checked:
//   1. ByteSource::ensure(8) for the frame header, then the length against
//      the cap (FlatBuffers' limit, < 2^31 - 1) and, for input that has all
//      arrived (mapped file), against what remains; then ensure(8 + padded
//      L). For a pipe ensure() grows its buffer only as bytes arrive, so a
//      frame that claims 1 GiB in a short stream fails as truncated having
//      allocated about what arrived.
//   2. If the FlatBuffer is not 8-aligned in memory (only possible for odd
//      in-memory sources), it is copied into an aligned scratch buffer;
//      otherwise it is used in place (zero-copy).
//   3. The file identifier, then flatbuffers::Verifier (depth 8, 8 tables:
//      the schema has at most 6 tables per frame and no vectors of tables, so the
//      verification is linear in the frame size and no table can be shared).
//   4. Semantic decoding into the IR with every value checked: version,
//      level name, linkage and extern-kind enums, value type names, opcode
//      names (valid, distinct, interned with Function::intern_op), literal
//      kinds and payloads (Bool 0/1, UInt above INT64_MAX, any float bits,
//      string indexes in range, Json texts valid compact JSON of an array or
//      object nested at most kMaxJsonDepth deep, never {"float": ...}),
//      parallel vector lengths,
//      end-offset vectors (non-decreasing, last = flat length), 8-byte
//      alignment of vectors of 8-byte scalars (the Verifier checks only 4),
//      source locations (line 0 => all 0, file index below the file count),
//      node references (below the node count, checked on the flat arrays).
//      The nodes are built in one pass over the frame's node arrays that
//      checks each value as it uses it (an end offset out of order hands
//      over to the full check of the end vectors, so the diagnostic is the
//      one a separate pass would give); the references are then checked on
//      the flat id lists the pass has just brought into cache. So
//      check_structure() runs with NodeChecks::AlreadyDone and does not
//      walk the node array again. Each literal text is checked and decoded
//      once per frame; literals copy the decoded text.
//   5. The frame is consumed.
// Errors are FormatError with the byte offset (from the start of the input)
// of the frame or of the offending field; graph errors from check_structure
// name the function and node/block.
//
// Bounded decoding. FlatBuffers lets many offsets point at one string, and
// literals share texts by index, so a small frame could name one huge string
// a million times. Every string copied out of a frame is charged to a
// TextBudget of (frame size + kMaxSharedText bytes per literal); the writer
// only shares texts of at most kMaxSharedText bytes, so files it writes
// always fit, and a decoded frame is at most a constant factor larger than
// the frame.
//
// Writing: one FlatBufferBuilder and its buffer are reused across functions.
// One pass over the nodes fills reused flat arrays (NodeArrays), assigning
// the opcode table (foreign opcodes first, then table opcodes in first-use
// order) and interning literal texts as it goes; the frame size is then
// bounded from above and refused if it could exceed the cap. The builder
// gets everything but the node arrays: the texts, opcode names and the small
// sections, then the root table, whose node array fields hold placeholders.
// The node arrays follow the builder's buffer in the frame, each a
// FlatBuffers vector (length word, elements aligned to their size) written
// to the sink straight from NodeArrays, and the placeholders are patched
// with their offsets: the arrays are never copied into the builder. The
// output depends only on the module: FlatBufferBuilder zero-fills its
// padding, the gaps between the arrays are zero, the tables are built in a
// fixed order and interning assigns indexes in first-use order.
//
// The reader reads FlatBuffers vectors in place as arrays of host scalars,
// which is only right on little-endian hosts (static_assert below).
#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/abi.h"
#include "ir/error.h"
#include "encoding/format.h"
#include "encoding/json_lex.h"
#include "pipe_generated.h"

namespace pl {

namespace {

static_assert(FLATBUFFERS_LITTLEENDIAN, "the binary reader reads FlatBuffers vectors in place (little-endian only)");

namespace fbs = flatbuffers;
using StringVector = fbs::Vector<fbs::Offset<fbs::String>>;

constexpr std::string_view kMagic("PIPEBIN\0", 8);
constexpr char kHeaderId[] = "PIPH";
constexpr char kFunctionId[] = "PIPF";
constexpr char kPieceId[] = "PIPP";  // a module piece
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kFrameHeaderBytes = 8;
constexpr size_t kFrameAlign = 8;
// flatbuffers::Verifier requires size < FLATBUFFERS_MAX_BUFFER_SIZE (2^31-1).
constexpr uint64_t kMaxFrameBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
// Literal texts up to this size are shared between literals by the writer.
constexpr size_t kMaxSharedText = 256;
constexpr uint32_t kNoParent = 0xFFFFFFFFu;
// Nesting limit of Json literals (same figure as the JSON and text readers).
constexpr size_t kMaxJsonDepth = 128;
constexpr size_t kMaxOpcodeNames = 65536;  // ops are u16 indexes

size_t padded_size(size_t n) { return (n + kFrameAlign - 1) & ~(kFrameAlign - 1); }

uint32_t load_u32le(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return fbs::EndianScalar(v);
}

void store_u32le(char* p, uint32_t v) {
  v = fbs::EndianScalar(v);
  std::memcpy(p, &v, sizeof v);
}

// `text` quoted for a message: at most 40 bytes, control bytes escaped.
std::string quote_text(std::string_view text) {
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < 40; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > 40) out += "...";
  return out + "'";
}

std::string num(uint64_t v) { return std::to_string(v); }

// ============================================================================
// Reading
// ============================================================================

// One frame's FlatBuffer, 8-byte aligned in memory, and where it is in the
// input. Errors point at fields through offset_of().
struct Frame {
  const uint8_t* data = nullptr;
  size_t size = 0;
  uint64_t offset = 0;  // input offset of data[0]

  uint64_t offset_of(const void* p) const {
    return offset + static_cast<uint64_t>(static_cast<const uint8_t*>(p) - data);
  }
  [[noreturn]] void fail(const void* at, const std::string& message) const {
    throw FormatError(Where::at_byte(offset_of(at)), message);
  }
  [[noreturn]] void fail(const std::string& message) const { fail(data, message); }
};

// Bytes of text a frame may still decode to (see the header comment).
class TextBudget {
 public:
  TextBudget(const Frame& frame, uint64_t limit) : frame_(frame), left_(limit) {}
  void charge(size_t bytes, const void* at) {
    if (bytes > left_) [[unlikely]]
      over(at);
    left_ -= bytes;
  }
  // A string copied out of the frame: charged, and valid UTF-8 like the
  // strings of the other encodings (JSON cannot carry anything else).
  std::string_view take(const fbs::String* s, const void* at) {
    charge(s->size(), at);
    std::string_view text(s->c_str(), s->size());
    if (!json_lex::valid_utf8(text)) frame_.fail(at, "string is not valid utf-8");
    return text;
  }

 private:
  [[noreturn, gnu::noinline]] void over(const void* at) const {
    frame_.fail(at, "frame decodes to more text than it holds (a string is shared too often)");
  }

  const Frame& frame_;
  uint64_t left_;
};

std::string_view view(const fbs::String* s) { return {s->c_str(), s->size()}; }

std::string take_text(const fbs::String* s, TextBudget& budget) { return std::string(budget.take(s, s)); }

template <class V>
void check_count(const Frame& f, const V* vec, size_t expected, const char* what) {
  if (vec->size() != expected)
    f.fail(vec, std::string("expected ") + num(expected) + " entries in " + what + ", found " + num(vec->size()));
}

// The Verifier checks only the 4-byte alignment of a vector's length field;
// vectors of 8-byte scalars are read in place, so their elements must be
// 8-aligned too (the writer always aligns them).
template <class T>
void check_aligned(const Frame& f, const fbs::Vector<T>* vec, const char* what) {
  if (vec->size() != 0 && reinterpret_cast<uintptr_t>(vec->data()) % alignof(T) != 0)
    f.fail(vec, std::string("expected the elements of ") + what + " to be " + num(alignof(T)) + "-byte aligned");
}

// `ends` holds one end offset per record into a flat vector of `flat` items.
void check_ends(const Frame& f, const fbs::Vector<uint32_t>* ends, size_t records, size_t flat, const char* what) {
  check_count(f, ends, records, what);
  const uint32_t* e = ends->data();
  uint32_t prev = 0;
  for (size_t k = 0; k < records; ++k) {
    if (e[k] < prev)
      f.fail(e + k, std::string(what) + "[" + num(k) + "] is " + num(e[k]) + ", below the previous end " + num(prev));
    prev = e[k];
  }
  if (prev != flat)
    f.fail(ends, std::string(what) + " ends at " + num(prev) + " but the list it indexes has " + num(flat) + " entries");
}

bool read_flag(const Frame& f, const uint8_t* p, const char* what) {
  if (*p > 1) f.fail(p, std::string("expected 0 or 1 in ") + what + ", found " + num(*p));
  return *p == 1;
}

Linkage read_linkage(const Frame& f, const void* at, uint8_t value) {
  switch (static_cast<fb::Linkage>(value)) {
    case fb::Linkage::External: return Linkage::External;
    case fb::Linkage::Internal: return Linkage::Internal;
  }
  f.fail(at, "expected a linkage (0 external, 1 internal), found " + num(value));
}

ExternKind read_extern_kind(const Frame& f, const void* at, uint8_t value) {
  switch (static_cast<fb::ExternKind>(value)) {
    case fb::ExternKind::Function: return ExternKind::Function;
    case fb::ExternKind::Data: return ExternKind::Data;
  }
  f.fail(at, "expected an extern kind (0 function, 1 data), found " + num(value));
}

std::string read_result_type(const Frame& f, const fbs::String* s) {
  std::string_view t = view(s);
  if (!is_value_type(t) && t != "void") f.fail(s, "expected a value type or 'void', found " + quote_text(t));
  return std::string(t);
}

// A signature parameter type: a value type, maybe with an ABI attribute (abi.h).
std::string read_param_type(const Frame& f, const fbs::String* s, size_t index) {
  std::string_view t = view(s);
  std::string problem = param_type_problem(t, index);
  if (!problem.empty()) f.fail(s, "parameter " + num(index) + " has an invalid type: " + problem);
  return std::string(t);
}

Signature read_signature(const Frame& f, const fb::Signature& s) {
  Signature sig;
  sig.params.reserve(s.params()->size());
  for (const fbs::String* p : *s.params()) sig.params.push_back(read_param_type(f, p, sig.params.size()));
  sig.result = read_result_type(f, s.result());
  sig.variadic = s.variadic();
  return sig;
}

// Extern signatures: entry k of the parallel vectors of `list`.
Signature read_listed_signature(const Frame& f, const fb::SignatureList& list, size_t k) {
  const uint32_t* ends = list.param_end()->data();
  Signature sig;
  for (uint32_t p = k ? ends[k - 1] : 0; p < ends[k]; ++p)
    sig.params.push_back(read_param_type(f, list.params()->Get(p), sig.params.size()));
  sig.result = read_result_type(f, list.result()->Get(static_cast<fbs::uoffset_t>(k)));
  sig.variadic = read_flag(f, list.variadic()->data() + k, "signature variadic");
  return sig;
}

// The symbol attributes of `n` symbols from `list` (absent: all default).
template <class Symbol>
void read_attrs(const Frame& f, const fb::SymbolAttrList* list, std::vector<Symbol>& symbols, TextBudget& budget) {
  if (!list) return;
  const size_t n = symbols.size();
  check_count(f, list->weak(), n, "attrs weak");
  check_count(f, list->visibility(), n, "attrs visibility");
  check_count(f, list->used(), n, "attrs used");
  check_count(f, list->section(), n, "attrs section");
  check_count(f, list->alias(), n, "attrs alias");
  check_count(f, list->constructor(), n, "attrs constructor");
  check_count(f, list->destructor(), n, "attrs destructor");
  check_count(f, list->hints(), n, "attrs hints");
  if (list->common()) check_count(f, list->common(), n, "attrs common");
  if (list->tls()) check_count(f, list->tls(), n, "attrs tls");
  if (list->tls_model()) check_count(f, list->tls_model(), n, "attrs tls_model");
  for (size_t k = 0; k < n; ++k) {
    SymbolAttrs& a = symbols[k].attrs;
    const auto idx = static_cast<fbs::uoffset_t>(k);
    a.weak = read_flag(f, list->weak()->data() + k, "attrs weak");
    a.used = read_flag(f, list->used()->data() + k, "attrs used");
    if (list->common()) a.common = read_flag(f, list->common()->data() + k, "attrs common");
    if (list->tls()) a.tls = read_flag(f, list->tls()->data() + k, "attrs tls");
    if (list->tls_model()) {
      const uint8_t* model = list->tls_model()->data() + k;
      if (*model > 4)
        f.fail(model, "expected a tls model (0 auto, 1 global-dynamic, 2 local-dynamic, 3 initial-exec, 4 "
                      "local-exec), found " + num(*model));
      a.tls_model = static_cast<TlsModel>(*model);
    }
    const uint8_t* vis = list->visibility()->data() + k;
    if (*vis > 3) f.fail(vis, "expected a visibility (0 default, 1 hidden, 2 protected, 3 internal), found " + num(*vis));
    a.visibility = static_cast<Visibility>(*vis);
    a.section = take_text(list->section()->Get(idx), budget);
    a.alias = take_text(list->alias()->Get(idx), budget);
    for (auto [field, out, what] : {std::tuple{list->constructor(), &a.constructor, "constructor"},
                                    std::tuple{list->destructor(), &a.destructor, "destructor"}}) {
      int32_t v = field->Get(idx);
      if (v < -1 || v > 65535)
        f.fail(field->data() + k, std::string("expected a ") + what + " priority (0 to 65535, or -1 for none), found " +
                                      std::to_string(v));
      *out = v;
    }
    uint16_t hints = list->hints()->Get(idx);
    if (hints >> kNumHints) f.fail(list->hints()->data() + k, "unknown function hint bits " + num(hints));
    a.hints = hints;
  }
}

std::vector<Extern> read_externs(const Frame& f, const fb::Externs& ex, TextBudget& budget) {
  const size_t n = ex.name()->size();
  check_count(f, ex.kind(), n, "extern kind");
  check_count(f, ex.has_signature(), n, "extern has_signature");
  const fb::SignatureList& sigs = *ex.signatures();
  const size_t nsig = sigs.result()->size();
  check_count(f, sigs.variadic(), nsig, "signature variadic");
  check_ends(f, sigs.param_end(), nsig, sigs.params()->size(), "signature param_end");

  std::vector<Extern> out(n);
  size_t next_sig = 0;
  for (size_t k = 0; k < n; ++k) {
    Extern& e = out[k];
    const auto idx = static_cast<fbs::uoffset_t>(k);
    e.name = take_text(ex.name()->Get(idx), budget);
    const auto* kind = reinterpret_cast<const uint8_t*>(ex.kind()->data() + k);
    e.kind = read_extern_kind(f, kind, *kind);
    if (read_flag(f, ex.has_signature()->data() + k, "extern has_signature")) {
      if (next_sig == nsig)
        f.fail(ex.has_signature()->data() + k, "extern " + num(k) + " has a signature but the list holds only " +
                                                   num(nsig) + " signatures");
      e.signature = read_listed_signature(f, sigs, next_sig++);
    }
  }
  if (next_sig != nsig)
    f.fail(sigs.result(), "the signature list holds " + num(nsig) + " signatures but " + num(next_sig) +
                              " externs have one");
  read_attrs(f, ex.attrs(), out, budget);
  return out;
}

std::vector<DataItem> read_data(const Frame& f, const fb::DataItems& d, TextBudget& budget) {
  const size_t n = d.name()->size();
  check_count(f, d.linkage(), n, "data linkage");
  check_count(f, d.size(), n, "data size");
  check_count(f, d.align(), n, "data align");
  check_count(f, d.readonly(), n, "data readonly");
  check_ends(f, d.init_end(), n, d.init()->size(), "data init_end");
  const size_t nrel = d.reloc_offset()->size();
  check_ends(f, d.reloc_end(), n, nrel, "data reloc_end");
  check_count(f, d.reloc_symbol(), nrel, "reloc symbol");
  check_count(f, d.reloc_addend(), nrel, "reloc addend");
  check_aligned(f, d.size(), "data size");
  check_aligned(f, d.reloc_offset(), "reloc offset");
  check_aligned(f, d.reloc_addend(), "reloc addend");

  const uint8_t* init = d.init()->data();
  const uint32_t* init_end = d.init_end()->data();
  const uint32_t* reloc_end = d.reloc_end()->data();
  std::vector<DataItem> out(n);
  for (size_t k = 0; k < n; ++k) {
    DataItem& item = out[k];
    const auto idx = static_cast<fbs::uoffset_t>(k);
    item.name = take_text(d.name()->Get(idx), budget);
    const auto* linkage = reinterpret_cast<const uint8_t*>(d.linkage()->data() + k);
    item.linkage = read_linkage(f, linkage, *linkage);
    item.size = d.size()->data()[k];
    item.align = d.align()->data()[k];
    item.readonly = read_flag(f, d.readonly()->data() + k, "data readonly");
    const uint32_t init_begin = k ? init_end[k - 1] : 0;
    item.init.assign(reinterpret_cast<const char*>(init + init_begin), init_end[k] - init_begin);
    for (uint32_t r = k ? reloc_end[k - 1] : 0; r < reloc_end[k]; ++r) {
      Reloc rel;
      rel.offset = d.reloc_offset()->data()[r];
      rel.symbol = take_text(d.reloc_symbol()->Get(r), budget);
      rel.addend = d.reloc_addend()->data()[r];
      item.relocs.push_back(std::move(rel));
    }
  }
  read_attrs(f, d.attrs(), out, budget);
  return out;
}

ModuleHeader read_header(const Frame& f, const fb::Header& h) {
  if (h.version() != kFormatVersion)
    f.fail("unsupported binary format version " + num(h.version()) + " (expected version " + num(kFormatVersion) + ")");
  TextBudget budget(f, f.size);
  ModuleHeader header;
  auto level = parse_level(view(h.level()));
  if (!level) f.fail(h.level(), "expected a level name (ast, cfg, ssa, son, ...), found " + quote_text(view(h.level())));
  header.level = *level;
  header.files.reserve(h.files()->size());
  for (const fbs::String* file : *h.files()) header.files.push_back(take_text(file, budget));
  header.externs = read_externs(f, *h.externs(), budget);
  header.data = read_data(f, *h.data(), budget);
  if (h.debug()) {
    try {
      header.debug = module_debug_from_json(view(h.debug()));
    } catch (const std::runtime_error& e) {
      f.fail(h.debug(), e.what());
    }
  }
  if (h.asm_()) {
    header.toplevel_asm.reserve(h.asm_()->size());
    for (const fbs::String* text : *h.asm_()) header.toplevel_asm.push_back(take_text(text, budget));
  }
  return header;
}

// ---- Module pieces ----
ModulePiece read_piece(const Frame& f, const fb::Piece& p) {
  TextBudget budget(f, f.size);
  ModulePiece piece;
  piece.files.reserve(p.files()->size());
  for (const fbs::String* file : *p.files()) piece.files.push_back(take_text(file, budget));
  piece.externs = read_externs(f, *p.externs(), budget);
  piece.data = read_data(f, *p.data(), budget);
  return piece;
}

// Deepest bracket nesting of a JSON text (brackets inside strings ignored).
size_t json_depth(std::string_view text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// String and Json literal payloads: indexes into Function.strings. Each
// text is checked once (UTF-8; for Json, the compact JSON of an array or
// object) and, for String, decoded once into a Literal that each use copies
// (a short text is 12 bytes, no allocation). Every use is still charged to
// the frame's budget.
class LiteralTexts {
 public:
  LiteralTexts(const Frame& frame, const StringVector* strings, TextBudget& budget)
      : frame_(frame), strings_(strings), budget_(budget), string_literals_(std::max<size_t>(1, strings->size())) {}

  // Appends the literal (kind, payload) to `out` if it is an Int or a
  // String whose text was decoded before (almost every literal), without a
  // branch on which of the two (about random); false, appending nothing,
  // for any other literal. `out` has room.
  bool append_usual(uint8_t kind, uint64_t bits, const void* at, LiteralList& out) {
    // Bitwise operators and masks, not && and ?: (which compile to jumps).
    const bool is_int = kind == static_cast<uint8_t>(fb::LiteralKind::Int);
    const bool in_range = (kind == static_cast<uint8_t>(fb::LiteralKind::String)) & (bits < string_literals_.size());
    const Entry& e = string_literals_[bits & (uint64_t{0} - in_range)];
    const bool is_string = in_range & e.ready;
    if (!(is_string | is_int)) [[unlikely]]
      return false;
    budget_.charge(e.size & (uint32_t{0} - is_string), at);
    const Literal number = Literal::integer(static_cast<int64_t>(bits));
    const Literal* from[2] = {&number, &e.literal};
    out.unchecked_emplace_back(*from[is_string]);
    return true;
  }

  const Literal& string(uint64_t index, const void* at) {
    if (index < string_literals_.size() && string_literals_[index].ready) [[likely]] {
      const Entry& e = string_literals_[index];
      budget_.charge(e.size, at);
      return e.literal;
    }
    return first_string(index, at);
  }

  Literal json(uint64_t index, const void* at) {
    if (index >= strings_->size()) out_of_range(index, at);
    std::string_view t = checked_text(index, at);
    if (json_checked_.empty()) json_checked_.assign(strings_->size(), 0);
    if (!json_checked_[index]) {
      check_json(t, strings_->Get(static_cast<fbs::uoffset_t>(index)));
      json_checked_[index] = 1;
    }
    return Literal::json(t);
  }

 private:
  struct Entry {
    Literal literal;
    uint32_t size = 0;
    bool ready = false;
  };

  [[gnu::noinline]] const Literal& first_string(uint64_t index, const void* at) {
    if (index >= strings_->size()) out_of_range(index, at);
    Entry& e = string_literals_[index];
    std::string_view t = checked_text(index, at);
    e.literal = Literal::string(t);
    e.size = static_cast<uint32_t>(t.size());
    e.ready = true;
    return e.literal;
  }

  [[noreturn]] void out_of_range(uint64_t index, const void* at) const {
    frame_.fail(at, "literal text index " + num(index) + " is out of range (" + num(strings_->size()) + " texts)");
  }

  // Text `index` (in range), charged, valid UTF-8 (checked on first use).
  std::string_view checked_text(uint64_t index, const void* at) {
    std::string_view text = view(strings_->Get(static_cast<fbs::uoffset_t>(index)));
    budget_.charge(text.size(), at);
    if (utf8_checked_.empty()) utf8_checked_.assign(strings_->size(), 0);
    if (!utf8_checked_[index]) {
      if (!json_lex::valid_utf8(text)) frame_.fail(at, "string is not valid utf-8");
      utf8_checked_[index] = 1;
    }
    return text;
  }

  void check_json(std::string_view t, const void* at) {
    if (t.empty() || (t[0] != '[' && t[0] != '{'))
      frame_.fail(at, "expected the JSON text of an array or object, found " + quote_text(t));
    if (json_depth(t) > kMaxJsonDepth)
      frame_.fail(at, "json literal is nested deeper than " + num(kMaxJsonDepth) + " levels");
    auto value = nlohmann::json::parse(t.begin(), t.end(), nullptr, false);
    if (value.is_discarded() || !(value.is_array() || value.is_object()))
      frame_.fail(at, "expected the JSON text of an array or object, found " + quote_text(t));
    std::string canonical;
    try {
      canonical = value.dump();
    } catch (const nlohmann::json::exception&) {
      frame_.fail(at, "json literal cannot be written back as JSON");
    }
    if (canonical != t)
      frame_.fail(at, "json literal is not in compact form: expected " + quote_text(canonical) + ", found " + quote_text(t));
    if (is_float_object(t))
      frame_.fail(at, "json literal " + quote_text(t) + " is a floating-point number: the binary encoding stores it as a Float literal");
  }

  const Frame& frame_;
  const StringVector* strings_;
  TextBudget& budget_;
  std::vector<Entry> string_literals_;
  std::vector<uint8_t> utf8_checked_, json_checked_;
};

// Appends the literal (kind, payload) to `out`.
[[gnu::noinline]] void read_literal(const Frame& f, const uint8_t* kind, const uint64_t* bits, LiteralTexts& texts, LiteralList& out) {
  const uint64_t v = *bits;
  switch (static_cast<fb::LiteralKind>(*kind)) {
    case fb::LiteralKind::Null:
      if (v != 0) f.fail(bits, "expected payload 0 for a null literal, found " + num(v));
      out.push_back(Literal::null());
      return;
    case fb::LiteralKind::Bool:
      if (v > 1) f.fail(bits, "expected payload 0 or 1 for a boolean literal, found " + num(v));
      out.push_back(Literal::boolean(v == 1));
      return;
    case fb::LiteralKind::Int: out.push_back(Literal::integer(static_cast<int64_t>(v))); return;
    case fb::LiteralKind::UInt:
      if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        f.fail(bits, "expected an unsigned literal above INT64_MAX, found " + num(v) + " (smaller values are Int)");
      out.push_back(Literal::unsigned_integer(v));
      return;
    case fb::LiteralKind::Float: {
      out.push_back(Literal::float_bits(v));  // any IEEE pattern
      return;
    }
    case fb::LiteralKind::String: out.push_back(texts.string(v, bits)); return;
    case fb::LiteralKind::Json: out.push_back(texts.json(v, bits)); return;
  }
  f.fail(kind, "expected a literal kind (0..6), found " + num(*kind));
}

// The opcode table of a frame: local index -> OpId, interning foreign names.
std::vector<OpId> read_opcodes(const Frame& f, const StringVector* names, Function& fn, TextBudget& budget) {
  if (names->size() > kMaxOpcodeNames)
    f.fail(names, "expected at most " + num(kMaxOpcodeNames) + " opcode names, found " + num(names->size()));
  std::vector<OpId> local(names->size());
  std::vector<uint8_t> seen;
  for (fbs::uoffset_t k = 0; k < names->size(); ++k) {
    const fbs::String* s = names->Get(k);
    budget.charge(s->size(), s);
    std::string_view name = view(s);
    if (!valid_opcode_name(name)) f.fail(s, "expected an opcode name, found " + quote_text(name));
    OpId op = fn.intern_op(name);
    if (op >= seen.size()) seen.resize(op + size_t{1}, 0);
    if (seen[op]) f.fail(s, "opcode name " + quote_text(name) + " is listed twice");
    seen[op] = 1;
    local[k] = op;
  }
  return local;
}

// Range [begin, end) of record k in an end-offset vector already checked.
struct Range {
  uint32_t begin, end;
};
Range range_at(const uint32_t* ends, size_t k) { return {k ? ends[k - 1] : 0, ends[k]}; }

// Every id in a flat reference array is below the node count. Checked on the
// flat array (4 bytes an entry, in cache) so that check_structure() need not
// walk the node array again; the error names the node that holds the id.
void check_references(const Function& fn, const uint32_t* refs, const uint32_t* ends, size_t nodes,
                      const char* what) {
  const size_t total = nodes ? ends[nodes - 1] : 0;
  uint32_t worst = 0;
  for (size_t k = 0; k < total; ++k) worst = std::max(worst, refs[k]);
  if (total == 0 || worst < nodes) return;
  const size_t k = static_cast<size_t>(std::find_if(refs, refs + total, [&](uint32_t id) { return id >= nodes; }) - refs);
  const size_t holder = static_cast<size_t>(std::upper_bound(ends, ends + nodes, k) - ends);
  throw FormatError(Where::in(fn.name, node_name(static_cast<NodeId>(holder))),
                    std::string(what) + " refers to node i" + num(refs[k]) + ", but the function has " + num(nodes) +
                        " nodes");
}

[[noreturn]] void bad_loc(const Frame& f, const fb::Loc* l, const ModuleHeader& header, const Function& fn, size_t i) {
  if (l->line() == 0)
    f.fail(l, "expected an all-zero location for a node without a line, found file " + num(l->file()) + " col " +
                  num(l->col()));
  throw FormatError(Where::in(fn.name, node_name(static_cast<NodeId>(i))),
                    "source location names file #" + num(l->file()) + ", but the module lists " +
                        num(header.files.size()) + " files");
}

// Builds the nodes in one pass over the flat arrays, checking what
// check_structure() would check about each node (NodeChecks::AlreadyDone).
// The nodes of the previous function read into `fn` are reused in place.
void read_nodes(const Frame& f, const fb::Function& r, const ModuleHeader& header, Function& fn,
                TextBudget& budget) {
  const std::vector<OpId> opmap = read_opcodes(f, r.opcodes(), fn, budget);
  const size_t n = r.ops()->size();
  const size_t nlit = r.literal_kind()->size();
  const size_t ncontrol = r.control()->size(), ninputs = r.inputs()->size();
  // The end vectors' lengths now; their values in the node loop (one pass
  // over the frame), which hands any inconsistency to check_all_ends() for
  // the same diagnostic a separate pass would give.
  check_count(f, r.control_end(), n, "control_end");
  check_count(f, r.input_end(), n, "input_end");
  check_count(f, r.literal_end(), n, "literal_end");
  auto check_all_ends = [&] {
    check_ends(f, r.control_end(), n, ncontrol, "control_end");
    check_ends(f, r.input_end(), n, ninputs, "input_end");
    check_ends(f, r.literal_end(), n, nlit, "literal_end");
  };
  check_count(f, r.literal_bits(), nlit, "literal_bits");
  check_aligned(f, r.literal_bits(), "literal_bits");
  const fbs::Vector<const fb::Loc*>* locs = r.locs();
  if (locs) check_count(f, locs, n, "locs");
  const fbs::Vector<uint16_t>* places = r.places();
  if (places) check_count(f, places, n, "places");
  const uint16_t* place = places ? places->data() : nullptr;

  const uint16_t* ops = r.ops()->data();
  const uint32_t* control_end = r.control_end()->data();
  const uint32_t* control = r.control()->data();
  const uint32_t* input_end = r.input_end()->data();
  const uint32_t* inputs = r.inputs()->data();
  const uint32_t* literal_end = r.literal_end()->data();
  const auto* kinds = reinterpret_cast<const uint8_t*>(r.literal_kind()->data());
  const uint64_t* bits = r.literal_bits()->data();
  const fb::Loc* loc = locs ? locs->Get(0) : nullptr;
  LiteralTexts texts(f, r.strings(), budget);
  const size_t files = header.files.size();
  const size_t nops = opmap.size();

  // Node i is decoded into `node` (cleared lists, any heap blocks kept).
  uint32_t c = 0, in = 0, lit = 0;  // where node i's lists start
  auto decode = [&](size_t i, Node& node) __attribute__((always_inline)) {
    if (ops[i] >= nops) [[unlikely]]
      f.fail(ops + i, "opcode index " + num(ops[i]) + " is out of range (" + num(nops) + " opcode names)");
    node.op = opmap[ops[i]];
    // Unsigned differences: one compare catches an end below the previous
    // one and an end past the flat list.
    const uint32_t c_end = control_end[i], in_end = input_end[i], lit_end = literal_end[i];
    if (c_end - c > ncontrol - c || in_end - in > ninputs - in || lit_end - lit > nlit - lit) [[unlikely]] {
      check_all_ends();
      f.fail(control_end + i, "inconsistent end offsets");  // not reached: check_all_ends() throws
    }
    // A short list is copied as a whole inline buffer when that many ids
    // follow in the flat list.
    if (c + ControlList::kInlineCapacity <= ncontrol) [[likely]]
      node.control.assign_padded(control + c, c_end - c);
    else
      node.control.assign(control + c, control + c_end);
    c = c_end;
    if (in + InputList::kInlineCapacity <= ninputs) [[likely]]
      node.inputs.assign_padded(inputs + in, in_end - in);
    else
      node.inputs.assign(inputs + in, inputs + in_end);
    in = in_end;
    node.literals.clear();
    if (lit_end - lit > 2)
      node.literals.reserve(lit_end - lit);
    else
      node.literals.shrink_to_fit();  // inline again if a longer list left a heap block
    for (; lit < lit_end; ++lit)  // the usual literals inline, the rest in read_literal
      if (!texts.append_usual(kinds[lit], bits[lit], bits + lit, node.literals)) [[unlikely]]
        read_literal(f, kinds + lit, bits + lit, texts, node.literals);
    if (loc) {
      const fb::Loc* l = loc + i;
      const uint32_t line = l->line(), file = l->file(), col = l->col();
      // line 0 with a file or column, or a file past the list (no branch
      // on whether the node has a location: about random)
      const bool no_line = line == 0;
      if ((no_line & ((file | col) != 0)) | (!no_line & (file >= files))) [[unlikely]]
        bad_loc(f, l, header, fn, i);
      node.loc = Loc{file, line, col};
    } else {
      node.loc = Loc{};
    }
    node.place = Place();
    if (place) {
      std::optional<Place> p = Place::from_bits(place[i]);
      if (!p) [[unlikely]]
        f.fail(place + i, "place " + num(place[i]) + " is neither a register (1-32) nor a spill slot (0x8000 | n)");
      node.place = *p;
    }
  };

  // The nodes `fn` already has are overwritten in place; the rest are
  // appended in reserved room (a growing vector would first move the old
  // nodes it is about to overwrite).
  std::vector<Node>& nodes = fn.nodes;
  if (n > nodes.capacity()) {
    nodes.clear();
    nodes.reserve(n);
  } else if (n < nodes.size()) {
    nodes.resize(n);
  }
  const size_t reused = nodes.size();
  Node* node = nodes.data();
  size_t i = 0;
  for (; i < reused; ++i, ++node) {
    __builtin_prefetch(node + 16, 1);  // the node array is larger than the caches
    decode(i, *node);
  }
  for (; i < n; ++i) decode(i, nodes.emplace_back());
  if (c != ncontrol || in != ninputs || lit != nlit) check_all_ends();
  // Every id below the node count: one pass over the flat lists, which the
  // loop has just brought into cache (a vectorized maximum).
  check_references(fn, control, control_end, n, "control input");
  check_references(fn, inputs, input_end, n, "input");
}

std::vector<NodeId> slice(const uint32_t* flat, Range r) { return std::vector<NodeId>(flat + r.begin, flat + r.end); }

Cfg read_cfg(const Frame& f, const fb::Cfg& c) {
  const size_t n = c.block_node()->size();
  check_ends(f, c.successor_end(), n, c.successors()->size(), "cfg successor_end");
  check_ends(f, c.member_end(), n, c.members()->size(), "cfg member_end");
  Cfg cfg;
  cfg.blocks.resize(n);
  for (size_t k = 0; k < n; ++k) {
    Block& b = cfg.blocks[k];
    b.node = c.block_node()->data()[k];
    b.successors = slice(c.successors()->data(), range_at(c.successor_end()->data(), k));
    b.nodes = slice(c.members()->data(), range_at(c.member_end()->data(), k));
  }
  return cfg;
}

Dominance read_dominance(const Frame& f, const fb::Dominance& d) {
  const size_t n = d.node()->size();
  check_count(f, d.parent(), n, "dominance parent");
  check_ends(f, d.frontier_end(), n, d.frontier()->size(), "dominance frontier_end");
  Dominance dom;
  dom.blocks.resize(n);
  for (size_t k = 0; k < n; ++k) {
    DomBlock& b = dom.blocks[k];
    b.node = d.node()->data()[k];
    const uint32_t parent = d.parent()->data()[k];
    if (parent != kNoParent) b.parent = parent;
    b.frontier = slice(d.frontier()->data(), range_at(d.frontier_end()->data(), k));
  }
  return dom;
}

void read_function(const Frame& f, const fb::Function& r, const ModuleHeader& header, Function& fn) {
  TextBudget budget(f, f.size + kMaxSharedText * uint64_t{r.literal_kind()->size()});
  fn.name = take_text(r.name(), budget);
  fn.linkage = read_linkage(f, f.data, static_cast<uint8_t>(r.linkage()));
  fn.signature = read_signature(f, *r.signature());
  fn.attrs = SymbolAttrs{};
  if (r.attrs()) {
    struct Ref {  // the function as a list of one symbol
      SymbolAttrs& attrs;
    };
    std::vector<Ref> refs = {Ref{fn.attrs}};
    read_attrs(f, r.attrs(), refs, budget);
  }
  fn.foreign_ops.clear();
  read_nodes(f, r, header, fn, budget);
  canonicalize_foreign_ops(fn);  // the frame may list them in any order, or unused
  fn.cfg.reset();
  fn.dominance.reset();
  if (r.cfg()) fn.cfg = read_cfg(f, *r.cfg());
  if (r.dominance()) fn.dominance = read_dominance(f, *r.dominance());
  fn.debug = FunctionDebug{};
  if (r.debug()) {
    try {
      fn.debug = function_debug_from_json(view(r.debug()));
    } catch (const std::runtime_error& e) {
      f.fail(r.debug(), e.what());
    }
  }
  check_structure(header, fn, NodeChecks::AlreadyDone);
}

std::string frame_kind(std::string_view id) {
  if (id == kHeaderId) return "a module header frame";
  if (id == kFunctionId) return "a function frame";
  if (id == kPieceId) return "a module piece frame";
  return "identifier " + quote_text(id);
}

// Identifier, then the FlatBuffers verifier, before anything reads the frame.
template <class Root>
const Root& verify_frame(const Frame& f, const char* id) {
  if (f.size < 8) f.fail("frame of " + num(f.size) + " bytes is too short for a FlatBuffer (at least 8)");
  std::string_view found(reinterpret_cast<const char*>(f.data) + 4, 4);
  if (found != id) f.fail(f.data + 4, "expected " + frame_kind(id) + ", found " + frame_kind(found));
  fbs::Verifier::Options options;
  options.max_depth = 8;   // the schema nests 3 tables deep
  options.max_tables = 8;  // and has at most 6 tables per frame
  options.check_alignment = true;
  options.check_nested_flatbuffers = false;
  fbs::Verifier verifier(f.data, f.size, options);
  if (!verifier.VerifyBuffer<Root>(id))
    f.fail("malformed " + frame_kind(id).substr(2) + " (FlatBuffers verification failed)");
  return *fbs::GetRoot<Root>(f.data);
}

// The frame's file identifier (bytes 4-7), or "" for a frame too short to hold one.
std::string_view frame_identifier(const Frame& f) {
  if (f.size < 8) return {};
  return std::string_view(reinterpret_cast<const char*>(f.data) + 4, 4);
}

class BinaryReader final : public ModuleReader {
 public:
  explicit BinaryReader(ByteSource& src) : src_(src) {
    read_magic();
    std::optional<Frame> frame = open_frame();
    if (!frame) throw FormatError(Where::at_byte(kMagic.size()), "expected the module header frame, found the end frame");
    header_ = read_header(*frame, verify_frame<fb::Header>(*frame, kHeaderId));
    close_frame();
  }

  bool next(Function& fn) override {
    if (finished_) return false;
    std::optional<Frame> frame = open_frame();
    if (!frame) {
      finished_ = true;
      reject_trailing_bytes();
      return false;
    }
    // A module piece frame before the function: into header_, then on.
    while (frame_identifier(*frame) == std::string_view(kPieceId, 4)) {
      add_piece(read_piece(*frame, verify_frame<fb::Piece>(*frame, kPieceId)));
      close_frame();
      frame = open_frame();
      if (!frame) {
        finished_ = true;
        reject_trailing_bytes();
        return false;
      }
    }
    read_function(*frame, verify_frame<fb::Function>(*frame, kFunctionId), header_, fn);
    close_frame();
    return true;
  }

 private:
  void read_magic() {
    const uint64_t at = src_.offset();
    if (!src_.ensure(kMagic.size()) || src_.window().substr(0, kMagic.size()) != kMagic)
      throw FormatError(Where::at_byte(at), "expected the binary magic \"PIPEBIN\\0\"");
    src_.consume(kMagic.size());
  }

  // The next frame, whole in memory and aligned; nullopt for the end frame
  // (already consumed). The frame stays valid until close_frame().
  std::optional<Frame> open_frame() {
    const uint64_t at = src_.offset();
    if (!src_.ensure(kFrameHeaderBytes)) {
      if (src_.window().empty())
        throw FormatError(Where::at_byte(at), "truncated input: expected a frame or the end frame, found the end of input");
      throw FormatError(Where::at_byte(at), "truncated frame header: expected 8 bytes, found " + num(src_.window().size()));
    }
    const char* head = src_.window().data();
    const uint32_t length = load_u32le(head);
    const uint32_t reserved = load_u32le(head + 4);
    if (reserved != 0)
      throw FormatError(Where::at_byte(at + 4), "expected 0 in the reserved word of the frame header, found " + num(reserved));
    if (length == 0) {
      src_.consume(kFrameHeaderBytes);
      return std::nullopt;
    }
    if (length > kMaxFrameBytes)
      throw FormatError(Where::at_byte(at), "frame length " + num(length) + " exceeds the limit of " +
                                                num(kMaxFrameBytes) + " bytes");
    const size_t total = kFrameHeaderBytes + padded_size(length);
    if ((src_.exhausted() && src_.window().size() < total) || !src_.ensure(total))
      throw FormatError(Where::at_byte(at), "truncated frame: expected " + num(total) + " bytes, found " +
                                                num(src_.window().size()));
    std::string_view body = src_.window().substr(kFrameHeaderBytes, padded_size(length));
    for (size_t p = length; p < body.size(); ++p)
      if (body[p] != 0) throw FormatError(Where::at_byte(at + kFrameHeaderBytes + p), "expected zero frame padding");
    open_bytes_ = total;
    return Frame{aligned(body.data(), length), length, at + kFrameHeaderBytes};
  }

  void close_frame() {
    src_.consume(open_bytes_);
    open_bytes_ = 0;
  }

  // `p` itself when 8-aligned (zero-copy), else a copy in aligned scratch.
  const uint8_t* aligned(const char* p, size_t n) {
    if (reinterpret_cast<uintptr_t>(p) % kFrameAlign == 0) return reinterpret_cast<const uint8_t*>(p);
    copy_.resize((n + 7) / 8);
    std::memcpy(copy_.data(), p, n);
    return reinterpret_cast<const uint8_t*>(copy_.data());
  }

  void reject_trailing_bytes() {
    const uint64_t at = src_.offset();
    if (src_.ensure(1)) throw FormatError(Where::at_byte(at), "expected the end of input after the end frame, found more bytes");
  }

  ByteSource& src_;
  size_t open_bytes_ = 0;
  bool finished_ = false;
  std::vector<uint64_t> copy_;
};

// ============================================================================
// Writing
// ============================================================================

// Upper bound of a FlatBuffer's size, to refuse frames over the cap before
// building them (FlatBufferBuilder only asserts).
class SizeBound {
 public:
  void table() { bytes_ += 128; }
  void vector(uint64_t count, uint64_t elem_size) { bytes_ += 16 + count * elem_size; }
  void string(uint64_t length) { bytes_ += 16 + length; }
  void add(uint64_t bytes) { bytes_ += bytes; }
  bool fits() const { return bytes_ <= kMaxFrameBytes; }
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 64;
};

fb::Linkage to_fb(Linkage l) { return l == Linkage::Internal ? fb::Linkage::Internal : fb::Linkage::External; }
fb::ExternKind to_fb(ExternKind k) { return k == ExternKind::Data ? fb::ExternKind::Data : fb::ExternKind::Function; }

// A growable array of plain values, kept from one function to the next.
// Growing it does not zero the new room (pages never written are never
// touched), so reserving generously costs nothing. The node pass appends
// through a Cursor (a raw pointer and a limit), since std::vector's insert
// of a 1-3 element range costs a call to memmove per node.
template <class T>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  const T* data() const { return store_.get(); }
  T* data() { return store_.get(); }
  // Exactly n values, for the caller to fill.
  T* reset(size_t n) {
    size_ = 0;
    reserve(n);
    size_ = n;
    return store_.get();
  }
  void reserve(size_t n) {
    if (n <= capacity_) return;
    const size_t cap = std::max(n, 2 * capacity_ + 1024);
    auto fresh = std::make_unique_for_overwrite<T[]>(cap);
    if (size_) std::memcpy(fresh.get(), store_.get(), size_ * sizeof(T));
    store_ = std::move(fresh);
    capacity_ = cap;
  }
  // Room for n values, keeping the first `used` (filled through a raw
  // pointer, so size() does not count them yet).
  void grow_keeping(size_t used, size_t n) {
    size_ = used;
    reserve(n);
  }
  size_t capacity() const { return capacity_; }
  void set_size(size_t n) { size_ = n; }

 private:
  std::unique_ptr<T[]> store_;
  size_t size_ = 0, capacity_ = 0;
};

// Appends to a PodBuffer through a raw pointer: a plain value the node pass
// keeps in registers (no member of it has its address taken).
template <class T>
struct Cursor {
  T* base;
  size_t used, capacity;
  static Cursor begin(PodBuffer<T>& buf, size_t expected) {
    buf.clear();
    buf.reserve(expected);
    return Cursor{buf.data(), 0, buf.capacity()};
  }
  // Room for k more values, returned for the caller to fill; the caller
  // may write `slack` values even when k is smaller.
  T* take(PodBuffer<T>& buf, size_t k, size_t slack) {
    if (used + k + slack > capacity) [[unlikely]] {
      buf.grow_keeping(used, used + k + slack);
      base = buf.data();
      capacity = buf.capacity();
    }
    T* p = base + used;
    used += k;
    return p;
  }
};

// The opcode table and literal texts of the function being written. Members
// keep their capacity from one function to the next.
class FunctionTables {
 public:
  // Every foreign opcode first (so the reader interns them in the same order,
  // even unused ones); table opcodes are added on first use.
  void reset(const Function& fn) {
    opcode_names_.clear();
    local_op_.assign(kNumOps + fn.foreign_ops.size(), -1);
    for (size_t k = 0; k < fn.foreign_ops.size(); ++k) {
      local_op_[kNumOps + k] = static_cast<int32_t>(opcode_names_.size());
      opcode_names_.push_back(fn.foreign_ops[k]);
    }
    texts_.clear();
    text_index_.clear();
    short_count_ = 0;
    if (++generation_ == 0) {  // wrapped: forget every slot for real
      std::fill(short_.begin(), short_.end(), ShortSlot{});
      generation_ = 1;
    }
    if (short_.empty()) short_.resize(64);
    short_shift_ = 64 - static_cast<unsigned>(std::countr_zero(short_.size()));
  }

  uint16_t op_index(const Function& fn, NodeId id, OpId op) {
    if (op >= local_op_.size() || local_op_[op] < 0) [[unlikely]]
      return new_op_index(fn, id, op);
    return static_cast<uint16_t>(local_op_[op]);
  }

  // Index of the text of a String or Json literal; texts up to
  // kMaxSharedText bytes are stored once. Short texts (the type names of
  // most literals) are interned by the literal's packed bytes in a flat
  // open-addressing table, without hashing or comparing strings.
  uint32_t text_index(const Literal& lit) {
    uint64_t lo, hi;
    if (lit.short_text_key(lo, hi)) [[likely]] {
      const ShortSlot& slot = short_[slot_of(lo, hi)];
      if (slot.generation == generation_ && slot.lo == lo && slot.hi == hi) return slot.index;
    }
    return text_index_slow(lit);
  }

  const std::vector<std::string_view>& opcode_names() const { return opcode_names_; }
  const std::vector<std::string_view>& texts() const { return texts_; }

 private:
  [[gnu::noinline]] uint32_t text_index_slow(const Literal& lit) {
    uint64_t lo, hi;
    if (!lit.short_text_key(lo, hi)) return long_text_index(lit.text());
    const size_t mask = short_.size() - 1;
    for (size_t h = slot_of(lo, hi);; h = (h + 1) & mask) {
      ShortSlot& slot = short_[h];
      if (slot.generation != generation_) {
        const auto index = static_cast<uint32_t>(texts_.size());
        texts_.push_back(lit.text());
        slot = ShortSlot{lo, hi, index, generation_};
        if (++short_count_ * 2 > short_.size()) grow_short();
        return index;
      }
      if (slot.lo == lo && slot.hi == hi) return slot.index;
    }
  }

  [[gnu::noinline]] uint16_t new_op_index(const Function& fn, NodeId id, OpId op) {
    if (op >= local_op_.size())
      throw FormatError(Where::in(fn.name, node_name(id)), "opcode number " + num(op) + " is out of range");
    local_op_[op] = static_cast<int32_t>(opcode_names_.size());
    opcode_names_.push_back(op_info(op).name);
    return static_cast<uint16_t>(local_op_[op]);
  }

  struct ShortSlot {
    uint64_t lo = 0, hi = 0;
    uint32_t index = 0;
    uint32_t generation = 0;  // the slot is in use when it equals generation_
  };

  // The slot of a key: the top bits of one multiplication (Fibonacci
  // hashing); collisions only cost probing.
  size_t slot_of(uint64_t lo, uint64_t hi) const {
    return static_cast<size_t>(((lo ^ hi) * 0x9E3779B97F4A7C15ull) >> short_shift_);
  }

  void grow_short() {
    std::vector<ShortSlot> old(short_.size() * 2);
    old.swap(short_);
    const size_t mask = short_.size() - 1;
    short_shift_ = 64 - static_cast<unsigned>(std::countr_zero(short_.size()));
    for (const ShortSlot& s : old) {
      if (s.generation != generation_) continue;
      size_t h = slot_of(s.lo, s.hi);
      while (short_[h].generation == generation_) h = (h + 1) & mask;
      short_[h] = s;
    }
  }

  uint32_t long_text_index(std::string_view t) {
    if (t.size() > kMaxSharedText) {
      texts_.push_back(t);
      return static_cast<uint32_t>(texts_.size() - 1);
    }
    auto [it, inserted] = text_index_.try_emplace(t, static_cast<uint32_t>(texts_.size()));
    if (inserted) texts_.push_back(t);
    return it->second;
  }

  std::vector<std::string_view> opcode_names_;
  std::vector<int32_t> local_op_;  // OpId -> index into opcode_names_, or -1
  std::vector<std::string_view> texts_;
  std::unordered_map<std::string_view, uint32_t> text_index_;  // longer texts
  std::vector<ShortSlot> short_;  // power-of-two size, at most half full
  unsigned short_shift_ = 58;     // 64 - log2(short_.size())
  size_t short_count_ = 0;
  uint32_t generation_ = 0;
};

// A function's node arrays, filled in one pass over the nodes and reused
// across functions; the builder then copies each one in bulk. (Counting
// first and filling builder memory in place took two passes over a node
// array that does not fit in cache.)
struct NodeArrays {
  PodBuffer<uint16_t> ops;
  PodBuffer<uint32_t> control_end, control, input_end, inputs, literal_end;
  PodBuffer<fb::LiteralKind> literal_kind;
  PodBuffer<uint64_t> literal_bits;
  PodBuffer<fb::Loc> locs;  // empty when no node has a location
  bool any_loc = false;
  PodBuffer<uint16_t> places;  // Place::bits() per node; empty when no node has a place
  bool any_place = false;
};

static_assert(static_cast<int>(fb::LiteralKind::Null) == static_cast<int>(Literal::Kind::Null) &&
                  static_cast<int>(fb::LiteralKind::Bool) == static_cast<int>(Literal::Kind::Bool) &&
                  static_cast<int>(fb::LiteralKind::Int) == static_cast<int>(Literal::Kind::Int) &&
                  static_cast<int>(fb::LiteralKind::UInt) == static_cast<int>(Literal::Kind::UInt) &&
                  static_cast<int>(fb::LiteralKind::Float) == static_cast<int>(Literal::Kind::Float) &&
                  static_cast<int>(fb::LiteralKind::String) == static_cast<int>(Literal::Kind::String) &&
                  static_cast<int>(fb::LiteralKind::Json) == static_cast<int>(Literal::Kind::Json),
              "literal kinds are stored as they are");

// One pass over the nodes writing every node array (ids are u32 and the
// host is little-endian, so elements are stored as they are).
void fill_node_arrays(const Function& fn, FunctionTables& tables, NodeArrays& a) {
  const size_t n = fn.nodes.size();
  uint16_t* ops = a.ops.reset(n);
  uint32_t* control_end = a.control_end.reset(n);
  uint32_t* input_end = a.input_end.reset(n);
  uint32_t* literal_end = a.literal_end.reset(n);
  // Room for a control input, three inputs and two literals a node at first.
  auto control = Cursor<uint32_t>::begin(a.control, n);
  auto inputs = Cursor<uint32_t>::begin(a.inputs, 3 * n);
  // Literal kinds and payloads have the same count: one cursor position.
  a.literal_kind.clear();
  a.literal_bits.clear();
  size_t lit_used = 0, lit_capacity = 0;
  fb::LiteralKind* kinds = nullptr;
  uint64_t* payloads = nullptr;
  auto reserve_literals = [&](size_t need) {
    a.literal_kind.grow_keeping(lit_used, need);
    a.literal_bits.grow_keeping(lit_used, need);
    kinds = a.literal_kind.data();
    payloads = a.literal_bits.data();
    lit_capacity = std::min(a.literal_kind.capacity(), a.literal_bits.capacity());
  };
  reserve_literals(2 * n);
  a.locs.clear();
  fb::Loc* locs = nullptr;  // set at the first node with a location
  a.places.clear();
  uint16_t* places = nullptr;  // set at the first node with a place (ra-x64)
  const Node* node = fn.nodes.data();
  for (size_t i = 0; i < n; ++i, ++node) {
    __builtin_prefetch(node + 16);  // the node array is larger than the caches
    ops[i] = tables.op_index(fn, static_cast<NodeId>(i), node->op);
    const size_t nc = node->control.size();
    node->control.copy_padded(control.take(a.control, nc, ControlList::kInlineCapacity));
    control_end[i] = static_cast<uint32_t>(control.used);
    const size_t ni = node->inputs.size();
    node->inputs.copy_padded(inputs.take(a.inputs, ni, InputList::kInlineCapacity));
    input_end[i] = static_cast<uint32_t>(inputs.used);
    const size_t nlit = node->literals.size();
    if (lit_used + nlit > lit_capacity) [[unlikely]]
      reserve_literals(lit_used + nlit);
    const Literal* lit = node->literals.data();
    for (size_t k = 0; k < nlit; ++k, ++lit_used) {
      const Literal::Kind lk = lit[k].kind();
      kinds[lit_used] = static_cast<fb::LiteralKind>(lk);
      payloads[lit_used] =
          lk == Literal::Kind::String || lk == Literal::Kind::Json ? tables.text_index(lit[k]) : lit[k].bits();
    }
    literal_end[i] = static_cast<uint32_t>(lit_used);
    if (locs) {
      // all zero without a line (no branch on that: about random)
      const Loc l = node->loc;
      const uint32_t keep = l.line != 0 ? ~0u : 0u;
      locs[i] = fb::Loc(l.file & keep, l.line, l.col & keep);
    } else if (node->loc.valid()) {
      locs = a.locs.reset(n);
      std::fill(locs, locs + i, fb::Loc());  // all earlier nodes had none
      locs[i] = fb::Loc(node->loc.file, node->loc.line, node->loc.col);
    }
    if (places) {
      places[i] = node->place.bits();
    } else if (!node->place.none()) [[unlikely]] {
      places = a.places.reset(n);
      std::fill(places, places + i, uint16_t{0});
      places[i] = node->place.bits();
    }
  }
  a.control.set_size(control.used);
  a.inputs.set_size(inputs.used);
  a.literal_kind.set_size(lit_used);
  a.literal_bits.set_size(lit_used);
  a.any_loc = locs != nullptr;
  a.any_place = places != nullptr;
}

// Flat end-offset encoding of a list of lists.
template <class Record, class Get>
void flatten_lists(const std::vector<Record>& records, Get get, std::vector<uint32_t>& ends, std::vector<uint32_t>& flat) {
  ends.clear();
  flat.clear();
  for (const Record& r : records) {
    const auto& list = get(r);
    flat.insert(flat.end(), list.begin(), list.end());
    ends.push_back(static_cast<uint32_t>(flat.size()));
  }
}

class BinaryWriter final : public ModuleWriter {
 public:
  explicit BinaryWriter(ByteSink& sink) : sink_(sink), fbb_(1 << 16) {}

  void begin(const ModuleHeader& header) override {
    if (state_ != State::Fresh) throw std::logic_error("binary writer: begin() called twice");
    state_ = State::Open;
    sink_.write(kMagic);
    std::string debug = header.debug.empty() ? std::string() : debug_to_json(header.debug);
    SizeBound bound = header_size_bound(header);
    bound.string(debug.size());
    if (!bound.fits()) throw FormatError(Where{}, "module header is too large for a binary frame (over 2 GiB)");
    reserve_builder(bound.bytes());
    fbb_.Clear();
    auto level = create_string(level_name(header.level));
    auto files = create_strings(header.files, [](const std::string& s) { return std::string_view(s); });
    auto externs = create_externs(header.externs);
    auto data = create_data(header.data);
    fbs::Offset<fbs::String> debug_text;
    if (!debug.empty()) debug_text = create_string(debug);
    fbs::Offset<fbs::Vector<fbs::Offset<fbs::String>>> asm_texts;
    if (!header.toplevel_asm.empty())
      asm_texts = create_strings(header.toplevel_asm, [](const std::string& s) { return std::string_view(s); });
    fbb_.Finish(fb::CreateHeader(fbb_, kFormatVersion, level, files, externs, data, debug_text, asm_texts), kHeaderId);
    emit_frame();
    sink_.flush();
  }

  // The node arrays are filled in one pass over the nodes (NodeArrays); the
  // texts the literals name are known only after that pass. The builder
  // gets everything but the node arrays, which the root table refers to
  // through placeholders patched in emit_function_frame(); the arrays
  // follow the builder's buffer in the frame, written to the sink straight
  // from NodeArrays.
  void function(const Function& fn) override {
    if (state_ != State::Open) throw std::logic_error("binary writer: function() outside begin()/end()");
    tables_.reset(fn);
    fill_node_arrays(fn, tables_, arrays_);
    std::string debug = fn.debug.empty() ? std::string() : debug_to_json(fn.debug);
    SizeBound built = rest_size_bound(fn);  // what the builder holds
    built.string(debug.size());
    built.vector(tables_.texts().size(), 4);
    for (std::string_view t : tables_.texts()) built.string(t.size());
    SizeBound frame = built;
    add_node_arrays(frame, arrays_);
    if (!frame.fits()) too_large(fn);
    segments_.clear();
    add_segment(fb::Function::VT_OPS, arrays_.ops);
    add_segment(fb::Function::VT_CONTROL_END, arrays_.control_end);
    add_segment(fb::Function::VT_CONTROL, arrays_.control);
    add_segment(fb::Function::VT_LITERAL_END, arrays_.literal_end);
    add_segment(fb::Function::VT_LITERAL_KIND, arrays_.literal_kind);
    add_segment(fb::Function::VT_LITERAL_BITS, arrays_.literal_bits);
    add_segment(fb::Function::VT_INPUT_END, arrays_.input_end);
    add_segment(fb::Function::VT_INPUTS, arrays_.inputs);
    if (arrays_.any_loc) add_segment(fb::Function::VT_LOCS, arrays_.locs);
    if (arrays_.any_place) add_segment(fb::Function::VT_PLACES, arrays_.places);
    reserve_builder(built.bytes());
    fbb_.Clear();

    auto strings = create_strings(tables_.texts(), [](std::string_view s) { return s; });
    auto opcodes = create_strings(tables_.opcode_names(), [](std::string_view s) { return s; });
    auto name = create_string(fn.name);
    auto signature = create_signature(fn.signature);
    fbs::Offset<fb::Cfg> cfg;
    if (fn.cfg) cfg = create_cfg(*fn.cfg);
    fbs::Offset<fb::Dominance> dominance;
    if (fn.dominance) dominance = create_dominance(*fn.dominance);
    fbs::Offset<fb::SymbolAttrList> attrs;
    if (!fn.attrs.is_default()) attrs = create_attrs(std::vector<const SymbolAttrs*>{&fn.attrs});
    fbs::Offset<fbs::String> debug_text;
    if (!debug.empty()) debug_text = create_string(debug);
    const fbs::uoffset_t start = fbb_.StartTable();
    fbb_.AddOffset(fb::Function::VT_DEBUG, debug_text);
    fbb_.AddOffset(fb::Function::VT_ATTRS, attrs);
    fbb_.AddOffset(fb::Function::VT_DOMINANCE, dominance);
    fbb_.AddOffset(fb::Function::VT_CFG, cfg);
    fbb_.AddOffset(fb::Function::VT_STRINGS, strings);
    for (const Segment& seg : segments_) fbb_.AddElement<fbs::uoffset_t>(seg.field, kPlaceholder, 0);
    fbb_.AddOffset(fb::Function::VT_OPCODES, opcodes);
    fbb_.AddOffset(fb::Function::VT_SIGNATURE, signature);
    fbb_.AddOffset(fb::Function::VT_NAME, name);
    fbb_.AddElement<uint8_t>(fb::Function::VT_LINKAGE, static_cast<uint8_t>(to_fb(fn.linkage)), 0);
    fbb_.Finish(fbs::Offset<fb::Function>(fbb_.EndTable(start)), kFunctionId);
    emit_function_frame(fn);
    sink_.flush();
  }

  // ---- Module pieces: one "PIPP" frame ----
  void piece(const ModulePiece& p) override {
    if (state_ != State::Open) throw std::logic_error("binary writer: piece() outside begin()/end()");
    if (p.empty()) return;
    ModuleHeader lists;  // for the size bound only
    lists.files = p.files;
    lists.externs = p.externs;
    lists.data = p.data;
    SizeBound bound = header_size_bound(lists);
    if (!bound.fits()) throw FormatError(Where{}, "module piece is too large for a binary frame (over 2 GiB)");
    reserve_builder(bound.bytes());
    fbb_.Clear();
    auto files = create_strings(p.files, [](const std::string& s) { return std::string_view(s); });
    auto externs = create_externs(p.externs);
    auto data = create_data(p.data);
    fbb_.Finish(fb::CreatePiece(fbb_, files, externs, data), kPieceId);
    emit_frame();
  }

  void end() override {
    if (state_ != State::Open) throw std::logic_error("binary writer: end() without begin() or called twice");
    state_ = State::Closed;
    static constexpr char kEndFrame[kFrameHeaderBytes] = {};
    sink_.write(std::string_view(kEndFrame, sizeof kEndFrame));
    sink_.flush();
  }

 private:
  enum class State { Fresh, Open, Closed };

  [[noreturn]] static void too_large(const Function& fn) {
    throw FormatError(Where::in(fn.name, ""), "function is too large for a binary frame (over 2 GiB)");
  }

  // Counts the flat arrays.
  static void add_node_arrays(SizeBound& size, const NodeArrays& a) {
    size.vector(a.ops.size(), sizeof(uint16_t));
    for (int i = 0; i < 3; ++i) size.vector(a.ops.size(), sizeof(uint32_t));
    size.vector(a.control.size(), sizeof(uint32_t));
    size.vector(a.inputs.size(), sizeof(uint32_t));
    size.vector(a.literal_kind.size(), 1);
    size.vector(a.literal_kind.size(), sizeof(uint64_t));
    if (a.any_loc) size.vector(a.ops.size(), sizeof(fb::Loc));
    if (a.any_place) size.vector(a.ops.size(), sizeof(uint16_t));
  }

  // Everything of a function frame but the node arrays and the texts.
  SizeBound rest_size_bound(const Function& fn) const {
    SizeBound size;
    for (int i = 0; i < 5; ++i) size.table();
    size.string(fn.name.size());
    add_attrs_bound(size, {&fn.attrs});
    size.vector(fn.signature.params.size(), 4);
    for (const std::string& p : fn.signature.params) size.string(p.size());
    size.string(fn.signature.result.size());
    size.vector(tables_.opcode_names().size(), 4);
    for (std::string_view name : tables_.opcode_names()) size.string(name.size());
    if (fn.cfg) {
      size.vector(fn.cfg->blocks.size(), 3 * 4);
      for (const Block& b : fn.cfg->blocks) size.vector(b.successors.size() + b.nodes.size(), 4);
    }
    if (fn.dominance) {
      size.vector(fn.dominance->blocks.size(), 3 * 4);
      for (const DomBlock& b : fn.dominance->blocks) size.vector(b.frontier.size(), 4);
    }
    return size;
  }

  static SizeBound header_size_bound(const ModuleHeader& h) {
    SizeBound size;
    for (int i = 0; i < 6; ++i) size.table();
    size.string(level_name(h.level).size());
    std::vector<const SymbolAttrs*> attrs;
    for (const Extern& e : h.externs) attrs.push_back(&e.attrs);
    for (const DataItem& d : h.data) attrs.push_back(&d.attrs);
    add_attrs_bound(size, attrs);
    size.vector(h.files.size(), 4);
    for (const std::string& f : h.files) size.string(f.size());
    size.vector(h.toplevel_asm.size(), 4);
    for (const std::string& a : h.toplevel_asm) size.string(a.size());
    size.vector(h.externs.size(), 4 + 1 + 1 + 4 + 4 + 1);
    for (const Extern& e : h.externs) {
      size.string(e.name.size());
      if (!e.signature) continue;
      size.vector(e.signature->params.size(), 4);
      for (const std::string& p : e.signature->params) size.string(p.size());
      size.string(e.signature->result.size());
    }
    size.vector(h.data.size(), 4 + 1 + 8 + 4 + 1 + 4 + 4);
    for (const DataItem& d : h.data) {
      size.string(d.name.size());
      size.vector(d.init.size(), 1);
      size.vector(d.relocs.size(), 4 + 8 + 8);
      for (const Reloc& r : d.relocs) size.string(r.symbol.size());
    }
    return size;
  }

  // Room for the attribute lists of `attrs` (twice the vectors' headers: a
  // header frame may hold two lists).
  static void add_attrs_bound(SizeBound& size, const std::vector<const SymbolAttrs*>& attrs) {
    size.add(2 * 8 * 16);
    size.vector(attrs.size(), 1 + 1 + 1 + 4 + 4 + 4 + 4 + 2);
    for (const SymbolAttrs* a : attrs) size.string(a->section.size()), size.string(a->alias.size());
  }

  // One allocation of the frame's upper bound instead of the builder's
  // grow-by-half reallocations (each copies the frame built so far).
  void reserve_builder(uint64_t bound) {
    if (bound <= builder_capacity_) return;
    fbb_ = fbs::FlatBufferBuilder(static_cast<size_t>(bound));
    builder_capacity_ = bound;
  }



  fbs::Offset<fbs::String> create_string(std::string_view s) { return fbb_.CreateString(s.data(), s.size()); }

  template <class Item, class Text>
  fbs::Offset<StringVector> create_strings(const std::vector<Item>& items, Text text) {
    offsets_.clear();
    for (const Item& item : items) offsets_.push_back(create_string(text(item)));
    return fbb_.CreateVector(offsets_);
  }

  fbs::Offset<fb::Signature> create_signature(const Signature& sig) {
    auto params = create_strings(sig.params, [](const std::string& s) { return std::string_view(s); });
    auto result = create_string(sig.result);
    return fb::CreateSignature(fbb_, params, result, sig.variadic);
  }

  fbs::Offset<fb::Externs> create_externs(const std::vector<Extern>& externs) {
    std::vector<fb::ExternKind> kinds;
    std::vector<uint8_t> has_signature, variadic;
    std::vector<uint32_t> param_end;
    std::vector<std::string_view> params, results;
    for (const Extern& e : externs) {
      kinds.push_back(to_fb(e.kind));
      has_signature.push_back(e.signature ? 1 : 0);
      if (!e.signature) continue;
      params.insert(params.end(), e.signature->params.begin(), e.signature->params.end());
      param_end.push_back(static_cast<uint32_t>(params.size()));
      results.push_back(e.signature->result);
      variadic.push_back(e.signature->variadic ? 1 : 0);
    }
    auto view_of = [](std::string_view s) { return s; };
    auto param_end_v = fbb_.CreateVector(param_end);
    auto params_v = create_strings(params, view_of);
    auto results_v = create_strings(results, view_of);
    auto variadic_v = fbb_.CreateVector(variadic);
    auto list = fb::CreateSignatureList(fbb_, param_end_v, params_v, results_v, variadic_v);
    auto names = create_strings(externs, [](const Extern& e) { return std::string_view(e.name); });
    auto kinds_v = fbb_.CreateVector(kinds);
    auto has_signature_v = fbb_.CreateVector(has_signature);
    auto attrs = create_attrs_of(externs);
    return fb::CreateExterns(fbb_, names, kinds_v, has_signature_v, list, attrs);
  }

  fbs::Offset<fb::DataItems> create_data(const std::vector<DataItem>& items) {
    std::vector<fb::Linkage> linkage;
    std::vector<uint64_t> size, reloc_offset;
    std::vector<int64_t> reloc_addend;
    std::vector<uint32_t> align, init_end, reloc_end;
    std::vector<uint8_t> readonly, init;
    std::vector<std::string_view> reloc_symbol;
    for (const DataItem& d : items) {
      linkage.push_back(to_fb(d.linkage));
      size.push_back(d.size);
      align.push_back(d.align);
      readonly.push_back(d.readonly ? 1 : 0);
      init.insert(init.end(), d.init.begin(), d.init.end());
      init_end.push_back(static_cast<uint32_t>(init.size()));
      for (const Reloc& r : d.relocs) {
        reloc_offset.push_back(r.offset);
        reloc_symbol.push_back(r.symbol);
        reloc_addend.push_back(r.addend);
      }
      reloc_end.push_back(static_cast<uint32_t>(reloc_offset.size()));
    }
    auto names = create_strings(items, [](const DataItem& d) { return std::string_view(d.name); });
    auto linkage_v = fbb_.CreateVector(linkage);
    auto size_v = fbb_.CreateVector(size);
    auto align_v = fbb_.CreateVector(align);
    auto readonly_v = fbb_.CreateVector(readonly);
    auto init_end_v = fbb_.CreateVector(init_end);
    auto init_v = fbb_.CreateVector(init);
    auto reloc_end_v = fbb_.CreateVector(reloc_end);
    auto reloc_offset_v = fbb_.CreateVector(reloc_offset);
    auto reloc_symbol_v = create_strings(reloc_symbol, [](std::string_view s) { return s; });
    auto reloc_addend_v = fbb_.CreateVector(reloc_addend);
    auto attrs = create_attrs_of(items);
    return fb::CreateDataItems(fbb_, names, linkage_v, size_v, align_v, readonly_v, init_end_v, init_v, reloc_end_v,
                               reloc_offset_v, reloc_symbol_v, reloc_addend_v, attrs);
  }

  // The attribute list of a list of symbols; none when all are default.
  template <class Symbol>
  fbs::Offset<fb::SymbolAttrList> create_attrs_of(const std::vector<Symbol>& symbols) {
    std::vector<const SymbolAttrs*> attrs;
    bool any = false;
    for (const Symbol& s : symbols) attrs.push_back(&s.attrs), any = any || !s.attrs.is_default();
    if (!any) return {};
    return create_attrs(attrs);
  }

  fbs::Offset<fb::SymbolAttrList> create_attrs(const std::vector<const SymbolAttrs*>& attrs) {
    std::vector<uint8_t> weak, visibility, used, common, tls, tls_model;
    std::vector<int32_t> constructor, destructor;
    std::vector<uint16_t> hints;
    std::vector<std::string_view> section, alias;
    for (const SymbolAttrs* a : attrs) {
      weak.push_back(a->weak ? 1 : 0);
      visibility.push_back(static_cast<uint8_t>(a->visibility));
      used.push_back(a->used ? 1 : 0);
      common.push_back(a->common ? 1 : 0);
      tls.push_back(a->tls ? 1 : 0);
      tls_model.push_back(static_cast<uint8_t>(a->tls_model));
      section.push_back(a->section);
      alias.push_back(a->alias);
      constructor.push_back(a->constructor);
      destructor.push_back(a->destructor);
      hints.push_back(a->hints);
    }
    auto view_of = [](std::string_view s) { return s; };
    auto weak_v = fbb_.CreateVector(weak);
    auto visibility_v = fbb_.CreateVector(visibility);
    auto used_v = fbb_.CreateVector(used);
    auto section_v = create_strings(section, view_of);
    auto alias_v = create_strings(alias, view_of);
    auto constructor_v = fbb_.CreateVector(constructor);
    auto destructor_v = fbb_.CreateVector(destructor);
    auto hints_v = fbb_.CreateVector(hints);
    bool any_common = std::find(common.begin(), common.end(), 1) != common.end();
    auto common_v = any_common ? fbb_.CreateVector(common) : fbs::Offset<fbs::Vector<uint8_t>>{};
    auto optional_bytes = [&](const std::vector<uint8_t>& v) {
      bool any = std::find_if(v.begin(), v.end(), [](uint8_t b) { return b != 0; }) != v.end();
      return any ? fbb_.CreateVector(v) : fbs::Offset<fbs::Vector<uint8_t>>{};
    };
    auto tls_v = optional_bytes(tls);
    auto tls_model_v = optional_bytes(tls_model);
    return fb::CreateSymbolAttrList(fbb_, weak_v, visibility_v, used_v, section_v, alias_v, constructor_v,
                                    destructor_v, hints_v, common_v, tls_v, tls_model_v);
  }

  fbs::Offset<fb::Cfg> create_cfg(const Cfg& cfg) {
    block_node_.clear();
    for (const Block& b : cfg.blocks) block_node_.push_back(b.node);
    auto block_node = fbb_.CreateVector(block_node_);
    flatten_lists(cfg.blocks, [](const Block& b) -> const std::vector<NodeId>& { return b.successors; }, ends_, flat_ids_);
    auto successor_end = fbb_.CreateVector(ends_);
    auto successors = fbb_.CreateVector(flat_ids_);
    flatten_lists(cfg.blocks, [](const Block& b) -> const std::vector<NodeId>& { return b.nodes; }, ends_, flat_ids_);
    auto member_end = fbb_.CreateVector(ends_);
    auto members = fbb_.CreateVector(flat_ids_);
    return fb::CreateCfg(fbb_, block_node, successor_end, successors, member_end, members);
  }

  fbs::Offset<fb::Dominance> create_dominance(const Dominance& dom) {
    block_node_.clear();
    parent_.clear();
    for (const DomBlock& b : dom.blocks) {
      block_node_.push_back(b.node);
      parent_.push_back(b.parent ? *b.parent : kNoParent);
    }
    auto node = fbb_.CreateVector(block_node_);
    auto parent = fbb_.CreateVector(parent_);
    flatten_lists(dom.blocks, [](const DomBlock& b) -> const std::vector<NodeId>& { return b.frontier; }, ends_,
                  flat_ids_);
    auto frontier_end = fbb_.CreateVector(ends_);
    auto frontier = fbb_.CreateVector(flat_ids_);
    return fb::CreateDominance(fbb_, node, parent, frontier_end, frontier);
  }

  // A node array placed after the builder's buffer: a FlatBuffers vector
  // (u32 length, then the elements) whose root table field holds a
  // placeholder until emit_function_frame() knows where it lands.
  struct Segment {
    fbs::voffset_t field;
    const void* data;
    size_t count, elem_size;
    uint64_t at = 0;  // frame offset of the length word
  };
  static constexpr fbs::uoffset_t kPlaceholder = 1;

  template <class T>
  void add_segment(fbs::voffset_t field, const PodBuffer<T>& v) {
    segments_.push_back(Segment{field, v.data(), v.size(), sizeof(T)});
  }

  // Frame header, the builder's buffer (with the node array fields of its
  // root table patched), then each node array (its elements aligned to
  // their size, 8 at most; the gaps zero), then zero padding to 8 bytes.
  void emit_function_frame(const Function& fn) {
    uint8_t* buf = fbb_.GetBufferPointer();
    const size_t size = fbb_.GetSize();
    uint64_t at = size;
    for (Segment& seg : segments_) {
      const uint64_t align = std::max<uint64_t>(seg.elem_size, sizeof(fbs::uoffset_t));
      // the elements, 4 bytes after the length word, start aligned
      at = (at + sizeof(fbs::uoffset_t) + align - 1) / align * align - sizeof(fbs::uoffset_t);
      seg.at = at;
      at += sizeof(fbs::uoffset_t) + seg.count * seg.elem_size;
    }
    if (at > kMaxFrameBytes) too_large(fn);
    const uint32_t table = load_u32le(reinterpret_cast<const char*>(buf));
    int32_t to_vtable;
    std::memcpy(&to_vtable, buf + table, sizeof to_vtable);
    const uint8_t* vtable = buf + table - to_vtable;
    for (const Segment& seg : segments_) {
      fbs::voffset_t field;
      std::memcpy(&field, vtable + seg.field, sizeof field);
      uint8_t* slot = buf + table + field;
      if (load_u32le(reinterpret_cast<const char*>(slot)) != kPlaceholder)
        throw std::logic_error("binary writer: node array field not found");
      store_u32le(reinterpret_cast<char*>(slot), static_cast<uint32_t>(seg.at - (table + field)));
    }

    char head[kFrameHeaderBytes];
    store_u32le(head, static_cast<uint32_t>(at));
    store_u32le(head + 4, 0);
    sink_.write(std::string_view(head, sizeof head));
    sink_.write(std::string_view(reinterpret_cast<const char*>(buf), size));
    static constexpr char kZeros[kFrameAlign] = {};
    uint64_t written = size;
    for (const Segment& seg : segments_) {
      sink_.write(std::string_view(kZeros, seg.at - written));
      char length[sizeof(fbs::uoffset_t)];
      store_u32le(length, static_cast<uint32_t>(seg.count));
      sink_.write(std::string_view(length, sizeof length));
      sink_.write(std::string_view(static_cast<const char*>(seg.data), seg.count * seg.elem_size));
      written = seg.at + sizeof length + seg.count * seg.elem_size;
    }
    sink_.write(std::string_view(kZeros, padded_size(at) - at));
  }

  // Frame header, the finished FlatBuffer, zero padding to 8 bytes.
  void emit_frame() {
    const size_t size = fbb_.GetSize();
    if (size > kMaxFrameBytes) throw FormatError(Where{}, "frame is too large for the binary encoding (over 2 GiB)");
    char head[kFrameHeaderBytes];
    store_u32le(head, static_cast<uint32_t>(size));
    store_u32le(head + 4, 0);
    sink_.write(std::string_view(head, sizeof head));
    sink_.write(std::string_view(reinterpret_cast<const char*>(fbb_.GetBufferPointer()), size));
    static constexpr char kZeros[kFrameAlign] = {};
    sink_.write(std::string_view(kZeros, padded_size(size) - size));
  }

  ByteSink& sink_;
  fbs::FlatBufferBuilder fbb_;
  uint64_t builder_capacity_ = 0;  // initial size fbb_ was made with
  State state_ = State::Fresh;
  FunctionTables tables_;
  NodeArrays arrays_;  // scratch, reused across functions
  std::vector<fbs::Offset<fbs::String>> offsets_;
  std::vector<uint32_t> block_node_, parent_, ends_, flat_ids_;
  std::vector<Segment> segments_;
};

}  // namespace

std::unique_ptr<ModuleReader> make_binary_reader(ByteSource& src) { return std::make_unique<BinaryReader>(src); }

std::unique_ptr<ModuleWriter> make_binary_writer(ByteSink& sink) { return std::make_unique<BinaryWriter>(sink); }

}  // namespace pl
