// codegen-x64 - the last stage: an ra-x64 module (registers and stack slots
// already chosen) as x86-64 machine code, written as an ELF64 relocatable
// object (`-f obj`, the default) or as GNU assembly text (`-f asm`).
//
//   c2ast f.c | ast2cfg | cfg2ssa | ssa2son | son-lower-x64 | son2cfg
//     | regalloc-x64 | codegen-x64 -o f.o          (then: cc f.o -o f)
//
// Pipeline, per module (seed 001, "Code Generation"):
//   1. read and verify the module at level ra-x64 (the verifier runs the
//      allocation checker, common/check/alloc_check.cpp, so what reaches the
//      translation has every value where the instructions read it);
//   2. the file-scope asm texts (the header's toplevel_asm), assembled in
//      source order before everything else, as gcc -O1/-O2 places them;
//      data items into .data / .rodata / .data.rel.ro / .bss by their
//      flags, with R_X86_64_64 relocations; internal linkage gives local
//      symbols (mc_emitter.h); symbol attributes: weak binding, visibility,
//      named sections, .init_array/.fini_array entries for constructors
//      and destructors, aliases as symbols set to their target; a common
//      data item is a common symbol (.comm, SHN_COMMON), in no section;
//   3. per function, as it streams in (emit_function.h): the frame from the
//      stack map (spill slots, x64:stackslot items, the outgoing argument
//      area; frame.h: 16-byte alignment at calls, red zone for small leaf
//      functions, CFI), then the blocks in the module's order with
//      fall-throughs, every node translated where its place says, phi
//      moves through the parallel move engine (parallel_move.h) where the
//      input is not already in place; an x64:asm's template with its
//      operands written in (emit_function.cpp) is assembled by LLVM MC's
//      assembler parser into the same stream (McEmitter::inline_asm);
//      the x87 sequences of long double (x64:f80.*, x64:fldt, x64:fstpt)
//      go the same way, written as gcc writes them (emit_function.cpp);
//      with --sibling-calls (pipecc -O2) a call whose result the function
//      returns at once is the epilogue and a jump (sibling_calls.h);
//   4. the emitter ends the module (.note.GNU-stack, the DWARF line table
//      with -g) and the bytes are written atomically to -o.
//
// Why LLVM MC and not asmjit or zydis: MC alone writes both forms from one
// instruction stream - encoding, AT&T printing, branch relaxation, ELF
// relocations (PLT32, GOTPCRELX, PC32), .cfi_ into .eh_frame and .loc into
// .debug_line; asmjit and zydis encode instructions but would leave the ELF
// writer, .eh_frame and DWARF to us. libLLVM 14 is linked already (c2ast).
// mc_emitter.h has the details.
//
// Invariants needed: the ra-x64 contract (FORMAT.md section 8, "The ra-x64
// level"): places for values, fixed and tied registers as the machine
// columns say, flags right before their user, phis in place, callee-saved
// registers taken by x64:entryreg, saved to a slot and reloaded before each
// x64:ret. What the translation cannot encode is reported as bad input
// naming the function and node (exit 1), also under --no-verify.
// Invariants kept: the machine code computes what the ra-x64 module says
// (pipe-run at ra-x64 is the oracle); System V: rsp 16-byte aligned at
// calls, rbx rbp r12-r15 preserved (by the module's own saves), al set for
// variadic callees, PIC (RIP-relative own symbols, PLT calls, GOT loads of
// extern data). Output deterministic: the same module and flags give the
// same bytes (with -g the compilation directory is part of the DWARF).
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "dwarf.h"
#include "emit_function.h"
#include "encoding/io.h"
#include "mc_emitter.h"
#include "tool/tool.h"

namespace {

using namespace pl;

void check_names(std::set<std::string>& names, const std::string& name, const Where& where) {
  if (!names.insert(name).second) throw FormatError(where, "symbol " + quote_for_message(name) + " is defined twice");
}

void compile(Tool& t, bool debug, const x64::SectionOptions& sections, const x64::CfProtection& cet,
             bool stack_clash, bool frame_pointer, bool sibling_calls) {
  ModuleReader& in = t.open_input(Level::RaX64);
  const ModuleHeader& header = in.header();
  bool object = t.format_name() != "asm";
  OutputFile file(t.output_path());
  if (object && file.is_terminal() && !t.force())
    throw UsageError("refusing to write an object file to a terminal; use -f asm, -o FILE or --force");

  x64::EmitterOptions options;
  options.kind = object ? x64::OutputKind::Object : x64::OutputKind::Asm;
  options.debug_lines = debug;
  options.source_name = header.files.empty() ? t.input_display_name() : header.files[0];
  // The module's (c2ast's: the directory preprocessed text names), else this one.
  if (debug)
    options.compilation_dir =
        header.debug.comp_dir.empty() ? std::filesystem::current_path().string() : header.debug.comp_dir;
  // The module's debug section becomes .debug_info (object output; an
  // assembly file keeps the line table, and `as` makes its unit).
  options.debug_info = debug && object && !header.debug.empty();
  options.sections = sections;
  options.cf_protection = cet;
  options.stack_clash = stack_clash;
  options.frame_pointer = frame_pointer;
  options.sibling_calls = sibling_calls;
  x64::McEmitter out(options);
  out.set_files(header.files);
  std::optional<x64::DwarfWriter> dwarf;
  if (options.debug_info) dwarf.emplace(out, header);

  // File-scope asm first, in source order: gcc's output order with
  // -ftoplevel-reorder (its default at -O1 and above; at -O0 gcc interleaves
  // them with the functions in source order, which a module whose functions
  // stages may drop or add no longer records).
  for (size_t i = 0; i < header.toplevel_asm.size(); ++i) {
    std::string error;
    if (!out.toplevel_asm(header.toplevel_asm[i], error))
      throw FormatError(Where{}, "file-scope asm #" + std::to_string(i) + " does not assemble: " + error);
  }
  std::set<std::string> names;
  for (const DataItem& item : header.data) {
    check_names(names, item.name, Where::in("", "data " + quote_for_message(item.name)));
    out.data_item(item);
  }
  // Module pieces: their files and data items as they arrive (the externs
  // are all in the header at the end).
  size_t pieces_done = 0;
  auto take_pieces = [&] {
    const std::vector<ModulePiece>& pieces = in.pieces();
    if (pieces_done == pieces.size()) return;
    for (; pieces_done < pieces.size(); ++pieces_done)
      for (const DataItem& item : pieces[pieces_done].data) {
        check_names(names, item.name, Where::in("", "data " + quote_for_message(item.name)));
        out.data_item(item);
      }
    out.set_files(header.files);
  };
  Function fn;
  while (in.next(fn)) {
    take_pieces();
    t.verify_input(fn);
    check_names(names, fn.name, Where::in(fn.name, ""));
    x64::emit_function(out, fn, dwarf ? &*dwarf : nullptr);
  }
  take_pieces();
  // Weak references, visibility and aliases (after their targets).
  for (const Extern& e : header.externs) {
    uint64_t size = 0;
    if (!e.attrs.alias.empty())
      for (const DataItem& item : header.data)
        if (item.name == e.attrs.alias) size = item.size;
    out.extern_symbol(e, size);
  }
  t.finish_output();  // the input's cross-function checks
  if (dwarf) dwarf->finish();
  file.write(out.finish());
  file.commit();
}

}  // namespace

int main(int argc, char** argv) {
  pl::Tool tool({.name = "codegen-x64",
                 .summary = "translates an ra-x64 module into x86-64 machine code (ELF object or assembly)",
                 .example = "  ... | regalloc-x64 | codegen-x64 -o f.o && cc f.o -o f\n"
                            "  codegen-x64 f.ra.txt -f asm -g -o f.s",
                 .formats = {"obj", "asm"},
                 .formats_help = "Output: obj (ELF64 relocatable object, default) or asm (GNU assembly text)"});
  bool debug = false;
  pl::x64::SectionOptions sections;
  tool.cli().add_flag("-g", debug,
                      "Debug information: line tables (.loc, DWARF .debug_line) from the nodes' source locations, and "
                      "with the module's debug section the DWARF 4 units of dwarf.cpp (types, functions, variables)");
  tool.cli().add_flag("--function-sections", sections.functions,
                      "Each function in its own section .text.NAME (gcc's -ffunction-sections; a section attribute wins)");
  tool.cli().add_flag("--data-sections", sections.data,
                      "Each data item in its own section .data.NAME, .bss.NAME, .rodata.NAME or .data.rel.ro.NAME "
                      "(gcc's -fdata-sections; literals the compiler made stay in the shared sections)");
  bool frame_pointer = false;
  tool.cli().add_flag("--frame-pointer", frame_pointer,
                      "every function keeps the rbp chain (push %rbp; mov %rsp, %rbp: gcc's "
                      "-fno-omit-frame-pointer, for profilers); the module must leave rbp free (regalloc-x64 "
                      "--frame-pointer)");
  bool stack_clash = false;
  tool.cli().add_flag("--stack-clash-protection", stack_clash,
                      "gcc's -fstack-clash-protection: frames of a page or more, and alloca/VLA blocks, are taken "
                      "a page at a time, each page written (orq $0) before the next (frame.h)");
  bool sibling_calls = false;
  tool.cli().add_flag("--sibling-calls", sibling_calls,
                      "return f(args): the epilogue, then jmp f instead of call f, epilogue, ret, when the callee "
                      "cannot see the frame (gcc's -foptimize-sibling-calls; pipecc passes it at -O2; "
                      "sibling_calls.h)");
  std::string cf = "none";
  tool.cli()
      .add_option("--cf-protection", cf,
                  "Intel CET (gcc's -fcf-protection=): branch puts endbr64 at every function's start, return and "
                  "branch mark the object's .note.gnu.property (IBT, SHSTK); full is both")
      ->check(CLI::IsMember({"none", "branch", "return", "full"}));
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::x64::CfProtection cet{.ibt = cf == "branch" || cf == "full", .shstk = cf == "return" || cf == "full"};
    compile(t, debug, sections, cet, stack_clash, frame_pointer, sibling_calls);
  });
}
