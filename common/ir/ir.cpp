// ir.cpp - names of levels and linkages, opcode interning, structural checks.
#include "ir/ir.h"

#include <array>
#include <string>
#include <vector>

#include "ir/abi.h"
#include "ir/error.h"

namespace pl {

namespace {

constexpr std::array<std::string_view, kNumLevels> kLevelNames = {
    "ast", "cfg", "ssa", "son", "son-x64", "cfg-x64", "ra-x64"};

[[noreturn]] void structural_error(const Function& fn, std::string entity, const std::string& msg) {
  throw FormatError(Where::in(fn.name, std::move(entity)), msg);
}

// `entity` names where the reference is (node_name, block_name): it is made
// only when the id is out of range, since this runs for every reference.
template <typename Entity>
void check_id(const Function& fn, NodeId id, Entity entity, const char* what) {
  if (id >= fn.nodes.size())
    structural_error(fn, entity(),
                     std::string(what) + " refers to node i" + std::to_string(id) + ", but the function has " +
                         std::to_string(fn.nodes.size()) + " nodes");
}

// One pass over the nodes (they may not fit in cache): opcodes, references,
// and location file indexes.
void check_nodes(const ModuleHeader& header, const Function& fn) {
  const size_t op_limit = kNumOps + fn.foreign_ops.size();
  const size_t count = fn.nodes.size();
  const size_t files = header.files.size();
  for (NodeId i = 0; i < count; ++i) {
    const Node& n = fn.nodes[i];
    if (n.op >= op_limit)
      structural_error(fn, node_name(i), "opcode number " + std::to_string(n.op) + " is out of range");
    for (NodeId c : n.control)
      if (c >= count) check_id(fn, c, [&] { return node_name(i); }, "control input");
    for (NodeId in : n.inputs)
      if (in >= count) check_id(fn, in, [&] { return node_name(i); }, "input");
    if (n.loc.file >= files && n.loc.valid())
      structural_error(fn, node_name(i),
                       "source location names file #" + std::to_string(n.loc.file) + ", but the module lists " +
                           std::to_string(files) + " files");
  }
}

void check_cfg(const Function& fn) {
  const Cfg& cfg = *fn.cfg;
  // 0 = unplaced; otherwise 1 + index of the block holding the node.
  std::vector<uint32_t> placed(fn.nodes.size(), 0);
  auto place = [&](NodeId id, uint32_t b, const char* what) {
    check_id(fn, id, [&] { return block_name(b); }, what);
    if (placed[id])
      structural_error(fn, block_name(b),
                       "node i" + std::to_string(id) + " is already placed in block b" + std::to_string(placed[id] - 1));
    placed[id] = b + 1;
  };
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) place(cfg.blocks[b].node, b, "block node");
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const Block& block = cfg.blocks[b];
    for (NodeId s : block.successors) {
      check_id(fn, s, [&] { return block_name(b); }, "successor");
      if (!placed[s] || cfg.blocks[placed[s] - 1].node != s)
        structural_error(fn, block_name(b), "successor i" + std::to_string(s) + " is not a block node");
    }
    for (NodeId id : block.nodes) place(id, b, "block member");
  }
}

void check_dominance(const Function& fn) {
  const Dominance& dom = *fn.dominance;
  if (!fn.cfg) structural_error(fn, "dominance", "a dominance section needs a cfg section");
  const Cfg& cfg = *fn.cfg;
  if (dom.blocks.size() != cfg.blocks.size())
    structural_error(fn, "dominance",
                     "dominance has " + std::to_string(dom.blocks.size()) + " blocks but cfg has " +
                         std::to_string(cfg.blocks.size()));
  std::vector<char> is_block(fn.nodes.size(), 0);
  for (const Block& b : cfg.blocks) is_block[b.node] = 1;
  for (uint32_t b = 0; b < dom.blocks.size(); ++b) {
    const DomBlock& d = dom.blocks[b];
    if (d.node != cfg.blocks[b].node)
      structural_error(fn, block_name(b),
                       "dominance block " + std::to_string(b) + " is node i" + std::to_string(d.node) +
                           " but cfg block " + std::to_string(b) + " is i" + std::to_string(cfg.blocks[b].node) +
                           " (dominance blocks follow cfg order)");
    if (d.parent) {
      check_id(fn, *d.parent, [&] { return block_name(b); }, "dominance parent");
      if (!is_block[*d.parent])
        structural_error(fn, block_name(b), "dominance parent i" + std::to_string(*d.parent) + " is not a block node");
    }
    for (NodeId f : d.frontier) {
      check_id(fn, f, [&] { return block_name(b); }, "dominance frontier");
      if (!is_block[f])
        structural_error(fn, block_name(b), "dominance frontier entry i" + std::to_string(f) + " is not a block node");
    }
  }
}

// "" when the signature's types are all valid, else what is wrong.
std::string signature_problem(const Signature& sig) {
  for (size_t i = 0; i < sig.params.size(); ++i) {
    std::string problem = param_type_problem(sig.params[i], i);
    if (!problem.empty()) return "parameter " + std::to_string(i) + " has an invalid type: " + problem;
  }
  if (sig.result != "void" && !is_value_type(sig.result))
    return "result type '" + sig.result + "' is neither a value type nor void";
  return "";
}

}  // namespace

std::string_view level_name(Level level) { return kLevelNames[static_cast<size_t>(level)]; }

std::optional<Level> parse_level(std::string_view name) {
  for (size_t i = 0; i < kLevelNames.size(); ++i)
    if (kLevelNames[i] == name) return static_cast<Level>(i);
  return std::nullopt;
}

bool level_has_cfg(Level level) {
  return level == Level::Cfg || level == Level::Ssa || level == Level::CfgX64 || level == Level::RaX64;
}

bool level_needs_dominance(Level level) {
  return level == Level::Ssa || level == Level::CfgX64 || level == Level::RaX64;
}

std::string_view linkage_name(Linkage linkage) { return linkage == Linkage::Internal ? "internal" : "external"; }

std::optional<Linkage> parse_linkage(std::string_view name) {
  if (name == "external") return Linkage::External;
  if (name == "internal") return Linkage::Internal;
  return std::nullopt;
}

namespace {
constexpr std::string_view kVisibilityNames[] = {"default", "hidden", "protected", "internal"};
constexpr std::string_view kHintNames[kNumHints] = {"noinline", "always_inline", "pure", "const",
                                                     "cold", "malloc", "noreturn", "stack_protect",
                                                     "stack_realign", "nobuiltin", "inline",
                                                     "recursion_inlined"};
}  // namespace

std::string_view visibility_name(Visibility v) { return kVisibilityNames[static_cast<int>(v)]; }

std::optional<Visibility> parse_visibility(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kVisibilityNames[i] == name) return static_cast<Visibility>(i);
  return std::nullopt;
}

namespace {
constexpr std::string_view kTlsModelNames[] = {"auto", "global-dynamic", "local-dynamic", "initial-exec",
                                                "local-exec"};
}  // namespace

std::string_view tls_model_name(TlsModel m) { return kTlsModelNames[static_cast<int>(m)]; }

std::optional<TlsModel> parse_tls_model(std::string_view name) {
  for (int i = 0; i < 5; ++i)
    if (kTlsModelNames[i] == name) return static_cast<TlsModel>(i);
  return std::nullopt;
}

std::string_view hint_name(int bit) { return kHintNames[bit]; }

std::optional<uint16_t> parse_hint(std::string_view name) {
  for (int i = 0; i < kNumHints; ++i)
    if (kHintNames[i] == name) return static_cast<uint16_t>(1u << i);
  return std::nullopt;
}

bool is_value_type(std::string_view name) {
  return name == "i1" || name == "i8" || name == "i16" || name == "i32" || name == "i64" || name == "ptr" ||
         name == "f32" || name == "f64";
}

bool is_float_type(std::string_view name) { return name == "f32" || name == "f64"; }

std::string_view Function::op_name(OpId op) const {
  if (op < kNumOps) return op_info(op).name;
  size_t k = op - kNumOps;
  return k < foreign_ops.size() ? std::string_view(foreign_ops[k]) : std::string_view("<bad-opcode>");
}

OpId Function::intern_op(std::string_view op_name_text) {
  std::string_view name = op_name_text;
  if (auto op = find_op(name)) return *op;
  for (size_t k = 0; k < foreign_ops.size(); ++k)
    if (foreign_ops[k] == name) return static_cast<OpId>(kNumOps + k);
  if (kNumOps + foreign_ops.size() >= 0xFFFF) throw FormatError(Where::in(this->name, ""), "too many distinct opcodes");
  foreign_ops.emplace_back(name);
  return static_cast<OpId>(kNumOps + foreign_ops.size() - 1);
}

void check_header_structure(const ModuleHeader& header) {
  for (const Extern& e : header.externs) {
    if (!e.signature) continue;
    Where where = Where::in("", "extern '" + e.name + "'");
    if (e.kind == ExternKind::Data) throw FormatError(where, "a data extern cannot have a signature");
    std::string problem = signature_problem(*e.signature);
    if (!problem.empty()) throw FormatError(where, problem);
  }
  std::string problem = module_debug_problem(header.debug);
  if (!problem.empty()) throw FormatError(Where::in("", "debug"), problem);
}

void check_structure(const ModuleHeader& header, const Function& fn, NodeChecks nodes) {
  std::string problem = signature_problem(fn.signature);
  if (!problem.empty()) structural_error(fn, "signature", problem);
  if (nodes == NodeChecks::Full) check_nodes(header, fn);
  for (const std::string& name : fn.foreign_ops)
    if (!valid_opcode_name(name)) structural_error(fn, "", "invalid opcode name '" + name + "'");
  if (fn.cfg) check_cfg(fn);
  if (fn.dominance) check_dominance(fn);
  problem = function_debug_problem(header.debug, fn);
  if (!problem.empty()) structural_error(fn, "debug", problem);
}

void canonicalize_foreign_ops(Function& fn) {
  if (fn.foreign_ops.empty()) return;
  constexpr OpId kUnmapped = 0xFFFF;
  std::vector<OpId> new_op(fn.foreign_ops.size(), kUnmapped);
  std::vector<std::string> ordered;
  for (Node& n : fn.nodes) {
    if (n.op < kNumOps) continue;
    size_t k = n.op - kNumOps;
    if (k >= new_op.size()) continue;  // out of range: check_structure reports it
    if (new_op[k] == kUnmapped) {
      new_op[k] = static_cast<OpId>(kNumOps + ordered.size());
      ordered.push_back(std::move(fn.foreign_ops[k]));
    }
    n.op = new_op[k];
  }
  fn.foreign_ops = std::move(ordered);
}

Level infer_bare_level(const Function& fn) {
  if (fn.cfg && fn.dominance) return Level::Ssa;
  if (fn.cfg) return Level::Cfg;
  return Level::Son;
}

}  // namespace pl
