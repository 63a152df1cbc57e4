// PLACEHOLDER (being written): verifier.
#include "verify.h"
namespace pl {
void verify_function(const ModuleHeader&, const Function&, Level, std::vector<Diagnostic>&) {}
void verify_header(const ModuleHeader&, std::vector<Diagnostic>&) {}
ModuleVerifier::ModuleVerifier(const ModuleHeader& h) : header_(h) {}
std::vector<Diagnostic> ModuleVerifier::function(const Function&) { return {}; }
std::vector<Diagnostic> ModuleVerifier::end() { return {}; }
}
