// frame.cpp - frame layout, prologue and epilogue; see frame.h.
#include "frame.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pl::x64 {

namespace {

constexpr int32_t kRedZone = 128;

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Frame layout_frame(const FrameRequest& request) {
  Frame frame;
  frame.frame_pointer = request.frame_pointer;
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
  if (at > INT32_MAX / 2) throw std::invalid_argument("stack frame of " + std::to_string(at) + " bytes");
  // rsp at entry is 8 mod 16; after the pushes 8 + 8P; the body wants 0.
  int64_t pushed_bytes = 8 * static_cast<int64_t>(frame.pushed.size());
  int64_t size = align_up(at, 8);
  if (!request.has_calls && !frame.frame_pointer && size <= kRedZone) {
    frame.red_zone = size > 0;
    for (int32_t& o : frame.spill_offsets) o -= static_cast<int32_t>(size);
    for (int32_t& o : frame.slot_offsets) o -= static_cast<int32_t>(size);
    return frame;  // adjust stays 0
  }
  if ((8 + pushed_bytes + size) % 16 != 0) size += 8;
  frame.adjust = static_cast<int32_t>(size);
  return frame;
}

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
  if (frame.adjust) {
    out.alu_imm(Alu::Sub, 64, Reg::Rsp, frame.adjust);
    if (!frame.frame_pointer) out.cfi_def_cfa_offset(cfa + frame.adjust);
  }
}

void emit_epilogue(McEmitter& out, const Frame& frame, bool last) {
  if (!last) out.cfi_remember_state();
  if (frame.frame_pointer) {
    auto others = static_cast<int32_t>(frame.pushed.size()) - 1;
    out.lea(64, Reg::Rsp, Mem::at(Reg::Rbp, -8 * others));
    for (auto it = frame.pushed.rbegin(); it + 1 != frame.pushed.rend(); ++it) out.pop(*it);
    out.pop(Reg::Rbp);
    out.cfi_def_cfa(Reg::Rsp, 8);
    out.ret();
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
  out.ret();
  if (!last) out.cfi_restore_state();
}

}  // namespace pl::x64
