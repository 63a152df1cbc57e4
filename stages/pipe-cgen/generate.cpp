// generate.cpp - the program generator of pipe-cgen (cgen.h).
//
// Every program is free of undefined behaviour by construction, the way
// csmith's are, but with fewer safety wrappers, so the code stays the shape
// people write:
//   - values are unsigned (u32, u64): arithmetic wraps; shift counts are
//     masked (`& 31u`); divisors are made odd (`| 1u`); signed division
//     divides a value shifted right by one (never INT_MIN) by an odd one;
//   - signed `int` arithmetic appears only where its range is known: the
//     depth counters of recursion and loop indices, and the signed
//     recursions (`n + f(n - 1)`) whose depth is bounded so the sums fit;
//   - every recursion's depth comes from `value % BOUND` (and may be
//     negative, to reach the base cases from below), every loop's trip
//     count is computed and its induction variable written only by the
//     loop itself; the fib-like recursions stay under depth 13;
//   - every local is initialized where it is declared, every array index
//     is masked or reduced modulo the array's size;
//   - struct fields are all written before the struct is read.
// Each group's entry returns a value that depends on everything the group
// computed; main mixes it into the checksum `cg_sum` and prints the
// checksum after each group (so the first differing line names the group)
// and at the end.
//
// Determinism: one splitmix64 stream per purpose (the group plan, each
// group, the attributes), so switching attributes on adds attributes to the
// same program, and no library distribution (their output differs between
// standard libraries): the same options give the same bytes everywhere.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>

#include "cgen.h"

namespace pl::cgen {

namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<uint32_t>(hi - lo + 1))); }
  bool chance(uint32_t percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(static_cast<uint32_t>(v.size()))];
  }

 private:
  uint64_t state_;
};

// A stream derived from the seed and a purpose, so streams do not overlap.
Rng stream(uint64_t seed, uint64_t purpose) {
  Rng r(seed * 0xD1B54A32D192ED03ull + purpose * 0x8CB92BA72F3D8DD7ull + 1);
  r.next();
  return Rng(r.next());
}

std::string u(uint64_t v) { return std::to_string(v) + "u"; }

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08xu", v);
  return buf;
}

enum class Kind { Recursion, Loops, Pointers, Varargs, Switches, Structs, Attributes };

// Expressions and statements over u32 variables, shared by every group.
class Code {
 public:
  Code(Rng& rng, bool attributes, Rng& attr_rng) : rng_(rng), attributes_(attributes), attr_rng_(attr_rng) {}

  std::string constant() {
    switch (rng_.below(6)) {
      case 0:
        return hex32(static_cast<uint32_t>(rng_.next()));
      case 1:
        return rng_.pick(std::vector<std::string>{"0u", "1u", "0xffffffffu", "0x80000000u", "0x7fffffffu", "2u"});
      default:
        return u(rng_.below(40));
    }
  }

  std::string leaf(const std::vector<std::string>& vars) {
    if (!vars.empty() && rng_.chance(75)) return rng_.pick(vars);
    return constant();
  }

  // A u32 expression without side effects over `vars`.
  std::string expr(const std::vector<std::string>& vars, int depth) {
    if (depth <= 0 || rng_.chance(20)) return leaf(vars);
    auto e = [&] { return expr(vars, depth - 1); };
    switch (rng_.below(17)) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5: {
        static const std::vector<std::string> ops{"+", "-", "*", "^", "&", "|"};
        return "(" + e() + " " + rng_.pick(ops) + " " + e() + ")";
      }
      case 6:
        return "(" + e() + " << (" + e() + " & 31u))";
      case 7:
        return "(" + e() + " >> (" + e() + " & 31u))";
      case 8:
        return "(" + e() + " / (" + e() + " | 1u))";
      case 9:
        return "(" + e() + " % (" + e() + " | 1u))";
      case 10:
        return rng_.chance(50) ? "(~" + e() + ")" : "(-" + e() + ")";
      case 11:
        return "(" + cond(vars, depth - 1) + " ? " + e() + " : " + e() + ")";
      case 12:
        return rng_.pick(std::vector<std::string>{"(u32)(unsigned char)", "(u32)(unsigned short)", "(u32)(signed char)",
                                                  "(u32)(short)"}) +
               e();
      case 13:
        return "(u32)" + cond(vars, depth - 1);
      case 14:
        return "(u32)(((u64)" + e() + " * " + e() + ") >> 32)";
      case 15: {
        int k = rng_.between(1, 31);
        std::string x = leaf(vars);
        return "((" + x + " << " + std::to_string(k) + ") | (" + x + " >> " + std::to_string(32 - k) + "))";
      }
      default:
        if (rng_.chance(50)) return "(u32)((int)(" + e() + " >> 1) / (int)(" + e() + " | 1u))";
        return "(u32)((int)" + e() + " >> (" + e() + " & 31u))";
    }
  }

  std::string cond(const std::vector<std::string>& vars, int depth) {
    auto e = [&] { return expr(vars, std::max(depth - 1, 0)); };
    switch (rng_.below(6)) {
      case 0:
      case 1: {
        static const std::vector<std::string> ops{"<", "<=", ">", ">=", "==", "!="};
        return "(" + e() + " " + rng_.pick(ops) + " " + e() + ")";
      }
      case 2: {
        static const std::vector<std::string> ops{"<", "<=", ">", ">="};
        return "((int)" + e() + " " + rng_.pick(ops) + " (int)" + e() + ")";
      }
      case 3:
        return "((" + e() + " & " + u(1u << rng_.below(8)) + ") != 0u)";
      case 4:
        if (depth > 0)
          return "(" + cond(vars, depth - 1) + (rng_.chance(50) ? " && " : " || ") + cond(vars, depth - 1) + ")";
        return "(" + e() + " > " + constant() + ")";
      default:
        return "(!" + e() + ")";
    }
  }

  // Statements assigning to `targets` (and reading `vars`), `indent` spaces.
  std::string statements(const std::vector<std::string>& vars, const std::vector<std::string>& targets, int count,
                         int indent, int depth = 1) {
    std::string pad(indent, ' '), out;
    for (int i = 0; i < count; ++i) {
      if (depth > 0 && rng_.chance(20)) {
        out +=
            pad + "if " + cond(vars, 1) + " {\n" + statements(vars, targets, rng_.between(1, 2), indent + 2, depth - 1);
        if (rng_.chance(50)) out += pad + "} else {\n" + statements(vars, targets, 1, indent + 2, depth - 1);
        out += pad + "}\n";
        continue;
      }
      static const std::vector<std::string> ops{"=", "+=", "^=", "-=", "*=", "|="};
      out += pad + rng_.pick(targets) + " " + rng_.pick(ops) + " " + expr(vars, 3) + ";\n";
    }
    return out;
  }

  // An expression that depends on every one of `vars`.
  std::string mix_all(const std::vector<std::string>& vars) {
    std::string out;
    for (size_t i = 0; i < vars.size(); ++i) {
      if (i == 0)
        out = vars[0];
      else
        out = "(" + out + " * " + u(2 * rng_.below(1000) + 3) + " ^ " + vars[i] + ")";
    }
    return out.empty() ? "0u" : out;
  }

  // Attributes (when switched on) for a function or data definition; they
  // never change what the program computes.
  std::string fn_hint() {
    if (!attributes_) return "";
    return attr_rng_.pick(std::vector<std::string>{"", "", "__attribute__((noinline)) ", "__attribute__((cold)) ",
                                                   "__attribute__((hot)) ", "__attribute__((noclone, noinline)) ",
                                                   "__attribute__((used)) ", "__attribute__((unused)) "});
  }
  std::string data_align() {
    if (!attributes_ || !attr_rng_.chance(50)) return "";
    return " __attribute__((aligned(" + std::to_string(8 << attr_rng_.below(4)) + ")))";
  }

  Rng& rng() { return rng_; }
  bool attributes() const { return attributes_; }

 private:
  Rng& rng_;
  bool attributes_;
  Rng& attr_rng_;
};

// One group: its definitions and its entry `u32 NAME(u32 a, u32 b)`.
class Group {
 public:
  Group(std::string name, Code& code, bool indirect_variadic)
      : n_(std::move(name)), c_(code), r_(code.rng()), indirect_variadic_(indirect_variadic) {}

  std::string recursion();
  std::string loops();
  std::string pointers();
  std::string varargs();
  std::string switches();
  std::string structs();
  std::string attributes();

 private:
  std::string fn(const std::string& suffix) const { return n_ + "_" + suffix; }
  std::string entry_head() const { return "u32 " + n_ + "(u32 a, u32 b)"; }
  std::string depth_arg(int bound, const std::vector<std::string>& vars);
  std::string recursive_function(int index, std::string& call);
  std::string loop(int index, std::vector<std::string>& vars, const std::vector<std::string>& targets);
  std::string switch_function(int index);
  std::string struct_type(int index, std::vector<std::string>& types, std::string& defs);
  std::string small_structs(std::string out);

  std::string n_;
  Code& c_;
  Rng& r_;
  bool indirect_variadic_;
};

// `(int)(EXPR % (bound + 1))`, sometimes shifted below zero.
std::string Group::depth_arg(int bound, const std::vector<std::string>& vars) {
  std::string e = "(int)(" + c_.expr(vars, 2) + " % " + u(bound + 1) + ")";
  if (r_.chance(25)) e += " - " + std::to_string(r_.between(1, 3));
  return e;
}

// One recursive function (or a mutual pair) of a random form; `call` gets an
// expression calling it with arguments from a and b.
std::string Group::recursive_function(int index, std::string& call) {
  std::string f = fn("r" + std::to_string(index));
  std::vector<std::string> ab{"a", "b"};
  std::vector<std::string> xn{"x", "(u32)n"};
  static const std::vector<std::string> ops{"+", "^", "*", "-", "|"};
  std::string op = r_.pick(ops);
  int base = r_.between(-1, 3);
  std::string le = r_.chance(50) ? " <= " : " < ";
  std::string step = r_.chance(75) ? "1" : "2";
  std::string hint = c_.fn_hint();
  std::string out;
  switch (r_.below(11)) {
    case 0:  // non-tail, ?: (the returned value is a phi of the base value and the combination)
      out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  return n" + le + std::to_string(base) + " ? " +
            c_.expr({"x"}, 2) + " : " + c_.expr(xn, 2) + " " + op + " " + f + "(n - " + step + ", " + c_.expr(xn, 2) +
            ");\n}\n";
      call = f + "(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    case 1: {  // non-tail, if/else forms
      std::string b = c_.expr({"x"}, 2), comb = c_.expr(xn, 2), next = c_.expr(xn, 2);
      switch (r_.below(3)) {
        case 0:
          out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  if (n" + le + std::to_string(base) +
                ")\n    return " + b + ";\n  return " + comb + " " + op + " " + f + "(n - " + step + ", " + next +
                ");\n}\n";
          break;
        case 1:
          out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  if (n > " + std::to_string(base) +
                ") {\n    u32 t = " + f + "(n - " + step + ", " + next + ");\n    return " + comb + " " + op +
                " t;\n  } else {\n    return " + b + ";\n  }\n}\n";
          break;
        default:
          out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  u32 r;\n  if (n" + le + std::to_string(base) +
                ")\n    r = " + b + ";\n  else\n    r = " + f + "(n - " + step + ", " + next + ") " + op + " " + comb +
                ";\n  return r;\n}\n";
      }
      call = f + "(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 2: {  // tail recursion with an accumulator, if and ?: forms
      std::string acc = c_.expr({"acc", "(u32)n", "k"}, 2);
      if (r_.chance(50))
        out = "static " + hint + "u32 " + f + "(int n, u32 acc, u32 k) {\n  if (n" + le + std::to_string(base) +
              ")\n    return acc " + op + " k;\n  return " + f + "(n - " + step + ", " + acc + ", k);\n}\n";
      else
        out = "static " + hint + "u32 " + f + "(int n, u32 acc, u32 k) {\n  return n" + le + std::to_string(base) +
              " ? acc : " + f + "(n - " + step + ", " + acc + ", k + 1u);\n}\n";
      call = f + "(" + depth_arg(60, ab) + ", " + c_.expr(ab, 2) + ", " + c_.expr(ab, 1) + ")";
      break;
    }
    case 3: {  // several base cases, two recursive calls
      std::string b0 = c_.expr({"x"}, 1), b1 = c_.expr({"x"}, 2), b2 = c_.constant();
      if (r_.chance(50))
        out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  if (n <= 0)\n    return " + b0 +
              ";\n  if (n == 1)\n    return " + b1 + ";\n  if (n == 2)\n    return x " + op + " " + b2 +
              ";\n  return " + f + "(n - 1, x) " + op + " " + f + "(n - 2, " + c_.expr(xn, 1) + ");\n}\n";
      else
        out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  switch (n) {\n  case 0:\n    return " + b0 +
              ";\n  case 1:\n    return " + b1 + ";\n  default:\n    if (n < 0)\n      return " + b2 +
              ";\n  }\n  return " + f + "(n - 2, x) " + op + " " + f + "(n - 1, " + c_.expr(xn, 1) + ");\n}\n";
      call = f + "(" + depth_arg(12, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 4: {  // mutual recursion
      std::string g = f + "_odd";
      out = "static u32 " + g + "(int n, u32 x);\n";
      out += "static " + hint + "u32 " + f + "(int n, u32 x) {\n  return n" + le + std::to_string(base) + " ? " +
             c_.expr({"x"}, 2) + " : " + c_.expr(xn, 2) + " " + op + " " + g + "(n - 1, " + c_.expr(xn, 2) + ");\n}\n";
      out += "static u32 " + g + "(int n, u32 x) {\n  if (n <= " + std::to_string(base) + ")\n    return " +
             c_.expr({"x"}, 1) + ";\n  return " + f + "(n - " + step + ", " + c_.expr(xn, 2) + ") " + r_.pick(ops) +
             " " + c_.expr(xn, 1) + ";\n}\n";
      call = f + "(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 5: {  // signed recursion whose values stay small: n + f(n - 1), n * f(n - 1)
      int k = r_.between(-9, 9);
      bool mul = r_.chance(30);
      std::string sop = mul ? "*" : r_.pick(std::vector<std::string>{"+", "-"});
      int bound = mul ? 10 : 60;
      if (r_.chance(50))
        out = "static " + hint + "int " + f + "(int n) {\n  return n" + le + std::to_string(base) + " ? " +
              std::to_string(k) + " : n " + sop + " " + f + "(n - " + step + ");\n}\n";
      else
        out = "static " + hint + "int " + f + "(int n) {\n  if (n > " + std::to_string(base) + ")\n    return " + f +
              "(n - " + step + ") " + sop + " n;\n  return " + std::to_string(k) + ";\n}\n";
      call = "(u32)" + f + "(" + depth_arg(bound, ab) + ")";
      break;
    }
    case 6: {  // work before and after the call, through a pointer
      out = "static " + hint + "void " + f + "(int n, u32 *p) {\n  if (n <= " + std::to_string(base) +
            ")\n    return;\n  *p = " + c_.expr({"*p", "(u32)n"}, 2) + ";\n  " + f + "(n - " + step + ", p);\n  *p " +
            op + "= " + c_.expr({"*p", "(u32)n"}, 1) + ";\n}\n";
      out += "static u32 " + f + "_run(int n, u32 x) {\n  u32 cell = x;\n  " + f + "(n, &cell);\n  return cell;\n}\n";
      call = f + "_run(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 7: {  // divide and conquer over an array
      out = "static " + hint + "u32 " + f +
            "(const u32 *v, int lo, int hi) {\n  if (hi - lo <= 1)\n    return hi > lo ? v[lo] : " + c_.constant() +
            ";\n  int mid = lo + (hi - lo) / 2;\n  return " + f + "(v, lo, mid) " + r_.pick(ops) + " " + f +
            "(v, mid, hi) * " + u(2 * r_.below(50) + 3) + ";\n}\n";
      out += "static u32 " + f + "_run(u32 x, u32 y) {\n  u32 v[16];\n  for (int i = 0; i < 16; i++)\n    v[i] = " +
             c_.expr({"x", "y", "(u32)i"}, 2) + ";\n  return " + f + "(v, (int)(x % 5u), 16 - (int)(y % 7u));\n}\n";
      call = f + "_run(" + c_.expr(ab, 2) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 9: {  // several recursive call sites, tail and not, picked by a switch
      out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  if (n" + le + std::to_string(base) + ")\n    return " +
            c_.expr({"x"}, 1) + ";\n  switch (n % 3) {\n  case 0:\n    return " + f + "(n - 1, " + c_.expr(xn, 2) +
            ");\n  case 1:\n    return " + f + "(n - 2, " + c_.expr(xn, 1) + ") " + op + " " + c_.expr(xn, 1) +
            ";\n  default:\n    return " + c_.expr(xn, 2) + " " + r_.pick(ops) + " " + f + "(n - 1, x);\n  }\n}\n";
      call = f + "(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    case 10: {  // a struct passed and returned by value through the recursion
      std::string st = "struct " + f + "_s";
      std::vector<std::string> sv{"s.a", "s.b[0]", "s.b[1]", "s.b[2]", "(u32)n"};
      out = st + " {\n  u32 a;\n  u32 b[3];\n  unsigned char c;\n};\n";
      out += "static " + hint + st + " " + f + "(int n, " + st + " s) {\n  if (n <= " + std::to_string(base) +
             ")\n    return s;\n  s.a = " + c_.expr(sv, 2) + ";\n  s.b[n % 3] ^= s.a;\n  s.c += (unsigned char)n;\n  " +
             st + " r = " + f + "(n - " + step + ", s);\n  r.b[0] " + op + "= " + c_.expr({"r.a", "s.a", "(u32)n"}, 1) +
             ";\n  return r;\n}\n";
      out += "static u32 " + f + "_run(int n, u32 x) {\n  " + st +
             " s;\n  s.a = x;\n  s.b[0] = x * 3u;\n  s.b[1] = " + c_.constant() +
             ";\n  s.b[2] = ~x;\n  s.c = (unsigned char)x;\n  " + st + " r = " + f +
             "(n, s);\n  return r.a ^ r.b[0] ^ r.b[1] * 5u ^ r.b[2] * 9u ^ r.c ^ s.a;\n}\n";
      call = f + "_run(" + depth_arg(30, ab) + ", " + c_.expr(ab, 2) + ")";
      break;
    }
    default: {  // recursion with the work after the call on a local
      out = "static " + hint + "u32 " + f + "(int n, u32 x) {\n  u32 r = " + c_.expr({"x"}, 1) + ";\n  if (n > " +
            std::to_string(base) + ") {\n    r = " + f + "(n - " + step + ", " + c_.expr(xn, 2) + ");\n    r " + op +
            "= " + c_.expr({"x", "r", "(u32)n"}, 2) + ";\n  }\n  return r;\n}\n";
      call = f + "(" + depth_arg(40, ab) + ", " + c_.expr(ab, 2) + ")";
    }
  }
  return out;
}

std::string Group::recursion() {
  std::string out, body;
  int count = r_.between(1, 3);
  for (int i = 0; i < count; ++i) {
    std::string call;
    out += recursive_function(i, call);
    body += "  r = r * " + u(2 * r_.below(500) + 3) + " ^ " + call + ";\n";
  }
  return out + entry_head() + " {\n  u32 r = " + c_.constant() + ";\n" + body + "  return r;\n}\n";
}

// One loop statement of a random form, at 2 spaces; may declare locals.
std::string Group::loop(int index, std::vector<std::string>& vars, const std::vector<std::string>& targets) {
  std::string k = std::to_string(index), i = "i" + k, n = "n" + k;
  std::vector<std::string> inner = vars;
  inner.push_back(i);
  auto body = [&](int indent) {
    std::string pad(indent, ' ');
    std::string out = c_.statements(inner, targets, r_.between(1, 3), indent);
    if (r_.chance(35)) out += pad + "if " + c_.cond(inner, 1) + "\n" + pad + "  break;\n";
    if (r_.chance(25)) out = pad + "if " + c_.cond(inner, 1) + "\n" + pad + "  continue;\n" + out;
    return out;
  };
  std::string trip = "  u32 " + n + " = " + c_.expr(vars, 2) + " % " + u(r_.between(2, 48)) + ";\n";
  switch (r_.below(14)) {
    case 0:
      return trip + "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++) {\n" + body(4) + "  }\n";
    case 1:
      return "  for (int " + i + "_s = (int)(" + c_.expr(vars, 2) + " % 33u); " + i + "_s >= 0; " + i +
             "_s -= " + std::to_string(r_.between(1, 3)) + ") {\n    u32 " + i + " = (u32)" + i + "_s;\n" + body(4) +
             "  }\n";
    case 2:
      return trip + "  u32 " + i + " = 0u;\n  while (" + i + " < " + n + ") {\n    " + i +
             " += " + u(r_.between(1, 3)) + ";\n" + body(4) + "  }\n";
    case 3:
      return trip + "  u32 " + i + " = " + n + ";\n  do {\n" + body(4) + "  } while (" + i + "-- > 0u);\n";
    case 4: {
      std::string lo = n + "_lo", hi = n + "_hi", st = n + "_st";
      return "  u32 " + lo + " = " + c_.expr(vars, 2) + " % 8u;\n  u32 " + hi + " = " + lo + " + " + c_.expr(vars, 2) +
             " % 40u;\n  u32 " + st + " = " + c_.expr(vars, 1) + " % 4u + 1u;\n  for (u32 " + i + " = " + lo + "; " +
             i + " < " + hi + "; " + i + " += " + st + ") {\n" + body(4) + "  }\n";
    }
    case 5: {  // an early return from inside the loop
      std::string out = trip + "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++) {\n" + body(4);
      out += "    if " + c_.cond(inner, 1) + "\n      return " + c_.mix_all(inner) + ";\n  }\n";
      return out;
    }
    case 6: {  // a local array filled and read with computed indices
      std::string arr = "arr" + k;
      int size = r_.between(3, 12);
      std::string out = "  u32 " + arr + "[" + std::to_string(size) + "];\n  for (u32 " + i + " = 0u; " + i + " < " +
                        u(size) + "; " + i + "++)\n    " + arr + "[" + i + "] = " + c_.expr(inner, 2) + ";\n";
      out += trip + "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++) {\n";
      out += "    " + r_.pick(targets) + " ^= " + arr + "[(" + c_.expr(inner, 2) + ") % " + u(size) + "];\n";
      out += "    " + arr + "[" + i + " % " + u(size) + "] += " + c_.expr(inner, 1) + ";\n" + body(4) + "  }\n";
      vars.push_back(arr + "[" + std::to_string(r_.below(size)) + "]");
      return out;
    }
    case 8: {  // a clearing or copying loop (loop-idiom's memset) over a computed length, then a read
      std::string arr = "buf" + k, src = "src" + k;
      int size = r_.between(8, 40);
      std::string out = "  unsigned char " + arr + "[" + std::to_string(size) + "];\n  u32 " + src + "[" +
                        std::to_string(size) + "];\n  for (u32 " + i + " = 0u; " + i + " < " + u(size) + "; " + i +
                        "++) {\n    " + arr + "[" + i + "] = (unsigned char)" + c_.expr(inner, 2) + ";\n    " + src +
                        "[" + i + "] = " + c_.expr(inner, 2) + ";\n  }\n";
      out += "  u32 " + n + " = " + c_.expr(vars, 2) + " % " + u(size + 1) + ";\n";
      std::string fill = r_.chance(50) ? "0" : std::to_string(r_.below(256));
      out += "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++)\n    " + arr + "[" + i + "] = " + fill +
             ";\n";
      out += "  u32 " + n + "_c = " + c_.expr(vars, 1) + " % " + u(size) + ";\n  for (u32 " + i + " = " + n + "_c; " +
             i + " < " + u(size) + "; " + i + "++)\n    " + src + "[" + i + " - " + n + "_c] = " + src + "[" + i +
             "];\n";
      out += "  for (u32 " + i + " = 0u; " + i + " < " + u(size) + "; " + i + "++)\n    " + r_.pick(targets) + " = " +
             r_.pick(targets) + " * 31u + " + arr + "[" + i + "] + " + src + "[" + i + "];\n";
      return out;
    }
    case 9: {  // a constant trip count (full unrolling), with a constant or computed step
      std::string out = "  for (u32 " + i + " = " + u(r_.below(3)) + "; " + i + " < " + u(r_.between(2, 9)) + "; " + i +
                        " += " + u(r_.between(1, 2)) + ") {\n" + c_.statements(inner, targets, r_.between(1, 2), 4, 0) +
                        "  }\n";
      return out;
    }
    case 10: {  // calls in the loop that read and write the group's global state (licm, const-call, inline)
      std::string out = trip + "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++) {\n";
      out += "    " + r_.pick(targets) + " += " + fn("peek") + "(" + c_.expr(inner, 1) + ");\n";
      out += "    if " + c_.cond(inner, 1) + "\n      " + fn("poke") + "(" + c_.expr(inner, 2) + ");\n";
      out += "    " + r_.pick(targets) + " ^= " + fn("peek") + "(" + i + ") + " + fn("state") + ";\n  }\n";
      return out;
    }
    // The bounds are computed before the loop: the body changes the variables.
    case 11:  // a narrow induction variable that wraps around (at most 255 trips)
      return "  unsigned char " + n + "_end = (unsigned char)" + c_.expr(vars, 2) + ";\n  for (unsigned char " + i +
             "_c = (unsigned char)" + c_.expr(vars, 2) + "; " + i + "_c != " + n + "_end; " + i + "_c" +
             (r_.chance(50) ? "++" : "--") + ") {\n    u32 " + i + " = " + i + "_c;\n" + body(4) + "  }\n";
    case 12:  // signed bounds on both sides of zero, inclusive
      return "  int " + n + "_end = (int)(" + c_.expr(vars, 2) + " % 20u);\n  for (int " + i + "_s = -(int)(" +
             c_.expr(vars, 2) + " % 20u); " + i + "_s <= " + n + "_end; " + i +
             "_s += " + std::to_string(r_.between(1, 4)) + ") {\n    u32 " + i + " = (u32)" + i + "_s;\n" + body(4) +
             "  }\n";
    case 13:  // while (n--)
      return trip + "  while (" + n + "--) {\n    u32 " + i + " = " + n + ";\n" + body(4) + "  }\n";
    default: {  // nested loops left by goto
      std::string j = "j" + k;
      std::vector<std::string> both = inner;
      both.push_back(j);
      std::string out = trip + "  for (u32 " + i + " = 0u; " + i + " < " + n + "; " + i + "++) {\n    for (u32 " + j +
                        " = " + i + "; " + j + " < " + u(r_.between(4, 12)) + "; " + j + "++) {\n";
      out += c_.statements(both, targets, r_.between(1, 2), 6);
      out += "      if " + c_.cond(both, 1) + "\n        goto out" + k + ";\n";
      if (r_.chance(40)) out += "      if " + c_.cond(both, 1) + "\n        break;\n";
      out += "    }\n" + body(4) + "  }\nout" + k + ":;\n";
      return out;
    }
  }
}

std::string Group::loops() {
  std::vector<std::string> targets{"v0", "v1", "v2"};
  std::vector<std::string> vars{"a", "b", "v0", "v1", "v2"};
  std::string body;
  for (const std::string& t : targets) body += "  u32 " + t + " = " + c_.expr({"a", "b"}, 2) + ";\n";
  int count = r_.between(2, 4);
  for (int i = 0; i < count; ++i) body += loop(i, vars, targets);
  std::string helper = fn("loops"), state = fn("state");
  std::string globals = "static u32 " + state + " = " + c_.constant() + ";\nstatic u32 " + fn("peek") +
                        "(u32 x) {\n  return " + state + " * 7u ^ x;\n}\nstatic void " + fn("poke") + "(u32 v) {\n  " +
                        state + " = " + state + " * 5u + v;\n}\n";
  vars.push_back(state);
  return globals + "static " + c_.fn_hint() + "u32 " + helper + "(u32 a, u32 b) {\n" + body + "  return " +
         c_.mix_all(vars) + ";\n}\n" + entry_head() + " {\n  u32 first = " + helper + "(a, b);\n  return first ^ " +
         helper + "(b, a + " + u(r_.below(100)) + ");\n}\n";  // two statements: both calls change the state
}

std::string Group::pointers() {
  std::string out;
  std::vector<std::string> fs;
  int count = r_.between(2, 5);
  for (int i = 0; i < count; ++i) {
    fs.push_back(fn("f" + std::to_string(i)));
    out += "static " + c_.fn_hint() + "u32 " + fs.back() + "(u32 x, u32 y) {\n  return " + c_.expr({"x", "y"}, 3) +
           ";\n}\n";
  }
  std::string table = fn("table"), apply = fn("apply"), pick = fn("pick"), op = fn("op");
  out += "static cg_fn2 const " + table + "[" + std::to_string(count) + "] = {";
  for (int i = 0; i < count; ++i) out += (i ? ", " : "") + fs[i];
  out += "};\n";
  out +=
      "static u32 " + apply + "(cg_fn2 f, u32 x, int n) {\n  while (n-- > 0)\n    x = f(x, (u32)n);\n  return x;\n}\n";
  out += "static cg_fn2 " + pick + "(u32 k) {\n  switch (k % " + u(count) + ") {\n";
  for (int i = 0; i < count; ++i) out += "  case " + u(i) + ":\n    return " + fs[(i + 1) % count] + ";\n";
  out += "  }\n  return " + fs[0] + ";\n}\n";
  out += "static u32 " + fn("rec") + "(cg_fn2 f, int n, u32 x) {\n  return n <= 0 ? x : f(" + fn("rec") +
         "(f, n - 1, x), (u32)n);\n}\n";
  out += "struct " + op + " {\n  cg_fn2 fn;\n  u32 k;\n};\n";
  std::vector<std::string> vars{"a", "b", "r"};
  out += entry_head() + " {\n  u32 r = " + c_.expr({"a", "b"}, 2) + ";\n";
  out += "  for (u32 i = 0u; i < " + c_.expr({"a", "b"}, 1) + " % 24u; i++)\n    r = " + table + "[(r ^ i) % " +
         u(count) + "](r, " + c_.expr({"a", "b", "i"}, 2) + ");\n";
  out += "  r ^= " + apply + "(" + pick + "(" + c_.expr(vars, 2) + "), " + c_.expr(vars, 2) + ", (int)(" +
         c_.expr(vars, 1) + " % 12u));\n";
  out += "  cg_fn2 p = " + c_.cond(vars, 1) + " ? " + r_.pick(fs) + " : " + r_.pick(fs) + ";\n";
  out += "  r += p(" + c_.expr(vars, 2) + ", " + c_.expr(vars, 2) + ");\n";
  out += "  struct " + op + " ops[3];\n";
  for (int i = 0; i < 3; ++i)
    out += "  ops[" + std::to_string(i) + "].fn = " + r_.pick(fs) + ";\n  ops[" + std::to_string(i) +
           "].k = " + c_.expr(vars, 1) + ";\n";
  out += "  struct " + op + " chosen = ops[" + c_.expr(vars, 1) + " % 3u];\n";
  out += "  for (int i = 0; i < 3; i++)\n    r = ops[i].fn(r, ops[i].k) ^ chosen.fn(ops[i].k, r);\n";
  out += "  r ^= " + fn("rec") + "(" + table + "[" + c_.expr(vars, 1) + " % " + u(count) + "], (int)(" +
         c_.expr(vars, 1) + " % 20u), r);\n";
  out += "  cg_fn2 *slot = &ops[1].fn;\n  *slot = " + pick + "(r);\n  r = r * 7u + ops[1].fn(a, b);\n";
  out += "  return r;\n}\n";
  return out;
}

std::string Group::varargs() {
  std::string inner = fn("vinner"), outer = fn("vouter"), twice = fn("vtwice"), sum = fn("vsum"), fmt = fn("vfmt");
  std::string out;
  out += "static u64 " + inner + "(const char *fmt, va_list ap) {\n  u64 h = " + u(r_.below(1000)) + ";\n";
  out += "  for (; *fmt; fmt++) {\n    switch (*fmt) {\n";
  out += "    case 'i':\n      h = h * 31u + (u64)(u32)va_arg(ap, int);\n      break;\n";
  out += "    case 'u':\n      h = h * 37u + va_arg(ap, u32);\n      break;\n";
  out += "    case 'l':\n      h = h * 41u + va_arg(ap, u64);\n      break;\n";
  out += "    case 'p':\n      h = h * 43u + *va_arg(ap, u32 *);\n      break;\n";
  out += "    case 'c':\n      h = h * 47u + (unsigned char)va_arg(ap, int);\n      break;\n";
  out +=
      "    case 's': {\n      const char *s = va_arg(ap, const char *);\n      while (*s)\n        h = h * 131u + "
      "(unsigned char)*s++;\n      break;\n    }\n";
  out += "    }\n  }\n  return h;\n}\n";
  out += "static u64 " + outer + "(const char *fmt, ...) {\n  va_list ap;\n  va_start(ap, fmt);\n  u64 h = " + inner +
         "(fmt, ap);\n  va_end(ap);\n  return h;\n}\n";
  out += "static u64 " + twice +
         "(const char *fmt, ...) {\n  va_list ap, again;\n  va_start(ap, fmt);\n  va_copy(again, ap);\n"
         "  u64 h = " +
         inner + "(fmt, ap);\n  h ^= " + inner +
         "(fmt, again) << 1;\n  va_end(again);\n  va_end(ap);\n  return h;\n}\n";
  out += "static u32 " + sum + "(int n, ...) {\n  va_list ap;\n  va_start(ap, n);\n  u32 s = " + c_.constant() +
         ";\n  for (int i = 0; i < n; i++)\n    s = s * " + u(2 * r_.below(100) + 3) +
         " + va_arg(ap, u32);\n  va_end(ap);\n  return s;\n}\n";
  out += "static u32 " + fmt +
         "(const char *fmt, ...) {\n  char buf[128];\n  va_list ap;\n  va_start(ap, fmt);\n"
         "  int len = vsnprintf(buf, sizeof buf, fmt, ap);\n  va_end(ap);\n  u32 h = (u32)len;\n"
         "  for (int i = 0; buf[i]; i++)\n    h = h * 33u + (unsigned char)buf[i];\n  return h;\n}\n";
  std::vector<std::string> vars{"a", "b", "cell"};
  // A format and its arguments; up to 10 arguments, so some pass on the stack.
  auto call_args = [&](std::string& spec) {
    std::string args;
    int count = r_.between(1, 10);
    for (int i = 0; i < count; ++i) {
      char kind = "iulpcs"[r_.below(6)];
      spec += kind;
      switch (kind) {
        case 'i':
          args += ", (int)" + c_.expr(vars, 2);
          break;
        case 'u':
          args += ", " + c_.expr(vars, 2);
          break;
        case 'l':
          args += ", (u64)" + c_.expr(vars, 2) + " << " + std::to_string(r_.below(33));
          break;
        case 'p':
          args += ", &cell";
          break;
        case 'c':
          args += ", (char)" + c_.expr(vars, 1);
          break;
        default:
          args += ", \"" + std::string(1, static_cast<char>('a' + r_.below(26))) + "x" + std::to_string(r_.below(99)) +
                  "\"";
      }
    }
    return args;
  };
  out += entry_head() + " {\n  u32 cell = " + c_.expr({"a", "b"}, 2) + ";\n";
  std::string spec;
  std::string args = call_args(spec);
  out += "  u64 h = " + outer + "(\"" + spec + "\"" + args + ");\n";
  std::string which = c_.cond(vars, 1);
  spec.clear();
  args = call_args(spec);
  if (indirect_variadic_)
    out += "  u64 (*vp)(const char *, ...) = " + which + " ? " + outer + " : " + twice + ";\n  h ^= vp(\"" + spec +
           "\"" + args + ");\n";
  else
    out += "  if " + which + "\n    h ^= " + outer + "(\"" + spec + "\"" + args + ");\n  else\n    h ^= " + twice +
           "(\"" + spec + "\"" + args + ");\n";
  spec.clear();
  args = call_args(spec);
  out += "  h += " + twice + "(\"" + spec + "\"" + args + ");\n";
  int count = r_.between(0, 9);
  out += "  h = h * 3u + " + sum + "(" + std::to_string(count);
  for (int i = 0; i < count; ++i) out += ", " + c_.expr(vars, 2);
  out += ");\n";
  if (indirect_variadic_)
    out += "  u32 (*vs)(int, ...) = " + sum + ";\n  h ^= vs(3, a, b, cell);\n";
  else
    out += "  h ^= " + sum + "(3, a, b, cell);\n";
  out += "  h ^= " + fmt + "(\"%u:%x:%d:%llu:%s:%c\", " + c_.expr(vars, 2) + ", " + c_.expr(vars, 2) + ", (int)" +
         c_.expr(vars, 2) + ", (u64)" + c_.expr(vars, 2) + " * 977u, \"z" + std::to_string(r_.below(9)) +
         "\", 'A' + (int)(" + c_.expr(vars, 1) + " % 26u));\n";
  out += "  return (u32)h ^ (u32)(h >> 32) ^ cell;\n}\n";
  return out;
}

std::string Group::switch_function(int index) {
  std::string f = fn("s" + std::to_string(index));
  std::vector<std::string> vars{"x", "y", "r"};
  std::vector<std::string> targets{"r"};
  std::string out, selector, head;
  std::vector<std::string> labels;
  int cases = r_.between(2, 10);
  switch (r_.below(4)) {
    case 0:  // dense
      selector = "x % " + u(cases + r_.below(3));
      for (int i = 0; i < cases; ++i) labels.push_back(u(i));
      break;
    case 1: {  // sparse, through a key table
      std::vector<uint32_t> keys;
      for (int i = 0; i < cases; ++i)
        keys.push_back(r_.chance(50) ? r_.below(2000) * 7 : static_cast<uint32_t>(r_.next()));
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      for (uint32_t k : keys) labels.push_back(hex32(k));
      head = "  static const u32 keys[" + std::to_string(keys.size() + 1) + "] = {";
      for (size_t i = 0; i < keys.size(); ++i) head += hex32(keys[i]) + ", ";
      head += "12345u};\n";
      selector = "keys[x % " + u(keys.size() + 1) + "]";
      break;
    }
    case 2: {  // signed, with negative cases
      selector = "(int)(x % " + u(2 * cases + 1) + ") - " + std::to_string(cases);
      for (int i = -cases; i <= cases; i += r_.between(1, 2)) labels.push_back(std::to_string(i));
      break;
    }
    default:  // characters
      selector = "(unsigned char)(x % 64u + 32u)";
      for (int i = 0; i < cases; ++i) {
        char ch = static_cast<char>(40 + r_.below(80));
        if (ch == '\\' || ch == '\'') ch = 'q';
        std::string lit = "'" + std::string(1, ch) + "'";
        if (std::find(labels.begin(), labels.end(), lit) == labels.end()) labels.push_back(lit);
      }
  }
  bool in_loop = r_.chance(40);
  std::string pad = in_loop ? "    " : "  ";
  out = "static " + c_.fn_hint() + "u32 " + f + "(u32 x, u32 y) {\n" + head + "  u32 r = " + c_.expr({"x", "y"}, 2) +
        ";\n";
  if (in_loop) out += "  for (u32 k = 0u; k < 4u; k++, x = x * 5u + y) {\n";
  out += pad + "switch (" + selector + ") {\n";
  size_t default_at = r_.below(static_cast<uint32_t>(labels.size() + 1));
  bool nested_done = false;
  for (size_t i = 0; i <= labels.size(); ++i) {
    if (i == default_at)
      out += pad + "default:\n" + c_.statements(vars, targets, 1, pad.size() + 2, 0) + pad + "  break;\n";
    if (i == labels.size()) break;
    out += pad + "case " + labels[i] + ":\n";
    switch (r_.below(6)) {
      case 0:  // shares the next label's code
        if (i + 1 == labels.size() && default_at != labels.size()) out += pad + "  break;\n";
        break;
      case 1:
        out += c_.statements(vars, targets, 1, pad.size() + 2, 0);
        break;  // falls through
      case 2:
        out += pad + "  return " + c_.expr(vars, 2) + ";\n";
        break;
      case 3:
        if (in_loop) {
          out += c_.statements(vars, targets, 1, pad.size() + 2, 0) + pad + "  continue;\n";
          break;
        }
        [[fallthrough]];
      case 4:
        if (!nested_done) {
          nested_done = true;
          out += pad + "  switch (y % 3u) {\n" + pad + "  case 0u:\n" +
                 c_.statements(vars, targets, 1, pad.size() + 4, 0) + pad + "    break;\n" + pad + "  case 2u:\n" +
                 c_.statements(vars, targets, 1, pad.size() + 4, 0) + pad + "  }\n" + pad + "  break;\n";
          break;
        }
        [[fallthrough]];
      default:
        out += pad + "  {\n" + pad + "    u32 t = " + c_.expr(vars, 2) + ";\n" + pad + "    r ^= t;\n" + pad + "  }\n" +
               pad + "  break;\n";
    }
  }
  out += pad + "}\n";
  if (in_loop) out += "    r = r * 3u + " + c_.expr(vars, 1) + ";\n  }\n";
  out += "  return r;\n}\n";
  return out;
}

std::string Group::switches() {
  std::string out, body;
  int count = r_.between(1, 3);
  for (int i = 0; i < count; ++i) {
    out += switch_function(i);
    body += "    r = r * " + u(2 * r_.below(100) + 3) + " + " + fn("s" + std::to_string(i)) + "(" +
            c_.expr({"a", "b", "i", "r"}, 2) + ", " + c_.expr({"a", "b", "i", "r"}, 1) + ");\n";
  }
  return out + entry_head() + " {\n  u32 r = " + c_.constant() + ";\n  for (u32 i = 0u; i < 12u; i++) {\n" + body +
         "  }\n  return r;\n}\n";
}

// A struct type (fields of scalars, arrays, earlier structs); its fill and
// hash functions go to `defs`.
std::string Group::struct_type(int index, std::vector<std::string>& types, std::string& defs) {
  std::string name = fn("t" + std::to_string(index));
  std::string fill = "static void " + name + "_fill(struct " + name + " *p, u32 s) {\n";
  std::string hash =
      "static u32 " + name + "_hash(const struct " + name + " *p) {\n  u32 h = " + u(r_.below(100)) + ";\n";
  std::string decl = "struct " + name + " {\n";
  int fields = r_.between(2, 5);
  for (int i = 0; i < fields; ++i) {
    std::string f = "m" + std::to_string(i);
    std::string array = r_.chance(30) ? std::to_string(r_.between(1, 4)) : "";
    std::string type;
    bool nested = !types.empty() && r_.chance(45);
    if (nested)
      type = "struct " + r_.pick(types);
    else
      type = r_.pick(
          std::vector<std::string>{"u32", "u64", "unsigned char", "unsigned short", "signed char", "short", "int"});
    decl += "  " + type + " " + f + (array.empty() ? "" : "[" + array + "]") + ";\n";
    std::string mult = u(2 * r_.below(60) + 3);
    auto one = [&](const std::string& lv, const std::string& seed) {
      if (nested) {
        std::string t = type.substr(7);
        fill += "  " + t + "_fill(&" + lv + ", " + seed + ");\n";
        hash += "  h = h * " + mult + " + " + t + "_hash(&" + lv + ");\n";
      } else {
        fill += "  " + lv + " = (" + type + ")" + seed + ";\n";
        hash += "  h = h * " + mult + " + (u32)" + lv + ";\n";
      }
    };
    std::string seed = "(s * " + u(2 * r_.below(1000) + 1) + " + " + u(i) + ")";
    if (array.empty())
      one("p->" + f, seed);
    else
      for (int k = 0; k < std::stoi(array); ++k)
        one("p->" + f + "[" + std::to_string(k) + "]", "(" + seed + " ^ " + u(k * 77) + ")");
  }
  types.push_back(name);
  defs += decl + "};\n" + fill + "}\n" + hash + "  return h;\n}\n";
  return name;
}

std::string Group::structs() {
  std::string defs;
  std::vector<std::string> types;
  int count = r_.between(2, 4);
  std::string t;
  for (int i = 0; i < count; ++i) t = struct_type(i, types, defs);
  std::string st = "struct " + t, make = fn("make"), byval = fn("byval"), glob = fn("glob"), hash = t + "_hash";
  defs += "static " + st + " " + make + "(u32 s) {\n  " + st + " v;\n  " + t + "_fill(&v, s);\n  return v;\n}\n";
  defs +=
      "static u32 " + byval + "(" + st + " v, u32 k) {\n  " + t + "_fill(&v, k);\n  return " + hash + "(&v) ^ k;\n}\n";
  defs += "static " + st + c_.data_align() + " " + glob + ";\n";
  std::vector<std::string> vars{"a", "b", "h"};
  std::string out = defs + entry_head() + " {\n  u32 h = " + c_.expr({"a", "b"}, 1) + ";\n";
  out += "  " + st + " x = " + make + "(" + c_.expr(vars, 2) + ");\n";
  out += "  " + st + " y = x;\n";
  // Change y through its deepest members; x must keep its value.
  std::string inner = types.size() > 1 ? types[r_.below(static_cast<uint32_t>(types.size() - 1))] : "";
  out += "  " + t + "_fill(&y, " + c_.expr(vars, 2) + ");\n";
  out += "  h = h * 31u + " + hash + "(&x) + " + hash + "(&y) * 3u;\n";
  out += "  " + st + " arr[3];\n  arr[0] = x;\n  arr[1] = y;\n  arr[2] = " + make + "(h);\n";
  // Never a copy onto itself (gcc copies large structs with memcpy).
  out +=
      "  u32 k = " + c_.expr(vars, 1) + " % 3u;\n  " + st + " *p = &arr[k];\n  *p = arr[(k + 1u + (a & 1u)) % 3u];\n";
  out += "  h ^= " + byval + "(arr[b % 3u], h) + " + hash + "(&arr[0]);\n";
  out += "  for (int i = 0; i < 3; i++)\n    h = h * 7u + " + hash + "(&arr[i]);\n";
  out += "  " + glob + " = arr[2];\n  arr[2] = x;\n  x = " + glob + ";\n";
  out += "  h += " + hash + "(&x) ^ " + hash + "(&arr[2]) ^ " + hash + "(&" + glob + ");\n";
  if (!inner.empty()) {
    out += "  struct " + inner + " part;\n  " + inner + "_fill(&part, h);\n  struct " + inner + " copy = part;\n";
    out += "  h ^= " + inner + "_hash(&copy) * 5u;\n";
  }
  return small_structs(out);
}

// A struct of at most 16 bytes (passed in one or two registers, or on the
// stack once they run out) passed and returned by value among many
// arguments; appended to the entry `out`, which ends before its return.
std::string Group::small_structs(std::string out) {
  std::string name = fn("small"), st = "struct " + name, call = fn("call");
  std::vector<std::string> types;
  bool wide = r_.chance(40);
  int count = r_.between(1, wide ? 2 : 4);
  if (wide) types.push_back("u64");
  while (static_cast<int>(types.size()) < count)
    types.push_back(
        r_.pick(std::vector<std::string>{"u32", "unsigned char", "unsigned short", "short", "signed char"}));
  if (r_.chance(50)) std::reverse(types.begin(), types.end());
  std::string decl = st + " {\n";
  for (size_t i = 0; i < types.size(); ++i) decl += "  " + types[i] + " f" + std::to_string(i) + ";\n";
  decl += "};\n";
  std::string fn_text = "static " + st + " " + call + "(u32 a0, " + st + " p, u32 a1, u32 a2, " + st +
                        " q, u32 a3, u32 a4, u32 a5, " + st + " r, u32 a6) {\n  " + st + " o;\n";
  for (size_t i = 0; i < types.size(); ++i) {
    std::string f = ".f" + std::to_string(i);
    fn_text += "  o" + f + " = (" + types[i] + ")(" +
               c_.expr({"(u32)p" + f, "(u32)q" + f, "(u32)r" + f, "a0", "a1", "a2", "a3", "a4", "a5", "a6"}, 2) +
               " + (u32)r" + f + ");\n";
  }
  fn_text += "  return o;\n}\n";
  std::vector<std::string> vars{"a", "b", "h"};
  std::string use = "  " + st + " sp, sq;\n";
  for (size_t i = 0; i < types.size(); ++i) {
    std::string f = ".f" + std::to_string(i);
    use += "  sp" + f + " = (" + types[i] + ")" + c_.expr(vars, 1) + ";\n  sq" + f + " = (" + types[i] + ")" +
           c_.expr(vars, 1) + ";\n";
  }
  use += "  " + st + " sr = " + call + "(a, sp, b, h, sq, 1u, 2u, 3u, sp, a ^ b);\n";
  use += "  sr = " + call + "(h, sr, a, b, sp, h, a, b, sq, 7u);\n";
  for (size_t i = 0; i < types.size(); ++i) {
    std::string f = ".f" + std::to_string(i);
    use += "  h = h * 17u + (u32)sr" + f + " + (u32)sp" + f + ";\n";
  }
  // The small struct's definitions go before the entry, its use at its end.
  size_t entry = out.rfind(entry_head());
  out.insert(entry, decl + fn_text);
  return out + use + "  return h;\n}\n";
}

// GCC attributes that change meaning or linkage: constructor, cleanup,
// alias, weak, section, aligned, packed, noinline/always_inline.
std::string Group::attributes() {
  std::string ctor = fn("ctor"), val = fn("ctor_val"), clean = fn("cleanup"), target = fn("target"),
              alias = fn("alias"), weak = fn("weak"), early = fn("early"), sect = fn("sect"), packed = fn("packed"), inl = fn("inl");
  std::string out;
  out += "static u32 " + val + " = " + c_.constant() + ";\n";
  out += "__attribute__((constructor)) static void " + ctor + "(void) {\n  " + val + " = " + val + " * 3u + " +
         c_.constant() + ";\n}\n";
  out += "static u32 " + fn("cleaned") + ";\n";
  out += "static void " + clean + "(u32 *p) {\n  " + fn("cleaned") + " = " + fn("cleaned") + " * 5u + *p;\n  *p = 0u;\n}\n";
  // A return leaves the scope after its value is computed: the cleanup's
  // write to the variable must not change what is returned.
  out += "static u32 " + early + "(u32 x) {\n  __attribute__((cleanup(" + clean + "))) u32 g = x;\n" +
         "  if (x & 1u)\n    return g * 3u;\n  g += " + c_.constant() + ";\n  return g ^ " + fn("cleaned") + ";\n}\n";
  out += "static u32 " + target + "(u32 x, u32 y) {\n  return " + c_.expr({"x", "y"}, 3) + ";\n}\n";
  out += "u32 " + alias + "(u32 x, u32 y) __attribute__((alias(\"" + target + "\")));\n";
  out += "__attribute__((weak)) u32 " + weak + "(u32 x) {\n  return " + c_.expr({"x"}, 2) + ";\n}\n";
  out += "__attribute__((section(\".data.cg_" + n_ + "\"))) u32 " + sect + "[4] = {" + c_.constant() + ", " +
         c_.constant() + "};\n";
  out += "struct __attribute__((packed)) " + packed +
         " {\n  unsigned char c;\n  u32 w;\n  u64 q;\n  unsigned short h;\n};\n";
  out +=
      "static inline __attribute__((always_inline)) u32 " + inl + "(u32 x) {\n  return " + c_.expr({"x"}, 2) + ";\n}\n";
  std::vector<std::string> vars{"a", "b", "r"};
  out += entry_head() + " {\n  u32 r = " + val + " ^ " + c_.expr({"a", "b"}, 1) + ";\n";
  out += "  {\n    __attribute__((cleanup(" + clean + "))) u32 guard = " + c_.expr(vars, 2) +
         ";\n    guard ^= " + c_.expr(vars, 1) + ";\n    r += guard;\n  }\n  r ^= " + fn("cleaned") + ";\n";
  // The cleanup runs on continue, break and the loop's end alike.
  out += "  for (u32 i = 0; i < 6u; i++) {\n    __attribute__((cleanup(" + clean + "))) u32 g = " +
         c_.expr({"a", "b", "r", "i"}, 2) + ";\n    if ((g & 3u) == 1u)\n      continue;\n" +
         "    if ((g & 7u) == 6u)\n      break;\n    r += g;\n  }\n  r ^= " + fn("cleaned") + ";\n";
  out += "  r += " + early + "(r);\n  r ^= " + early + "(a);\n  r += " + fn("cleaned") + ";\n";
  out += "  r = r * 3u + " + alias + "(a, b) + " + weak + "(r);\n";
  out += "  " + sect + "[a % 4u] += " + c_.expr(vars, 1) + ";\n  r ^= " + sect + "[b % 4u] + " + sect + "[0];\n";
  out += "  u32 buf[8] __attribute__((aligned(32)));\n  for (int i = 0; i < 8; i++)\n    buf[i] = " + inl +
         "(r + (u32)i);\n";
  out += "  r += buf[a % 8u] ^ (u32)((unsigned long)buf % 32u);\n";
  out += "  struct " + packed + " pk = {(unsigned char)a, b, (u64)r << 7, (unsigned short)b};\n";
  out += "  struct " + packed + " pc = pk;\n  pc.w ^= r;\n  r += pk.c + pk.w + (u32)pk.q + pk.h + pc.w;\n";
  out += "  return r;\n}\n";
  return out;
}

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::Recursion:
      return "recursion";
    case Kind::Loops:
      return "loops";
    case Kind::Pointers:
      return "pointers";
    case Kind::Varargs:
      return "varargs";
    case Kind::Switches:
      return "switches";
    case Kind::Structs:
      return "structs";
    default:
      return "attributes";
  }
}

}  // namespace

std::vector<SourceFile> generate_program(const Options& options, const std::string& main_name) {
  const Features& f = options.features;
  std::vector<Kind> kinds;
  if (f.recursion) kinds.insert(kinds.end(), 2, Kind::Recursion);  // the hole csmith leaves widest
  if (f.loops) kinds.push_back(Kind::Loops);
  if (f.pointers) kinds.push_back(Kind::Pointers);
  if (f.varargs) kinds.push_back(Kind::Varargs);
  if (f.switches) kinds.push_back(Kind::Switches);
  if (f.structs) kinds.push_back(Kind::Structs);
  if (f.attributes) kinds.push_back(Kind::Attributes);
  if (kinds.empty()) throw std::invalid_argument("every kind of group is switched off");
  if (options.files < 1 || options.files > 16) throw std::invalid_argument("--files must be 1 to 16");

  Rng plan = stream(options.seed, 0);
  Rng attr = stream(options.seed, 1);
  Rng place = stream(options.seed, 3);  // the layout does not change the groups
  unsigned groups = options.groups ? options.groups : 6 + plan.below(5);
  std::string stem =
      main_name.size() > 2 && main_name.ends_with(".c") ? main_name.substr(0, main_name.size() - 2) : main_name;
  std::vector<SourceFile> files;
  files.push_back({main_name, "", true});
  for (unsigned i = 1; i < options.files; ++i)
    files.push_back({stem + "-" + std::to_string(i + 1) + ".c", "", !options.unity});

  std::string command = "pipe-cgen --seed " + std::to_string(options.seed) + " --groups " + std::to_string(groups);
  std::string off;
  for (auto [on, name] : {std::pair{f.recursion, "recursion"},
                          {f.loops, "loops"},
                          {f.pointers, "pointers"},
                          {f.varargs, "varargs"},
                          {f.switches, "switches"},
                          {f.structs, "structs"}})
    if (!on) off += std::string(off.empty() ? "" : ",") + name;
  if (!off.empty()) command += " --no " + off;
  if (f.attributes) command += " --attributes";
  if (f.indirect_variadic) command += " --indirect-variadic";
  if (options.files > 1) command += " --files " + std::to_string(options.files) + (options.unity ? " --unity" : "");

  // What every file needs, once per translation unit (unity builds see it twice).
  std::string common =
      "#ifndef CG_COMMON_H\n#define CG_COMMON_H\n#include <stdarg.h>\n#include <stdio.h>\n\n"
      "typedef unsigned int u32;\ntypedef unsigned long long u64;\n"
      "typedef u32 (*cg_fn2)(u32, u32);\n\nextern u64 cg_sum;\nvoid cg_mix(u64 v);\n";
  std::vector<std::string> entries;
  std::vector<std::string> bodies(options.files);
  for (unsigned g = 0; g < groups; ++g) {
    Kind kind = plan.pick(kinds);
    std::string name = "cg_g" + std::to_string(g);
    entries.push_back(name);
    Rng rng = stream(options.seed, 100 + g);
    Code code(rng, f.attributes, attr);
    Group group(name, code, f.indirect_variadic);
    std::string text;
    switch (kind) {
      case Kind::Recursion:
        text = group.recursion();
        break;
      case Kind::Loops:
        text = group.loops();
        break;
      case Kind::Pointers:
        text = group.pointers();
        break;
      case Kind::Varargs:
        text = group.varargs();
        break;
      case Kind::Switches:
        text = group.switches();
        break;
      case Kind::Structs:
        text = group.structs();
        break;
      case Kind::Attributes:
        text = group.attributes();
        break;
    }
    common += "u32 " + name + "(u32 a, u32 b);\n";
    unsigned file = options.files > 1 ? place.below(options.files) : 0;
    bodies[file] += "\n/* group " + std::to_string(g) + ": " + kind_name(kind) + " */\n" + text;
  }
  common += "#endif\n";

  std::string header = "/* Generated by " + command +
                       ": a program without undefined behaviour\n"
                       "   that prints a checksum of everything it computes. */\n";
  for (unsigned i = 1; i < options.files; ++i)
    files[i].text = header + "/* part " + std::to_string(i + 1) + " of " + std::to_string(options.files) + " */\n" +
                    common + bodies[i];

  Rng main_rng = stream(options.seed, 2);
  std::string m = header + common + "\n";
  if (options.unity)
    for (unsigned i = 1; i < options.files; ++i) m += "#include \"" + files[i].name + "\"\n";
  m += "\nu64 cg_sum = 0xcbf29ce484222325ull;\nu32 cg_in[8] = {";
  for (int i = 0; i < 8; ++i) m += (i ? ", " : "") + hex32(static_cast<uint32_t>(main_rng.next()));
  m += "};\n\nvoid cg_mix(u64 v) {\n  cg_sum = (cg_sum ^ v) * 0x100000001b3ull;\n  cg_sum ^= cg_sum >> 29;\n}\n";
  m += bodies[0];
  m += "\nint main(void) {\n  for (int round = 0; round < 2; round++) {\n";
  for (size_t g = 0; g < entries.size(); ++g) {
    int i = main_rng.below(8), j = main_rng.below(8);
    m += "    cg_mix(" + entries[g] + "(cg_in[(round + " + std::to_string(i) + ") % 8], cg_in[" + std::to_string(j) +
         "] + (u32)round));\n    printf(\"" + entries[g] + " %016llx\\n\", cg_sum);\n";
  }
  m += "  }\n  printf(\"checksum = %016llX\\n\", cg_sum);\n  return 0;\n}\n";
  files[0].text = m;
  return files;
}

}  // namespace pl::cgen
