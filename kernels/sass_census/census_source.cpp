#include "kernels/sass_census/census_source.h"

#include <cstdio>

namespace tclens::kernels {
namespace {

std::string literal(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\%03o", static_cast<unsigned char>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace

std::string census_source(const std::vector<FunctionMix>& functions, const std::string& origin,
                          const std::string& missing) {
    std::string out =
        "// Generated at build time by the SASS census tool (kernels/sass_census/); do not edit.\n"
        "#include \"kernels/sass_census/census_table.h\"\n\n"
        "namespace tclens::kernels {\n";
    if (!functions.empty()) {
        out +=
            "namespace {\n\n// counts in OpClass order (op_class.h)\nconst CensusEntry kEntries[] "
            "= {\n";
        for (const FunctionMix& f : functions) {
            out += "    {" + literal(f.arch) + ", " + literal(f.function) + ", {";
            for (int i = 0; i < kOpClassCount; ++i) {
                out += (i == 0 ? "" : ", ") + std::to_string(f.counts[static_cast<size_t>(i)]);
            }
            out += "}},\n";
        }
        out += "};\n\n}  // namespace\n";
    }
    out += "\nconst Census& built_in_census() {\n    static const Census census{";
    out += functions.empty() ? "nullptr, 0" : "kEntries, " + std::to_string(functions.size());
    out += ", " + literal(origin) + ", " + literal(missing) + "};\n    return census;\n}\n\n";
    out += "}  // namespace tclens::kernels\n";
    return out;
}

}  // namespace tclens::kernels
