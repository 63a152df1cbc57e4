// frame.cpp - frame layout, prologue and epilogue; see frame.h.
#include "frame.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pl::x64 {

namespace {

constexpr int32_t kRedZone = 128;
constexpr int32_t kGuardOffset = 0x28;  // glibc's stack guard in the TCB: %fs:0x28
constexpr int32_t kPage = 4096;         // -fstack-clash-protection's probe interval, as gcc's
constexpr int32_t kUnrolledPages = 4;   // gcc's limit for an unrolled probe sequence

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Frame layout_frame(const FrameRequest& request) {
  Frame frame;
  frame.frame_pointer = request.frame_pointer;
  if (request.realign > 16 && !request.frame_pointer)
    throw std::invalid_argument("a realigned stack without a frame pointer");
  frame.realign = request.realign > 16 ? request.realign : 0;
  if (frame.frame_pointer) frame.pushed.push_back(Reg::Rbp);
  for (Reg r : request.pushed) frame.pushed.push_back(r);
  // With a frame pointer the frame starts 16-byte aligned above the
  // outgoing area, where an alloca's block starts (frame.h).
  int64_t at = align_up(request.outgoing_bytes, request.frame_pointer ? 16 : 8);
  for (uint32_t i = 0; i < request.spill_slots; ++i) {
    bool pushed = i < request.pushed_slots.size() && request.pushed_slots[i];
    frame.spill_offsets.push_back(pushed ? 0 : static_cast<int32_t>(at));
    if (!pushed) at += 8;
  }
  std::vector<size_t> order(request.slots.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return request.slots[a].align > request.slots[b].align; });
  frame.slot_offsets.assign(request.slots.size(), 0);
  for (size_t i : order) {
    const FrameRequest::Slot& s = request.slots[i];
    if (s.align == 0 || (s.align & (s.align - 1)) != 0) throw std::invalid_argument("stack slot alignment " + std::to_string(s.align));
    if (s.align > 16) throw std::invalid_argument("stack slot aligned to " + std::to_string(s.align) + " bytes (at most 16 supported)");
    at = align_up(at, s.align);
    frame.slot_offsets[i] = static_cast<int32_t>(at);
    at += s.size;
  }
  if (request.canary) at = align_up(at, 8) + 8;
  if (at > INT32_MAX / 2) throw std::invalid_argument("stack frame of " + std::to_string(at) + " bytes");
  // rsp at entry is 8 mod 16; after the pushes 8 + 8P; the body wants 0.
  int64_t pushed_bytes = 8 * static_cast<int64_t>(frame.pushed.size());
  int64_t size = align_up(at, 8);
  // The canary's check calls __stack_chk_fail: not a leaf.
  bool has_calls = request.has_calls || request.canary;
  if (!has_calls && !frame.frame_pointer && size <= kRedZone) {
    frame.red_zone = size > 0;
    for (int32_t& o : frame.spill_offsets) o -= static_cast<int32_t>(size);
    for (int32_t& o : frame.slot_offsets) o -= static_cast<int32_t>(size);
    return frame;  // adjust stays 0
  }
  if ((8 + pushed_bytes + size) % 16 != 0) size += 8;
  frame.adjust = static_cast<int32_t>(size);
  if (request.canary) frame.canary = frame.adjust - 8;  // the top, right below the pushes
  return frame;
}

namespace {

// `sub $adjust, %rsp`, or under -fstack-clash-protection a page at a time,
// each written (orq $0) before the next is taken: unrolled up to
// kUnrolledPages pages, else a loop down to the page boundary in r11 (the
// CFA meanwhile r11 based); the rest, under a page, in one step (frame.h).
void allocate_frame(McEmitter& out, const Frame& frame, int32_t cfa) {
  bool track = !frame.frame_pointer;  // else the CFA is rbp based
  int32_t pages = out.options().stack_clash ? frame.adjust / kPage : 0;
  int32_t rest = frame.adjust - pages * kPage;
  if (pages > kUnrolledPages) {
    out.lea(64, Reg::R11, Mem::at(Reg::Rsp, -pages * kPage));
    if (track) out.cfi_def_cfa(Reg::R11, cfa + pages * kPage);
    Label loop = out.make_label();
    out.bind(loop);
    out.alu_imm(Alu::Sub, 64, Reg::Rsp, kPage);
    out.touch(Mem::at(Reg::Rsp));
    out.alu(Alu::Cmp, 64, Reg::Rsp, Reg::R11);
    out.jcc(Cond::NE, loop);
    cfa += pages * kPage;
    if (track) out.cfi_def_cfa_register(Reg::Rsp);
  } else {
    for (int32_t i = 0; i < pages; ++i) {
      out.alu_imm(Alu::Sub, 64, Reg::Rsp, kPage);
      cfa += kPage;
      if (track) out.cfi_def_cfa_offset(cfa);
      out.touch(Mem::at(Reg::Rsp));
    }
  }
  if (rest) {
    out.alu_imm(Alu::Sub, 64, Reg::Rsp, rest);
    if (track) out.cfi_def_cfa_offset(cfa + rest);
  }
}

}  // namespace

void emit_prologue(McEmitter& out, const Frame& frame) {
  int32_t cfa = 8;
  for (Reg r : frame.pushed) {
    out.push(r);
    cfa += 8;
    if (!frame.frame_pointer || r == Reg::Rbp) out.cfi_def_cfa_offset(cfa);
    out.cfi_offset(r, -cfa);
    if (frame.frame_pointer && r == Reg::Rbp) {  // pushed first
      out.mov(64, Reg::Rbp, Reg::Rsp);
      out.cfi_def_cfa_register(Reg::Rbp);
    }
  }
  if (frame.adjust) allocate_frame(out, frame, cfa);
  if (frame.realign) out.alu_imm(Alu::And, 64, Reg::Rsp, -static_cast<int32_t>(frame.realign));
  if (frame.canary) {  // the thread's guard into the canary (frame.h)
    out.load(64, Reg::R11, Mem::fs_abs(kGuardOffset));
    out.store(64, frame.at(*frame.canary), Reg::R11);
    out.alu(Alu::Xor, 32, Reg::R11, Reg::R11);
  }
}

namespace {

void check_canary(McEmitter& out, const Frame& frame) {
  Label intact = out.make_label();
  out.load(64, Reg::R11, frame.at(*frame.canary));
  out.alu_mem(Alu::Sub, 64, Reg::R11, Mem::fs_abs(kGuardOffset));
  out.jcc(Cond::E, intact);
  out.call("__stack_chk_fail", false);
  out.bind(intact);
}

}  // namespace

void emit_epilogue(McEmitter& out, const Frame& frame, bool last, const std::function<void()>& leave) {
  if (frame.canary) check_canary(out, frame);
  if (!last) out.cfi_remember_state();
  if (frame.frame_pointer) {
    auto others = static_cast<int32_t>(frame.pushed.size()) - 1;
    out.lea(64, Reg::Rsp, Mem::at(Reg::Rbp, -8 * others));
    for (auto it = frame.pushed.rbegin(); it + 1 != frame.pushed.rend(); ++it) out.pop(*it);
    out.pop(Reg::Rbp);
    out.cfi_def_cfa(Reg::Rsp, 8);
    leave ? leave() : out.ret();
    if (!last) out.cfi_restore_state();
    return;
  }
  int32_t cfa = 8 + 8 * static_cast<int32_t>(frame.pushed.size());
  if (frame.adjust) {
    out.alu_imm(Alu::Add, 64, Reg::Rsp, frame.adjust);
    out.cfi_def_cfa_offset(cfa);
  }
  for (auto it = frame.pushed.rbegin(); it != frame.pushed.rend(); ++it) {
    out.pop(*it);
    cfa -= 8;
    out.cfi_def_cfa_offset(cfa);
  }
  leave ? leave() : out.ret();
  if (!last) out.cfi_restore_state();
}

}  // namespace pl::x64
