// handbuilt.cpp - a few functions built by hand with codegen-x64's pieces
// (the emitter, the frame layout, the parallel move engine), written as
// assembly text and as an ELF object; tests/test_codegen_handbuilt.py links
// each with tests/codegen-x64/handbuilt_main.c (built by gcc), runs it, and
// the C side checks every result, the stack alignment at calls, and that
// the unwinder walks through our frames (.cfi_).
//
//   codegen-x64-handbuilt OUT.s OUT.o
#include <fstream>
#include <iostream>
#include <string>

#include "frame.h"
#include "mc_emitter.h"
#include "parallel_move.h"

using namespace pl;
using namespace pl::x64;

namespace {

Mem rsp_at(int32_t offset) { return Mem::at(Reg::Rsp, offset); }

// Runs a parallel move through the engine and the emitter; stack locations
// are spill slot numbers of `frame`.
void parallel_move(McEmitter& e, const Frame& frame, const std::vector<Move>& moves, RegMask free) {
  auto mem = [&](const Location& l) { return rsp_at(frame.spill_offsets.at(l.slot)); };
  for (const MoveOp& op : sequentialize_moves(moves, free)) {
    if (op.kind == MoveOp::Kind::Xchg) {
      if (op.dst.is_reg() && op.src.is_reg())
        e.xchg(64, op.dst.reg, op.src.reg);
      else
        e.xchg_mem(64, op.dst.is_reg() ? op.dst.reg : op.src.reg, mem(op.dst.is_reg() ? op.src : op.dst));
    } else if (op.dst.is_reg() && op.src.is_reg()) {
      e.mov(64, op.dst.reg, op.src.reg);
    } else if (op.dst.is_reg()) {
      e.load(64, op.dst.reg, mem(op.src));
    } else {
      e.store(64, mem(op.dst), op.src.reg);
    }
  }
}

void begin(McEmitter& e, const char* name) { e.begin_function(name, Linkage::External); }

// long pipe_args8(long a, ..., long h): a - b + c + g + h, with c kept in a
// spill slot, a and b in callee-saved rbx and r12 across a call to
// c_note(g) (which returns g + 1000 after checking alignment and unwinding).
void args8(McEmitter& e) {
  FrameRequest req;
  req.spill_slots = 1;
  req.pushed = {Reg::Rbx, Reg::R12};
  req.has_calls = true;
  Frame f = layout_frame(req);
  begin(e, "pipe_args8");
  emit_prologue(e, f);
  e.mov(64, Reg::Rbx, Reg::Rdi);
  e.mov(64, Reg::R12, Reg::Rsi);
  e.store(64, rsp_at(f.spill_offsets[0]), Reg::Rdx);
  e.load(64, Reg::Rdi, rsp_at(f.argslot_offset(0)));
  e.call("c_note", false);
  e.alu_imm(Alu::Sub, 64, Reg::Rax, 1000);
  e.alu(Alu::Add, 64, Reg::Rax, Reg::Rbx);
  e.alu(Alu::Sub, 64, Reg::Rax, Reg::R12);
  e.load(64, Reg::Rcx, rsp_at(f.spill_offsets[0]));
  e.alu(Alu::Add, 64, Reg::Rax, Reg::Rcx);
  e.load(64, Reg::Rcx, rsp_at(f.argslot_offset(8)));
  e.alu(Alu::Add, 64, Reg::Rax, Reg::Rcx);
  // Clobber the callee-saved registers we saved: the caller must not see it.
  e.mov_imm(64, Reg::Rbx, -1);
  e.mov_imm(64, Reg::R12, -1);
  emit_epilogue(e, f, true);
  e.end_function();
}

// long pipe_call_many(long x): c_sum8(x, x+1, ..., x+7), the last two on
// the stack (outgoing area), and twice x if c_sum8 returned negative (a
// second epilogue in the middle of the function).
void call_many(McEmitter& e) {
  FrameRequest req;
  req.outgoing_bytes = 16;
  req.has_calls = true;
  req.pushed = {Reg::Rbx};
  Frame f = layout_frame(req);
  begin(e, "pipe_call_many");
  emit_prologue(e, f);
  e.mov(64, Reg::Rbx, Reg::Rdi);
  Reg regs[] = {Reg::Rdi, Reg::Rsi, Reg::Rdx, Reg::Rcx, Reg::R8, Reg::R9};
  for (int i = 5; i >= 0; --i) e.lea(64, regs[i], Mem::at(Reg::Rdi, i));
  e.lea(64, Reg::Rax, Mem::at(Reg::Rbx, 6));
  e.store(64, rsp_at(0), Reg::Rax);
  e.lea(64, Reg::Rax, Mem::at(Reg::Rbx, 7));
  e.store(64, rsp_at(8), Reg::Rax);
  e.call("c_sum8", false);
  Label positive = e.make_label();
  e.test(64, Reg::Rax, Reg::Rax);
  e.jcc(Cond::NS, positive);
  e.lea(64, Reg::Rax, Mem{Reg::Rbx, Reg::Rbx, 1, 0, {}});
  emit_epilogue(e, f, false);
  e.bind(positive);
  emit_epilogue(e, f, true);
  e.end_function();
}

// void pipe_rotate(a, b, c, d, e, f): c_print6(b, c, d, e, f, a): a cycle of
// the six argument registers, through the engine (xchg).
void rotate(McEmitter& e) {
  FrameRequest req;
  req.has_calls = true;
  Frame f = layout_frame(req);
  begin(e, "pipe_rotate");
  emit_prologue(e, f);
  using L = Location;
  std::vector<Move> moves;
  for (int i = 0; i < 6; ++i) moves.push_back({L::r(kArgRegs[i]), L::r(kArgRegs[(i + 1) % 6])});
  parallel_move(e, f, moves, 0);
  e.call("c_print6", false);
  emit_epilogue(e, f, true);
  e.end_function();
}

// void pipe_slots(a, b, c): a, b, c to spill slots 0-2, then the parallel
// move s0 <- s1, s1 <- s2, s2 <- s0, rcx <- s2 (a cycle through the stack
// with free registers r10 and r11), then c_print4(s0, s1, s2, rcx) prints b c a c.
void slots(McEmitter& e) {
  FrameRequest req;
  req.spill_slots = 3;
  req.has_calls = true;
  Frame f = layout_frame(req);
  begin(e, "pipe_slots");
  emit_prologue(e, f);
  e.store(64, rsp_at(f.spill_offsets[0]), Reg::Rdi);
  e.store(64, rsp_at(f.spill_offsets[1]), Reg::Rsi);
  e.store(64, rsp_at(f.spill_offsets[2]), Reg::Rdx);
  using L = Location;
  parallel_move(e, f, {{L::stack(0), L::stack(1)}, {L::stack(1), L::stack(2)}, {L::stack(2), L::stack(0)}, {L::r(Reg::Rcx), L::stack(2)}},
                reg_bit(Reg::R11) | reg_bit(Reg::R10));
  e.load(64, Reg::Rdi, rsp_at(f.spill_offsets[0]));
  e.load(64, Reg::Rsi, rsp_at(f.spill_offsets[1]));
  e.load(64, Reg::Rdx, rsp_at(f.spill_offsets[2]));
  e.call("c_print4", false);
  emit_epilogue(e, f, true);
  e.end_function();
}

// long pipe_leaf(long n): a leaf with an 8-long array in the red zone:
// arr[i] = i * n, then the sum (n * 28), with loops of jcc.
void leaf(McEmitter& e) {
  FrameRequest req;
  req.slots = {{64, 8}};
  Frame f = layout_frame(req);
  if (!f.red_zone || f.adjust != 0) throw std::logic_error("pipe_leaf should use the red zone");
  begin(e, "pipe_leaf");
  emit_prologue(e, f);
  int32_t arr = f.slot_offsets[0];
  e.mov_imm(64, Reg::Rcx, 0);
  Label fill = e.make_label(), sum = e.make_label();
  e.bind(fill);
  e.mov(64, Reg::Rax, Reg::Rcx);
  e.imul(64, Reg::Rax, Reg::Rdi);
  e.store(64, Mem{Reg::Rsp, Reg::Rcx, 8, arr, {}}, Reg::Rax);
  e.alu_imm(Alu::Add, 64, Reg::Rcx, 1);
  e.alu_imm(Alu::Cmp, 64, Reg::Rcx, 8);
  e.jcc(Cond::L, fill);
  e.mov_imm(64, Reg::Rax, 0);
  e.mov_imm(64, Reg::Rcx, 7);
  e.bind(sum);
  e.alu(Alu::Add, 64, Reg::Rax, Reg::Rax);  // rax = 2 * rax ...
  e.shift_imm(Shift::Sar, 64, Reg::Rax, 1);  // ... / 2: exercises shifts
  e.load(64, Reg::Rdx, Mem{Reg::Rsp, Reg::Rcx, 8, arr, {}});
  e.alu(Alu::Add, 64, Reg::Rax, Reg::Rdx);
  e.alu_imm(Alu::Sub, 64, Reg::Rcx, 1);
  e.jcc(Cond::GE, sum);
  emit_epilogue(e, f, true);
  e.end_function();
}

// Data and PIC: pipe_counter (.data, 41), pipe_inc() increments it; a local
// read-only pointer to a local string; pipe_message() returns it;
// pipe_stdout() returns libc's stdout read through the GOT; pipe_divmod.
void data_and_pic(McEmitter& e) {
  e.data_item(DataItem{"pipe_counter", Linkage::External, 8, 8, false, std::string("\x29", 1), {}});
  e.data_item(DataItem{"message", Linkage::Internal, 16, 1, true, "hello from pipe", {}});
  e.data_item(DataItem{"message_ptr", Linkage::Internal, 8, 8, true, "", {{0, "message", 0}}});
  e.data_item(DataItem{"scratch", Linkage::Internal, 64, 16, false, "", {}});
  begin(e, "pipe_inc");
  e.load(64, Reg::Rax, Mem::rip("pipe_counter"));
  e.alu_imm(Alu::Add, 64, Reg::Rax, 1);
  e.store(64, Mem::rip("pipe_counter"), Reg::Rax);
  e.store(64, Mem::rip("scratch", 8), Reg::Rax);
  e.load(64, Reg::Rax, Mem::rip("scratch", 8));
  e.ret();
  e.end_function();
  begin(e, "pipe_message");
  e.load(64, Reg::Rax, Mem::rip("message_ptr"));
  e.ret();
  e.end_function();
  begin(e, "pipe_stdout");
  e.load_got(Reg::Rax, "stdout");
  e.load(64, Reg::Rax, Mem::at(Reg::Rax));
  e.ret();
  e.end_function();
  // long pipe_divmod(long a, long b, long* rem): a / b, *rem = a % b.
  begin(e, "pipe_divmod");
  e.mov(64, Reg::R8, Reg::Rdx);
  e.mov(64, Reg::Rax, Reg::Rdi);
  e.sign_extend_ax(64);
  e.div(true, 64, Reg::Rsi);
  e.store(64, Mem::at(Reg::R8), Reg::Rdx);
  e.ret();
  e.end_function();
  // int pipe_less(int a, int b): a < b (signed, 32 bits).
  begin(e, "pipe_less");
  e.alu(Alu::Cmp, 32, Reg::Rdi, Reg::Rsi);
  e.setcc(Cond::L, Reg::Rax);
  e.extend(false, 8, 32, Reg::Rax, Reg::Rax);
  e.ret();
  e.end_function();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: codegen-x64-handbuilt OUT.s OUT.o\n";
    return 2;
  }
  for (OutputKind kind : {OutputKind::Asm, OutputKind::Object}) {
    McEmitter e({kind, false, "handbuilt.c", ""});
    e.declare_extern("c_note");
    args8(e);
    call_many(e);
    rotate(e);
    slots(e);
    leaf(e);
    data_and_pic(e);
    const char* path = argv[kind == OutputKind::Asm ? 1 : 2];
    std::ofstream(path, std::ios::binary) << e.finish();
  }
  return 0;
}
