// frame.h - the stack frame of one function (seed 001, "Stack Map
// Calculation: Computing Stack Offsets") and its prologue and epilogue.
//
// No frame pointer (rbp is allocatable) unless the function has a dynamic
// stack (below); every frame address is rsp relative, and rsp does not move
// in the body (calls store stack arguments into the outgoing area instead
// of pushing). From rsp upwards, after the prologue:
//
//   [rsp + 0]             outgoing stack arguments (x64:outarg n = [rsp + n])
//   spill slots           8 bytes each (ra-x64's sN), in slot order
//   stack slots           x64:stackslot items, largest alignment first (the
//                         seed's padder: sorting by alignment leaves no holes
//                         but the last), each at its alignment
//   padding               so that rsp is 16-byte aligned at every call
//   pushed registers      callee-saved registers the prologue pushes
//   return address        [entry rsp]
//   incoming arguments    x64:argslot n = [entry rsp + 8 + n]
//
// Red zone: a leaf function (no calls) whose slots fit in the 128 bytes
// below rsp that System V keeps for it does not move rsp at all; its slots
// get negative offsets. Pushes still happen (they come before the red zone
// is used), and nothing in the body pushes (the move engine borrows
// registers with xchg, not push).
//
// Alignment: at entry rsp = 8 mod 16 (the call pushed the return address);
// each push adds 8; the frame size is rounded so that a non-leaf function
// has rsp = 0 mod 16 in its body, hence at each call. Slots asking for more
// than 16-byte alignment would need rsp realigned at run time (a frame
// pointer); layout_frame refuses them (std::invalid_argument).
//
// A dynamic stack (x64:alloca, x64:stackrestore move rsp in the body; x64.h
// has_dynamic_stack): rbp is the frame pointer, which regalloc-x64 gave no
// value. The prologue pushes it first (`push rbp; mov rbp, rsp`, then the
// other pushes and the rsp adjustment), the layout above is unchanged, and
// every address in it but the outgoing area's is rbp relative: rsp in the
// body is rbp - 8 * (the other pushes) - adjust until an alloca moves it.
// An alloca's block goes between the outgoing area, which stays at the
// bottom ([rsp + 0]), and the frame: x64:alloca is `sub rsp, size; lea r,
// [rsp + outgoing]`, the outgoing area's size rounded up to 16 (the frame
// starts there too, so the block's top overlaps only the outgoing area the
// `sub` left behind). The epilogue takes rsp back from rbp (`lea rsp, [rbp -
// 8 * others]`), pops and returns. No red zone; the CFA is rbp + 16 from
// the `mov rbp, rsp` on.
//
// Stack protector (the function hint `stack_protect`, FORMAT.md section 1;
// c2ast marks functions by gcc's -fstack-protector rules): an 8-byte canary
// slot at the top of the frame, right below the pushed registers and the
// return address, above every stack slot (the addressable locals: arrays,
// structs, address-taken variables) and the spill slots, so a write running
// upwards off the end of a local reaches the canary before any saved
// register or the return address. After the prologue the guard value of
// the thread (glibc keeps it at %fs:0x28) is copied into it through r11
// (then cleared: no copy of the guard stays in a register); before every
// epilogue it is compared again (`mov canary, %r11; sub %fs:0x28, %r11`)
// and a mismatch calls __stack_chk_fail, which prints "*** stack smashing
// detected ***" and aborts. r11 is free at both points (no argument, no
// result). The call makes the function non-leaf (no red zone, rsp 16-byte
// aligned), as glibc's handler expects. Unlike gcc, the stack slots carry
// no C type, so arrays are not ordered above the other addressable locals:
// an overflow can reach a neighbouring addressable local before the canary
// (never a spill slot, a saved register or the return address unnoticed).
//
// A realigned stack (the function hint stack_realign: the function passes
// an argument aligned to 32 or 64 bytes on the stack, which the System V
// ABI places at its alignment in the outgoing area): laid out as a dynamic
// stack, with `and $-64, %rsp` after the rsp adjustment. Only rsp moves
// down (by up to 56 bytes); the frame is rbp relative and the outgoing
// area and an alloca's block are rsp relative, so nothing else changes,
// and the epilogue's `lea rsp, [rbp - ...]` undoes it. An x64:alloca
// there is followed by the same `and` (its size is a multiple of 16 only). gcc realigns the
// same way (with the CFA in r10 instead; ours stays rbp + 16).
//
// -fno-omit-frame-pointer (codegen-x64 --frame-pointer, with regalloc-x64
// --frame-pointer keeping rbp free): every function is laid out as one with
// a dynamic stack, so [rbp] is the caller's rbp and [rbp + 8] the return
// address in every body: the chain profilers and debuggers walk.
//
// CFI: the CFA is rsp + 8 at entry; every push and the rsp adjustment say
// how far the CFA now is (.cfi_def_cfa_offset) and where a saved register
// is (.cfi_offset). An epilogue before the end of the function is wrapped in
// .cfi_remember_state / .cfi_restore_state so the code after it unwinds
// with the body's rules.
//
// Sibling calls (sibling_calls.h): the same epilogue with a `jmp` to the
// callee in place of the `ret` (emit_epilogue's `leave`), so the callee
// starts with rsp and the callee-saved registers as our caller left them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "mc_emitter.h"
#include "x64/x64.h"

namespace pl::x64 {

struct FrameRequest {
  struct Slot {
    uint32_t size = 0;
    uint32_t align = 1;  // power of two
  };
  std::vector<Slot> slots;     // x64:stackslot items, by index
  uint32_t spill_slots = 0;    // sN, 8 bytes each
  std::vector<uint8_t> pushed_slots;  // per sN: 1 = a save done by a push instead (no offset)
  uint32_t outgoing_bytes = 0; // largest outgoing stack-argument area of any call
  std::vector<Reg> pushed;     // callee-saved registers the prologue pushes
  bool has_calls = false;
  bool frame_pointer = false;  // a dynamic stack: rbp is the frame pointer
  bool canary = false;         // stack protector (above)
  uint32_t realign = 0;        // rsp's alignment in the body when above 16 (needs frame_pointer)
};

struct Frame {
  std::vector<int32_t> slot_offsets;   // rsp-relative, parallel to FrameRequest::slots
  std::vector<int32_t> spill_offsets;  // rsp-relative offset of spill slot sN (not of a pushed one)
  std::vector<Reg> pushed;
  int32_t adjust = 0;                  // bytes the prologue subtracts from rsp
  bool red_zone = false;
  bool frame_pointer = false;          // pushed[0] is rbp, the frame pointer
  std::optional<int32_t> canary;       // rsp-relative offset of the stack protector's canary
  uint32_t realign = 0;                // `and $-realign, %rsp` after the adjustment (above)

  // The address of the frame byte at `offset` from rsp in the body (before
  // any alloca): rsp relative, or with a frame pointer rbp relative.
  Mem at(int32_t offset) const {
    if (!frame_pointer) return Mem::at(Reg::Rsp, offset);
    return Mem::at(Reg::Rbp, offset - adjust - 8 * (static_cast<int32_t>(pushed.size()) - 1));
  }

  // rsp-relative address of incoming stack argument byte n.
  int32_t argslot_offset(uint32_t n) const {
    return adjust + 8 * static_cast<int32_t>(pushed.size()) + 8 + static_cast<int32_t>(n);
  }
  // The CFA (entry rsp + 8) relative to rsp in the body.
  int32_t cfa_offset() const { return argslot_offset(0); }
};

Frame layout_frame(const FrameRequest& request);

// Pushes, rsp adjustment and their CFI (after begin_function).
void emit_prologue(McEmitter& out, const Frame& frame);
// Undoes the prologue and returns; `last` = at the function's end (else the
// CFI state is remembered before and restored after).
// The epilogue, then `ret`, or `leave` instead (a sibling call's `jmp`,
// with rsp back at its value at entry and the callee-saved registers
// restored).
void emit_epilogue(McEmitter& out, const Frame& frame, bool last, const std::function<void()>& leave = {});

}  // namespace pl::x64
