// printf_fold.cpp - the printf family's calls gcc rewrites into cheaper
// output calls, under gcc's own conditions (gcc 12, gimple-fold.cc:
// gimple_fold_builtin_printf, _fprintf, _fputs, _sprintf), so that a program
// that counts them (c-torture's printf-chk-1, fprintf-chk-1, vprintf-chk-1,
// vfprintf-chk-1) sees the calls gcc's build makes.
//
// Which calls: those library.h's library_callee names (the caller not
// nobuiltin, the callee an extern of the library's signature, or a
// fortified __*_chk form, whose name is reserved), whose format argument is
// the address of a constant string (library.h's const_bytes: a read-only
// data item, no relocation among its bytes, a NUL inside it). For the
// fortified forms the flag argument must be a constant (gcc: an
// INTEGER_CST), and is then dropped with the checking, as gcc does.
// Each rewrite needs the result unused (no user of the call's value proj),
// except sprintf's, whose result is the constant length.
//  - printf(F), __printf_chk(flag, F), and with a va_list argument
//    vprintf(F, ap), __vprintf_chk(flag, F, ap), when F has no '%' (the
//    non-va_list forms with no argument after F); and printf("%s", S) with
//    S a constant string: the string printed, P, decides: "" removes the
//    call; one character c becomes putchar(c); "text\n" becomes
//    puts("text") (a new read-only data item holds "text"); any other
//    stays (gcc would need stdout, which it cannot name).
//  - printf("%s\n", s), s a pointer: puts(s); printf("%c", c), c an int:
//    putchar(c) (not for the va_list forms).
//  - fprintf(fp, F) and its _chk and va_list forms, F without '%' (and no
//    other argument for the non-va_list ones): "" removes the call, else
//    fputs(F, fp); fprintf(fp, "%s", s): fputs(s, fp); fprintf(fp, "%c",
//    c): fputc(c, fp).
//  - fputs(S, fp), S a constant string (these calls included): "" removes
//    the call; one character: fputc(c, fp); else fwrite(S, 1, strlen(S),
//    fp) (gcc does so when it optimizes for speed).
//  - sprintf(d, F), F without '%': memcpy(d, F, strlen(F) + 1), result
//    strlen(F); sprintf(d, "%s", S), S constant: the same with S; with s not
//    constant and the result unused: strcpy(d, s).
// The call made takes the old call's control and memory input, and its
// memory proj replaces the old one's. Nothing else changes: what these
// calls print and when is the same; only the stream functions differ, and
// the C standard defines printf's output through them.
//
// A module pass because the replacement may need a declaration the module
// does not have (puts, putchar, fputs, fputc, fwrite, memcpy, strcpy) and a
// data item for puts's string: each is added when used. A replacement is
// not made when the module defines a function or data item of that name,
// or declares it otherwise (another signature, weak, an alias,
// nobuiltin). Runs at -O1 as gcc's folding does.
// Invariants needed: the son contract. Kept: the son contract (each new
// call is pinned where the old one was, in its place in the memory chain).
#include <algorithm>
#include <map>

#include "library.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr uint64_t kMaxString = 4096;

Signature signature_of(const LibFunction& f) {
  Signature s;
  s.params = f.params;
  s.result = f.result;
  return s;
}

// The module's declarations of the replacement functions and the data
// items this pass adds.
class Declarations {
 public:
  Declarations(const std::vector<Function>& fns, ModuleHeader& header) : fns_(fns), header_(header) {}

  // Whether calls to `kind` may be made: declared with its signature, or
  // nothing of the module is named so (then it is declared on first use).
  bool usable(Lib kind) {
    const LibFunction& f = library_function(kind);
    auto known = usable_.find(kind);
    if (known != usable_.end()) return known->second;
    bool ok = true;
    for (const Function& fn : fns_)
      if (fn.name == f.name) ok = false;
    for (const DataItem& d : header_.data)
      if (d.name == f.name) ok = false;
    for (const Extern& e : header_.externs)
      if (e.name == f.name)
        ok = ok && e.kind == ExternKind::Function && !e.attrs.weak && e.attrs.alias.empty() &&
             !e.attrs.has(kHintNobuiltin) && (!e.signature || *e.signature == signature_of(f));
    usable_[kind] = ok;
    return ok;
  }

  void declare(Lib kind) {
    const LibFunction& f = library_function(kind);
    for (const Extern& e : header_.externs)
      if (e.name == f.name) return;
    header_.externs.push_back(Extern{std::string(f.name), ExternKind::Function, signature_of(f)});
  }

  // A new read-only data item holding `text` and a NUL; its name.
  std::string add_string(const std::string& text) {
    std::string name;
    do {
      name = ".str.fold." + std::to_string(next_++);
    } while (taken(name));
    DataItem d;
    d.name = name;
    d.linkage = Linkage::Internal;
    d.size = text.size() + 1;
    d.align = 1;
    d.readonly = true;
    d.init = text;
    header_.data.push_back(std::move(d));
    return name;
  }

 private:
  bool taken(const std::string& name) const {
    for (const Function& fn : fns_)
      if (fn.name == name) return true;
    for (const DataItem& d : header_.data)
      if (d.name == name) return true;
    for (const Extern& e : header_.externs)
      if (e.name == name) return true;
    return false;
  }

  const std::vector<Function>& fns_;
  ModuleHeader& header_;
  std::map<Lib, bool> usable_;
  uint64_t next_ = 0;
};

class Folder {
 public:
  Folder(Graph& g, ModuleHeader& header, Declarations& decls) : g_(g), header_(header), decls_(decls) {}

  // Rewrites one call; true when it changed the graph.
  bool fold(NodeId call) {
    const LibFunction* lib = library_callee(g_, call, header_, g_.function().attrs);
    if (!lib) return false;
    switch (lib->kind) {
      case Lib::Printf: return fold_printf(call, 0, false);
      case Lib::PrintfChk: return flag_constant(call, 0) && fold_printf(call, 1, false);
      case Lib::Vprintf: return fold_printf(call, 0, true);
      case Lib::VprintfChk: return flag_constant(call, 0) && fold_printf(call, 1, true);
      case Lib::Fprintf: return fold_fprintf(call, 1, false);
      case Lib::FprintfChk: return flag_constant(call, 1) && fold_fprintf(call, 2, false);
      case Lib::Vfprintf: return fold_fprintf(call, 1, true);
      case Lib::VfprintfChk: return flag_constant(call, 1) && fold_fprintf(call, 2, true);
      case Lib::Fputs: return fold_fputs(call);
      case Lib::Sprintf: return fold_sprintf(call);
      default: return false;
    }
  }

 private:
  size_t nargs(NodeId call) const { return g_.node(call).inputs.size() - 2; }
  NodeId arg(NodeId call, size_t i) const { return g_.node(call).inputs[2 + i]; }
  bool flag_constant(NodeId call, size_t i) const { return g_.is_const(arg(call, i)); }

  bool result_unused(NodeId call) const {
    for (NodeId u : g_.users(call))
      if (g_.op(u) == Op::Proj && g_.node(u).literals[0].as_int() == 1 && !g_.users(u).empty()) return false;
    return true;
  }

  std::optional<std::string> string_at(NodeId address) const {
    auto bytes = const_bytes(g_, address, header_);
    if (!bytes) return std::nullopt;
    return bytes->string(kMaxString);
  }

  bool typed(NodeId n, ValueType t) const { return result_type(g_, n) == t; }

  // printf and its forms; `fmt` is the format's argument index.
  bool fold_printf(NodeId call, size_t fmt, bool va_list) {
    if (!result_unused(call)) return false;
    auto format = string_at(arg(call, fmt));
    if (!format) return false;
    size_t extra = nargs(call) - fmt - 1;  // arguments after the format (the va_list one included)
    if (*format == "%s" || format->find('%') == std::string::npos) {
      std::string text;
      if (*format == "%s") {
        if (va_list || extra != 1) return false;
        auto s = string_at(arg(call, fmt + 1));
        if (!s) return false;
        text = *s;
      } else {
        if (!va_list && extra != 0) return false;
        text = *format;
      }
      if (text.empty()) return remove(call);
      if (text.size() == 1)
        return replace(call, Lib::Putchar, {const_i32(static_cast<uint8_t>(text[0]), call)});
      if (text.back() != '\n' || !decls_.usable(Lib::Puts)) return false;
      text.pop_back();
      NodeId s = g_.add_node(Op::SymAddr, {Literal::string(decls_.add_string(text))}, {}, g_.node(call).loc);
      return replace(call, Lib::Puts, {s});
    }
    if (va_list || extra != 1) return false;
    NodeId a = arg(call, fmt + 1);
    if (*format == "%s\n" && typed(a, ValueType::Ptr)) return replace(call, Lib::Puts, {a});
    if (*format == "%c" && typed(a, ValueType::I32)) return replace(call, Lib::Putchar, {a});
    return false;
  }

  // fprintf and its forms; the stream is argument 0.
  bool fold_fprintf(NodeId call, size_t fmt, bool va_list) {
    if (!result_unused(call)) return false;
    auto format = string_at(arg(call, fmt));
    if (!format) return false;
    size_t extra = nargs(call) - fmt - 1;
    NodeId fp = arg(call, 0);
    if (format->find('%') == std::string::npos) {
      if (!va_list && extra != 0) return false;
      if (format->empty()) return remove(call);
      return replace(call, Lib::Fputs, {arg(call, fmt), fp});
    }
    if (va_list || extra != 1) return false;
    NodeId a = arg(call, fmt + 1);
    if (*format == "%s" && typed(a, ValueType::Ptr)) return replace(call, Lib::Fputs, {a, fp});
    if (*format == "%c" && typed(a, ValueType::I32)) return replace(call, Lib::Fputc, {a, fp});
    return false;
  }

  bool fold_fputs(NodeId call) {
    if (!result_unused(call)) return false;
    auto s = string_at(arg(call, 0));
    if (!s) return false;
    NodeId fp = arg(call, 1);
    if (s->empty()) return remove(call);
    if (s->size() == 1) return replace(call, Lib::Fputc, {const_i32(static_cast<uint8_t>((*s)[0]), call), fp});
    Loc loc = g_.node(call).loc;
    return replace(call, Lib::Fwrite,
                   {arg(call, 0), g_.add_const(ValueType::I64, 1, loc), g_.add_const(ValueType::I64, s->size(), loc), fp});
  }

  bool fold_sprintf(NodeId call) {
    auto format = string_at(arg(call, 1));
    if (!format) return false;
    size_t extra = nargs(call) - 2;
    NodeId src;
    std::optional<std::string> text;
    if (format->find('%') == std::string::npos && extra == 0) {
      src = arg(call, 1);
      text = format;
    } else if (*format == "%s" && extra == 1 && typed(arg(call, 2), ValueType::Ptr)) {
      src = arg(call, 2);
      text = string_at(src);
    } else {
      return false;
    }
    Loc loc = g_.node(call).loc;
    if (!text) {
      if (!result_unused(call)) return false;
      return replace(call, Lib::Strcpy, {arg(call, 0), src}, kNone);
    }
    NodeId length = const_i32(static_cast<uint32_t>(text->size()), call);
    return replace(call, Lib::Memcpy, {arg(call, 0), src, g_.add_const(ValueType::I64, text->size() + 1, loc)},
                   length);
  }

  NodeId const_i32(uint32_t v, NodeId call) { return g_.add_const(ValueType::I32, v, g_.node(call).loc); }

  // Removes the call: its memory users read its memory input.
  bool remove(NodeId call) {
    swap_out(call, g_.node(call).inputs[0], kNone);
    return true;
  }

  // Replaces the call by one to `kind` with `args`; the old value proj's
  // users (if any) read `value`.
  bool replace(NodeId call, Lib kind, std::vector<NodeId> args, NodeId value = kNone) {
    if (!decls_.usable(kind)) return false;
    decls_.declare(kind);
    const LibFunction& f = library_function(kind);
    const Node old = g_.node(call);
    InputList inputs;
    inputs.push_back(old.inputs[0]);
    inputs.push_back(g_.add_node(Op::SymAddr, {Literal::string(std::string(f.name))}, {}, old.loc));
    for (NodeId a : args) inputs.push_back(a);
    NodeId made = g_.add_node(Op::Call, {Literal::string(f.result)}, std::move(inputs), old.loc, old.control);
    NodeId mem = g_.add_node(Op::Proj, {Literal::integer(0)}, {made}, old.loc);
    swap_out(call, mem, value);
    return true;
  }

  void swap_out(NodeId call, NodeId mem, NodeId value) {
    g_.replace_call(call, value, mem);
  }

  Graph& g_;
  ModuleHeader& header_;
  Declarations& decls_;
};

// Whether fn names one of the functions this pass rewrites (a scan of its
// symaddr nodes, cheaper than building a Graph).
bool names_printf_family(const Function& fn) {
  static constexpr Lib kFamily[] = {Lib::Printf, Lib::Vprintf, Lib::PrintfChk, Lib::VprintfChk, Lib::Fprintf,
                                    Lib::Vfprintf, Lib::FprintfChk, Lib::VfprintfChk, Lib::Fputs, Lib::Sprintf};
  for (const Node& nd : fn.nodes)
    if (nd.op == Op::SymAddr)
      for (Lib k : kFamily)
        if (nd.literals[0].as_string() == library_function(k).name) return true;
  return false;
}

bool mentions_printf_family(const ModuleHeader& header) {
  return mentions_library_function(header, {Lib::Printf, Lib::Vprintf, Lib::Fprintf, Lib::Vfprintf, Lib::Fputs,
                                            Lib::Sprintf, Lib::PrintfChk});
}

}  // namespace

// What it does to a function depends on the function and on the header's
// declarations, which only this pass changes among the passes: a function
// unchanged since the last application is skipped.
size_t printf_fold(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope) {
  if (!mentions_printf_family(header)) return 0;
  Declarations decls(fns, header);
  size_t changes = 0;
  for (size_t f = 0; f < fns.size(); ++f) {
    if (f < scope.dirty.size() && !scope.dirty[f]) continue;
    if (!names_printf_family(fns[f])) continue;
    Graph g(fns[f], scope.cache(f));
    size_t c = 0;
    for (NodeId n = 0; n < g.size(); ++n) {
      if (!g.alive(n) || g.op(n) != Op::Call) continue;
      // A call made here (fputs) may fold again (into fwrite).
      if (Folder(g, header, decls).fold(n)) ++c;
    }
    if (c) {
      g.finish();
      scope.mark_changed(f);
      changes += c;
    }
  }
  return changes;
}

}  // namespace pl::sonopt
