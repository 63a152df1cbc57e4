// emit_forms.cpp - writes every instruction form McEmitter has, at every
// operand size, with the interesting registers (rax's short forms, rsp and
// r12 needing a SIB byte, rbp and r13 needing a displacement, sil/dil and
// r8-r15 needing REX), as assembly text and as an ELF object from the same
// calls. tests/test_codegen_emit.py assembles the text with `as` and checks
// that both objects hold the same bytes, relocations and symbols.
//
//   codegen-x64-emit-forms OUT.s OUT.o [--debug]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "mc_emitter.h"

using namespace pl;
using namespace pl::x64;

namespace {

const std::vector<Reg> kAllGpr = {Reg::Rax, Reg::Rcx, Reg::Rdx, Reg::Rbx, Reg::Rsp, Reg::Rbp, Reg::Rsi, Reg::Rdi,
                                  Reg::R8,  Reg::R9,  Reg::R10, Reg::R11, Reg::R12, Reg::R13, Reg::R14, Reg::R15};
const std::vector<Reg> kSome = {Reg::Rax, Reg::Rcx, Reg::Rsp, Reg::Rbp, Reg::Rsi, Reg::Rdi, Reg::R8, Reg::R12, Reg::R13, Reg::R15};
const std::vector<unsigned> kSizes = {8, 16, 32, 64};
const std::vector<int32_t> kImms = {0, 1, -1, 127, 128, -128, -129, 255, 1000, -70000, 65535, INT32_MAX, INT32_MIN};

std::vector<Mem> memory_operands() {
  std::vector<Mem> mems;
  for (Reg base : kAllGpr)
    for (int32_t disp : {0, 8, -200, 70000}) mems.push_back(Mem::at(base, disp));
  for (Reg base : {Reg::Rax, Reg::Rsp, Reg::Rbp, Reg::R12, Reg::R13})
    for (Reg index : kAllGpr) {
      if (index == Reg::Rsp) continue;
      for (uint8_t scale : {1, 2, 4, 8}) mems.push_back(Mem{base, index, scale, scale == 2 ? -8 : 0, {}});
    }
  mems.push_back(Mem{std::nullopt, Reg::Rcx, 4, 16, {}});  // no base: disp32 with the index
  mems.push_back(Mem::rip("table"));
  mems.push_back(Mem::rip("table", 12));
  mems.push_back(Mem::rip("counter", -4));
  return mems;
}

void emit_arithmetic(McEmitter& e) {
  for (unsigned bits : kSizes)
    for (Reg a : kAllGpr)
      for (Reg b : kAllGpr) {
        e.mov(bits, a, b);
        for (Alu op : {Alu::Add, Alu::Sub, Alu::And, Alu::Or, Alu::Xor, Alu::Cmp}) e.alu(op, bits, a, b);
        e.test(bits, a, b);
        e.imul(bits, a, b);
        if (a != b) e.xchg(bits, a, b);
      }
  for (unsigned bits : kSizes)
    for (Reg a : kSome)
      for (int32_t imm : kImms) {
        for (Alu op : {Alu::Add, Alu::Sub, Alu::And, Alu::Or, Alu::Xor, Alu::Cmp}) e.alu_imm(op, bits, a, imm);
        e.test_imm(bits, a, imm);
        e.imul_imm(bits, a, Reg::Rdx, imm);
        e.imul_imm(bits, Reg::R9, a, imm);
        e.mov_imm(bits, a, imm);
      }
  for (Reg a : kSome)
    for (int64_t imm : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{0xFFFFFFFF}, int64_t{0x100000000}, int64_t{INT64_MIN},
                        int64_t{INT64_MAX}, int64_t{INT32_MIN}, int64_t{-4294967296}})
      e.mov_imm(64, a, imm);
  for (unsigned bits : kSizes)
    for (Reg a : kAllGpr) {
      e.unary(Unary::Neg, bits, a);
      e.unary(Unary::Not, bits, a);
      for (Shift op : {Shift::Shl, Shift::Shr, Shift::Sar}) {
        e.shift_cl(op, bits, a);
        for (unsigned n : {0u, 1u, 2u, 7u, bits - 1}) e.shift_imm(op, bits, a, n);
      }
      if (bits != 8) {
        e.mul1(false, bits, a);
        e.mul1(true, bits, a);
        e.div(false, bits, a);
        e.div(true, bits, a);
      }
    }
  e.sign_extend_ax(16);
  e.sign_extend_ax(32);
  e.sign_extend_ax(64);
  for (Reg a : kAllGpr)
    for (Reg b : kSome)
      for (unsigned from : {8u, 16u, 32u})
        for (unsigned to : {16u, 32u, 64u}) {
          if (from >= to) continue;
          e.extend(true, from, to, a, b);
          e.extend(false, from, to, a, b);
        }
}

void emit_memory(McEmitter& e) {
  for (const Mem& m : memory_operands()) {
    for (unsigned bits : kSizes) {
      e.load(bits, Reg::Rdx, m);
      e.store(bits, m, Reg::R11);
      e.store_imm(bits, m, -3);
      e.store_imm(bits, m, 1000);
    }
    e.load(64, Reg::Rax, m);
    e.store(8, m, Reg::Rsi);
    e.lea(64, Reg::R14, m);
    for (unsigned bits : kSizes) e.xchg_mem(bits, Reg::R9, m);
    e.lea(32, Reg::Rcx, m);
    for (unsigned from : {8u, 16u, 32u})
      for (unsigned to : {16u, 32u, 64u}) {
        if (from >= to) continue;
        e.load_ext(true, from, to, Reg::Rbx, m);
        e.load_ext(false, from, to, Reg::R10, m);
      }
  }
  for (Reg r : kAllGpr) {
    e.load_got(r, "stdout");
    e.store(64, Mem::at(Reg::Rsp, 8), r);
  }
  e.rep_movsb();
}

void emit_flags_and_control(McEmitter& e) {
  Label back = e.make_label();
  e.bind(back);
  for (int c = 0; c < 16; ++c) {
    Cond cc = static_cast<Cond>(c);
    for (Reg r : kAllGpr) e.setcc(cc, r);
    for (unsigned bits : kSizes) e.cmov(cc, bits, Reg::Rax, Reg::R13);
    e.cmov(cc, 64, Reg::R8, Reg::Rsi);
  }
  Label near = e.make_label(), far = e.make_label();
  for (int c = 0; c < 16; ++c) {
    e.jcc(static_cast<Cond>(c), near);  // short
    e.jcc(static_cast<Cond>(c), far);   // rel32: more than 127 bytes ahead
    e.jcc(static_cast<Cond>(c), back);  // rel32 backwards
  }
  e.jmp(near);
  e.jmp(far);
  e.jmp(back);
  e.bind(near);
  for (int i = 0; i < 40; ++i) e.push(kAllGpr[i % 16]);
  for (Reg r : kAllGpr) e.pop(r);
  e.bind(far);
  e.call("helper", true);
  e.call("puts", false);
  e.call("forms", false);
  for (Reg r : kAllGpr) e.call_reg(r);
  e.ret();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: codegen-x64-emit-forms OUT.s OUT.o [--debug]\n";
    return 2;
  }
  bool debug = argc > 3 && std::string(argv[3]) == "--debug";
  for (OutputKind kind : {OutputKind::Asm, OutputKind::Object}) {
    McEmitter e({kind, debug, "forms.c", "/tmp"});
    e.set_files({"forms.c", "forms.h"});
    DataItem table{"table", Linkage::External, 32, 16, false, std::string("\x01\x02\x03", 3), {{8, "helper", 0}, {16, "table", 24}}};
    e.data_item(table);
    e.data_item(DataItem{"message", Linkage::Internal, 6, 1, true, "hello", {}});
    e.data_item(DataItem{"pointers", Linkage::Internal, 16, 8, true, "", {{0, "message", 1}, {8, "puts", 0}}});
    e.data_item(DataItem{"counter", Linkage::External, 8, 8, false, "", {}});
    e.data_item(DataItem{"zeros", Linkage::Internal, 100, 4, false, std::string(4, '\0'), {}});
    e.declare_extern("puts");

    e.begin_function("helper", Linkage::Internal);
    e.set_loc({0, 3, 1});
    e.push(Reg::Rbx);
    e.cfi_def_cfa_offset(16);
    e.cfi_offset(Reg::Rbx, -16);
    e.push(Reg::R12);
    e.cfi_def_cfa_offset(24);
    e.cfi_offset(Reg::R12, -24);
    e.set_loc({1, 7, 2});
    e.alu_imm(Alu::Sub, 64, Reg::Rsp, 8);
    e.cfi_def_cfa_offset(32);
    e.cfi_remember_state();
    e.alu_imm(Alu::Add, 64, Reg::Rsp, 8);
    e.cfi_def_cfa_offset(24);
    e.pop(Reg::R12);
    e.cfi_def_cfa_offset(16);
    e.pop(Reg::Rbx);
    e.cfi_def_cfa_offset(8);
    e.ret();
    e.cfi_restore_state();
    e.ret();
    e.end_function();

    e.begin_function("forms", Linkage::External);
    e.set_loc({0, 10, 3});
    emit_arithmetic(e);
    e.set_loc({0, 11, 3});
    emit_memory(e);
    e.set_loc({0, 12, 3});
    emit_flags_and_control(e);
    e.end_function();

    std::string out = e.finish();
    std::ofstream file(argv[kind == OutputKind::Asm ? 1 : 2], std::ios::binary);
    file << out;
    if (!file) {
      std::cerr << "cannot write " << argv[kind == OutputKind::Asm ? 1 : 2] << "\n";
      return 1;
    }
  }
  return 0;
}
