// pipe-run - an interpreter for the cfg, ssa, son, son-x64 and cfg-x64
// levels: runs `main` of a module with its own small C library, so every
// stage's output can be checked against what gcc's build of the same C
// program does.
//
//   pipe-run [MODULE|-] [--max-steps N] [--max-memory BYTES] [--trace]
//            [--stats] [--verify|--no-verify] [-- ARGS...]
//
// It reads the whole module (a call may go to any function), verifies it
// against its level (unless --no-verify), lays out its data, lowers each
// function to a compact instruction form (cfg/ssa/cfg-x64: the blocks as
// given, lower_cfg.cpp; son/son-x64: per control node a Kahn-ordered block
// program, lower_son.cpp; x64: instructions, lower_x64.cpp) and runs main(argc, argv) with ARGS (argv[0] is MODULE).
//
// Exit status: the program's own (main's return value or exit()'s argument,
// modulo 256; abort() and a failed assert() die by SIGABRT as natively);
// 70 when the program hits a runtime error (undefined behaviour pipe-run can
// see, an unknown extern, the step or memory limit), reported as
//   pipe-run: FUNCTION: iN: runtime error: MESSAGE
//     at FILE:LINE:COL
//     iN = ...
// and 1/2/3 for bad input / bad usage / internal errors as every tool
// (tool.h). The program's stdout and stderr are pipe-run's.
//
// Departures from the seed: the seed has no interpreter; this one follows
// seed 000's Kahn-style execution for the sea of nodes (lower_son.cpp).
#include <csignal>
#include <iostream>

#include "run.h"
#include "tool/tool.h"

namespace {

pl::Module read_whole_module(pl::Tool& t) {
  pl::ModuleReader& in = t.open_input();
  pl::Module module;
  module.header = in.header();
  pl::Level level = module.header.level;
  if (level != pl::Level::Cfg && level != pl::Level::Ssa && level != pl::Level::Son && level != pl::Level::SonX64 &&
      level != pl::Level::CfgX64 && level != pl::Level::RaX64)
    throw pl::FormatError(pl::Where(), "pipe-run runs modules at the cfg, ssa, son, son-x64, cfg-x64 and ra-x64 levels; "
                                       "this one is at '" +
                                           std::string(pl::level_name(level)) + "'");
  pl::Function fn;
  while (in.next(fn)) {
    t.verify_input(fn);
    module.functions.push_back(std::move(fn));
    fn = pl::Function();
  }
  module.header = in.header();  // with the module pieces (they may follow the functions)
  t.finish_output();  // the cross-function checks (symbols, duplicate names)
  return module;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> program_args;
  int tool_argc = pl::split_at_double_dash(argc, argv, program_args);
  pl::Tool tool({"pipe-run", "Run main of a module at the cfg, ssa, son, son-x64, cfg-x64 or ra-x64 level, with a small C library.",
                 "  pipe-run examples/formats/sum.txt                    # prints 45\n"
                 "  c2ast t.c | ast2cfg | cfg2ssa | ssa2son | pipe-run - -- arg1 arg2\n"
                 "  pipe-run prog.bin --max-steps 1000000 --stats",
                 /*has_output=*/false});
  pl::run::RunOptions options;
  uint64_t max_memory = uint64_t{1} << 30;
  tool.cli().add_option("--max-steps", options.max_steps,
                        "Stop with a runtime error after this many executed nodes (0: no limit)")
      ->capture_default_str();
  tool.cli().add_option("--max-memory", max_memory,
                        "Bytes the program may allocate (stack slots, data, malloc, call stack)")
      ->capture_default_str();
  tool.cli().add_flag("--trace", options.trace, "Print every executed node and its value to stderr");
  tool.cli().add_flag("--stats", options.stats, "Print executed nodes and nodes per second to stderr");
  for (const char* unused : {"--output", "--format", "--force"}) tool.cli().get_option(unused)->group("");
  tool.cli().footer(
      "Usage: pipe-run [MODULE|-] [options] [-- ARGS...]   (ARGS are main's argv[1...])\n\nExample:\n" +
      tool.info().example +
      "\n\nExit status: the program's own (main's return value or exit()'s argument; abort() dies by SIGABRT);\n"
      "70 runtime error in the program (`pipe-run: FUNCTION: iN: runtime error: MESSAGE`, with the node's\n"
      "source location); 1 bad input; 2 bad usage; 3 internal error.");

  pl::run::RunResult result;
  int status = tool.main(tool_argc, argv, [&](pl::Tool& t) {
    if (t.output_requested() || t.cli().count("--format") || t.cli().count("--force"))
      throw pl::UsageError("pipe-run writes no module: -o, -f and --force are not its options");
    pl::Module module = read_whole_module(t);
    pl::run::Program program(std::move(module), max_memory, t.input_path());
    try {
      program.load();
    } catch (const pl::run::RuntimeError& e) {
      std::cerr << "pipe-run: runtime error: " << e.what() << "\n";
      result.status = pl::run::kRuntimeErrorStatus;
      return;
    }
    std::vector<std::string> args = {t.input_path()};
    args.insert(args.end(), program_args.begin(), program_args.end());
    result = pl::run::run_main(program, args, options);
  });
  if (status != 0) return status;
  if (result.abort) {
    std::signal(SIGABRT, SIG_DFL);
    std::raise(SIGABRT);
  }
  return result.status;
}
