// pipe-verify - check a module against a level's contract (verify.h) and
// report every violation in every function, not just the first. With -o it
// also writes the module through, so it can sit inside a pipe.
#include <iostream>

#include "tool/tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-verify", "Check a module against its level contract; report every violation.",
                 "  pipe-verify examples/formats/sum.txt\n"
                 "  pipe-verify --level son sum.json          # against another level\n"
                 "  pipe-gen | pipe-verify -o - | pipe-fmt -f text   # inside a pipe",
                 /*has_output=*/false});
  std::string level_name;
  bool quiet = false;
  tool.cli()
      .add_option("--level", level_name, "Check against this level instead of the module's own")
      ->check(CLI::IsMember({"ast", "cfg", "ssa", "son", "son-x64", "cfg-x64", "ra-x64"}));
  tool.cli().add_flag("-q,--quiet", quiet, "Print nothing on success");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ByteSource src = pl::ByteSource::open(t.input_path());
    auto reader = pl::open_reader(src);
    pl::ModuleHeader header = reader->header();
    if (!level_name.empty()) header.level = *pl::parse_level(level_name);
    pl::ModuleVerifier verifier(header);
    std::vector<pl::Diagnostic> diags = verifier.header_diagnostics();
    if (t.output_requested()) t.open_output(reader->header(), /*verify_output=*/false);
    pl::Function fn;
    size_t functions = 0;
    // Module pieces: checked (in `header`, which may name another level)
    // and written through in order.
    size_t pieces_done = 0;
    auto take_pieces = [&] {
      for (; pieces_done < reader->pieces().size(); ++pieces_done) {
        const pl::ModulePiece& p = reader->pieces()[pieces_done];
        pl::append_piece(header, p);
        std::vector<pl::Diagnostic> found = verifier.piece(p);
        diags.insert(diags.end(), found.begin(), found.end());
        if (t.output_requested()) t.write_piece(p);
      }
    };
    try {
      while (reader->next(fn)) {
        take_pieces();
        ++functions;
        std::vector<pl::Diagnostic> found = verifier.function(fn);
        diags.insert(diags.end(), found.begin(), found.end());
        if (t.output_requested()) t.write(fn);
      }
      take_pieces();
    } catch (const pl::FormatError&) {
      t.report_all(diags, t.input_display_name());  // what earlier functions broke, then the read error
      throw;
    }
    std::vector<pl::Diagnostic> found = verifier.end();
    diags.insert(diags.end(), found.begin(), found.end());
    if (!diags.empty()) throw pl::VerifyFailed(std::move(diags), "input");
    if (t.output_requested()) t.finish_output();
    if (!quiet)
      std::cerr << "pipe-verify: " << t.input_display_name() << ": ok (" << functions << " function"
                << (functions == 1 ? "" : "s") << ", level " << pl::level_name(header.level) << ")\n";
  });
}
