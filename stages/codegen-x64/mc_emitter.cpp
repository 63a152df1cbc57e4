// mc_emitter.cpp - McEmitter over LLVM 14's MC layer (see mc_emitter.h for
// why MC, and for the encoding choices that keep `as` and us in agreement).
#include "mc_emitter.h"

#include <array>
#include <stdexcept>

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

namespace pl::x64 {
namespace {

constexpr const char* kTriple = "x86_64-pc-linux-gnu";

[[noreturn]] void fail(const std::string& what) { throw std::logic_error("codegen-x64 emitter: " + what); }

// X86 condition codes in LLVM (X86::CondCode) are the hardware's encoding,
// which is also the order of our Cond enum (x64.h).
int64_t cond_code(Cond cc) { return static_cast<int64_t>(cc); }

bool fits8(int64_t v) { return v >= -128 && v <= 127; }

// An immediate as the operand size sees it: the low `bits` bits, signed.
int64_t normalize_imm(unsigned bits, int64_t imm) {
  switch (bits) {
    case 8: return static_cast<int8_t>(imm);
    case 16: return static_cast<int16_t>(imm);
    case 32: return static_cast<int32_t>(imm);
    default: return imm;
  }
}

const char* size_suffix(unsigned bits) {
  switch (bits) {
    case 8: return "8";
    case 16: return "16";
    case 32: return "32";
    case 64: return "64";
  }
  fail("operand size " + std::to_string(bits) + " (want 8, 16, 32 or 64)");
}

const char* alu_name(Alu op) {
  switch (op) {
    case Alu::Add: return "ADD";
    case Alu::Sub: return "SUB";
    case Alu::And: return "AND";
    case Alu::Or: return "OR";
    case Alu::Xor: return "XOR";
    case Alu::Cmp: return "CMP";
  }
  return "";
}

const char* shift_name(Shift op) {
  switch (op) {
    case Shift::Shl: return "SHL";
    case Shift::Shr: return "SHR";
    case Shift::Sar: return "SAR";
  }
  return "";
}

int size_index(unsigned bits) {
  switch (bits) {
    case 8: return 0;
    case 16: return 1;
    case 32: return 2;
    case 64: return 3;
  }
  fail("operand size " + std::to_string(bits));
}

}  // namespace

struct McEmitter::Impl {
  EmitterOptions options;
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  llvm::MCTargetOptions mc_options;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCObjectFileInfo> mofi;
  std::unique_ptr<llvm::MCStreamer> streamer;
  // Output buffers: the object's bytes, or the assembly text.
  llvm::SmallVector<char, 0> object_bytes;
  std::unique_ptr<llvm::raw_svector_ostream> object_stream;
  std::string asm_text;
  std::unique_ptr<llvm::raw_string_ostream> asm_stream;

  llvm::StringMap<unsigned> opcodes;
  std::array<std::array<unsigned, 4>, kNumRegs> regs{};  // [reg][size index]
  unsigned rip = 0;
  unsigned fs = 0;
  std::vector<llvm::MCSymbol*> labels;
  llvm::MCSymbol* function_symbol = nullptr;
  llvm::MCSymbol* last_end = nullptr;
  bool prologue_end_next = false;
  bool last_is_stmt = true;
  Loc pending_loc;
  bool pending_is_stmt = true;
  bool has_pending_loc = false;
  unsigned function_count = 0;
  unsigned asm_count = 0;  // %= numbers handed out
  Loc last_loc;
  size_t num_files = 0;
  bool finished = false;
  // Floating-point constants by (size in bytes, pattern), in first-use order.
  std::vector<std::pair<std::pair<unsigned, uint64_t>, llvm::MCSymbol*>> float_consts;

  explicit Impl(EmitterOptions opts);
  unsigned op(const std::string& name) const;
  unsigned reg(Reg r, unsigned bits) const { return regs[static_cast<size_t>(r)][size_index(bits)]; }
  llvm::MCSymbol* symbol(std::string_view name) { return ctx->getOrCreateSymbol(llvm::StringRef(name.data(), name.size())); }
  llvm::MCSymbol* label_symbol(Label l) const {
    if (l.id >= labels.size()) fail("unknown label " + std::to_string(l.id));
    return labels[l.id];
  }
  uint64_t instructions = 0;
  void emit(const llvm::MCInst& inst) {
    if (has_pending_loc) flush_loc();
    streamer->emitInstruction(inst, *sti);
    ++instructions;
  }
  // The line entry set_loc asked for, at the instruction about to be
  // emitted: a location whose node emitted no code makes no row (gdb reads
  // two rows at one address as "no line" and stops stepping into a
  // function at its first byte).
  void flush_loc() {
    has_pending_loc = false;
    if (pending_loc == last_loc && pending_is_stmt == last_is_stmt && !prologue_end_next) return;
    unsigned flags = pending_is_stmt ? DWARF2_FLAG_IS_STMT : 0;
    if (prologue_end_next) flags |= DWARF2_FLAG_PROLOGUE_END;
    prologue_end_next = false;
    streamer->emitDwarfLocDirective(pending_loc.file + 1, pending_loc.line, pending_loc.col, flags, 0, 0, "");
    last_loc = pending_loc;
    last_is_stmt = pending_is_stmt;
  }
  void emit(unsigned opcode, std::initializer_list<llvm::MCOperand> operands);
  void add_mem(llvm::MCInst& inst, const Mem& m);
  // The register-from-memory form (registers, then the memory operand) and
  // the memory-destination form (the memory operand, then one register or
  // immediate) of an instruction.
  void emit_rm(unsigned opcode, std::initializer_list<llvm::MCOperand> regs, const Mem& mem);
  void emit_mr(unsigned opcode, const Mem& mem, const llvm::MCOperand& last);
  static llvm::MCOperand r(unsigned reg) { return llvm::MCOperand::createReg(reg); }
  static llvm::MCOperand imm(int64_t v) { return llvm::MCOperand::createImm(v); }
  llvm::MCOperand expr(llvm::MCSymbol* s, llvm::MCSymbolRefExpr::VariantKind kind = llvm::MCSymbolRefExpr::VK_None) {
    return llvm::MCOperand::createExpr(llvm::MCSymbolRefExpr::create(s, kind, *ctx));
  }
  void switch_to_text();
  void binding(llvm::MCSymbol* sym, Linkage linkage, const SymbolAttrs& attrs);
  void array_entry(const char* array, int32_t priority, llvm::MCSymbol* fn);
  llvm::MCSection* named_section(const std::string& name, bool code, bool readonly);
};

void McEmitter::Impl::binding(llvm::MCSymbol* sym, Linkage linkage, const SymbolAttrs& attrs) {
  if (attrs.weak) streamer->emitSymbolAttribute(sym, llvm::MCSA_Weak);
  else if (linkage == Linkage::External) streamer->emitSymbolAttribute(sym, llvm::MCSA_Global);
  switch (attrs.visibility) {
    case Visibility::Default: break;
    case Visibility::Hidden: streamer->emitSymbolAttribute(sym, llvm::MCSA_Hidden); break;
    case Visibility::Protected: streamer->emitSymbolAttribute(sym, llvm::MCSA_Protected); break;
    case Visibility::Internal: streamer->emitSymbolAttribute(sym, llvm::MCSA_Internal); break;
  }
}

// gcc's sections for a section attribute: code, read-only or writable data.
llvm::MCSection* McEmitter::Impl::named_section(const std::string& name, bool code, bool readonly) {
  unsigned flags = llvm::ELF::SHF_ALLOC;
  if (code) flags |= llvm::ELF::SHF_EXECINSTR;
  else if (!readonly) flags |= llvm::ELF::SHF_WRITE;
  unsigned type = name.rfind(".bss", 0) == 0 ? llvm::ELF::SHT_NOBITS : llvm::ELF::SHT_PROGBITS;
  return ctx->getELFSection(name, type, flags);
}

// One pointer to `fn` in .init_array or .fini_array (with the priority as
// a five-digit suffix unless it is the default, which sorts last).
void McEmitter::Impl::array_entry(const char* array, int32_t priority, llvm::MCSymbol* fn) {
  std::string name = array;
  if (priority != SymbolAttrs::kDefaultPriority) {
    char suffix[8];
    std::snprintf(suffix, sizeof suffix, ".%05d", static_cast<int>(priority));
    name += suffix;
  }
  unsigned type = std::string(array) == ".init_array" ? llvm::ELF::SHT_INIT_ARRAY : llvm::ELF::SHT_FINI_ARRAY;
  streamer->SwitchSection(ctx->getELFSection(name, type, llvm::ELF::SHF_ALLOC | llvm::ELF::SHF_WRITE));
  streamer->emitValueToAlignment(8);
  streamer->emitValue(llvm::MCSymbolRefExpr::create(fn, *ctx), 8);
}

McEmitter::Impl::Impl(EmitterOptions opts) : options(std::move(opts)) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmParser();
  std::string error;
  target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) fail("no x86-64 target in libLLVM: " + error);
  mri.reset(target->createMCRegInfo(kTriple));
  mai.reset(target->createMCAsmInfo(*mri, kTriple, mc_options));
  mii.reset(target->createMCInstrInfo());
  sti.reset(target->createMCSubtargetInfo(kTriple, "x86-64", ""));
  ctx = std::make_unique<llvm::MCContext>(llvm::Triple(kTriple), mai.get(), mri.get(), sti.get());
  mofi.reset(target->createMCObjectFileInfo(*ctx, /*PIC=*/true));
  ctx->setObjectFileInfo(mofi.get());
  ctx->setDwarfVersion(4);
  ctx->setDwarfDebugProducer("pipe codegen-x64");
  if (!options.compilation_dir.empty()) ctx->setCompilationDir(options.compilation_dir);

  for (unsigned i = 0; i < mii->getNumOpcodes(); ++i) opcodes[mii->getName(i)] = i;
  llvm::StringMap<unsigned> reg_ids;
  for (unsigned i = 0; i < mri->getNumRegs(); ++i) reg_ids[mri->getName(i)] = i;
  auto lookup_reg = [&](std::string_view name) {
    std::string upper(name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto it = reg_ids.find(upper);
    if (it == reg_ids.end()) fail("libLLVM has no register " + upper);
    return it->second;
  };
  for (int i = 0; i < kNumRegs; ++i) {
    Reg rg = static_cast<Reg>(i);
    for (unsigned bits : {8u, 16u, 32u, 64u}) regs[i][size_index(bits)] = lookup_reg(reg_name_sized(rg, bits));
  }
  rip = lookup_reg("rip");
  fs = lookup_reg("fs");

  if (options.kind == OutputKind::Object) {
    object_stream = std::make_unique<llvm::raw_svector_ostream>(object_bytes);
    llvm::MCCodeEmitter* code_emitter = target->createMCCodeEmitter(*mii, *mri, *ctx);
    llvm::MCAsmBackend* backend = target->createMCAsmBackend(*sti, *mri, mc_options);
    if (!code_emitter || !backend) fail("libLLVM has no x86-64 object writer");
    streamer.reset(target->createMCObjectStreamer(
        llvm::Triple(kTriple), *ctx, std::unique_ptr<llvm::MCAsmBackend>(backend),
        backend->createObjectWriter(*object_stream), std::unique_ptr<llvm::MCCodeEmitter>(code_emitter), *sti,
        /*RelaxAll=*/false, /*IncrementalLinkerCompatible=*/false, /*DWARFMustBeAtTheEnd=*/false));
    // A compile unit for the line table, as `as -g` makes one: gdb and
    // addr2line find line tables through .debug_info.
    // With the module's debug section, dwarf.cpp writes the unit instead.
    if (options.debug_lines && !options.debug_info) ctx->setGenDwarfForAssembly(true);
  } else {
    asm_stream = std::make_unique<llvm::raw_string_ostream>(asm_text);
    llvm::MCInstPrinter* printer = target->createMCInstPrinter(llvm::Triple(kTriple), /*AT&T*/ 0, *mai, *mii, *mri);
    if (!printer) fail("libLLVM has no x86-64 instruction printer");
    streamer.reset(target->createAsmStreamer(*ctx, std::make_unique<llvm::formatted_raw_ostream>(*asm_stream),
                                             /*IsVerboseAsm=*/false, /*UseDwarfDirectory=*/false, printer,
                                             nullptr, nullptr, /*ShowInst=*/false));
  }
  streamer->initSections(false, *sti);
  if (!options.source_name.empty()) streamer->emitFileDirective(options.source_name);
  switch_to_text();
}

unsigned McEmitter::Impl::op(const std::string& name) const {
  auto it = opcodes.find(name);
  if (it == opcodes.end()) fail("libLLVM has no X86 instruction " + name);
  return it->second;
}

void McEmitter::Impl::emit(unsigned opcode, std::initializer_list<llvm::MCOperand> operands) {
  llvm::MCInst inst;
  inst.setOpcode(opcode);
  for (const llvm::MCOperand& o : operands) inst.addOperand(o);
  emit(inst);
}

void McEmitter::Impl::emit_rm(unsigned opcode, std::initializer_list<llvm::MCOperand> regs, const Mem& mem) {
  llvm::MCInst inst;
  inst.setOpcode(opcode);
  for (const llvm::MCOperand& o : regs) inst.addOperand(o);
  add_mem(inst, mem);
  emit(inst);
}

void McEmitter::Impl::emit_mr(unsigned opcode, const Mem& mem, const llvm::MCOperand& last) {
  llvm::MCInst inst;
  inst.setOpcode(opcode);
  add_mem(inst, mem);
  inst.addOperand(last);
  emit(inst);
}

// X86 memory operands are five MCOperands: base, scale, index, displacement,
// segment.
void McEmitter::Impl::add_mem(llvm::MCInst& inst, const Mem& m) {
  if (!m.symbol.empty()) {
    if (m.base || m.index || m.fs) fail("a RIP-relative operand has no base, index or segment");
    inst.addOperand(r(rip));
    inst.addOperand(imm(1));
    inst.addOperand(r(0));
    const llvm::MCExpr* e = llvm::MCSymbolRefExpr::create(symbol(m.symbol), *ctx);
    if (m.disp != 0) e = llvm::MCBinaryExpr::createAdd(e, llvm::MCConstantExpr::create(m.disp, *ctx), *ctx);
    inst.addOperand(llvm::MCOperand::createExpr(e));
    inst.addOperand(r(0));
    return;
  }
  if (m.index) {
    if (m.scale != 1 && m.scale != 2 && m.scale != 4 && m.scale != 8) fail("scale " + std::to_string(m.scale));
    if (*m.index == Reg::Rsp) fail("rsp cannot be an index register");
  }
  inst.addOperand(r(m.base ? reg(*m.base, 64) : 0));
  inst.addOperand(imm(m.index ? m.scale : 1));
  inst.addOperand(r(m.index ? reg(*m.index, 64) : 0));
  inst.addOperand(imm(m.disp));
  inst.addOperand(r(m.fs ? fs : 0));
}

void McEmitter::Impl::switch_to_text() {
  llvm::MCSection* text = mofi->getTextSection();
  streamer->SwitchSection(text);
  // The compile unit's address range: .text from its begin symbol (ELF
  // sections have one) to its end.
  if (ctx->getGenDwarfForAssembly()) ctx->addGenDwarfSection(text);
}

McEmitter::McEmitter(EmitterOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

const EmitterOptions& McEmitter::options() const { return impl_->options; }
McEmitter::~McEmitter() = default;

// ---- functions, labels, lines, CFI ----

void McEmitter::begin_function(std::string_view name, Linkage linkage, const SymbolAttrs& attrs) {
  Impl& m = *impl_;
  llvm::MCSymbol* sym = m.symbol(name);
  if (attrs.constructor != SymbolAttrs::kNone) m.array_entry(".init_array", attrs.constructor, sym);
  if (attrs.destructor != SymbolAttrs::kNone) m.array_entry(".fini_array", attrs.destructor, sym);
  m.switch_to_text();
  std::string section_name = !attrs.section.empty()         ? attrs.section
                             : m.options.sections.functions ? ".text." + std::string(name)
                                                            : "";
  if (!section_name.empty()) {
    llvm::MCSection* section = m.named_section(section_name, true, true);
    m.streamer->SwitchSection(section);
    if (m.ctx->getGenDwarfForAssembly()) m.ctx->addGenDwarfSection(section);
  }
  m.binding(sym, linkage, attrs);
  m.streamer->emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeFunction);
  // Padding between functions (never executed) is int3: `as` and MC pick
  // different long-nop sequences for code alignment (also for a 0x90
  // fill), so `.p2align 4, 0xcc` keeps the text and the object identical.
  m.streamer->emitValueToAlignment(16, 0xCC, 1);
  m.streamer->emitLabel(sym);
  m.streamer->emitCFIStartProc(/*IsSimple=*/false);
  m.function_symbol = sym;
  m.last_loc = Loc{};
  m.last_is_stmt = true;
  m.prologue_end_next = false;
  m.has_pending_loc = false;
}

void McEmitter::end_function() {
  Impl& m = *impl_;
  if (!m.function_symbol) fail("end_function without begin_function");
  m.streamer->emitCFIEndProc();
  llvm::MCSymbol* end = m.ctx->createTempSymbol("func_end" + std::to_string(m.function_count++), false);
  m.streamer->emitLabel(end);
  const llvm::MCExpr* size = llvm::MCBinaryExpr::createSub(llvm::MCSymbolRefExpr::create(end, *m.ctx),
                                                           llvm::MCSymbolRefExpr::create(m.function_symbol, *m.ctx), *m.ctx);
  m.streamer->emitELFSize(m.function_symbol, size);
  m.function_symbol = nullptr;
  m.last_end = end;
}

llvm::MCStreamer& McEmitter::mc_streamer() { return *impl_->streamer; }
llvm::MCContext& McEmitter::mc_context() { return *impl_->ctx; }
llvm::MCSymbol* McEmitter::symbol_named(std::string_view name) { return impl_->symbol(name); }
llvm::MCSymbol* McEmitter::function_begin() const { return impl_->function_symbol; }
llvm::MCSymbol* McEmitter::last_function_end() const { return impl_->last_end; }
llvm::MCSymbol* McEmitter::here() {
  llvm::MCSymbol* l = impl_->ctx->createTempSymbol("dbg", true);
  impl_->streamer->emitLabel(l);
  return l;
}
uint64_t McEmitter::instructions_emitted() const { return impl_->instructions; }
void McEmitter::branch_target() {
  if (impl_->options.cf_protection.ibt) impl_->emit(impl_->op("ENDBR64"), {});
}
void McEmitter::mark_prologue_end() { impl_->prologue_end_next = true; }

Label McEmitter::make_label() {
  Impl& m = *impl_;
  Label l{static_cast<uint32_t>(m.labels.size())};
  m.labels.push_back(m.ctx->createTempSymbol("B" + std::to_string(l.id) + "_", false));
  return l;
}

void McEmitter::bind(Label label) { impl_->streamer->emitLabel(impl_->label_symbol(label)); }

void McEmitter::set_files(const std::vector<std::string>& files) {
  Impl& m = *impl_;
  if (!m.options.debug_lines) return;
  for (size_t i = m.num_files; i < files.size(); ++i)
    m.streamer->emitDwarfFileDirective(static_cast<unsigned>(i + 1), "", files[i]);
  m.num_files = files.size();
}

void McEmitter::set_loc(const Loc& loc, bool is_stmt) {
  Impl& m = *impl_;
  if (!m.options.debug_lines || !loc.valid()) return;
  if (loc.file >= m.num_files) fail("source location names file " + std::to_string(loc.file) + " of " + std::to_string(m.num_files));
  m.pending_loc = loc;
  m.pending_is_stmt = is_stmt;
  m.has_pending_loc = true;
}

void McEmitter::cfi_def_cfa_offset(int32_t offset) { impl_->streamer->emitCFIDefCfaOffset(offset); }

void McEmitter::cfi_offset(Reg reg, int32_t offset) {
  Impl& m = *impl_;
  m.streamer->emitCFIOffset(m.mri->getDwarfRegNum(m.reg(reg, 64), true), offset);
}

void McEmitter::cfi_def_cfa_register(Reg reg) {
  Impl& m = *impl_;
  m.streamer->emitCFIDefCfaRegister(m.mri->getDwarfRegNum(m.reg(reg, 64), true));
}

void McEmitter::cfi_def_cfa(Reg reg, int32_t offset) {
  Impl& m = *impl_;
  m.streamer->emitCFIDefCfa(m.mri->getDwarfRegNum(m.reg(reg, 64), true), offset);
}

void McEmitter::cfi_remember_state() { impl_->streamer->emitCFIRememberState(); }
void McEmitter::cfi_restore_state() { impl_->streamer->emitCFIRestoreState(); }

// ---- data ----

void McEmitter::data_item(const DataItem& item) {
  Impl& m = *impl_;
  if (item.init.size() > item.size) fail("data '" + item.name + "': initializer longer than the item");
  if (item.attrs.common) {
    // A common symbol (-fcommon's tentative definition): no section, the
    // linker allocates it (`.comm NAME,SIZE,ALIGN`, SHN_COMMON), as gcc's.
    llvm::MCSymbol* sym = m.symbol(item.name);
    if (item.attrs.visibility != Visibility::Default) m.binding(sym, item.linkage, item.attrs);
    m.streamer->emitSymbolAttribute(sym, llvm::MCSA_ELF_TypeObject);
    m.streamer->emitCommonSymbol(sym, item.size, std::max<uint32_t>(item.align, 1));
    return;
  }
  bool zero = item.relocs.empty() && item.init.find_first_not_of('\0') == std::string::npos;
  llvm::MCSection* section;
  if (item.attrs.tls) {
    // gcc's sections: .tdata (initialized, @progbits) and .tbss (@nobits),
    // "awT"; with a section attribute or -fdata-sections, that name.
    std::string name = zero ? ".tbss" : ".tdata";
    if (!item.attrs.section.empty()) name = item.attrs.section;
    else if (m.options.sections.data && !item.name.empty() && item.name[0] != '.') name += "." + item.name;
    bool nobits = name.rfind(".tbss", 0) == 0;
    if (nobits && !zero) fail("thread-local data '" + item.name + "' with initial bytes in the .tbss section " + name);
    section = m.ctx->getELFSection(name, nobits ? llvm::ELF::SHT_NOBITS : llvm::ELF::SHT_PROGBITS,
                                   llvm::ELF::SHF_ALLOC | llvm::ELF::SHF_WRITE | llvm::ELF::SHF_TLS);
  } else if (item.readonly)
    section = item.relocs.empty() ? m.mofi->getReadOnlySection() : m.mofi->getDataRelROSection();
  else
    section = zero ? m.mofi->getBSSSection() : m.mofi->getDataSection();
  if (item.attrs.tls) {
    // (chosen above)
  } else if (!item.attrs.section.empty()) {
    section = m.named_section(item.attrs.section, false, item.readonly);
  } else if (m.options.sections.data && !item.name.empty() && item.name[0] != '.') {
    // The shared section's name and flags, with the item's name appended:
    // read-only data with relocations is .data.rel.ro (written by the
    // dynamic linker, then protected; gcc says .data.rel.ro.local when
    // every target is local, which the linker places alike).
    std::string prefix = !item.readonly ? (zero ? ".bss." : ".data.")
                         : item.relocs.empty() ? ".rodata."
                                               : ".data.rel.ro.";
    section = m.named_section(prefix + item.name, false, item.readonly && item.relocs.empty());
  }
  m.streamer->SwitchSection(section);
  llvm::MCSymbol* sym = m.symbol(item.name);
  m.binding(sym, item.linkage, item.attrs);
  m.streamer->emitSymbolAttribute(sym, item.attrs.tls ? llvm::MCSA_ELF_TypeTLS : llvm::MCSA_ELF_TypeObject);
  m.streamer->emitValueToAlignment(std::max<uint32_t>(item.align, 1));
  m.streamer->emitLabel(sym);
  uint64_t at = 0;
  auto bytes_until = [&](uint64_t end) {
    uint64_t init_end = std::min<uint64_t>(end, item.init.size());
    if (at < init_end && !zero) {
      m.streamer->emitBytes(llvm::StringRef(item.init.data() + at, init_end - at));
      at = init_end;
    }
    if (at < end) m.streamer->emitZeros(end - at);
    at = end;
  };
  for (const Reloc& rel : item.relocs) {
    if (rel.offset < at || rel.offset + 8 > item.size) fail("data '" + item.name + "': relocation out of order or range");
    bytes_until(rel.offset);
    const llvm::MCExpr* e = llvm::MCSymbolRefExpr::create(m.symbol(rel.symbol), *m.ctx);
    if (rel.addend != 0) e = llvm::MCBinaryExpr::createAdd(e, llvm::MCConstantExpr::create(rel.addend, *m.ctx), *m.ctx);
    m.streamer->emitValue(e, 8);
    at += 8;
  }
  bytes_until(item.size);
  m.streamer->emitELFSize(sym, llvm::MCConstantExpr::create(static_cast<int64_t>(item.size), *m.ctx));
  m.switch_to_text();
}

void McEmitter::declare_extern(std::string_view name) { impl_->symbol(name); }

void McEmitter::extern_symbol(const Extern& e, uint64_t alias_size) {
  Impl& m = *impl_;
  llvm::MCSymbol* sym = m.symbol(e.name);
  if (e.attrs.alias.empty()) {
    if (e.attrs.weak || e.attrs.visibility != Visibility::Default) m.binding(sym, Linkage::External, e.attrs);
    return;
  }
  m.binding(sym, Linkage::External, e.attrs);
  bool function = e.kind == ExternKind::Function;
  m.streamer->emitSymbolAttribute(sym, function ? llvm::MCSA_ELF_TypeFunction : llvm::MCSA_ELF_TypeObject);
  m.streamer->emitAssignment(sym, llvm::MCSymbolRefExpr::create(m.symbol(e.attrs.alias), *m.ctx));
  if (!function) m.streamer->emitELFSize(sym, llvm::MCConstantExpr::create(static_cast<int64_t>(alias_size), *m.ctx));
}

// ---- instructions ----

void McEmitter::mov(unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(std::string("MOV") + size_suffix(bits) + "rr"), {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(src, bits))});
}

void McEmitter::mov_imm(unsigned bits, Reg dst, int64_t value) {
  Impl& m = *impl_;
  if (bits == 64) {
    if (value >= 0 && value <= 0xFFFFFFFFll) {  // movl zero-extends: shorter
      m.emit(m.op("MOV32ri"), {Impl::r(m.reg(dst, 32)), Impl::imm(static_cast<int32_t>(value))});
    } else if (value >= INT32_MIN && value <= INT32_MAX) {
      m.emit(m.op("MOV64ri32"), {Impl::r(m.reg(dst, 64)), Impl::imm(value)});
    } else {
      m.emit(m.op("MOV64ri"), {Impl::r(m.reg(dst, 64)), Impl::imm(value)});
    }
    return;
  }
  m.emit(m.op(std::string("MOV") + size_suffix(bits) + "ri"), {Impl::r(m.reg(dst, bits)), Impl::imm(normalize_imm(bits, value))});
}

void McEmitter::load(unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  m.emit_rm(m.op(std::string("MOV") + size_suffix(bits) + "rm"), {Impl::r(m.reg(dst, bits))}, src);
}

void McEmitter::load_ext(bool sign, unsigned from, unsigned to, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  if (from >= to || (to != 16 && to != 32 && to != 64)) fail("load_ext from " + std::to_string(from) + " to " + std::to_string(to));
  std::string name;
  unsigned dst_bits = to;
  if (!sign && (from == 32 || to == 64)) dst_bits = std::max(from, 32u);  // writing r32 zero-extends to 64
  if (!sign && from == 32) name = "MOV32rm";
  else name = std::string(sign ? "MOVSX" : "MOVZX") + size_suffix(dst_bits) + "rm" + size_suffix(from);
  m.emit_rm(m.op(name), {Impl::r(m.reg(dst, dst_bits))}, src);
}

void McEmitter::store(unsigned bits, const Mem& dst, Reg src) {
  Impl& m = *impl_;
  m.emit_mr(m.op(std::string("MOV") + size_suffix(bits) + "mr"), dst, Impl::r(m.reg(src, bits)));
}

void McEmitter::store_imm(unsigned bits, const Mem& dst, int32_t value) {
  Impl& m = *impl_;
  m.emit_mr(m.op(bits == 64 ? "MOV64mi32" : std::string("MOV") + size_suffix(bits) + "mi"), dst, Impl::imm(normalize_imm(bits, value)));
}

void McEmitter::lea(unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  if (bits != 32 && bits != 64) fail("lea of " + std::to_string(bits) + " bits");
  m.emit_rm(m.op(bits == 64 ? "LEA64r" : "LEA64_32r"), {Impl::r(m.reg(dst, bits))}, src);
}

void McEmitter::load_got(Reg dst, std::string_view name) {
  Impl& m = *impl_;
  llvm::MCInst inst;
  inst.setOpcode(m.op("MOV64rm"));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::r(m.rip));
  inst.addOperand(Impl::imm(1));
  inst.addOperand(Impl::r(0));
  inst.addOperand(m.expr(m.symbol(name), llvm::MCSymbolRefExpr::VK_GOTPCREL));
  inst.addOperand(Impl::r(0));
  m.emit(inst);
}

void McEmitter::tls_local_exec(Reg dst, std::string_view name) {
  Impl& m = *impl_;
  load(64, dst, Mem::fs_abs(0));
  llvm::MCInst inst;
  inst.setOpcode(m.op("LEA64r"));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::imm(1));
  inst.addOperand(Impl::r(0));
  inst.addOperand(m.expr(m.symbol(name), llvm::MCSymbolRefExpr::VK_TPOFF));
  inst.addOperand(Impl::r(0));
  m.emit(inst);
}

void McEmitter::tls_initial_exec(Reg dst, std::string_view name) {
  Impl& m = *impl_;
  load(64, dst, Mem::fs_abs(0));
  llvm::MCInst inst;
  inst.setOpcode(m.op("ADD64rm"));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::r(m.rip));
  inst.addOperand(Impl::imm(1));
  inst.addOperand(Impl::r(0));
  inst.addOperand(m.expr(m.symbol(name), llvm::MCSymbolRefExpr::VK_GOTTPOFF));
  inst.addOperand(Impl::r(0));
  m.emit(inst);
}

void McEmitter::tls_general_dynamic(std::string_view name) {
  Impl& m = *impl_;
  // The prefixes are separate MC instructions (as LLVM's own TLS_addr64
  // lowering emits them), so that the object and the text (one prefix per
  // line, which `as` reads) carry exactly the 16 bytes the linker expects.
  m.emit(m.op("DATA16_PREFIX"), {});
  llvm::MCInst lea;
  lea.setOpcode(m.op("LEA64r"));
  lea.addOperand(Impl::r(m.reg(Reg::Rdi, 64)));
  lea.addOperand(Impl::r(m.rip));
  lea.addOperand(Impl::imm(1));
  lea.addOperand(Impl::r(0));
  lea.addOperand(m.expr(m.symbol(name), llvm::MCSymbolRefExpr::VK_TLSGD));
  lea.addOperand(Impl::r(0));
  m.emit(lea);
  m.emit(m.op("DATA16_PREFIX"), {});
  m.emit(m.op("DATA16_PREFIX"), {});
  m.emit(m.op("REX64_PREFIX"), {});
  m.emit(m.op("CALL64pcrel32"), {m.expr(m.symbol("__tls_get_addr"), llvm::MCSymbolRefExpr::VK_PLT)});
}

void McEmitter::alu(Alu op, unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  unsigned opcode = m.op(std::string(alu_name(op)) + size_suffix(bits) + "rr");
  if (op == Alu::Cmp)
    m.emit(opcode, {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(src, bits))});
  else
    m.emit(opcode, {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(dst, bits)), Impl::r(m.reg(src, bits))});
}

void McEmitter::alu_mem(Alu op, unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  llvm::MCInst inst;
  inst.setOpcode(m.op(std::string(alu_name(op)) + size_suffix(bits) + "rm"));
  inst.addOperand(Impl::r(m.reg(dst, bits)));
  if (op != Alu::Cmp) inst.addOperand(Impl::r(m.reg(dst, bits)));
  m.add_mem(inst, src);
  m.emit(inst);
}

// cmp [a], imm: the imm8 form (83 /7) when the immediate fits, as `as` picks.
void McEmitter::cmp_mem_imm(unsigned bits, const Mem& a, int32_t value) {
  Impl& m = *impl_;
  int64_t v = normalize_imm(bits, value);
  std::string form = bits == 8 ? "mi" : fits8(v) ? "mi8" : bits == 64 ? "mi32" : "mi";
  m.emit_mr(m.op(std::string("CMP") + size_suffix(bits) + form), a, Impl::imm(v));
}

// The shortest form, as `as` picks it: imm8 (opcode 83) when the immediate
// fits, else the accumulator form for al/ax/eax/rax, else the full form.
void McEmitter::alu_imm(Alu op, unsigned bits, Reg dst, int32_t value) {
  Impl& m = *impl_;
  int64_t v = normalize_imm(bits, value);
  std::string base = std::string(alu_name(op)) + size_suffix(bits);
  if (dst == Reg::Rax && (bits == 8 || !fits8(v))) {
    const char* acc = bits == 8 ? "i8" : bits == 16 ? "i16" : "i32";
    m.emit(m.op(base + acc), {Impl::imm(v)});
    return;
  }
  std::string form = bits == 8 ? "ri" : fits8(v) ? "ri8" : bits == 64 ? "ri32" : "ri";
  unsigned opcode = m.op(base + form);
  if (op == Alu::Cmp)
    m.emit(opcode, {Impl::r(m.reg(dst, bits)), Impl::imm(v)});
  else
    m.emit(opcode, {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(dst, bits)), Impl::imm(v)});
}

void McEmitter::test(unsigned bits, Reg a, Reg b) {
  Impl& m = *impl_;
  m.emit(m.op(std::string("TEST") + size_suffix(bits) + "rr"), {Impl::r(m.reg(a, bits)), Impl::r(m.reg(b, bits))});
}

void McEmitter::test_imm(unsigned bits, Reg a, int32_t value) {
  Impl& m = *impl_;
  int64_t v = normalize_imm(bits, value);
  std::string base = std::string("TEST") + size_suffix(bits);
  if (a == Reg::Rax) {
    m.emit(m.op(base + (bits == 8 ? "i8" : bits == 16 ? "i16" : "i32")), {Impl::imm(v)});
    return;
  }
  m.emit(m.op(base + (bits == 64 ? "ri32" : "ri")), {Impl::r(m.reg(a, bits)), Impl::imm(v)});
}

// x86 has no two-operand 8-bit imul; the 32-bit one computes the same low
// 8 bits (bits 8-31 of the result then hold the rest of the product).
void McEmitter::imul(unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  unsigned b = bits == 8 ? 32 : bits;
  m.emit(m.op(std::string("IMUL") + size_suffix(b) + "rr"), {Impl::r(m.reg(dst, b)), Impl::r(m.reg(dst, b)), Impl::r(m.reg(src, b))});
}

void McEmitter::imul_imm(unsigned bits, Reg dst, Reg src, int32_t value) {
  Impl& m = *impl_;
  int64_t v = normalize_imm(bits, value);
  unsigned b = bits == 8 ? 32 : bits;
  std::string form = fits8(v) ? "rri8" : b == 64 ? "rri32" : "rri";
  m.emit(m.op(std::string("IMUL") + size_suffix(b) + form), {Impl::r(m.reg(dst, b)), Impl::r(m.reg(src, b)), Impl::imm(v)});
}

void McEmitter::unary(Unary op, unsigned bits, Reg reg) {
  Impl& m = *impl_;
  std::string name = std::string(op == Unary::Neg ? "NEG" : "NOT") + size_suffix(bits) + "r";
  m.emit(m.op(name), {Impl::r(m.reg(reg, bits)), Impl::r(m.reg(reg, bits))});
}

void McEmitter::shift_cl(Shift op, unsigned bits, Reg reg) {
  Impl& m = *impl_;
  m.emit(m.op(std::string(shift_name(op)) + size_suffix(bits) + "rCL"), {Impl::r(m.reg(reg, bits)), Impl::r(m.reg(reg, bits))});
}

void McEmitter::shift_imm(Shift op, unsigned bits, Reg reg, unsigned count) {
  Impl& m = *impl_;
  if (count >= bits) fail("shift by " + std::to_string(count) + " of " + std::to_string(bits) + " bits");
  std::string base = std::string(shift_name(op)) + size_suffix(bits);
  if (count == 1)
    m.emit(m.op(base + "r1"), {Impl::r(m.reg(reg, bits)), Impl::r(m.reg(reg, bits))});
  else
    m.emit(m.op(base + "ri"), {Impl::r(m.reg(reg, bits)), Impl::r(m.reg(reg, bits)), Impl::imm(count)});
}

void McEmitter::mul1(bool sign, unsigned bits, Reg src) {
  Impl& m = *impl_;
  if (bits == 8) fail("one-operand multiply of 8 bits (the product is ax, not rdx:rax)");
  m.emit(m.op(std::string(sign ? "IMUL" : "MUL") + size_suffix(bits) + "r"), {Impl::r(m.reg(src, bits))});
}

void McEmitter::div(bool sign, unsigned bits, Reg src) {
  Impl& m = *impl_;
  if (bits == 8) fail("division of 8 bits (divides ax, not rdx:rax)");
  m.emit(m.op(std::string(sign ? "IDIV" : "DIV") + size_suffix(bits) + "r"), {Impl::r(m.reg(src, bits))});
}

void McEmitter::sign_extend_ax(unsigned bits) {
  Impl& m = *impl_;
  switch (bits) {
    case 16: m.emit(m.op("CWD"), {}); return;
    case 32: m.emit(m.op("CDQ"), {}); return;
    case 64: m.emit(m.op("CQO"), {}); return;
  }
  fail("sign extension of ax into dx at " + std::to_string(bits) + " bits");
}

void McEmitter::extend(bool sign, unsigned from, unsigned to, Reg dst, Reg src) {
  Impl& m = *impl_;
  if (from >= to || (to != 16 && to != 32 && to != 64)) fail("extend from " + std::to_string(from) + " to " + std::to_string(to));
  if (!sign && from == 32) {  // mov r32, r32 clears the upper half
    mov(32, dst, src);
    return;
  }
  unsigned dst_bits = !sign && to == 64 ? 32 : to;  // movzbl/movzwl clear bits 32-63 too
  std::string name = std::string(sign ? "MOVSX" : "MOVZX") + size_suffix(dst_bits) + "rr" + size_suffix(from);
  m.emit(m.op(name), {Impl::r(m.reg(dst, dst_bits)), Impl::r(m.reg(src, from))});
}

void McEmitter::setcc(Cond cc, Reg dst) {
  Impl& m = *impl_;
  m.emit(m.op("SETCCr"), {Impl::r(m.reg(dst, 8)), Impl::imm(cond_code(cc))});
}

// No 8-bit cmov: the 32-bit one moves the same low 8 bits.
void McEmitter::cmov(Cond cc, unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  unsigned b = bits == 8 ? 32 : bits;
  m.emit(m.op(std::string("CMOV") + size_suffix(b) + "rr"),
         {Impl::r(m.reg(dst, b)), Impl::r(m.reg(dst, b)), Impl::r(m.reg(src, b)), Impl::imm(cond_code(cc))});
}

void McEmitter::jcc(Cond cc, Label target) {
  Impl& m = *impl_;
  m.emit(m.op("JCC_1"), {m.expr(m.label_symbol(target)), Impl::imm(cond_code(cc))});
}

void McEmitter::jmp(Label target) {
  Impl& m = *impl_;
  m.emit(m.op("JMP_1"), {m.expr(m.label_symbol(target))});
}

void McEmitter::call(std::string_view name, bool local) {
  Impl& m = *impl_;
  m.emit(m.op("CALL64pcrel32"), {m.expr(m.symbol(name), local ? llvm::MCSymbolRefExpr::VK_None : llvm::MCSymbolRefExpr::VK_PLT)});
}

void McEmitter::call_reg(Reg target) {
  Impl& m = *impl_;
  m.emit(m.op("CALL64r"), {Impl::r(m.reg(target, 64))});
}

// A sibling call's jump: `jmp f@PLT` (relaxed to the rel32 form: the target
// is another function, resolved by the linker) and `jmp *r`.
void McEmitter::jmp_symbol(std::string_view name) {
  Impl& m = *impl_;
  m.emit(m.op("JMP_1"), {m.expr(m.symbol(name), llvm::MCSymbolRefExpr::VK_PLT)});
}

void McEmitter::jmp_reg(Reg target) {
  Impl& m = *impl_;
  m.emit(m.op("JMP64r"), {Impl::r(m.reg(target, 64))});
}

void McEmitter::ret() { impl_->emit(impl_->op("RET64"), {}); }

void McEmitter::push(Reg reg) { impl_->emit(impl_->op("PUSH64r"), {Impl::r(impl_->reg(reg, 64))}); }

void McEmitter::pop(Reg reg) { impl_->emit(impl_->op("POP64r"), {Impl::r(impl_->reg(reg, 64))}); }

// With rax on one side (not at 8 bits) the one-byte 90+r form, as `as` picks.
void McEmitter::xchg(unsigned bits, Reg a, Reg b) {
  Impl& m = *impl_;
  if (a == b) fail("xchg of a register with itself");
  if (bits != 8 && (a == Reg::Rax || b == Reg::Rax)) {
    Reg other = a == Reg::Rax ? b : a;
    unsigned ro = m.reg(other, bits);
    m.emit(m.op(std::string("XCHG") + size_suffix(bits) + "ar"), {Impl::r(ro), Impl::r(ro)});
    return;
  }
  // LLVM prints `xchg %b, %a` and encodes b in ModRM.rm; `as` encodes the
  // same text with b in ModRM.reg. The exchange is symmetric, so the object
  // gets the operands swapped and both outputs hold the same bytes.
  unsigned ra = m.reg(a, bits), rb = m.reg(b, bits);
  if (m.options.kind == OutputKind::Object) std::swap(ra, rb);
  m.emit(m.op(std::string("XCHG") + size_suffix(bits) + "rr"), {Impl::r(ra), Impl::r(rb), Impl::r(ra), Impl::r(rb)});
}

void McEmitter::xchg_mem(unsigned bits, Reg a, const Mem& b) {
  Impl& m = *impl_;
  m.emit_rm(m.op(std::string("XCHG") + size_suffix(bits) + "rm"), {Impl::r(m.reg(a, bits)), Impl::r(m.reg(a, bits))}, b);
}

void McEmitter::probe(unsigned bits, const Mem& src) {
  Impl& m = *impl_;
  m.emit_mr(m.op(std::string("CMP") + size_suffix(bits) + (bits == 8 ? "mi" : "mi8")), src, Impl::imm(0));
}

void McEmitter::touch(const Mem& dst) {
  Impl& m = *impl_;
  m.emit_mr(m.op("OR64mi8"), dst, Impl::imm(0));
}

void McEmitter::rep_movsb() { impl_->emit(impl_->op("REP_MOVSB_64"), {}); }

// ---- SSE2 scalar floating point ----

namespace {
const char* sd_ss(unsigned bits) {
  if (bits != 32 && bits != 64) fail("a floating-point operand of " + std::to_string(bits) + " bits");
  return bits == 32 ? "SS" : "SD";
}
}  // namespace

void McEmitter::farith(FArith op, unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  static const char* const names[] = {"ADD", "SUB", "MUL", "DIV"};
  m.emit(m.op(std::string(names[static_cast<int>(op)]) + sd_ss(bits) + "rr"),
         {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, 64))});
}

void McEmitter::farith_mem(FArith op, unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  static const char* const names[] = {"ADD", "SUB", "MUL", "DIV"};
  m.emit_rm(m.op(std::string(names[static_cast<int>(op)]) + sd_ss(bits) + "rm"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(dst, 64))}, src);
}

void McEmitter::fsqrt_mem(unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  m.emit_rm(m.op(std::string("SQRT") + sd_ss(bits) + "m"), {Impl::r(m.reg(dst, 64))}, src);
}

void McEmitter::cvtsi2f_mem(unsigned int_bits, unsigned float_bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  if (int_bits != 32 && int_bits != 64) fail("cvtsi2sd/ss from " + std::to_string(int_bits) + " bits");
  m.emit_rm(m.op(std::string("CVTSI") + (int_bits == 64 ? "642" : "2") + sd_ss(float_bits) + "rm"), {Impl::r(m.reg(dst, 64))}, src);
}

void McEmitter::imul_mem(unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  if (bits != 32 && bits != 64) fail("imul from memory at " + std::to_string(bits) + " bits");
  m.emit_rm(m.op(std::string("IMUL") + size_suffix(bits) + "rm"), {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(dst, bits))}, src);
}

void McEmitter::fsqrt(unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(std::string("SQRT") + sd_ss(bits) + "r"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, 64))});
}

void McEmitter::fbitwise(bool is_xor, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(is_xor ? "XORPSrr" : "ANDPSrr"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, 64))});
}

void McEmitter::fzero(Reg dst) { fbitwise(true, dst, dst); }

void McEmitter::fmov(Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op("MOVAPSrr"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, 64))});
}

void McEmitter::fload(unsigned bits, Reg dst, const Mem& src) {
  Impl& m = *impl_;
  m.emit_rm(m.op(std::string("MOV") + sd_ss(bits) + "rm"), {Impl::r(m.reg(dst, 64))}, src);
}

void McEmitter::fstore(unsigned bits, const Mem& dst, Reg src) {
  Impl& m = *impl_;
  m.emit_mr(m.op(std::string("MOV") + sd_ss(bits) + "mr"), dst, Impl::r(m.reg(src, 64)));
}

void McEmitter::vload(Reg dst, const Mem& src) {
  Impl& m = *impl_;
  m.emit_rm(m.op("MOVUPSrm"), {Impl::r(m.reg(dst, 64))}, src);
}

void McEmitter::vstore(const Mem& dst, Reg src) {
  Impl& m = *impl_;
  m.emit_mr(m.op("MOVUPSmr"), dst, Impl::r(m.reg(src, 64)));
}

void McEmitter::fconst(unsigned bits, uint64_t pattern, Reg dst) {
  Impl& m = *impl_;
  std::pair<unsigned, uint64_t> key{bits / 8, pattern};
  llvm::MCSymbol* label = nullptr;
  for (auto& [k, sym] : m.float_consts)
    if (k == key) label = sym;
  if (!label) {
    label = m.ctx->getOrCreateSymbol(".LCPI" + std::to_string(m.float_consts.size()));
    m.float_consts.push_back({key, label});
  }
  llvm::MCInst inst;
  inst.setOpcode(m.op(std::string("MOV") + sd_ss(bits) + "rm"));
  inst.addOperand(Impl::r(m.reg(dst, 64)));
  inst.addOperand(Impl::r(m.rip));
  inst.addOperand(Impl::imm(1));
  inst.addOperand(Impl::r(0));
  inst.addOperand(m.expr(label));
  inst.addOperand(Impl::r(0));
  m.emit(inst);
}

void McEmitter::ucomis(unsigned bits, Reg a, Reg b) {
  Impl& m = *impl_;
  m.emit(m.op(std::string("UCOMI") + sd_ss(bits) + "rr"), {Impl::r(m.reg(a, 64)), Impl::r(m.reg(b, 64))});
}

void McEmitter::ucomis_mem(unsigned bits, Reg a, const Mem& b) {
  Impl& m = *impl_;
  m.emit_rm(m.op(std::string("UCOMI") + sd_ss(bits) + "rm"), {Impl::r(m.reg(a, 64))}, b);
}

void McEmitter::cvtsi2f(unsigned int_bits, unsigned float_bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  if (int_bits != 32 && int_bits != 64) fail("cvtsi2sd/ss from " + std::to_string(int_bits) + " bits");
  std::string name = std::string("CVTSI") + (int_bits == 64 ? "642" : "2") + sd_ss(float_bits) + "rr";
  m.emit(m.op(name), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, int_bits))});
}

void McEmitter::cvttf2si(unsigned float_bits, unsigned int_bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  if (int_bits != 32 && int_bits != 64) fail("cvttsd2si/ss to " + std::to_string(int_bits) + " bits");
  std::string name = std::string("CVTT") + sd_ss(float_bits) + "2SI" + (int_bits == 64 ? "64" : "") + "rr";
  m.emit(m.op(name), {Impl::r(m.reg(dst, int_bits)), Impl::r(m.reg(src, 64))});
}

void McEmitter::cvtf2f(unsigned from_bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(from_bits == 32 ? "CVTSS2SDrr" : "CVTSD2SSrr"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, 64))});
}

void McEmitter::mov_to_xmm(unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(bits == 64 ? "MOV64toSDrr" : "MOVDI2SSrr"), {Impl::r(m.reg(dst, 64)), Impl::r(m.reg(src, bits))});
}

void McEmitter::mov_from_xmm(unsigned bits, Reg dst, Reg src) {
  Impl& m = *impl_;
  m.emit(m.op(bits == 64 ? "MOVSDto64rr" : "MOVSS2DIrr"), {Impl::r(m.reg(dst, bits)), Impl::r(m.reg(src, 64))});
}

std::string McEmitter::finish() {
  Impl& m = *impl_;
  if (m.finished) fail("finish called twice");
  m.finished = true;
  if (m.function_symbol) fail("finish inside a function");
  // Floating-point constants: .rodata.cst8 then .rodata.cst4 (SHF_MERGE,
  // entry size 8 / 4), as gcc places them, so that the linker merges equal
  // ones across objects.
  for (unsigned size : {8u, 4u}) {
    bool any = false;
    for (auto& [key, sym] : m.float_consts) {
      if (key.first != size) continue;
      if (!any) {
        m.streamer->SwitchSection(m.ctx->getELFSection(".rodata.cst" + std::to_string(size), llvm::ELF::SHT_PROGBITS,
                                                       llvm::ELF::SHF_ALLOC | llvm::ELF::SHF_MERGE, size));
        m.streamer->emitValueToAlignment(size);
        any = true;
      }
      m.streamer->emitLabel(sym);
      m.streamer->emitIntValue(key.second, size);
    }
  }
  // -fcf-protection: a GNU_PROPERTY_X86_FEATURE_1_AND note (bit 0 IBT, bit
  // 1 SHSTK), as gcc writes it.
  if (m.options.cf_protection.ibt || m.options.cf_protection.shstk) {
    m.streamer->SwitchSection(m.ctx->getELFSection(".note.gnu.property", llvm::ELF::SHT_NOTE, llvm::ELF::SHF_ALLOC));
    m.streamer->emitValueToAlignment(8);
    m.streamer->emitIntValue(4, 4);           // name size
    m.streamer->emitIntValue(16, 4);          // descriptor size
    m.streamer->emitIntValue(5, 4);           // NT_GNU_PROPERTY_TYPE_0
    m.streamer->emitBytes(llvm::StringRef("GNU\0", 4));
    m.streamer->emitIntValue(0xc0000002, 4);  // GNU_PROPERTY_X86_FEATURE_1_AND
    m.streamer->emitIntValue(4, 4);           // its size
    m.streamer->emitIntValue((m.options.cf_protection.ibt ? 1 : 0) | (m.options.cf_protection.shstk ? 2 : 0), 4);
    m.streamer->emitIntValue(0, 4);           // padding to 8 bytes
  }
  m.streamer->SwitchSection(m.mai->getNonexecutableStackSection(*m.ctx));
  m.streamer->Finish();
  m.streamer.reset();  // flushes the assembly text
  if (m.options.kind == OutputKind::Object) return std::string(m.object_bytes.data(), m.object_bytes.size());
  m.asm_stream->flush();
  return std::move(m.asm_text);
}

bool McEmitter::toplevel_asm(std::string_view text, std::string& error) {
  impl_->switch_to_text();
  return inline_asm(text, error);
}

unsigned McEmitter::next_asm_number() { return impl_->asm_count++; }

bool McEmitter::inline_asm(std::string_view text, std::string& error) {
  Impl& m = *impl_;
  if (m.has_pending_loc) m.flush_loc();
  llvm::SourceMgr sources;
  struct Diagnostics {
    std::string first;
    bool any = false;
  } diagnostics;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic& d, void* context) {
        auto* out = static_cast<Diagnostics*>(context);
        if (d.getKind() != llvm::SourceMgr::DK_Error || out->any) return;
        out->any = true;
        out->first = "line " + std::to_string(d.getLineNo()) + ": " + d.getMessage().str();
      },
      &diagnostics);
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), "<inline asm>"),
                             llvm::SMLoc());
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, *m.ctx, *m.streamer, *m.mai));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      m.target->createMCAsmParser(*m.sti, *parser, *m.mii, m.mc_options));
  if (!target_parser) fail("libLLVM has no x86-64 assembler parser");
  parser->setAssemblerDialect(0);  // AT&T, as gcc writes and reads it
  parser->setTargetParser(*target_parser);
  bool failed = parser->Run(/*NoInitialTextSection=*/true, /*NoFinalize=*/true);
  if (!failed && !diagnostics.any) return true;
  error = diagnostics.any ? diagnostics.first : "the assembler failed";
  return false;
}

}  // namespace pl::x64
