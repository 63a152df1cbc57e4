// graph_diff.cpp - graph matching of two functions (see graph_diff.h for the
// algorithm). Linear passes per round; rounds repeat while pairs are added,
// so a pathological graph costs O(rounds * edges).
#include "view/graph_diff.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "encoding/text_format.h"

namespace pl {

namespace {

constexpr NodeId kNone = ~NodeId{0};

// Opcode name and literals: what a node is, apart from its edges.
std::string node_key(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  std::string key(fn.op_name(n.op));
  for (const Literal& lit : n.literals) key += "|" + lit.to_json();
  return key;
}

// A use of a node: the user and the position (control i is -1 - i, input i is i).
struct Use {
  NodeId user;
  int position;
};

// At the cfg levels, the block node of each placed node (kNone elsewhere):
// matched like one more control input, so that equal-looking nodes of
// different blocks (two `ssa:store 0, i5`) are told apart.
constexpr int kBlockPosition = -1000;

std::vector<NodeId> blocks_of(const Function& fn) {
  std::vector<NodeId> block(fn.nodes.size(), kNone);
  if (fn.cfg)
    for (const Block& b : fn.cfg->blocks)
      for (NodeId n : b.nodes) block[n] = b.node;
  return block;
}

// Nodes in layout order: block by block, each block's node then its nodes;
// then the nodes in no block, by id.
std::vector<NodeId> layout_order(const Function& fn) {
  std::vector<NodeId> order;
  std::vector<bool> placed(fn.nodes.size(), false);
  if (fn.cfg)
    for (const Block& b : fn.cfg->blocks) {
      order.push_back(b.node);
      placed[b.node] = true;
      for (NodeId n : b.nodes) {
        order.push_back(n);
        placed[n] = true;
      }
    }
  for (NodeId n = 0; n < fn.nodes.size(); ++n)
    if (!placed[n]) order.push_back(n);
  return order;
}

std::vector<std::vector<Use>> users_of(const Function& fn, const std::vector<NodeId>& block) {
  std::vector<std::vector<Use>> users(fn.nodes.size());
  for (NodeId u = 0; u < fn.nodes.size(); ++u)
    if (block[u] != kNone) users[block[u]].push_back({u, kBlockPosition});
  for (NodeId u = 0; u < fn.nodes.size(); ++u) {
    const Node& n = fn.nodes[u];
    for (size_t i = 0; i < n.control.size(); ++i) users[n.control[i]].push_back({u, -1 - static_cast<int>(i)});
    for (size_t i = 0; i < n.inputs.size(); ++i) users[n.inputs[i]].push_back({u, static_cast<int>(i)});
  }
  return users;
}

class Matcher {
 public:
  Matcher(const Function& a, const Function& b, bool use_locations)
      : use_locations_(use_locations), a_(a), b_(b), a2b_(a.nodes.size(), kNone), b2a_(b.nodes.size(), kNone), block_a_(blocks_of(a)),
        block_b_(blocks_of(b)), users_a_(users_of(a, block_a_)), users_b_(users_of(b, block_b_)) {
    for (NodeId i = 0; i < a.nodes.size(); ++i) keys_a_.push_back(node_key(a, i));
    for (NodeId i = 0; i < b.nodes.size(); ++i) keys_b_.push_back(node_key(b, i));
  }
  void match();
  const std::vector<NodeId>& a2b() const { return a2b_; }
  const std::vector<NodeId>& b2a() const { return b2a_; }

 private:
  bool pair(NodeId a, NodeId b) {
    if (a2b_[a] != kNone || b2a_[b] != kNone) return false;
    a2b_[a] = b;
    b2a_[b] = a;
    queue_.push_back(a);
    return true;
  }
  void anchors();
  void propagate();
  void down(NodeId a);
  void up(NodeId a);
  // A user's identity with its inputs as far as they are paired, in B's ids.
  std::string user_key_a(NodeId u) const;
  std::string user_key_b(NodeId v) const;
  bool greedy();

  // Anchors and the greedy pass tell twins apart by source location too.
  std::string located(const Function& fn, NodeId id, const std::string& key) const {
    const Loc& loc = fn.nodes[id].loc;
    if (!use_locations_ || !loc.valid()) return key;
    return key + " @" + std::to_string(loc.file) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  }

  bool use_locations_;
  const Function& a_;
  const Function& b_;
  std::vector<NodeId> a2b_, b2a_;
  std::vector<NodeId> block_a_, block_b_;
  std::vector<std::vector<Use>> users_a_, users_b_;
  std::vector<std::string> keys_a_, keys_b_;
  std::vector<NodeId> queue_;  // paired A nodes whose edges are not followed yet
};

void Matcher::anchors() {
  std::unordered_map<std::string, std::pair<int, NodeId>> in_a, in_b;
  for (NodeId i = 0; i < keys_a_.size(); ++i) {
    auto& [count, id] = in_a[located(a_, i, keys_a_[i])];
    ++count;
    id = i;
  }
  for (NodeId i = 0; i < keys_b_.size(); ++i) {
    auto& [count, id] = in_b[located(b_, i, keys_b_[i])];
    ++count;
    id = i;
  }
  for (NodeId i = 0; i < keys_a_.size(); ++i) {
    std::string key = located(a_, i, keys_a_[i]);
    auto a = in_a.find(key);
    auto b = in_b.find(key);
    if (a->second.first == 1 && b != in_b.end() && b->second.first == 1) pair(i, b->second.second);
  }
}

void Matcher::down(NodeId a) {
  NodeId b = a2b_[a];
  const Node& na = a_.nodes[a];
  const Node& nb = b_.nodes[b];
  if (keys_a_[a].substr(0, keys_a_[a].find('|')) != keys_b_[b].substr(0, keys_b_[b].find('|'))) return;
  for (size_t i = 0; i < na.control.size() && i < nb.control.size(); ++i) pair(na.control[i], nb.control[i]);
  for (size_t i = 0; i < na.inputs.size() && i < nb.inputs.size(); ++i) pair(na.inputs[i], nb.inputs[i]);
  if (block_a_[a] != kNone && block_b_[b] != kNone) pair(block_a_[a], block_b_[b]);
}

std::string Matcher::user_key_a(NodeId u) const {
  std::string key = keys_a_[u];
  const Node& n = a_.nodes[u];
  for (NodeId c : n.control) key += " ^" + (a2b_[c] == kNone ? std::string("?") : std::to_string(a2b_[c]));
  for (NodeId x : n.inputs) key += " " + (a2b_[x] == kNone ? std::string("?") : std::to_string(a2b_[x]));
  NodeId k = block_a_[u];
  if (k != kNone) key += " @" + (a2b_[k] == kNone ? std::string("?") : std::to_string(a2b_[k]));
  return key;
}

std::string Matcher::user_key_b(NodeId v) const {
  std::string key = keys_b_[v];
  const Node& n = b_.nodes[v];
  for (NodeId c : n.control) key += " ^" + (b2a_[c] == kNone ? std::string("?") : std::to_string(c));
  for (NodeId x : n.inputs) key += " " + (b2a_[x] == kNone ? std::string("?") : std::to_string(x));
  NodeId k = block_b_[v];
  if (k != kNone) key += " @" + (b2a_[k] == kNone ? std::string("?") : std::to_string(k));
  return key;
}

void Matcher::up(NodeId a) {
  NodeId b = a2b_[a];
  std::map<std::string, std::vector<NodeId>> from_a, from_b;
  for (const Use& use : users_a_[a])
    if (a2b_[use.user] == kNone) from_a[std::to_string(use.position) + " " + user_key_a(use.user)].push_back(use.user);
  for (const Use& use : users_b_[b])
    if (b2a_[use.user] == kNone) from_b[std::to_string(use.position) + " " + user_key_b(use.user)].push_back(use.user);
  for (auto& [key, us] : from_a) {
    auto it = from_b.find(key);
    if (us.size() == 1 && it != from_b.end() && it->second.size() == 1) pair(us[0], it->second[0]);
  }
}

void Matcher::propagate() {
  while (!queue_.empty()) {
    NodeId a = queue_.back();
    queue_.pop_back();
    down(a);
    up(a);
  }
}

// Pairs leftover nodes with the same opcode, literals and paired inputs, in
// layout order (identical dead nodes, twins in one block). True if any.
bool Matcher::greedy() {
  std::map<std::string, std::vector<NodeId>> free_b;
  for (NodeId v : layout_order(b_))
    if (b2a_[v] == kNone) free_b[located(b_, v, user_key_b(v))].push_back(v);
  bool any = false;
  for (NodeId u : layout_order(a_)) {
    if (a2b_[u] != kNone) continue;
    auto it = free_b.find(located(a_, u, user_key_a(u)));
    if (it == free_b.end() || it->second.empty()) continue;
    NodeId v = it->second.front();
    it->second.erase(it->second.begin());
    if (pair(u, v)) {
      any = true;
      propagate();
    }
  }
  return any;
}

void Matcher::match() {
  anchors();
  propagate();
  while (greedy()) {
  }
}

std::string position_name(size_t i, bool control) {
  return (control ? "control input " : "input ") + std::to_string(i);
}

void compare_pair(const Function& a, const Function& b, NodeId x, NodeId y, const std::vector<NodeId>& a2b,
                  const DiffOptions& options, std::vector<NodeDiff>& out) {
  const Node& na = a.nodes[x];
  const Node& nb = b.nodes[y];
  if (a.op_name(na.op) != b.op_name(nb.op)) return out.push_back({NodeDiff::Kind::Changed, x, y, "opcode"});
  if (na.literals.size() != nb.literals.size()) return out.push_back({NodeDiff::Kind::Changed, x, y, "literals"});
  for (size_t i = 0; i < na.literals.size(); ++i)
    if (!(na.literals[i] == nb.literals[i]))
      return out.push_back({NodeDiff::Kind::Changed, x, y, "literal " + std::to_string(i)});
  if (!options.ignore_locations && !(na.loc == nb.loc))
    return out.push_back({NodeDiff::Kind::Changed, x, y, "source location"});
  if (na.control.size() != nb.control.size())
    return out.push_back({NodeDiff::Kind::Inputs, x, y, "number of control inputs"});
  if (na.inputs.size() != nb.inputs.size()) return out.push_back({NodeDiff::Kind::Inputs, x, y, "number of inputs"});
  for (size_t i = 0; i < na.control.size(); ++i)
    if (a2b[na.control[i]] != nb.control[i]) return out.push_back({NodeDiff::Kind::Inputs, x, y, position_name(i, true)});
  for (size_t i = 0; i < na.inputs.size(); ++i)
    if (a2b[na.inputs[i]] != nb.inputs[i]) return out.push_back({NodeDiff::Kind::Inputs, x, y, position_name(i, false)});
}

void compare_blocks(const Function& a, const Function& b, const std::vector<NodeId>& a2b, FunctionDiff& diff) {
  if (a.cfg.has_value() != b.cfg.has_value()) {
    diff.notes.push_back(a.cfg ? "A has a cfg section, B has none" : "B has a cfg section, A has none");
    return;
  }
  if (!a.cfg) return;
  std::unordered_map<NodeId, const Block*> b_blocks;
  for (const Block& blk : b.cfg->blocks) b_blocks[blk.node] = &blk;
  auto mapped = [&](const std::vector<NodeId>& ids) {
    std::vector<NodeId> out;
    for (NodeId id : ids) out.push_back(a2b[id]);
    return out;
  };
  for (const Block& blk : a.cfg->blocks) {
    auto it = b_blocks.find(a2b[blk.node]);
    if (it == b_blocks.end()) continue;  // the block node itself is reported
    if (mapped(blk.nodes) != it->second->nodes)
      diff.nodes.push_back({NodeDiff::Kind::Block, blk.node, it->first, "the block's nodes or their order"});
    else if (mapped(blk.successors) != it->second->successors)
      diff.nodes.push_back({NodeDiff::Kind::Block, blk.node, it->first, "the block's successors"});
  }
  if (a.dominance.has_value() != b.dominance.has_value())
    diff.notes.push_back(a.dominance ? "A has a dominance section, B has none" : "B has a dominance section, A has none");
}

std::string signature_text(const Signature& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.params.size(); ++i) out += (i ? ", " : "") + s.params[i];
  if (s.variadic) out += s.params.empty() ? "..." : ", ...";
  return out + ") -> " + s.result;
}

}  // namespace

FunctionDiff diff_functions(const Function& a, const Function& b, const DiffOptions& options) {
  FunctionDiff diff;
  if (!(a.signature == b.signature))
    diff.notes.push_back("signature " + signature_text(a.signature) + " vs " + signature_text(b.signature));
  if (a.linkage != b.linkage)
    diff.notes.push_back("linkage " + std::string(linkage_name(a.linkage)) + " vs " +
                         std::string(linkage_name(b.linkage)));
  Matcher m(a, b, !options.ignore_locations);
  m.match();
  const std::vector<NodeId>& a2b = m.a2b();
  for (NodeId x = 0; x < a.nodes.size(); ++x) {
    if (a2b[x] == kNone) diff.nodes.push_back({NodeDiff::Kind::Removed, x, 0, ""});
    else compare_pair(a, b, x, a2b[x], a2b, options, diff.nodes);
  }
  for (NodeId y = 0; y < b.nodes.size(); ++y)
    if (m.b2a()[y] == kNone) diff.nodes.push_back({NodeDiff::Kind::Added, 0, y, ""});
  compare_blocks(a, b, a2b, diff);
  return diff;
}

std::vector<std::string> diff_headers(const ModuleHeader& a, const ModuleHeader& b) {
  std::vector<std::string> out;
  if (a.level != b.level)
    out.push_back("level " + std::string(level_name(a.level)) + " vs " + std::string(level_name(b.level)));
  if (a.files != b.files) out.push_back("source files differ");
  if (a.toplevel_asm != b.toplevel_asm) out.push_back("file-scope asm differs");
  std::map<std::string, const Extern*> ea, eb;
  for (const Extern& e : a.externs) ea[e.name] = &e;
  for (const Extern& e : b.externs) eb[e.name] = &e;
  for (auto& [name, e] : ea) {
    auto it = eb.find(name);
    if (it == eb.end()) out.push_back("extern '" + name + "' only in A");
    else if (!(*e == *it->second)) out.push_back("extern '" + name + "' differs");
  }
  for (auto& [name, e] : eb)
    if (!ea.count(name)) out.push_back("extern '" + name + "' only in B");
  std::map<std::string, const DataItem*> da, db;
  for (const DataItem& d : a.data) da[d.name] = &d;
  for (const DataItem& d : b.data) db[d.name] = &d;
  for (auto& [name, d] : da) {
    auto it = db.find(name);
    if (it == db.end()) out.push_back("data '" + name + "' only in A");
    else if (!(*d == *it->second)) out.push_back("data '" + name + "' differs");
  }
  for (auto& [name, d] : db)
    if (!da.count(name)) out.push_back("data '" + name + "' only in B");
  return out;
}

std::string format_function_diff(const Function& a, const Function& b, const FunctionDiff& diff) {
  std::string out;
  for (const std::string& note : diff.notes) out += "  " + note + "\n";
  for (const NodeDiff& d : diff.nodes) {
    switch (d.kind) {
      case NodeDiff::Kind::Removed: out += "  - " + print_node_line(a, d.a) + "\n"; break;
      case NodeDiff::Kind::Added: out += "  + " + print_node_line(b, d.b) + "\n"; break;
      case NodeDiff::Kind::Changed:
      case NodeDiff::Kind::Inputs:
      case NodeDiff::Kind::Block:
        out += "  ! " + d.note + " differs:\n    A: " + print_node_line(a, d.a) + "\n    B: " + print_node_line(b, d.b) +
               "\n";
        break;
    }
  }
  return out;
}

}  // namespace pl
