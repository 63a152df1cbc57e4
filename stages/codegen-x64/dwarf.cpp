// dwarf.cpp - DWARF 4 debugging information for one compile unit (dwarf.h).
//
// DWARF 4, not 5: the line table MC writes from .loc is version 4 already
// (tested since -g line tables), and what gdb and lldb need of version 5
// (DW_LANG_C11, data_bit_offset) is there in 4; version 5's additions
// (string and address offset tables, split units, MD5 file checksums) do not
// change what a debugger shows here.
//
// Layout: one unit whose DIEs are written as the module streams: at the
// start the unit header, the compile unit DIE (producer, language, name,
// comp_dir, low_pc 0 with the functions' address ranges, the line table),
// every type of the header's table (each at a label, referred to by ref4
// offsets from the unit start, so forward references and cycles need no
// second pass) and the global variables; one subprogram per function as it
// is emitted (parameters, variables, lexical blocks from the scope runs the
// code generator recorded); at the end the closing 0, the ranges and the
// abbreviation table (each distinct tag/children/attributes shape once, in
// first-use order, so identical input gives identical bytes).
//
// Locations: the frame base is the CFA (DW_OP_call_frame_cfa; the CFI says
// where it is at every instruction), a stackslot at rsp + off is at
// DW_OP_fbreg (off - cfa_offset); a variable held by address (a struct
// passed by value) adds DW_OP_deref; a static local is DW_OP_addr of its
// symbol (a thread-local one DW_OP_const8u SYM@dtpoff,
// DW_OP_GNU_push_tls_address, as gcc). In optimized code a variable bound
// to values (an unchanged parameter's `value`, the debug value bindings of
// the locals and parameters the function assigns) has a location list
// (.debug_loc, DW_FORM_sec_offset): the ranges of code where its current
// value is in a register (DW_OP_regN) or a spill slot (DW_OP_fbreg), from
// value_places.h through the code generator; a variable bound in pieces
// (the fields of a struct scalar-replace split) a list of composite
// locations, DW_OP_piece per piece (an empty piece for the bytes no piece
// holds there). A variable without any of these gets no DW_AT_location:
// "optimized out".
#include "dwarf.h"

#include <functional>
#include <map>
#include <string>

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"

namespace pl::x64 {

namespace dw = llvm::dwarf;

int32_t innermost_scope(const FunctionDebug& d, const Loc& loc) {
  auto before = [](const Loc& a, const Loc& b) { return a.line < b.line || (a.line == b.line && a.col < b.col); };
  int32_t best = -1;
  int best_depth = -1;
  for (size_t i = 0; i < d.scopes.size(); ++i) {
    const DebugScope& s = d.scopes[i];
    if (s.begin.file != loc.file || before(loc, s.begin) || before(s.end, loc)) continue;
    int depth = 0;
    for (int64_t p = s.parent; p >= 0; p = d.scopes[p].parent) ++depth;
    if (depth > best_depth) best = static_cast<int32_t>(i), best_depth = depth;
  }
  return best;
}

struct DwarfWriter::Impl {
  struct Attr {
    uint16_t at;
    uint16_t form;
    std::function<void()> emit;
  };

  McEmitter& out;
  const ModuleHeader& header;
  llvm::MCStreamer& s;
  llvm::MCContext& ctx;
  llvm::MCSymbol* cu_begin = nullptr;
  llvm::MCSymbol* cu_end = nullptr;
  llvm::MCSymbol* abbrev_begin = nullptr;
  llvm::MCSymbol* cu_ranges = nullptr;
  llvm::MCSymbol* index_type = nullptr;   // the arrays' subrange index type
  std::vector<llvm::MCSymbol*> type_labels;
  std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>> functions;  // the unit's ranges
  std::vector<std::pair<llvm::MCSymbol*, std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>>> block_ranges;
  std::vector<std::pair<llvm::MCSymbol*, std::vector<FunctionDebugFacts::Range>>> location_lists;
  const DebugVar* vars_ = nullptr;  // the current function's variables (their index keys value_ranges)
  std::map<std::string, unsigned> abbrev_codes;
  std::vector<std::string> abbrevs;  // the encoded declaration of code i + 1

  Impl(McEmitter& o, const ModuleHeader& h) : out(o), header(h), s(o.mc_streamer()), ctx(o.mc_context()) {}
  bool is_tls(llvm::StringRef name) const {
    for (const DataItem& d : header.data)
      if (d.attrs.tls && d.name == name) return true;
    return false;
  }

  llvm::MCSymbol* label() { return ctx.createTempSymbol("dwarf", true); }
  void to_info() {
    s.PushSection();
    s.SwitchSection(ctx.getObjectFileInfo()->getDwarfInfoSection());
  }
  void back() { s.PopSection(); }

  // ---- DIEs ----
  static void uleb(std::string& out, uint64_t v) {
    do {
      uint8_t byte = v & 0x7F;
      v >>= 7;
      if (v) byte |= 0x80;
      out += static_cast<char>(byte);
    } while (v);
  }
  unsigned abbrev(uint16_t tag, bool children, const std::vector<Attr>& attrs) {
    std::string decl;
    uleb(decl, tag);
    decl += static_cast<char>(children ? dw::DW_CHILDREN_yes : dw::DW_CHILDREN_no);
    for (const Attr& a : attrs) {
      uleb(decl, a.at);
      uleb(decl, a.form);
    }
    decl += '\0';
    decl += '\0';
    auto [it, fresh] = abbrev_codes.emplace(decl, static_cast<unsigned>(abbrevs.size() + 1));
    if (fresh) abbrevs.push_back(decl);
    return it->second;
  }
  void die(uint16_t tag, bool children, const std::vector<Attr>& attrs) {
    s.emitULEB128IntValue(abbrev(tag, children, attrs));
    for (const Attr& a : attrs)
      if (a.emit) a.emit();
  }
  void end_children() { s.emitIntValue(0, 1); }

  Attr string(uint16_t at, const std::string& v) {
    return {at, dw::DW_FORM_string, [this, v] {
              s.emitBytes(v);
              s.emitIntValue(0, 1);
            }};
  }
  Attr udata(uint16_t at, uint64_t v) { return {at, dw::DW_FORM_udata, [this, v] { s.emitULEB128IntValue(v); }}; }
  Attr sdata(uint16_t at, int64_t v) { return {at, dw::DW_FORM_sdata, [this, v] { s.emitSLEB128IntValue(v); }}; }
  Attr data1(uint16_t at, uint8_t v) { return {at, dw::DW_FORM_data1, [this, v] { s.emitIntValue(v, 1); }}; }
  Attr data2(uint16_t at, uint16_t v) { return {at, dw::DW_FORM_data2, [this, v] { s.emitIntValue(v, 2); }}; }
  Attr flag(uint16_t at) { return {at, dw::DW_FORM_flag_present, nullptr}; }
  Attr addr(uint16_t at, llvm::MCSymbol* sym) { return {at, dw::DW_FORM_addr, [this, sym] { s.emitSymbolValue(sym, 8); }}; }
  Attr sec_offset(uint16_t at, llvm::MCSymbol* sym) {
    return {at, dw::DW_FORM_sec_offset, [this, sym] { s.emitSymbolValue(sym, 4); }};
  }
  Attr ref(uint16_t at, llvm::MCSymbol* target) {
    return {at, dw::DW_FORM_ref4, [this, target] { s.emitAbsoluteSymbolDiff(target, cu_begin, 4); }};
  }
  Attr type_ref(int64_t type) { return ref(dw::DW_AT_type, type_labels[type]); }
  Attr exprloc(uint16_t at, std::string bytes) {
    return {at, dw::DW_FORM_exprloc, [this, bytes] {
              s.emitULEB128IntValue(bytes.size());
              s.emitBytes(bytes);
            }};
  }
  Attr address_expr(uint16_t at, llvm::MCSymbol* sym) {  // DW_OP_addr SYM
    if (is_tls(sym->getName())) {
      // A thread-local variable, as gcc describes it: its offset in the
      // module's TLS block (R_X86_64_DTPOFF64), then "add this thread's
      // block" (DW_OP_GNU_push_tls_address, which gdb reads).
      return {at, dw::DW_FORM_exprloc, [this, sym] {
                s.emitULEB128IntValue(10);
                s.emitIntValue(dw::DW_OP_const8u, 1);
                s.emitValue(llvm::MCSymbolRefExpr::create(sym, llvm::MCSymbolRefExpr::VK_DTPOFF, ctx), 8);
                s.emitIntValue(dw::DW_OP_GNU_push_tls_address, 1);
              }};
    }
    return {at, dw::DW_FORM_exprloc, [this, sym] {
              s.emitULEB128IntValue(9);
              s.emitIntValue(dw::DW_OP_addr, 1);
              s.emitSymbolValue(sym, 8);
            }};
  }
  static std::string sleb(int64_t v) {
    std::string out;
    bool more = true;
    while (more) {
      uint8_t byte = v & 0x7F;
      v >>= 7;
      more = !((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40)));
      if (more) byte |= 0x80;
      out += static_cast<char>(byte);
    }
    return out;
  }
  void decl(std::vector<Attr>& attrs, const Loc& loc) {
    if (!loc.valid()) return;
    attrs.push_back(udata(dw::DW_AT_decl_file, loc.file + 1));
    attrs.push_back(udata(dw::DW_AT_decl_line, loc.line));
  }

  // ---- the unit ----
  void begin() {
    const ModuleDebug& d = header.debug;
    cu_begin = label();
    cu_end = label();
    abbrev_begin = label();
    cu_ranges = label();
    index_type = label();
    for (size_t i = 0; i < d.types.size(); ++i) type_labels.push_back(label());
    to_info();
    s.emitLabel(cu_begin);
    llvm::MCSymbol* after_length = label();
    s.emitAbsoluteSymbolDiff(cu_end, after_length, 4);
    s.emitLabel(after_length);
    s.emitIntValue(4, 2);  // version
    s.emitSymbolValue(abbrev_begin, 4);
    s.emitIntValue(8, 1);  // address size
    uint16_t language = d.language == "C89" ? dw::DW_LANG_C89 : d.language == "C99" ? dw::DW_LANG_C99 : dw::DW_LANG_C11;
    std::vector<Attr> cu = {string(dw::DW_AT_producer, d.producer.empty() ? "pipe" : d.producer),
                            data2(dw::DW_AT_language, language)};
    if (!header.files.empty()) cu.push_back(string(dw::DW_AT_name, header.files[0]));
    std::string dir = d.comp_dir.empty() ? ctx.getCompilationDir().str() : d.comp_dir;
    if (!dir.empty()) cu.push_back(string(dw::DW_AT_comp_dir, dir));
    cu.push_back({dw::DW_AT_low_pc, dw::DW_FORM_addr, [this] { s.emitIntValue(0, 8); }});
    cu.push_back(sec_offset(dw::DW_AT_ranges, cu_ranges));
    cu.push_back(sec_offset(dw::DW_AT_stmt_list, s.getDwarfLineTableSymbol(0)));
    die(dw::DW_TAG_compile_unit, true, cu);
    for (size_t i = 0; i < d.types.size(); ++i) type_die(i);
    s.emitLabel(index_type);
    die(dw::DW_TAG_base_type, false,
        {string(dw::DW_AT_name, "__ARRAY_SIZE_TYPE__"), data1(dw::DW_AT_encoding, dw::DW_ATE_unsigned),
         udata(dw::DW_AT_byte_size, 8)});
    for (const DebugGlobal& g : d.globals) {
      std::vector<Attr> a = {string(dw::DW_AT_name, g.name), type_ref(g.type)};
      if (g.external) a.push_back(flag(dw::DW_AT_external));
      decl(a, g.loc);
      a.push_back(address_expr(dw::DW_AT_location, out.symbol_named(g.symbol)));
      die(dw::DW_TAG_variable, false, a);
    }
    back();
  }

  void type_die(size_t i) {
    const DebugType& t = header.debug.types[i];
    s.emitLabel(type_labels[i]);
    std::vector<Attr> a;
    auto maybe_type = [&] {
      if (t.type != kDebugNone) a.push_back(type_ref(t.type));
    };
    auto maybe_name = [&] {
      if (!t.name.empty()) a.push_back(string(dw::DW_AT_name, t.name));
    };
    switch (t.kind) {
      case DebugTypeKind::Base: {
        static constexpr uint8_t kEncodings[] = {dw::DW_ATE_signed, dw::DW_ATE_unsigned, dw::DW_ATE_signed_char,
                                                 dw::DW_ATE_unsigned_char, dw::DW_ATE_boolean, dw::DW_ATE_float};
        die(dw::DW_TAG_base_type, false,
            {string(dw::DW_AT_name, t.name), data1(dw::DW_AT_encoding, kEncodings[static_cast<int>(t.encoding)]),
             udata(dw::DW_AT_byte_size, t.size)});
        return;
      }
      case DebugTypeKind::Pointer:
        a.push_back(data1(dw::DW_AT_byte_size, 8));
        maybe_type();
        return die(dw::DW_TAG_pointer_type, false, a);
      case DebugTypeKind::Const: maybe_type(); return die(dw::DW_TAG_const_type, false, a);
      case DebugTypeKind::Volatile: maybe_type(); return die(dw::DW_TAG_volatile_type, false, a);
      case DebugTypeKind::Restrict: maybe_type(); return die(dw::DW_TAG_restrict_type, false, a);
      case DebugTypeKind::Typedef:
        maybe_name();
        maybe_type();
        return die(dw::DW_TAG_typedef, false, a);
      case DebugTypeKind::Array: {
        maybe_type();
        die(dw::DW_TAG_array_type, true, a);
        std::vector<Attr> sub = {ref(dw::DW_AT_type, index_type)};
        if (t.count != kDebugNone) sub.push_back(udata(dw::DW_AT_count, static_cast<uint64_t>(t.count)));
        die(dw::DW_TAG_subrange_type, false, sub);
        return end_children();
      }
      case DebugTypeKind::Struct:
      case DebugTypeKind::Union: {
        maybe_name();
        if (t.declaration) a.push_back(flag(dw::DW_AT_declaration));
        else a.push_back(udata(dw::DW_AT_byte_size, t.size));
        bool children = !t.members.empty();
        die(t.kind == DebugTypeKind::Struct ? dw::DW_TAG_structure_type : dw::DW_TAG_union_type, children, a);
        for (const DebugMember& m : t.members) {
          std::vector<Attr> ma;
          if (!m.name.empty()) ma.push_back(string(dw::DW_AT_name, m.name));
          ma.push_back(type_ref(m.type));
          if (m.bit_size != 0) {
            ma.push_back(udata(dw::DW_AT_bit_size, m.bit_size));
            ma.push_back(udata(dw::DW_AT_data_bit_offset, m.bit_offset));
          } else {
            ma.push_back(udata(dw::DW_AT_data_member_location, m.offset));
          }
          die(dw::DW_TAG_member, false, ma);
        }
        if (children) end_children();
        return;
      }
      case DebugTypeKind::Enum: {
        maybe_name();
        if (t.declaration) {
          a.push_back(flag(dw::DW_AT_declaration));
          return die(dw::DW_TAG_enumeration_type, false, a);
        }
        a.push_back(udata(dw::DW_AT_byte_size, t.size));
        maybe_type();
        bool children = !t.enumerators.empty();
        die(dw::DW_TAG_enumeration_type, children, a);
        for (const DebugEnumerator& e : t.enumerators)
          die(dw::DW_TAG_enumerator, false, {string(dw::DW_AT_name, e.name), sdata(dw::DW_AT_const_value, e.value)});
        if (children) end_children();
        return;
      }
      case DebugTypeKind::Function: {
        if (t.prototyped) a.push_back(flag(dw::DW_AT_prototyped));
        maybe_type();
        bool children = !t.params.empty() || t.variadic;
        die(dw::DW_TAG_subroutine_type, children, a);
        for (uint32_t p : t.params) die(dw::DW_TAG_formal_parameter, false, {type_ref(p)});
        if (t.variadic) die(dw::DW_TAG_unspecified_parameters, false, {});
        if (children) end_children();
        return;
      }
    }
  }

  // ---- functions ----
  void function(const Function& fn, const FunctionDebugFacts& f) {
    functions.emplace_back(f.begin, f.end);
    const FunctionDebug& d = fn.debug;
    vars_ = d.vars.data();
    const DebugType* type =
        d.type != kDebugNone ? &header.debug.types[d.type] : nullptr;
    to_info();
    std::vector<Attr> a = {string(dw::DW_AT_name, fn.name)};
    decl(a, d.loc);
    if (type && type->prototyped) a.push_back(flag(dw::DW_AT_prototyped));
    if (type && type->type != kDebugNone) a.push_back(type_ref(type->type));
    if (fn.linkage == Linkage::External) a.push_back(flag(dw::DW_AT_external));
    a.push_back(addr(dw::DW_AT_low_pc, f.begin));
    a.push_back(addr(dw::DW_AT_high_pc, f.end));
    a.push_back(exprloc(dw::DW_AT_frame_base, std::string(1, static_cast<char>(dw::DW_OP_call_frame_cfa))));
    die(dw::DW_TAG_subprogram, true, a);
    for (const DebugVar& v : d.vars)
      if (v.param != kDebugNone) variable(v, f, true);
    std::vector<std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>> ranges = scope_ranges(d, f);
    scope_contents(d, f, ranges, -1);
    end_children();
    back();
  }

  // Each scope's address ranges: the runs of code whose innermost scope is
  // the scope or one inside it, adjacent runs merged.
  std::vector<std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>> scope_ranges(const FunctionDebug& d,
                                                                                      const FunctionDebugFacts& f) {
    std::vector<std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>> out(d.scopes.size());
    for (size_t r = 0; r < f.scope_runs.size(); ++r) {
      llvm::MCSymbol* from = f.scope_runs[r].first;
      llvm::MCSymbol* to = r + 1 < f.scope_runs.size() ? f.scope_runs[r + 1].first : f.end;
      for (int64_t sc = f.scope_runs[r].second; sc >= 0; sc = d.scopes[sc].parent) {
        auto& list = out[sc];
        if (!list.empty() && list.back().second == from) list.back().second = to;
        else list.emplace_back(from, to);
      }
    }
    return out;
  }

  void scope_contents(const FunctionDebug& d, const FunctionDebugFacts& f,
                      const std::vector<std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>>& ranges,
                      int64_t scope) {
    for (const DebugVar& v : d.vars)
      if (v.param == kDebugNone && v.scope == scope) variable(v, f, false);
    for (size_t c = 0; c < d.scopes.size(); ++c) {
      if (d.scopes[c].parent != scope) continue;
      if (ranges[c].empty()) {  // no code of its own: its variables join the enclosing scope
        scope_contents(d, f, ranges, static_cast<int64_t>(c));
        continue;
      }
      llvm::MCSymbol* list = label();
      block_ranges.emplace_back(list, ranges[c]);
      die(dw::DW_TAG_lexical_block, true, {sec_offset(dw::DW_AT_ranges, list)});
      scope_contents(d, f, ranges, static_cast<int64_t>(c));
      end_children();
    }
  }

  void variable(const DebugVar& v, const FunctionDebugFacts& f, bool param) {
    std::vector<Attr> a = {string(dw::DW_AT_name, v.name)};
    decl(a, v.loc);
    a.push_back(type_ref(v.type));
    auto ranges = f.value_ranges.find(static_cast<size_t>(&v - vars_));
    if (ranges != f.value_ranges.end() && !ranges->second.empty()) {
      llvm::MCSymbol* list = label();
      std::vector<FunctionDebugFacts::Range> entries = ranges->second;
      // A composite location ends with an empty piece for the bytes of the
      // variable after its last piece (optimized out).
      const uint64_t bytes = debug_type_size(header.debug, v.type);
      for (FunctionDebugFacts::Range& r : entries)
        if (r.covered != 0 && bytes > r.covered) {
          r.expr += static_cast<char>(dw::DW_OP_piece);
          uleb(r.expr, bytes - r.covered);
        }
      location_lists.emplace_back(list, std::move(entries));
      a.push_back(sec_offset(dw::DW_AT_location, list));
    } else if (!v.symbol.empty()) {
      a.push_back(address_expr(dw::DW_AT_location, out.symbol_named(v.symbol)));
    } else if (v.slot != kNoSlot) {
      auto it = f.slot_offsets.find(v.slot);
      if (it != f.slot_offsets.end()) {
        std::string expr(1, static_cast<char>(dw::DW_OP_fbreg));
        expr += sleb(static_cast<int64_t>(it->second) - f.cfa_offset);
        if (v.indirect) expr += static_cast<char>(dw::DW_OP_deref);
        a.push_back(exprloc(dw::DW_AT_location, expr));
      }
    }
    die(param ? dw::DW_TAG_formal_parameter : dw::DW_TAG_variable, false, a);
  }

  void finish() {
    to_info();
    end_children();  // the compile unit's
    s.emitLabel(cu_end);
    s.SwitchSection(ctx.getObjectFileInfo()->getDwarfRangesSection());
    auto range_list = [&](llvm::MCSymbol* at, const std::vector<std::pair<llvm::MCSymbol*, llvm::MCSymbol*>>& list) {
      s.emitLabel(at);
      for (const auto& [from, to] : list) {
        s.emitSymbolValue(from, 8);
        s.emitSymbolValue(to, 8);
      }
      s.emitIntValue(0, 8);
      s.emitIntValue(0, 8);
    };
    range_list(cu_ranges, functions);
    for (const auto& [at, list] : block_ranges) range_list(at, list);
    if (!location_lists.empty()) {
      // DWARF 4 location lists (.debug_loc): [from, to) addresses (the
      // unit's base address is 0), the expression's length and bytes; two
      // zero addresses end a list.
      s.SwitchSection(ctx.getObjectFileInfo()->getDwarfLocSection());
      for (const auto& [at, list] : location_lists) {
        s.emitLabel(at);
        for (const FunctionDebugFacts::Range& r : list) {
          s.emitSymbolValue(r.from, 8);
          s.emitSymbolValue(r.to, 8);
          s.emitIntValue(r.expr.size(), 2);
          s.emitBytes(r.expr);
        }
        s.emitIntValue(0, 8);
        s.emitIntValue(0, 8);
      }
    }
    s.SwitchSection(ctx.getObjectFileInfo()->getDwarfAbbrevSection());
    s.emitLabel(abbrev_begin);
    for (size_t i = 0; i < abbrevs.size(); ++i) {
      s.emitULEB128IntValue(i + 1);
      s.emitBytes(abbrevs[i]);
    }
    s.emitIntValue(0, 1);
    back();
  }
};

DwarfWriter::DwarfWriter(McEmitter& out, const ModuleHeader& header) : impl_(std::make_unique<Impl>(out, header)) {
  impl_->begin();
}
DwarfWriter::~DwarfWriter() = default;
void DwarfWriter::function(const Function& fn, const FunctionDebugFacts& facts) { impl_->function(fn, facts); }
void DwarfWriter::finish() { impl_->finish(); }

}  // namespace pl::x64
