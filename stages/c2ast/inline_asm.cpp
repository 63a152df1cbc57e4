// inline_asm.cpp - GNU inline assembly statements -> ast:asm (FORMAT.md
// section 7, "Inline assembly"; common/ir/asm.h gives the operand form).
//
// clang has parsed and checked the statement (constraint letters against
// its x86 target, operand counts, named operands); what is left here is to
// normalize it so that later stages read one small language:
//   - each constraint becomes one class: a digit (an input matching that
//     output), one fixed register ({rax} for a, b, c, d, S, D and for a
//     register variable `register int x asm("rcx")` used as an r, q, Q or g
//     operand), Q, r (r q R l, and g X when not constant), x, m (m o V,
//     and g X for an output that is not... never: g prefers a register), i
//     (i n and the x86 immediate letters I J K L M N e Z, and g X, when the
//     input is an integer constant expression); several letters pick the
//     first class of that order that fits; x87 (t u f), MMX (y), AVX-512
//     (k v), the rdx:rax pair (A), addresses (p) and alternatives (`,`) are
//     refused by name (x87 "t" and "u" go through memory:
//     x87_asm_statement);
//   - every named reference %[name] / %c[name] in the template becomes its
//     number; the modifiers b w k q h c n P a are kept, others refused;
//     basic asm (no colon) has no operands, so its `%` are doubled;
//   - clobbers become 64-bit register names, "memory" and "cc" (gcc's
//     "flags", "dirflag" and "fpsr" are cc: the flags are always clobbered
//     on x86);
//   - an asm without outputs, and basic asm, is volatile (as gcc has it).
// The operands' inputs: an output's (or memory operand's) address, an
// input's value, nothing for an immediate. Outputs must be scalar lvalues
// that are not bit-fields or volatile; register operands scalar (integer
// or pointer in general registers, float and double in xmm). File-scope
// asm is not a statement: its text goes into the module header as it is
// (module.cpp, schedule_translation_unit).
//
// asm goto (`asm goto("jc %l[err]" : outputs : inputs : clobbers : err)`,
// outputs as gcc 11 and clang 14 accept them) needs no opcode of its own:
// it becomes an ordinary asm with one more output, the selector (an
// early-clobber i32 register, "=&r", numbered right after the program's
// outputs, so every input's number moves up by one), and a chain of plain
// gotos on it. The template sets the selector to 0, runs the program's
// text, and jumps to a common end; each `%lN` / `%l[name]` in the text is
// the local label of a stub placed after it, which sets the selector to
// N's index + 1 and jumps to the end (asm_goto_template). After the asm,
// `if (sel == 1) goto L0; else if (sel == 2) goto L1; ...`, each goto
// through the cleanups of the scopes it leaves, like any goto. So a
// label's `%l` is a real code address inside the statement (the kernel's
// jump tables, `.long %l[l_yes] - .`, keep working), every stage and pass
// sees an asm and ordinary control flow (the optimizer's rules for asm
// hold unchanged, and pipe-run refuses it by name as any asm), and the
// outputs are written on every path, gcc 11's rule (clang 14 gives them
// on the fallthrough path only). The stubs' labels carry `%=`, which
// codegen-x64 numbers per emitted statement, so copies made by inlining
// and unrolling never define a label twice; LLVM MC, which assembles the
// text, resolves the forward jumps. The cost against gcc's direct jump to
// the C label: a mov on each path, a jmp, and a compare per label after
// the asm. (An opcode with one successor per label, the plan in labels.cpp
// for computed goto, would give the direct jump.) Refused by name: a
// label named without %l, %l of an operand that is not a label, and asm
// goto with x87 operands.
#include "c2ast.h"

#include <clang/AST/Attr.h>

#include <cctype>

namespace pl::c2ast {

using namespace clang;

namespace {

constexpr const char* kGpr64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                    "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
constexpr const char* kGpr32[16] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                                    "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
constexpr const char* kGpr16[16] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                                    "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
constexpr const char* kGpr8[16] = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                   "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};

// A register name as gcc accepts it in a clobber or a register variable
// ("%eax", "ax", "ah", "r8d", "xmm3") -> its 64-bit name; "" if unknown.
std::string register_64(std::string name) {
  if (!name.empty() && name[0] == '%') name.erase(0, 1);
  for (int i = 0; i < 16; ++i)
    if (name == kGpr64[i] || name == kGpr32[i] || name == kGpr16[i] || name == kGpr8[i]) return kGpr64[i];
  if (name == "ah") return "rax";
  if (name == "bh") return "rbx";
  if (name == "ch") return "rcx";
  if (name == "dh") return "rdx";
  if (name.rfind("xmm", 0) == 0 && name.size() <= 5 && name.size() > 3) {
    std::string n = name.substr(3);
    if (n.find_first_not_of("0123456789") == std::string::npos && std::stoi(n) < 16 && (n.size() == 1 || n[0] != '0'))
      return name;
  }
  return "";
}

// The register of a `register T x asm("NAME")` variable an operand names.
std::string register_variable(const Expr* e) {
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  if (!ref) return "";
  const auto* vd = dyn_cast<VarDecl>(ref->getDecl());
  if (!vd || vd->getStorageClass() != SC_Register) return "";
  const auto* label = vd->getAttr<AsmLabelAttr>();
  return label ? label->getLabel().str() : "";
}

struct Letters {
  bool reg = false, q_only = false, xmm = false, mem = false, imm = false;
  std::string fixed;  // a, b, c, d, S, D
  int match = -1;
};

bool has_x87_letter(std::string_view c) { return c.find_first_of("tuf") != std::string_view::npos; }

// The x87 stack register a clobber names: 0 for "st" and "st(0)", N for
// "st(N)"; -1 otherwise.
int x87_clobber(std::string_view c) {
  if (!c.empty() && c[0] == '%') c.remove_prefix(1);
  if (c == "st") return 0;
  if (c.size() == 5 && c.substr(0, 3) == "st(" && c[3] >= '0' && c[3] <= '7' && c[4] == ')') return c[3] - '0';
  return -1;
}

// fld/fstp's size suffix for a float, double or long double.
char x87_suffix(VType vt) { return vt == VType::F32 ? 's' : vt == VType::F64 ? 'l' : 't'; }

// asm goto's local labels: the stub of label k and the common end, each
// with `%=`, the number codegen-x64 gives every emitted asm statement, so
// that every copy of the statement (inlining, unrolling) has labels of its
// own in the object.
std::string asm_goto_label(size_t k) { return ".L__asm_goto%=_" + std::to_string(k); }
constexpr const char* kAsmGotoEnd = ".L__asm_goto%=_end";

// The template of an asm goto with `labels` labels whose selector is
// operand `selector`: the selector set to 0, the program's template (its
// %l references already turned into stub labels), then stub k setting the
// selector to k + 1, each jumping to the common end but the last, which
// falls into it. `movl` leaves the flags alone.
std::string asm_goto_template(const std::string& body, size_t selector, size_t labels) {
  const std::string sel = "%k" + std::to_string(selector);
  std::string t = "movl $0, " + sel + "\n\t" + body + "\n\t";
  for (size_t k = 0; k < labels; ++k) {
    t += "jmp " + std::string(kAsmGotoEnd) + "\n";
    t += asm_goto_label(k) + ":\n\tmovl $" + std::to_string(k + 1) + ", " + sel + "\n\t";
  }
  return t + kAsmGotoEnd + ":";
}

}  // namespace

bool FunctionBuilder::uses_x87_operands(const GCCAsmStmt* s) const {
  for (unsigned i = 0; i < s->getNumOutputs(); ++i)
    if (has_x87_letter(s->getOutputConstraint(i))) return true;
  for (unsigned i = 0; i < s->getNumInputs(); ++i)
    if (has_x87_letter(s->getInputConstraint(i))) return true;
  return false;
}

// An asm whose operands are x87 stack registers (gcc's "t" = st(0), "u" =
// st(1), and digits matching such outputs; the manual's "x86
// Floating-Point asm Operands"), the form of glibc's old <bits/mathinline.h>:
//   asm("fpatan" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
// Our register allocator knows no x87 stack, so the operands travel through
// memory and the statement becomes an ordinary asm with "m" operands: the
// template is wrapped in the loads and stores gcc's reg-stack pass would
// place around it. Before it, the inputs are pushed (fld) deepest first,
// the st(1) input then the st(0) one; after it, the stack holds the outputs
// on top (st(0)'s, then st(1)'s) and below them every input neither tied to
// an output nor popped by the asm (an input the asm pops must be clobbered,
// gcc's rule), so the outputs are stored and popped (fstp) in that order and
// the leftover inputs popped. The stack is empty before and after (our own
// long double code leaves it so). A float or double input goes through a
// temporary; a long double input is already an object (long_double.cpp).
// Refused by name: "f" (any x87 register), "+", "&", an input in st(1)
// without one in st(0), an output in st(1) without one in st(0), other
// operands beside x87 ones, a template that names an operand (%0...), and
// clobbers but memory, cc and the st registers.
NodeId FunctionBuilder::x87_asm_statement(const GCCAsmStmt* s) {
  SourceLocation where = s->getAsmLoc();
  Loc l = loc(where);
  struct X87 {
    int position;  // 0: st(0), 1: st(1)
    VType vt;
    NodeId address;
  };
  std::vector<NodeId> setup;
  std::vector<X87> outputs, inputs;
  auto position_of = [&](std::string_view c, SourceLocation at, bool output) {
    int pos = -1;
    for (char x : c) {
      if (x == '=' || x == '*' || x == '?' || x == '!') continue;
      if (x == 't' && pos < 0) pos = 0;
      else if (x == 'u' && pos < 0) pos = 1;
      else if (x >= '0' && x <= '9' && !output && pos < 0) {
        size_t n = static_cast<size_t>(x - '0');
        if (n >= outputs.size()) unsupported(at, "x87 inline assembly input matching an operand that is not an x87 output");
        pos = outputs[n].position;
      } else {
        unsupported(at, std::string("x87 inline assembly constraint '") + std::string(c) + "'");
      }
    }
    if (pos < 0) unsupported(at, std::string("x87 inline assembly constraint '") + std::string(c) + "'");
    return pos;
  };
  auto float_type = [&](const Expr* e, SourceLocation at) {
    VType vt = e->getType()->isRealFloatingType() ? scalar(e).vt : VType::I32;
    if (vt != VType::F32 && vt != VType::F64 && vt != VType::F80)
      unsupported(at, "x87 inline assembly operand of type '" + e->getType().getAsString() + "'");
    return vt;
  };
  for (unsigned i = 0; i < s->getNumOutputs(); ++i) {
    const Expr* e = s->getOutputExpr(i);
    SourceLocation at = e->getExprLoc();
    std::string c = s->getOutputConstraint(i).str();
    if (c.find_first_of("+&") != std::string::npos)
      unsupported(at, "x87 inline assembly output constraint '" + c + "'");
    int pos = position_of(c, at, true);
    for (const X87& o : outputs)
      if (o.position == pos) unsupported(at, "two x87 inline assembly outputs in one register");
    if (!e->isGLValue() || e->refersToBitField() || e->getType().isVolatileQualified())
      unsupported(at, "x87 inline assembly output that is not a plain lvalue");
    outputs.push_back({pos, float_type(e, at), address(e)});
  }
  for (unsigned i = 0; i < s->getNumInputs(); ++i) {
    const Expr* e = s->getInputExpr(i);
    SourceLocation at = e->getExprLoc();
    int pos = position_of(s->getInputConstraint(i), at, false);
    for (const X87& in : inputs)
      if (in.position == pos) unsupported(at, "two x87 inline assembly inputs in one register");
    VType vt = float_type(e, at);
    NodeId addr = rvalue(e);  // a long double's value is its object's address
    if (vt != VType::F80) {
      NodeId temp = variable(".x87", 8, 8, loc(at));
      setup.push_back(store(vt, false, temp, addr, loc(at)));
      addr = temp;
    }
    inputs.push_back({pos, vt, addr});
  }
  auto has = [](const std::vector<X87>& list, int pos) {
    return std::any_of(list.begin(), list.end(), [&](const X87& x) { return x.position == pos; });
  };
  if (has(inputs, 1) && !has(inputs, 0)) unsupported(where, "x87 inline assembly input in st(1) without one in st(0)");
  if (has(outputs, 1) && !has(outputs, 0)) unsupported(where, "x87 inline assembly output in st(1) without one in st(0)");
  std::vector<bool> popped(8, false);
  std::string clobbers = "cc";
  for (unsigned i = 0; i < s->getNumClobbers(); ++i) {
    std::string c = s->getClobber(i).str();
    if (int r = x87_clobber(c); r >= 0) popped[static_cast<size_t>(r)] = true;
    else if (c == "memory") clobbers += ",memory";
    else if (c != "cc" && c != "flags" && c != "fpsr" && c != "dirflag")
      unsupported(where, "x87 inline assembly clobber '" + c + "'");
  }
  // The template: no operand may be named in it (they are in memory now).
  std::string text = s->getAsmString()->getString().str(), body;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      body += text[i];
      continue;
    }
    if (i + 1 < text.size() && (text[i + 1] == '%' || text[i + 1] == '=')) {
      body += text.substr(i, 2);
      ++i;
      continue;
    }
    unsupported(where, "x87 inline assembly template that names an operand");
  }
  // Operands: the outputs' addresses ("=m"), then the inputs' ("m").
  LiteralList literals{Literal::string("volatile"), Literal::string(""), Literal::string(clobbers)};
  InputList nodes;
  for (const X87& o : outputs) {
    literals.push_back(Literal::string("=m ptr"));
    nodes.push_back(o.address);
  }
  std::string tmpl;
  size_t first_input = outputs.size();
  for (int pos : {1, 0})
    for (size_t k = 0; k < inputs.size(); ++k)
      if (inputs[k].position == pos)
        tmpl += std::string("fld") + x87_suffix(inputs[k].vt) + " %" + std::to_string(first_input + k) + "\n\t";
  for (const X87& in : inputs) {
    literals.push_back(Literal::string("m ptr"));
    nodes.push_back(in.address);
  }
  tmpl += body + "\n\t";
  size_t leftovers = 0;
  for (const X87& in : inputs)
    if (!has(outputs, in.position) && !popped[static_cast<size_t>(in.position)]) ++leftovers;
  for (int pos : {0, 1})
    for (size_t k = 0; k < outputs.size(); ++k)
      if (outputs[k].position == pos) tmpl += std::string("fstp") + x87_suffix(outputs[k].vt) + " %" + std::to_string(k) + "\n\t";
  for (size_t k = 0; k < leftovers; ++k) tmpl += "fstp %%st(0)\n\t";
  std::string why;
  if (!split_asm_template(tmpl, literals.size() - kAsmFirstOperand, why))
    unsupported(where, "inline assembly template: " + why);
  literals[kAsmTemplate] = Literal::string(tmpl);
  NodeId node = add(Op::AstAsm, l, std::move(literals), std::move(nodes));
  setup.push_back(node);
  return statements(setup, l);
}

NodeId FunctionBuilder::asm_statement(const GCCAsmStmt* s) {
  SourceLocation where = s->getAsmLoc();
  Loc l = loc(where);
  const bool is_goto = s->isAsmGoto();
  if (uses_x87_operands(s)) {
    if (is_goto) unsupported(where, "asm goto with x87 operands");
    return x87_asm_statement(s);
  }
  std::vector<std::string> operand_literals;
  InputList inputs;
  auto letters_of = [&](std::string_view c, SourceLocation at, bool output) {
    Letters k;
    for (size_t i = 0; i < c.size(); ++i) {
      char x = c[i];
      switch (x) {
        case '=': case '+': case '&': case '%': case '*': case '?': case '!': break;
        case ',': unsupported(at, "inline assembly constraint alternatives (',')");
        case 'r': case 'q': case 'R': case 'l': k.reg = true; break;
        case 'Q': k.reg = true; k.q_only = true; break;
        case 'g': case 'X': k.reg = true; k.imm = !output; k.mem = true; break;
        case 'a': k.fixed = "rax"; break;
        case 'b': k.fixed = "rbx"; break;
        case 'c': k.fixed = "rcx"; break;
        case 'd': k.fixed = "rdx"; break;
        case 'S': k.fixed = "rsi"; break;
        case 'D': k.fixed = "rdi"; break;
        case 'x': k.xmm = true; break;
        case 'm': case 'o': case 'V': k.mem = true; break;
        case 'i': case 'n': case 'I': case 'J': case 'K': case 'L': case 'M': case 'N': case 'e': case 'Z':
          k.imm = true; break;
        case 't': case 'u': case 'f':
          unsupported(at, std::string("inline assembly constraint '") + x + "' (x87 registers)");
        case 'A': unsupported(at, "inline assembly constraint 'A' (the rdx:rax pair)");
        default:
          if (x >= '0' && x <= '9') {
            size_t j = i;
            while (j < c.size() && c[j] >= '0' && c[j] <= '9') ++j;
            k.match = std::stoi(std::string(c.substr(i, j - i)));
            i = j - 1;
            break;
          }
          unsupported(at, std::string("inline assembly constraint '") + x + "'");
      }
    }
    return k;
  };
  auto operand_type = [&](const Expr* e, bool xmm, SourceLocation at) -> std::string {
    QualType t = e->getType();
    if (!t->isScalarType() || t->isAnyComplexType())
      unsupported(at, "inline assembly register operand of type '" + t.getAsString() + "'");
    Scalar sc = scalar(e);
    if (xmm && !is_float(sc.vt)) unsupported(at, "inline assembly xmm ('x') operand of an integer type");
    if (!xmm && is_float(sc.vt))
      unsupported(at, "inline assembly floating-point operand in a general register (use 'x')");
    return vtype_name(sc.vt);
  };
  auto check_lvalue = [&](const Expr* e, SourceLocation at, const char* what) {
    if (!e->isGLValue()) unsupported(at, std::string("inline assembly ") + what + " that is not an lvalue");
    if (e->refersToBitField()) unsupported(at, std::string("inline assembly ") + what + " that is a bit-field");
    if (e->getType().isVolatileQualified()) unsupported(at, std::string("inline assembly ") + what + " that is volatile");
    if (reversed_scalar(e))  // storage_order.cpp: the asm would see the bytes in the other order
      unsupported(at, std::string("inline assembly ") + what + " with reverse scalar storage order");
  };
  // Outputs.
  for (unsigned i = 0; i < s->getNumOutputs(); ++i) {
    std::string c = s->getOutputConstraint(i).str();
    const Expr* e = s->getOutputExpr(i);
    SourceLocation at = e->getExprLoc();
    Letters k = letters_of(c, at, true);
    std::string role = c.find('+') != std::string::npos ? "+" : "=";
    if (c.find('&') != std::string::npos) role += "&";
    std::string var = register_variable(e);
    // A register unless the constraint allows memory and the value does not
    // fit a general register (a struct, a double: g, rm).
    bool fits_gpr = e->getType()->isScalarType() && !e->getType()->isRealFloatingType() &&
                    !e->getType()->isAnyComplexType();
    if (k.mem && !fits_gpr && var.empty()) k.reg = false;
    std::string cls;
    if (!k.fixed.empty()) cls = "{" + k.fixed + "}";
    else if (k.reg && !var.empty()) cls = "{" + register_64(var) + "}";
    else if (k.reg) cls = k.q_only ? "Q" : "r";
    else if (k.xmm) cls = "x";
    else if (k.mem) cls = "m";
    else unsupported(at, "inline assembly output constraint '" + c + "'");
    if (cls == "{}") unsupported(at, "register variable in '" + var + "'");
    check_lvalue(e, at, cls == "m" ? "memory operand" : "output");
    std::string type = cls == "m" ? "ptr" : operand_type(e, cls == "x" || (cls.size() > 4 && cls.substr(1, 3) == "xmm"), at);
    operand_literals.push_back(role + cls + " " + type);
    inputs.push_back(address(e));
  }
  // asm goto: the selector, one more output after the program's (its
  // number: `selector`; every input's number moves up by one).
  const size_t selector = s->getNumOutputs();
  NodeId selector_var = kNone;
  if (is_goto) {
    selector_var = variable(".asm_goto", 4, 4, l);
    operand_literals.push_back("=&r i32");
    inputs.push_back(selector_var);
  }
  // Inputs.
  for (unsigned i = 0; i < s->getNumInputs(); ++i) {
    std::string c = s->getInputConstraint(i).str();
    const Expr* e = s->getInputExpr(i);
    SourceLocation at = e->getExprLoc();
    Letters k = letters_of(c, at, false);
    Expr::EvalResult constant;
    bool is_constant = e->getType()->isIntegerType() && !e->isValueDependent() && e->EvaluateAsInt(constant, ctx_);
    std::string var = register_variable(e);
    if (k.match >= 0) {
      if (static_cast<unsigned>(k.match) >= s->getNumOutputs())
        unsupported(at, "inline assembly input matching operand " + std::to_string(k.match) + ", not an output");
      const std::string& out = operand_literals[k.match];
      if (out[0] != '=' || out.find(" ") == std::string::npos || out.find("m ") != std::string::npos)
        unsupported(at, "inline assembly input matching an output that is not a \"=\" register output");
      if (out.find('&') != std::string::npos)
        unsupported(at, "inline assembly input matching an early-clobber output");
      bool xmm = out.find("x ") != std::string::npos || out.find("{xmm") != std::string::npos;
      operand_literals.push_back(std::to_string(k.match) + " " + operand_type(e, xmm, at));
      inputs.push_back(rvalue(e));
      continue;
    }
    if (!k.fixed.empty()) {
      operand_literals.push_back("{" + k.fixed + "} " + operand_type(e, false, at));
      inputs.push_back(rvalue(e));
    } else if (k.imm && is_constant && (var.empty() || !k.reg)) {
      operand_literals.push_back("i " + std::to_string(constant.Val.getInt().getExtValue()));
    } else if (k.reg && !var.empty()) {
      std::string reg = register_64(var);
      if (reg.empty()) unsupported(at, "register variable in '" + var + "'");
      operand_literals.push_back("{" + reg + "} " + operand_type(e, reg.rfind("xmm", 0) == 0, at));
      inputs.push_back(rvalue(e));
    } else if (k.reg && (!k.mem || (e->getType()->isScalarType() && !e->getType()->isRealFloatingType() &&
                                    !e->getType()->isAnyComplexType()))) {
      operand_literals.push_back(std::string(k.q_only ? "Q " : "r ") + operand_type(e, false, at));
      inputs.push_back(rvalue(e));
    } else if (k.xmm) {
      operand_literals.push_back("x " + operand_type(e, true, at));
      inputs.push_back(rvalue(e));
    } else if (k.mem) {
      // clang reads an input as an rvalue; a memory operand is the lvalue.
      const Expr* lvalue = e->IgnoreParens();
      while (const auto* cast = dyn_cast<ImplicitCastExpr>(lvalue)) {
        if (cast->getCastKind() != CK_LValueToRValue && cast->getCastKind() != CK_NoOp) break;
        lvalue = cast->getSubExpr()->IgnoreParens();
      }
      check_lvalue(lvalue, at, "memory operand");
      operand_literals.push_back("m ptr");
      inputs.push_back(address(lvalue));
    } else if (k.imm) {
      unsupported(at, "inline assembly immediate operand that is not an integer constant");
    } else {
      unsupported(at, "inline assembly input constraint '" + c + "'");
    }
  }
  // Clobbers.
  std::string clobbers;
  for (unsigned i = 0; i < s->getNumClobbers(); ++i) {
    std::string c = s->getClobber(i).str();
    std::string name = c;
    if (c == "memory" || c == "cc") {
    } else if (c == "flags" || c == "dirflag" || c == "fpsr") {
      name = "cc";
    } else {
      name = register_64(c);
      if (name.empty()) unsupported(where, "inline assembly clobber '" + c + "'");
      if (name == "rsp") unsupported(where, "inline assembly clobber of the stack pointer");
    }
    if (!clobbers.empty()) clobbers += ",";
    clobbers += name;
  }
  // The template, with named references numbered.
  std::string text = s->getAsmString()->getString().str();
  std::string tmpl;
  size_t operands = operand_literals.size();
  // gcc's numbering (and clang's): the outputs, the inputs, then a hidden
  // input for each "+" output (the same value as that output), then the
  // labels.
  std::vector<size_t> read_outputs;
  for (unsigned i = 0; i < s->getNumOutputs(); ++i)
    if (s->getOutputConstraint(i).contains('+')) read_outputs.push_back(i);
  const size_t explicit_operands = s->getNumOutputs() + s->getNumInputs();
  const size_t program_operands = explicit_operands + read_outputs.size();
  if (s->isSimple()) {
    for (char ch : text) tmpl += ch == '%' ? std::string("%%") : std::string(1, ch);
  } else {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '%') {
        tmpl += text[i];
        continue;
      }
      if (++i >= text.size()) unsupported(where, "inline assembly template ends in '%'");
      char x = text[i];
      if (x == '%' || x == '=' || x == '{' || x == '|' || x == '}') {
        tmpl += '%';
        tmpl += x;
        continue;
      }
      char modifier = 0;
      if (std::isalpha(static_cast<unsigned char>(x))) {
        if (std::string_view("bwkqhcnPa").find(x) == std::string_view::npos && !(is_goto && x == 'l'))
          unsupported(where, std::string("inline assembly operand modifier '") + x + "'");
        modifier = x;
        if (++i >= text.size()) unsupported(where, "inline assembly template ends in an operand modifier");
        x = text[i];
      }
      size_t index = 0;
      if (x == '[') {
        size_t close = text.find(']', i);
        if (close == std::string::npos) unsupported(where, "inline assembly template: '[' without ']'");
        int named = s->getNamedOperand(text.substr(i + 1, close - i - 1));
        if (named < 0) unsupported(where, "inline assembly template names an unknown operand");
        index = static_cast<size_t>(named);
        i = close;
      } else if (x >= '0' && x <= '9') {
        size_t end = i;
        while (end < text.size() && end - i < 6 && text[end] >= '0' && text[end] <= '9') ++end;
        index = static_cast<size_t>(std::stoul(text.substr(i, end - i)));
        i = end - 1;
      } else {
        unsupported(where, std::string("inline assembly template: '%") + x + "'");
      }
      if (is_goto && index >= program_operands) {
        // A label: the stub that selects it (asm_goto_stubs).
        if (modifier != 'l') unsupported(where, "asm goto template names a label without the 'l' modifier");
        if (index - program_operands >= s->getNumLabels())
          unsupported(where, "inline assembly template names an unknown operand");
        tmpl += asm_goto_label(index - program_operands);
        continue;
      }
      if (modifier == 'l') unsupported(where, "asm goto template: '%l' of an operand that is not a label");
      if (index >= explicit_operands && index < program_operands) index = read_outputs[index - explicit_operands];
      else if (is_goto && index >= selector) ++index;
      tmpl += '%';
      if (modifier) tmpl += modifier;
      tmpl += std::to_string(index);
    }
  }
  if (is_goto) tmpl = asm_goto_template(tmpl, selector, s->getNumLabels());
  std::string why;
  if (!split_asm_template(tmpl, operands, why)) unsupported(where, "inline assembly template: " + why);
  // gcc: asm goto is always volatile.
  bool is_volatile = is_goto || s->isVolatile() || s->isSimple() || s->getNumOutputs() == 0;
  LiteralList literals{Literal::string(is_volatile ? "volatile" : ""), Literal::string(tmpl),
                       Literal::string(clobbers)};
  for (const std::string& op : operand_literals) literals.push_back(Literal::string(op));
  NodeId node = add(Op::AstAsm, l, std::move(literals), std::move(inputs));
  if (!is_goto) return node;
  // if (selector == 1) goto L0; else if (selector == 2) goto L1; ...
  // (plain gotos, through the cleanups of the scopes they leave; an if
  // chain and not an ast:switch, as for computed goto: labels.cpp)
  NodeId chain = kNone;
  for (size_t k = s->getNumLabels(); k-- > 0;) {
    const LabelDecl* label = s->getLabelExpr(static_cast<unsigned>(k))->getLabel();
    NodeId jump = add(Op::AstGoto, l, {Literal::string(label->getName().str())}, {});
    if (!cleanups_.empty()) jump = leave_scopes(label_depth(label, where), jump, l);
    NodeId value = load(VType::I32, false, selector_var, l);
    NodeId is = op("eq", VType::I32, l, value, constant(VType::I32, static_cast<int64_t>(k + 1), l));
    InputList branches{is, jump};
    if (chain != kNone) branches.push_back(chain);
    chain = add(Op::AstIf, l, {}, std::move(branches));
  }
  return chain == kNone ? node : statements({node, chain}, l);
}

}  // namespace pl::c2ast
