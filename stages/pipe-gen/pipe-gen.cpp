// pipe-gen - write a random valid module (generate.h): the input of the
// property tests and of scripts/bench-formats. It streams, so modules far
// larger than memory-friendly sizes can be produced one function at a time.
#include "generate.h"
#include "tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-gen", "Generate a random valid module (same seed, same module).",
                 "  pipe-gen --seed 7 --level ssa --nodes 5000 -f text\n"
                 "  pipe-gen --nodes 1000000 --functions 10 -o big.bin",
                 /*has_output=*/true, /*has_input=*/false});
  pl::GenerateOptions opts;
  std::string level = "son";
  tool.cli().add_option("--seed", opts.seed, "Random seed")->capture_default_str();
  tool.cli().add_option("--level", level, "son, cfg or ssa")->check(CLI::IsMember({"son", "cfg", "ssa"}))
      ->capture_default_str();
  tool.cli().add_option("--functions", opts.functions, "Number of functions")->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  tool.cli().add_option("--nodes", opts.nodes, "Approximate number of nodes in all")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32))->capture_default_str();
  tool.cli().add_flag("--exotic", opts.exotic,
                      "Add foreign-opcode nodes with literals of every JSON kind (does not verify)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    opts.level = *pl::parse_level(level);
    pl::ModuleHeader header = pl::generate_header(opts);
    t.open_output(header, /*verify_output=*/!opts.exotic);
    for (uint32_t i = 0; i < opts.functions; ++i) t.write(pl::generate_function(opts, i));
    t.finish_output();
  });
}
