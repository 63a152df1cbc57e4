// pipe-dot - draw a module with Graphviz (dot.h): any level, control, memory
// and value edges told apart, blocks as clusters at the cfg levels, each
// node's source line in its tooltip.
//
//   pipe-dot [MODULE|-] [-o FILE] [-T svg|png|pdf|...] [--function NAME] [--source-dir DIR]
//
// Without -T it writes the DOT text; with -T it runs Graphviz's `dot -TFMT`
// on it (binary formats are not written to a terminal without --force).
// Source files are looked up as the module's `files` name them, relative to
// --source-dir (default: the current directory).
#include <unistd.h>

#include "view/dot.h"
#include "encoding/format.h"
#include "encoding/io.h"
#include "tool/subprocess.h"
#include "tool/tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-dot", "Draw a module with Graphviz (DOT text, or -T svg/png/... through dot).",
                 "  pipe-dot fib.son -T svg -o fib.svg\n"
                 "  c2ast f.c | ast2cfg | pipe-dot -T svg -o f.cfg.svg\n"
                 "  pipe-dot prog.bin --function main | dot -Tpng > main.png",
                 /*has_output=*/false});
  std::string format, function, source_dir;
  tool.cli().add_option("-T", format, "Output format through Graphviz's dot (svg, png, pdf, ...)");
  tool.cli().add_option("--function", function, "Draw only this function");
  tool.cli().add_option("--source-dir", source_dir, "Where the module's source files are (default: .)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input();
    pl::Module m;
    m.header = in.header();
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      if (function.empty() || fn.name == function) m.functions.push_back(std::move(fn));
      fn = pl::Function();
    }
    t.finish_output();
    m.header = in.header();  // with the module pieces
    if (!function.empty() && m.functions.empty())
      throw pl::FormatError(pl::Where(), "no function named " + pl::quote_for_message(function));
    pl::SourceLines sources(m.header.files, source_dir);
    std::string dot = pl::module_dot(m, sources);
    if (!format.empty()) {
      std::string dot_program = pl::find_program("dot");
      if (dot_program.empty()) throw std::runtime_error("Graphviz's `dot` is not installed (Debian package graphviz)");
      char dir_template[] = "/tmp/pipe-dot.XXXXXX";
      if (!::mkdtemp(dir_template)) throw std::runtime_error("cannot create a temporary directory");
      std::string in_path = std::string(dir_template) + "/in.dot";
      {
        pl::OutputFile f(in_path);
        f.write(dot);
        f.commit();
      }
      pl::ProcessResult r = pl::run_process({{dot_program, "-T" + format, in_path}, "", "", 120, size_t{1} << 30});
      ::unlink(in_path.c_str());
      ::rmdir(dir_template);
      if (r.status != 0) throw pl::UsageError("dot -T" + format + " failed (" + r.describe() + "): " + r.err);
      dot = std::move(r.out);
    }
    pl::OutputFile out(t.output_path());
    bool text = format.empty() || format == "svg" || format == "dot" || format == "xdot" || format == "plain";
    if (!text && out.is_terminal() && !t.cli().get_option("--force")->as<bool>())
      throw pl::UsageError("refusing to write " + format + " to a terminal; use -o FILE or --force");
    out.write(dot);
    out.commit();
  });
}
