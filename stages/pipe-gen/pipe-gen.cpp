// pipe-gen - write a random valid module (generate.h): the input of the
// property tests and of scripts/bench-formats. It streams, so modules far
// larger than memory-friendly sizes can be produced one function at a time.
// With --runnable it writes a program instead (generate_runnable.h): main
// terminates, has no undefined behaviour and prints what it computes, so
// pipe-run gives it a meaning that every stage must keep (pipe-fuzz's input);
// it has f32 and f64 values unless --no-float. The plain modules have them
// (and long double operations) with --float.
#include "gen/generate.h"
#include "gen/generate_runnable.h"
#include "tool/tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-gen", "Generate a random valid module (same seed, same module).",
                 "  pipe-gen --seed 7 --level ssa --nodes 5000 -f text\n"
                 "  pipe-gen --nodes 1000000 --functions 10 -o big.bin\n"
                 "  pipe-gen --runnable --seed 3 --level cfg | pipe-run -",
                 /*has_output=*/true, /*has_input=*/false});
  pl::GenerateOptions opts;
  std::string level = "son";
  bool runnable = false;
  uint32_t functions = 0;
  uint64_t nodes = 0;
  tool.cli().add_option("--seed", opts.seed, "Random seed")->capture_default_str();
  tool.cli().add_option("--level", level, "son, cfg, ssa, son-x64 or cfg-x64 (--runnable: son, cfg or ssa)")
      ->check(CLI::IsMember({"son", "cfg", "ssa", "son-x64", "cfg-x64"}))
      ->capture_default_str();
  tool.cli().add_option("--functions", functions, "Number of functions (default 1; --runnable: 3)")
      ->check(CLI::Range(1u, 1000000u));
  tool.cli().add_option("--nodes", nodes, "Approximate number of nodes in all (default 1000; --runnable: 300)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32));
  tool.cli().add_flag("--exotic", opts.exotic,
                      "Add foreign-opcode nodes with literals of every JSON kind (does not verify)");
  tool.cli().add_flag("--pressure", opts.pressure,
                      "cfg-x64: merges with more phis than registers, fed by constants, and variadic calls "
                      "through pointers (the register pressure behind issues 17 and 22)");
  tool.cli().add_flag("--float", opts.floats,
                      "f32 and f64 values and long double operations at every level (--runnable has f32/f64 "
                      "unless --no-float)");
  bool no_float = false;
  tool.cli().add_flag("--no-float", no_float,
                      "--runnable: integers only (the programs seeds gave before f32/f64 values were added)");
  tool.cli().add_flag("--runnable", runnable,
                      "Write a runnable program: main terminates, prints its values, has no undefined behaviour");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    opts.level = *pl::parse_level(level);
    if (runnable) {
      if (opts.exotic) throw pl::UsageError("--runnable and --exotic exclude each other");
      if (opts.floats && no_float) throw pl::UsageError("--float and --no-float exclude each other");
      if (opts.level == pl::Level::SonX64 || opts.level == pl::Level::CfgX64)
        throw pl::UsageError("--runnable writes son, cfg or ssa modules (lower them with son-lower-x64)");
      pl::RunnableOptions ropts{opts.seed, opts.level, functions ? functions : 3, nodes ? nodes : 300, !no_float};
      t.open_output(pl::generate_runnable_header(ropts));
      for (uint32_t i = 0; i < ropts.functions; ++i) t.write(pl::generate_runnable_function(ropts, i));
      t.finish_output();
      return;
    }
    if (opts.pressure && opts.level != pl::Level::CfgX64) throw pl::UsageError("--pressure needs --level cfg-x64");
    if (no_float) throw pl::UsageError("--no-float is --runnable's (plain modules have floats only with --float)");
    if (functions) opts.functions = functions;
    if (nodes) opts.nodes = nodes;
    pl::ModuleHeader header = pl::generate_header(opts);
    t.open_output(header, /*verify_output=*/!opts.exotic);
    for (uint32_t i = 0; i < opts.functions; ++i) t.write(pl::generate_function(opts, i));
    t.finish_output();
  });
}
