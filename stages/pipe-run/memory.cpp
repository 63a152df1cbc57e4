// memory.cpp - pipe-run's memory model: every object the program can point
// to is an allocation with bounds.
//
// Allocations: each stack slot of each activation, each data item, each
// malloc'd block, each function and extern (so function pointers are
// distinct, callable addresses), and the FILE objects of stdin, stdout and
// stderr. A pointer is the allocation id (high 32 bits) and a biased offset
// (low 32 bits, see run.h), so pointer arithmetic is plain 64-bit arithmetic
// and every access checks, in Memory::at(), that the id names a live
// allocation and the bytes lie inside it (and that a write does not touch
// read-only data).
//
// Ended allocations (freed blocks, slots of returned activations) keep their
// record, marked, so a later access is reported as a use after free / after
// return rather than as garbage. Their ids are reused only after kQuarantine
// more allocations have ended (as AddressSanitizer's quarantine does), which
// bounds the table by the live allocations plus the quarantine: a dangling
// pointer older than that may alias a newer allocation (documented limit).
//
// Every byte the program allocates (and the interpreter's value stacks) is
// charged against --max-memory; going over it is a runtime error.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "run.h"

namespace pl::run {

namespace {

constexpr size_t kQuarantine = size_t{1} << 18;

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string access_text(uint64_t size, Access access) {
  return std::to_string(size) + "-byte " + (access == Access::Read ? "read" : "write");
}

std::string node_in(const Program* program, uint32_t fn, uint32_t node) {
  if (fn == kNone || node == kNone) return "";
  return node_name(node) + " in " + program->module().functions[fn].name;
}

}  // namespace

Memory::~Memory() {
  for (Allocation& a : allocs_)
    if (a.owns_data) std::free(a.data);
}

void Memory::charge(uint64_t bytes, const char* what) {
  if (bytes > limit_ || used_ > limit_ - bytes)
    throw RuntimeError(std::string("out of memory: ") + what + " needs " + std::to_string(bytes) +
                       " more bytes, over the limit of " + std::to_string(limit_) + " bytes (--max-memory)");
  used_ += bytes;
}

uint32_t Memory::new_id() {
  if (!free_ids_.empty()) {
    uint32_t id = free_ids_.back();
    free_ids_.pop_back();
    return id;
  }
  if (allocs_.size() >= kNone) throw RuntimeError("too many live allocations");
  allocs_.emplace_back();
  return static_cast<uint32_t>(allocs_.size() - 1);
}

uint32_t Memory::add(const Allocation& a) {
  uint32_t id = new_id();
  allocs_[id] = a;
  return id;
}

void Memory::retire(uint32_t id, AllocState state) {
  Allocation& a = allocs_[id];
  a.state = state;
  if (a.owns_data) std::free(a.data);
  a.owns_data = false;
  a.data = nullptr;
  quarantine_.push_back(id);
  if (quarantine_.size() > kQuarantine) {
    free_ids_.push_back(quarantine_.front());
    quarantine_.pop_front();
  }
}

uint64_t Memory::allocate_heap(uint64_t size, uint32_t fn, uint32_t node) {
  if (size > kMaxAllocation)
    throw RuntimeError("cannot allocate " + std::to_string(size) + " bytes: pipe-run's largest allocation is " +
                       std::to_string(kMaxAllocation) + " bytes");
  charge(size, "malloc");
  Allocation a;
  a.data = static_cast<uint8_t*>(std::calloc(size ? size : 1, 1));
  if (!a.data) throw std::bad_alloc();
  a.size = static_cast<uint32_t>(size);
  a.kind = AllocKind::Heap;
  a.owns_data = true;
  a.fn = fn;
  a.node = node;
  return make_pointer(add(a), 0);
}

uint32_t Memory::heap_block_size(uint64_t p, std::string_view who) const {
  uint32_t id = pointer_id(p);
  if (!valid_id(id) || allocs_[id].kind != AllocKind::Heap || pointer_offset(p) != 0)
    throw RuntimeError(std::string(who) + " of " + hex(p) + ", which malloc did not return" +
                       (valid_id(id) ? " (it points into " + describe(id) + ")" : ""));
  if (allocs_[id].state != AllocState::Live)
    throw RuntimeError(std::string(who) + " of " + describe(id) + ", already freed");
  return allocs_[id].size;
}

void Memory::free_heap(uint64_t p) {
  if (p == 0) return;
  uncharge(heap_block_size(p, "free"));
  retire(pointer_id(p), AllocState::Freed);
}

void Memory::allocate_slots(std::span<const uint32_t> sizes, std::span<const uint64_t> offsets, uint64_t frame_size,
                            std::span<const uint32_t> nodes, uint32_t fn, uint64_t* out) {
  if (sizes.empty()) return;
  uint64_t charged = 0;
  for (uint32_t size : sizes) charged += size;
  charge(charged, "the stack slots of a call");
  auto* buffer = static_cast<uint8_t*>(std::calloc(frame_size ? frame_size : 1, 1));
  if (!buffer) throw std::bad_alloc();
  for (size_t i = 0; i < sizes.size(); ++i) {
    Allocation a;
    a.data = buffer + offsets[i];
    a.size = sizes[i];
    a.kind = AllocKind::Stack;
    a.owns_data = i == 0;
    a.fn = fn;
    a.node = nodes[i];
    out[i] = make_pointer(add(a), 0);
  }
}

uint64_t Memory::allocate_varargs(std::span<const uint64_t> values, uint32_t fn) {
  uint64_t bytes = values.size() * 8;
  charge(bytes, "the variadic arguments of a call");
  Allocation a;
  a.size = static_cast<uint32_t>(bytes);
  a.kind = AllocKind::VarArgs;
  a.readonly = true;
  a.fn = fn;
  if (bytes) {
    a.data = static_cast<uint8_t*>(std::malloc(bytes));
    if (!a.data) throw std::bad_alloc();
    a.owns_data = true;
    for (size_t i = 0; i < values.size(); ++i) std::memcpy(a.data + 8 * i, &values[i], 8);
  }
  return make_pointer(add(a), 0);
}

void Memory::release_varargs(uint64_t p) {
  uint32_t id = pointer_id(p);
  uncharge(allocs_[id].size);
  retire(id, AllocState::Returned);
}

uint64_t Memory::allocate_dynamic(uint64_t size, uint32_t fn, uint32_t node) {
  if (size > kMaxAllocation)
    throw RuntimeError("cannot alloca " + std::to_string(size) + " bytes: pipe-run's largest allocation is " +
                       std::to_string(kMaxAllocation) + " bytes");
  charge(size, "alloca");
  Allocation a;
  a.data = static_cast<uint8_t*>(std::calloc(size ? size : 1, 1));
  if (!a.data) throw std::bad_alloc();
  a.size = static_cast<uint32_t>(size);
  a.kind = AllocKind::Alloca;
  a.owns_data = true;
  a.fn = fn;
  a.node = node;
  return make_pointer(add(a), 0);
}

void Memory::release_dynamic(uint64_t p, bool freed) {
  uint32_t id = pointer_id(p);
  uncharge(allocs_[id].size);
  retire(id, freed ? AllocState::Freed : AllocState::Returned);
}

void Memory::release_slots(std::span<const uint64_t> pointers) {
  uint64_t charged = 0;
  // Retire the buffer's owner (the first slot) last, so no slot outlives it.
  for (size_t i = pointers.size(); i-- > 0;) {
    uint32_t id = pointer_id(pointers[i]);
    charged += allocs_[id].size;
    retire(id, AllocState::Returned);
  }
  uncharge(charged);
}

std::string Memory::describe(uint32_t id) const {
  if (!valid_id(id)) return "no allocation";
  const Allocation& a = allocs_[id];
  const Module& m = program_->module();
  std::string where = node_in(program_, a.fn, a.node);
  switch (a.kind) {
    case AllocKind::Stack: return "a " + std::to_string(a.size) + "-byte stack slot (" + where + ")";
    case AllocKind::Alloca: return "a " + std::to_string(a.size) + "-byte alloca block (" + where + ")";
    case AllocKind::Heap:
      return "a " + std::to_string(a.size) + "-byte heap block" + (where.empty() ? "" : " (allocated at " + where + ")");
    case AllocKind::Data:
      return "data '" + m.header.data[a.index].name + "' (" + std::to_string(a.size) + " bytes)";
    case AllocKind::Function: return "function '" + m.functions[a.index].name + "'";
    case AllocKind::ExternFunction: return "external function '" + m.header.externs[a.index].name + "'";
    case AllocKind::ExternData: return "external data '" + m.header.externs[a.index].name + "'";
    case AllocKind::File: {
      static const char* const names[] = {"stdin", "stdout", "stderr"};
      return std::string("the FILE object of ") + names[a.index % 3];
    }
    case AllocKind::Argv: return "a " + std::to_string(a.size) + "-byte block of main's arguments";
    case AllocKind::VarArgs:
      return "the " + std::to_string(a.size / 8) + " variadic argument" + (a.size == 8 ? "" : "s") + " of a call to '" +
             m.functions[a.fn].name + "'";
  }
  return "an allocation";
}

void Memory::bad_access(uint64_t p, uint64_t size, Access access) const {
  std::string what = access_text(size, access);
  uint32_t id = pointer_id(p);
  if (p == 0) throw RuntimeError("null pointer dereference (" + what + ")");
  if (!valid_id(id)) throw RuntimeError(what + " through " + hex(p) + ", which points to no allocation");
  const Allocation& a = allocs_[id];
  std::string desc = describe(id);
  if (a.state == AllocState::Freed) throw RuntimeError("use after free: " + what + " of " + desc + ", freed");
  if (a.state == AllocState::Returned)
    throw RuntimeError("use after return: " + what + " of " + desc + ", whose call has returned");
  if (a.kind == AllocKind::Function || a.kind == AllocKind::ExternFunction)
    throw RuntimeError(what + " of " + desc + ", which is code, not data");
  if (a.kind == AllocKind::ExternData && a.size == 0)
    throw RuntimeError(what + " of " + desc + ", which pipe-run does not provide");
  int64_t off = pointer_offset(p);
  if (off >= 0 && size <= a.size && static_cast<uint64_t>(off) <= a.size - size && access == Access::Write)
    throw RuntimeError(what + " to read-only " + desc);
  throw RuntimeError("out of bounds: " + what + " at offset " + std::to_string(off) + " of " + desc);
}

uint64_t Memory::string_length(uint64_t p) const {
  const uint8_t* first = at(p, 1, Access::Read);
  const Allocation& a = allocs_[pointer_id(p)];
  uint64_t off = static_cast<uint64_t>(pointer_offset(p));
  const void* nul = std::memchr(first, 0, a.size - off);
  if (!nul) throw RuntimeError("string at offset " + std::to_string(off) + " of " + describe(pointer_id(p)) +
                               " has no terminating NUL inside it");
  return static_cast<uint64_t>(static_cast<const uint8_t*>(nul) - first);
}

std::string Memory::read_string(uint64_t p) const {
  uint64_t n = string_length(p);
  const uint8_t* s = at(p, n + 1, Access::Read);
  return std::string(reinterpret_cast<const char*>(s), n);
}

std::string Memory::read_string_max(uint64_t p, uint64_t max) const {
  std::string out;
  for (uint64_t i = 0; i < max; ++i) {
    uint8_t c = *at(p + i, 1, Access::Read);
    if (c == 0) break;
    out += static_cast<char>(c);
  }
  return out;
}

}  // namespace pl::run
