// pipe-view - one self-contained HTML page for one compile: the C source
// beside every stage's output (and with sonopt every pass application that
// changed something), each as printable text and as a Graphviz drawing,
// source lines colour-matched to the nodes that came from them, and what a
// step changed highlighted (Compiler Explorer's colour matching, Turbolizer's
// and IGV's graph per phase).
//
//   pipe-view FILE.c [-o PAGE.html] [-O0|-O1|-O2] [-I DIR] [-D NAME[=V]] [-U NAME]
//             [--stop-after STAGE] [--max-pass-steps N] [--graph-limit N]
//
// steps.cpp runs the stages (each its own process, as pipecc does) and
// collects the steps; page.cpp writes the page (how colours, hovering and
// navigation work is in its header). A C error in c2ast is reported as
// c2ast reports it (exit 1, no page). A later stage that fails becomes the
// page's last step, showing its diagnostics; the page is still written and
// pipe-view exits 1 after naming the stage.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "encoding/io.h"
#include "tool/tool.h"
#include "view.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  pl::ToolInfo info{"pipe-view", "One HTML page for one compile: C source beside every stage and pass, colour-matched.",
                    "  pipe-view fib.c -o fib.html\n"
                    "  pipe-view -O0 --stop-after ssa2son prog.c -o prog.html",
                    /*has_output=*/false};
  info.module_input = false;
  pl::Tool tool(info);
  pl::view::Config config;
  pl::view::PageOptions page;
  std::vector<std::string> includes, defines, undefines;
  CLI::App& cli = tool.cli();
  cli.add_option("-O", config.opt_level, "Optimization level: -O0 (no sonopt), -O1, -O2 (default)")
      ->check(CLI::Range(0, 2));
  cli.add_option("-I", includes, "Include directory (to c2ast)")->allow_extra_args(false);
  cli.add_option("-D", defines, "Macro NAME or NAME=VALUE (to c2ast)")->allow_extra_args(false);
  cli.add_option("-U", undefines, "Undefine a macro (to c2ast)")->allow_extra_args(false);
  cli.add_option("--stop-after", config.stop_after, "The last stage to run (default: every stage built)");
  cli.add_option("--max-pass-steps", config.max_pass_steps, "Most sonopt pass applications shown one by one")
      ->capture_default_str();
  cli.add_option("--graph-limit", page.graph_limit, "No drawing for a step with more nodes than this")
      ->capture_default_str();
  return tool.main(argc, argv, [&](pl::Tool& t) {
    config.c_file = t.input_path();
    if (config.c_file == "-") throw pl::UsageError("give the C file (pipe-view does not read C from stdin)");
    std::ifstream in(config.c_file, std::ios::binary);
    if (!in) throw pl::UsageError("cannot read " + config.c_file);
    std::stringstream source;
    source << in.rdbuf();
    for (const std::string& i : includes) config.frontend_args.insert(config.frontend_args.end(), {"-I", i});
    for (const std::string& d : defines) config.frontend_args.insert(config.frontend_args.end(), {"-D", d});
    for (const std::string& u : undefines) config.frontend_args.insert(config.frontend_args.end(), {"-U", u});

    std::string work = (fs::temp_directory_path() / ("pipe-view." + std::to_string(::getpid()))).string();
    fs::create_directories(work);
    std::vector<pl::view::Step> steps;
    try {
      steps = pl::view::collect_steps(config, work);
    } catch (...) {
      fs::remove_all(work);
      throw;
    }
    fs::remove_all(work);
    if (steps.empty()) throw std::runtime_error("c2ast is not found beside pipe-view or in PATH");
    if (!steps.front().failure.empty()) {  // the C file itself: as c2ast said it
      std::string err = steps.front().failure;
      std::cerr << err.substr(err.find('\n') + 1);
      throw pl::AlreadyReported();
    }
    pl::OutputFile out(t.output_path());
    out.write(pl::view::render_page(config.c_file, source.str(), steps, page));
    out.commit();
    if (!steps.back().failure.empty()) {
      std::cerr << "pipe-view: " << steps.back().stage << " failed; the page shows its diagnostics as the last step:\n"
                << steps.back().failure;
      throw pl::AlreadyReported();
    }
  });
}
