// debug_info.cpp - the debug sections' JSON form, structural rules and slot
// maps (debug_info.h). The JSON form is FORMAT.md's "Debug information":
// keys in a fixed order, a key left out when it holds its default, so equal
// sections give equal bytes in every encoding.
#include "ir/debug_info.h"

#include <algorithm>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ir/ir.h"

namespace pl {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kKindNames[] = {"base",  "pointer", "const", "volatile", "restrict", "typedef",
                                           "array", "struct",  "union", "enum",     "function"};
constexpr std::string_view kEncodingNames[] = {"signed", "unsigned", "signed_char", "unsigned_char", "boolean", "float"};

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("debug section: " + what); }

Json loc_json(const Loc& l) { return Json::array({l.file, l.line, l.col}); }

Loc loc_from(const Json& j, const char* key) {
  if (!j.is_array() || j.size() != 3) bad(std::string("'") + key + "' is not [file, line, col]");
  Loc l;
  for (size_t i = 0; i < 3; ++i)
    if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() > 0xFFFFFFFFu)
      bad(std::string("'") + key + "' is not [file, line, col] of integers below 2^32");
  l.file = j[0].get<uint32_t>();
  l.line = j[1].get<uint32_t>();
  l.col = j[2].get<uint32_t>();
  if (l.line == 0) bad(std::string("'") + key + "' has line 0");
  return l;
}

const Json& object(const Json& j, const char* what) {
  if (!j.is_object()) bad(std::string(what) + " is not an object");
  return j;
}

// Reads the keys of `j` through `field`, rejecting any key it does not know.
template <typename F>
void each_key(const Json& j, const char* what, F field) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!field(it.key(), it.value())) bad(std::string("unknown key '") + it.key() + "' in " + what);
}

std::string str(const Json& v, const std::string& key) {
  if (!v.is_string()) bad("'" + key + "' is not a string");
  return v.get<std::string>();
}
int64_t int_(const Json& v, const std::string& key) {
  if (!v.is_number_integer()) bad("'" + key + "' is not an integer");
  return v.get<int64_t>();
}
uint64_t uint_(const Json& v, const std::string& key) {
  if (!v.is_number_unsigned()) bad("'" + key + "' is not a non-negative integer");
  return v.get<uint64_t>();
}
uint32_t u32(const Json& v, const std::string& key) {
  uint64_t x = uint_(v, key);
  if (x > 0xFFFFFFFFu) bad("'" + key + "' is above 2^32");
  return static_cast<uint32_t>(x);
}
int64_t ref(const Json& v, const std::string& key) {  // -1 or an index
  int64_t x = int_(v, key);
  if (x < -1) bad("'" + key + "' is below -1");
  return x;
}
bool boolean(const Json& v, const std::string& key) {
  if (!v.is_boolean()) bad("'" + key + "' is not a boolean");
  return v.get<bool>();
}
const Json& array(const Json& v, const std::string& key) {
  if (!v.is_array()) bad("'" + key + "' is not an array");
  return v;
}

Json type_json(const DebugType& t) {
  Json j;
  j["kind"] = kKindNames[static_cast<int>(t.kind)];
  if (!t.name.empty()) j["name"] = t.name;
  if (t.size != 0) j["size"] = t.size;
  if (t.kind == DebugTypeKind::Base) j["encoding"] = kEncodingNames[static_cast<int>(t.encoding)];
  if (t.type != kDebugNone) j["type"] = t.type;
  if (t.count != kDebugNone) j["count"] = t.count;
  if (t.declaration) j["declaration"] = true;
  if (!t.members.empty()) {
    Json ms = Json::array();
    for (const DebugMember& m : t.members) {
      Json mj;
      if (!m.name.empty()) mj["name"] = m.name;
      mj["type"] = m.type;
      mj["offset"] = m.offset;
      if (m.bit_size != 0) {
        mj["bit_size"] = m.bit_size;
        mj["bit_offset"] = m.bit_offset;
      }
      ms.push_back(std::move(mj));
    }
    j["members"] = std::move(ms);
  }
  if (!t.enumerators.empty()) {
    Json es = Json::array();
    for (const DebugEnumerator& e : t.enumerators) es.push_back(Json::array({e.name, e.value}));
    j["enumerators"] = std::move(es);
  }
  if (!t.params.empty()) j["params"] = t.params;
  if (t.variadic) j["variadic"] = true;
  if (!t.prototyped) j["prototyped"] = false;
  return j;
}

DebugType type_from(const Json& j) {
  object(j, "a type");
  DebugType t;
  bool has_kind = false;
  each_key(j, "a type", [&](const std::string& k, const Json& v) {
    if (k == "kind") {
      std::string name = str(v, k);
      bool found = false;
      for (size_t i = 0; i < std::size(kKindNames); ++i)
        if (kKindNames[i] == name) t.kind = static_cast<DebugTypeKind>(i), found = true;
      if (!found) bad("unknown type kind '" + name + "'");
      has_kind = true;
    } else if (k == "name") {
      t.name = str(v, k);
    } else if (k == "size") {
      t.size = uint_(v, k);
    } else if (k == "encoding") {
      std::string name = str(v, k);
      bool found = false;
      for (size_t i = 0; i < std::size(kEncodingNames); ++i)
        if (kEncodingNames[i] == name) t.encoding = static_cast<DebugEncoding>(i), found = true;
      if (!found) bad("unknown base type encoding '" + name + "'");
    } else if (k == "type") {
      t.type = ref(v, k);
    } else if (k == "count") {
      t.count = ref(v, k);
    } else if (k == "declaration") {
      t.declaration = boolean(v, k);
    } else if (k == "members") {
      for (const Json& mj : array(v, k)) {
        object(mj, "a member");
        DebugMember m;
        each_key(mj, "a member", [&](const std::string& mk, const Json& mv) {
          if (mk == "name") m.name = str(mv, mk);
          else if (mk == "type") m.type = u32(mv, mk);
          else if (mk == "offset") m.offset = uint_(mv, mk);
          else if (mk == "bit_size") m.bit_size = u32(mv, mk);
          else if (mk == "bit_offset") m.bit_offset = u32(mv, mk);
          else return false;
          return true;
        });
        t.members.push_back(std::move(m));
      }
    } else if (k == "enumerators") {
      for (const Json& ej : array(v, k)) {
        if (!ej.is_array() || ej.size() != 2 || !ej[0].is_string() || !ej[1].is_number_integer())
          bad("an enumerator is not [name, value]");
        t.enumerators.push_back({ej[0].get<std::string>(), ej[1].get<int64_t>()});
      }
    } else if (k == "params") {
      for (const Json& p : array(v, k)) t.params.push_back(u32(p, "params"));
    } else if (k == "variadic") {
      t.variadic = boolean(v, k);
    } else if (k == "prototyped") {
      t.prototyped = boolean(v, k);
    } else {
      return false;
    }
    return true;
  });
  if (!has_kind) bad("a type has no 'kind'");
  return t;
}

Json parse(std::string_view text) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    bad(std::string("not JSON: ") + e.what());
  }
}

}  // namespace

std::string_view debug_type_kind_name(DebugTypeKind k) { return kKindNames[static_cast<int>(k)]; }
std::string_view debug_encoding_name(DebugEncoding e) { return kEncodingNames[static_cast<int>(e)]; }

std::string debug_to_json(const ModuleDebug& d) {
  Json j = Json::object();
  if (!d.producer.empty()) j["producer"] = d.producer;
  if (!d.comp_dir.empty()) j["comp_dir"] = d.comp_dir;
  if (!d.language.empty()) j["language"] = d.language;
  Json types = Json::array();
  for (const DebugType& t : d.types) types.push_back(type_json(t));
  j["types"] = std::move(types);
  if (!d.globals.empty()) {
    Json gs = Json::array();
    for (const DebugGlobal& g : d.globals) {
      Json gj;
      gj["name"] = g.name;
      gj["type"] = g.type;
      gj["symbol"] = g.symbol;
      if (g.loc.valid()) gj["loc"] = loc_json(g.loc);
      if (!g.external) gj["external"] = false;
      gs.push_back(std::move(gj));
    }
    j["globals"] = std::move(gs);
  }
  return j.dump();
}

std::string debug_to_json(const FunctionDebug& d) {
  Json j = Json::object();
  if (d.type != kDebugNone) j["type"] = d.type;
  if (d.loc.valid()) j["loc"] = loc_json(d.loc);
  if (!d.scopes.empty()) {
    Json ss = Json::array();
    for (const DebugScope& s : d.scopes) {
      Json sj;
      if (s.parent != kDebugNone) sj["parent"] = s.parent;
      sj["begin"] = loc_json(s.begin);
      sj["end"] = loc_json(s.end);
      ss.push_back(std::move(sj));
    }
    j["scopes"] = std::move(ss);
  }
  if (!d.vars.empty()) {
    Json vs = Json::array();
    for (const DebugVar& v : d.vars) {
      Json vj;
      vj["name"] = v.name;
      vj["type"] = v.type;
      if (v.scope != kDebugNone) vj["scope"] = v.scope;
      if (v.param != kDebugNone) vj["param"] = v.param;
      if (v.loc.valid()) vj["loc"] = loc_json(v.loc);
      if (v.slot != kNoSlot) vj["slot"] = v.slot;
      if (!v.symbol.empty()) vj["symbol"] = v.symbol;
      if (v.indirect) vj["indirect"] = true;
      if (v.unchanged) vj["unchanged"] = true;
      if (v.value != kNoSlot) vj["value"] = v.value;
      if (v.ssa_slot != kDebugNone) vj["ssa_slot"] = v.ssa_slot;
      vs.push_back(std::move(vj));
    }
    j["vars"] = std::move(vs);
  }
  if (!d.binds.empty()) {
    Json bs = Json::array();
    for (const DebugBind& b : d.binds) {
      Json bj;
      bj["var"] = b.var;
      if (b.value != kNoSlot) bj["value"] = b.value;
      if (b.pos != kNoSlot) bj["pos"] = b.pos;
      if (b.droppable) bj["droppable"] = true;
      if (b.size != 0) bj["offset"] = b.offset, bj["size"] = b.size;  // a piece
      bs.push_back(std::move(bj));
    }
    j["binds"] = std::move(bs);
  }
  return j.dump();
}

ModuleDebug module_debug_from_json(std::string_view text) {
  Json j = parse(text);
  object(j, "the module's debug section");
  ModuleDebug d;
  each_key(j, "the module's debug section", [&](const std::string& k, const Json& v) {
    if (k == "producer") d.producer = str(v, k);
    else if (k == "comp_dir") d.comp_dir = str(v, k);
    else if (k == "language") d.language = str(v, k);
    else if (k == "types") for (const Json& t : array(v, k)) d.types.push_back(type_from(t));
    else if (k == "globals")
      for (const Json& gj : array(v, k)) {
        object(gj, "a global");
        DebugGlobal g;
        each_key(gj, "a global", [&](const std::string& gk, const Json& gv) {
          if (gk == "name") g.name = str(gv, gk);
          else if (gk == "type") g.type = u32(gv, gk);
          else if (gk == "symbol") g.symbol = str(gv, gk);
          else if (gk == "loc") g.loc = loc_from(gv, "loc");
          else if (gk == "external") g.external = boolean(gv, gk);
          else return false;
          return true;
        });
        d.globals.push_back(std::move(g));
      }
    else return false;
    return true;
  });
  if (!d.language.empty() && d.language != "C89" && d.language != "C99" && d.language != "C11" && d.language != "C17")
    bad("language '" + d.language + "' is not C89, C99, C11 or C17");
  return d;
}

FunctionDebug function_debug_from_json(std::string_view text) {
  Json j = parse(text);
  object(j, "the function's debug section");
  FunctionDebug d;
  each_key(j, "the function's debug section", [&](const std::string& k, const Json& v) {
    if (k == "type") d.type = ref(v, k);
    else if (k == "loc") d.loc = loc_from(v, "loc");
    else if (k == "scopes")
      for (const Json& sj : array(v, k)) {
        object(sj, "a scope");
        DebugScope s;
        each_key(sj, "a scope", [&](const std::string& sk, const Json& sv) {
          if (sk == "parent") s.parent = ref(sv, sk);
          else if (sk == "begin") s.begin = loc_from(sv, "begin");
          else if (sk == "end") s.end = loc_from(sv, "end");
          else return false;
          return true;
        });
        if (!s.begin.valid() || !s.end.valid()) bad("a scope needs 'begin' and 'end'");
        d.scopes.push_back(s);
      }
    else if (k == "vars")
      for (const Json& vj : array(v, k)) {
        object(vj, "a variable");
        DebugVar var;
        each_key(vj, "a variable", [&](const std::string& vk, const Json& vv) {
          if (vk == "name") var.name = str(vv, vk);
          else if (vk == "type") var.type = u32(vv, vk);
          else if (vk == "scope") var.scope = ref(vv, vk);
          else if (vk == "param") var.param = ref(vv, vk);
          else if (vk == "loc") var.loc = loc_from(vv, "loc");
          else if (vk == "slot") {
            var.slot = u32(vv, vk);
            if (var.slot == kNoSlot) bad("'slot' is not a node id");
          } else if (vk == "symbol") var.symbol = str(vv, vk);
          else if (vk == "indirect") var.indirect = boolean(vv, vk);
          else if (vk == "unchanged") var.unchanged = boolean(vv, vk);
          else if (vk == "value") {
            var.value = u32(vv, vk);
            if (var.value == kNoSlot) bad("'value' is not a node id");
          } else if (vk == "ssa_slot") var.ssa_slot = ref(vv, vk);
          else return false;
          return true;
        });
        d.vars.push_back(std::move(var));
      }
    else if (k == "binds")
      for (const Json& bj : array(v, k)) {
        object(bj, "a binding");
        DebugBind b;
        bool has_var = false;
        each_key(bj, "a binding", [&](const std::string& bk, const Json& bv) {
          if (bk == "var") b.var = u32(bv, bk), has_var = true;
          else if (bk == "value") {
            b.value = u32(bv, bk);
            if (b.value == kNoSlot) bad("'value' is not a node id");
          } else if (bk == "pos") {
            b.pos = u32(bv, bk);
            if (b.pos == kNoSlot) bad("'pos' is not a node id");
          } else if (bk == "droppable") b.droppable = boolean(bv, bk);
          else if (bk == "offset") b.offset = u32(bv, bk);  // a piece
          else if (bk == "size") b.size = u32(bv, bk);
          else return false;
          return true;
        });
        if (!has_var) bad("a binding needs 'var'");
        if (b.offset != 0 && b.size == 0) bad("a binding with 'offset' needs 'size'");
        d.binds.push_back(b);
      }
    else return false;
    return true;
  });
  return d;
}

std::string module_debug_problem(const ModuleDebug& d) {
  size_t n = d.types.size();
  auto in_range = [&](int64_t t) { return t == kDebugNone || (t >= 0 && static_cast<size_t>(t) < n); };
  for (size_t i = 0; i < n; ++i) {
    const DebugType& t = d.types[i];
    std::string at = "type " + std::to_string(i) + ": ";
    if (!in_range(t.type)) return at + "refers to type " + std::to_string(t.type) + " of " + std::to_string(n);
    for (const DebugMember& m : t.members)
      if (m.type >= n) return at + "member '" + m.name + "' refers to type " + std::to_string(m.type) + " of " + std::to_string(n);
    for (uint32_t p : t.params)
      if (p >= n) return at + "parameter refers to type " + std::to_string(p) + " of " + std::to_string(n);
    bool needs_target = t.kind == DebugTypeKind::Typedef || t.kind == DebugTypeKind::Array;
    if (needs_target && t.type == kDebugNone) return at + std::string(debug_type_kind_name(t.kind)) + " without 'type'";
    if (t.kind == DebugTypeKind::Base && (t.name.empty() || t.size == 0)) return at + "base type without a name or size";
    // Only a pointer may close a cycle (a struct holding a pointer to itself).
    int64_t k = static_cast<int64_t>(i);
    for (size_t steps = 0; k != kDebugNone && d.types[k].kind != DebugTypeKind::Pointer; ++steps) {
      if (steps > n) return at + "its type chain has a cycle without a pointer";
      k = d.types[k].type;
    }
  }
  for (const DebugGlobal& g : d.globals)
    if (g.type >= n) return "global '" + g.name + "' refers to type " + std::to_string(g.type) + " of " + std::to_string(n);
  return "";
}

std::string function_debug_problem(const ModuleDebug& module, const Function& fn) {
  const FunctionDebug& d = fn.debug;
  size_t n = module.types.size();
  if (d.type != kDebugNone &&
      (d.type < 0 || static_cast<size_t>(d.type) >= n || module.types[d.type].kind != DebugTypeKind::Function))
    return "the function's type " + std::to_string(d.type) + " is not a function type of the header's " + std::to_string(n) + " types";
  for (size_t i = 0; i < d.scopes.size(); ++i)
    if (d.scopes[i].parent != kDebugNone && (d.scopes[i].parent < 0 || static_cast<size_t>(d.scopes[i].parent) >= i))
      return "scope " + std::to_string(i) + "'s parent " + std::to_string(d.scopes[i].parent) + " is not an earlier scope";
  for (const DebugVar& v : d.vars) {
    std::string at = "variable '" + v.name + "': ";
    if (v.type >= n) return at + "refers to type " + std::to_string(v.type) + " of " + std::to_string(n);
    if (v.scope != kDebugNone && (v.scope < 0 || static_cast<size_t>(v.scope) >= d.scopes.size()))
      return at + "scope " + std::to_string(v.scope) + " of " + std::to_string(d.scopes.size());
    if (v.param != kDebugNone && (v.param < 0 || v.scope != kDebugNone))
      return at + "a parameter belongs to the function's outermost scope";
    if (v.slot != kNoSlot && v.slot >= fn.nodes.size())
      return at + "slot i" + std::to_string(v.slot) + " is not a node (the function has " + std::to_string(fn.nodes.size()) + ")";
    if (v.slot != kNoSlot && !v.symbol.empty()) return at + "has both a slot and a symbol";
    if (v.value != kNoSlot && v.value >= fn.nodes.size())
      return at + "value i" + std::to_string(v.value) + " is not a node (the function has " + std::to_string(fn.nodes.size()) + ")";
    if (v.value != kNoSlot && (v.slot != kNoSlot || !v.symbol.empty() || !v.unchanged))
      return at + "a value is only for an unchanged variable without a slot or symbol";
    if (v.ssa_slot < kDebugNone) return at + "'ssa_slot' " + std::to_string(v.ssa_slot) + " is not a slot number";
  }
  struct VarPieces {  // per variable: its bindings' kinds and distinct pieces
    bool whole = false, pieces = false;
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
  };
  std::vector<VarPieces> pieces(d.vars.size());
  for (size_t i = 0; i < d.binds.size(); ++i) {
    const DebugBind& b = d.binds[i];
    std::string at = "binding " + std::to_string(i) + ": ";
    if (b.var >= d.vars.size())
      return at + "variable " + std::to_string(b.var) + " of " + std::to_string(d.vars.size());
    if (b.value != kNoSlot && b.value >= fn.nodes.size())
      return at + "value i" + std::to_string(b.value) + " is not a node (the function has " + std::to_string(fn.nodes.size()) + ")";
    if (b.pos != kNoSlot && b.pos >= fn.nodes.size())
      return at + "position i" + std::to_string(b.pos) + " is not a node (the function has " + std::to_string(fn.nodes.size()) + ")";
    const DebugVar& v = d.vars[b.var];
    if (v.slot != kNoSlot || !v.symbol.empty())
      return at + "variable '" + v.name + "' has a slot or symbol, so it is bound to no value";
    if (b.value != kNoSlot && b.pos == kNoSlot) return at + "a binding to a value has a position";
    if (b.droppable && b.value == kNoSlot) return at + "a kill or lost binding is not droppable";
    // Pieces: inside the variable's type, whole when lost, and a variable's
    // bindings all whole or all pieces, its pieces equal or disjoint.
    if (b.piece()) {
      if (b.lost()) return at + "a lost binding is whole (no 'offset' or 'size')";
      const uint64_t bytes = debug_type_size(module, v.type);
      if (bytes == 0 || uint64_t{b.offset} + b.size > bytes)
        return at + "piece [" + std::to_string(b.offset) + ", " + std::to_string(uint64_t{b.offset} + b.size) +
               ") is not inside variable '" + v.name + "' (" + std::to_string(bytes) + " bytes)";
    }
    if (b.lost()) continue;
    VarPieces& seen = pieces[b.var];
    (b.piece() ? seen.pieces : seen.whole) = true;
    if (seen.whole && seen.pieces) return at + "variable '" + v.name + "' has both whole and piece bindings";
    if (!b.piece()) continue;
    bool known = false;
    for (auto [off, size] : seen.ranges) {
      known |= off == b.offset && size == b.size;
      if (!(off == b.offset && size == b.size) && uint64_t{off} < uint64_t{b.offset} + b.size &&
          uint64_t{b.offset} < uint64_t{off} + size)
        return at + "piece [" + std::to_string(b.offset) + ", " + std::to_string(uint64_t{b.offset} + b.size) +
               ") overlaps another piece of variable '" + v.name + "'";
    }
    if (!known) seen.ranges.emplace_back(b.offset, b.size);
  }
  return "";
}

namespace {

// Keeps every binding of `binds` that is not lost, and one lost binding per
// variable (in the place of its first).
void collapse_lost(std::vector<DebugBind>& binds, size_t vars) {
  std::vector<char> lost(vars, 0);
  size_t out = 0;
  for (const DebugBind& b : binds) {
    if (b.lost()) {
      if (b.var < vars && lost[b.var]) continue;
      if (b.var < vars) lost[b.var] = 1;
    }
    binds[out++] = b;
  }
  binds.resize(out);
}

}  // namespace

void remap_debug_slots(FunctionDebug& d, const std::vector<NodeId>& old_to_new, NodeId gone) {
  auto remap = [&](NodeId& id) {
    if (id == kNoSlot) return;
    NodeId to = id < old_to_new.size() ? old_to_new[id] : gone;
    id = to == gone ? kNoSlot : to;
  };
  for (DebugVar& v : d.vars) {
    remap(v.slot);
    remap(v.value);
  }
  size_t out = 0;
  for (DebugBind b : d.binds) {
    const bool had_value = b.value != kNoSlot, had_pos = b.pos != kNoSlot;
    remap(b.value);
    remap(b.pos);
    const bool gone = (had_value && b.value == kNoSlot) || (had_pos && b.pos == kNoSlot);
    if (gone && b.droppable) continue;
    if (b.pos == kNoSlot) b.value = kNoSlot, b.offset = 0, b.size = 0;  // lost (whole)
    if (b.value == kNoSlot) b.droppable = false;
    d.binds[out++] = b;
  }
  d.binds.resize(out);
  collapse_lost(d.binds, d.vars.size());
}

void add_debug_binding(FunctionDebug& d, DebugBind b) { d.binds.push_back(b); }

// --- pieces ---
uint64_t debug_type_size(const ModuleDebug& module, int64_t type) {
  uint64_t scale = 1;
  for (size_t steps = 0; type >= 0 && static_cast<size_t>(type) < module.types.size() && steps < 64; ++steps) {
    const DebugType& t = module.types[type];
    switch (t.kind) {
      case DebugTypeKind::Base: case DebugTypeKind::Enum: case DebugTypeKind::Struct: case DebugTypeKind::Union:
        return t.declaration ? 0 : scale * t.size;
      case DebugTypeKind::Pointer: return scale * 8;
      case DebugTypeKind::Const: case DebugTypeKind::Volatile: case DebugTypeKind::Restrict:
      case DebugTypeKind::Typedef: type = t.type; continue;
      case DebugTypeKind::Array:
        if (t.count < 0 || static_cast<uint64_t>(t.count) > (uint64_t{1} << 32)) return 0;
        scale *= static_cast<uint64_t>(t.count);
        type = t.type;
        continue;
      case DebugTypeKind::Function: return 0;
    }
  }
  return 0;
}
// --- end pieces ---

bool makes_memory(const Function& fn, NodeId n) {
  if (n >= fn.nodes.size() || fn.nodes[n].op >= kNumOps) return false;
  const Node& nd = fn.nodes[n];
  if (nd.op == Op::Proj) {
    if (nd.inputs.empty() || nd.literals.empty() || !nd.literals[0].is_int() || nd.inputs[0] >= fn.nodes.size()) return false;
    const OpId t = fn.nodes[nd.inputs[0]].op;
    if (t >= kNumOps) return false;
    const std::string_view results = op_info(t).results;
    const int64_t k = nd.literals[0].as_int();
    return results.size() > 1 && k >= 0 && static_cast<size_t>(k) < results.size() && results[k] == 'm';
  }
  return op_info(nd.op).results == "m";
}

void lose_debug_bindings(FunctionDebug& d, const std::function<bool(uint32_t)>& lose) {
  for (DebugBind& b : d.binds)
    if (lose(b.var)) b = DebugBind{b.var, kNoSlot, kNoSlot, false, 0, 0};
  collapse_lost(d.binds, d.vars.size());
}

void drop_debug_slots(FunctionDebug& d) {
  for (DebugVar& v : d.vars) v.slot = kNoSlot;
}

}  // namespace pl
