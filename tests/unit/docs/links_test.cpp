// Every relative link and image of the project's Markdown (README.md, docs/ with the guide,
// examples/, the results' READMEs) points at a file or folder that exists, and an anchor
// (`path.md#anchor` or `#anchor`) at a heading of that page as GitHub names headings: lower case,
// punctuation dropped, spaces become hyphens, a repeated heading gets -1, -2, ... A link is
// `[text](target)` outside fenced code blocks and inline code spans, resolved against the folder
// of the file that holds it; links with a scheme (https:, mailto:) are not checked.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/source_dir.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;

// The Markdown files whose links are checked, relative paths under the source tree.
std::vector<fs::path> markdown_files(const fs::path& root) {
    std::vector<fs::path> files = {root / "README.md"};
    for (const char* folder : {"docs", "examples", "bench", "tests/gpu/results"}) {
        if (!fs::exists(root / folder)) continue;
        for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
            if (entry.is_regular_file() && entry.path().extension() == ".md")
                files.push_back(entry.path());
        }
    }
    return files;
}

// The lines of `file` outside its fenced code blocks (``` ... ```).
std::string unfenced_text(const fs::path& file) {
    std::ifstream in(file);
    std::string line, text;
    bool in_code = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            in_code = !in_code;
            continue;
        }
        if (!in_code) text += line + "\n";
    }
    return text;
}

// The text of `file` where links can be: outside fenced blocks and inline code spans.
std::string prose_of(const fs::path& file) {
    static const std::regex code_span("`[^`\n]*`");
    return std::regex_replace(unfenced_text(file), code_span, "``");
}

// The anchors GitHub gives the headings of `file`: "## The GPU: one path" -> "the-gpu-one-path".
std::set<std::string> heading_anchors(const fs::path& file) {
    static const std::regex heading("^#+[ \t]+(.*?)[ \t#]*$");
    static const std::regex link_in_heading(R"(\[([^\]]*)\]\([^)]*\))");
    std::istringstream prose(unfenced_text(file));
    std::set<std::string> anchors;
    std::map<std::string, int> repeats;
    std::smatch match;
    for (std::string line; std::getline(prose, line);) {
        if (!std::regex_match(line, match, heading)) continue;
        const std::string text = std::regex_replace(match[1].str(), link_in_heading, "$1");
        std::string anchor;
        for (const char c : text) {
            const unsigned char u = static_cast<unsigned char>(c);
            if (std::isalnum(u) || c == '_' || c == '-')
                anchor += static_cast<char>(std::tolower(u));
            if (c == ' ') anchor += '-';
        }
        const int seen = repeats[anchor]++;
        anchors.insert(seen == 0 ? anchor : anchor + "-" + std::to_string(seen));
    }
    return anchors;
}

// "README.md: docs/images/tour/" for each relative link of `file` that points at nothing, or
// "README.md: docs/remote.md#ssh (no such heading)" for an anchor that does.
std::vector<std::string> dead_links(const fs::path& root, const fs::path& file) {
    static const std::regex link(R"(\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\))");
    static const std::regex scheme("^[a-z]+:");
    std::vector<std::string> dead;
    const std::string prose = prose_of(file);
    const std::string where = fs::relative(file, root).string() + ": ";
    for (std::sregex_iterator it(prose.begin(), prose.end(), link), end; it != end; ++it) {
        const std::string target = (*it)[1];
        if (target.empty() || std::regex_search(target, scheme)) continue;
        const std::size_t hash = target.find('#');
        const std::string path = target.substr(0, hash);
        const fs::path linked = path.empty() ? file : file.parent_path() / path;
        if (!fs::exists(linked)) {
            dead.push_back(where + target);
        } else if (hash != std::string::npos &&
                   (linked.extension() != ".md" ||
                    heading_anchors(linked).count(target.substr(hash + 1)) == 0)) {
            dead.push_back(where + target + " (no such heading)");
        }
    }
    return dead;
}

TEST(DocsLinks, EveryRelativeLinkPointsAtSomething) {
    const fs::path root = test::kSource;
    const std::vector<fs::path> files = markdown_files(root);
    ASSERT_GT(files.size(), 5u) << "the Markdown files were not found under " << root;
    std::vector<std::string> dead;
    for (const fs::path& file : files) {
        for (std::string& one : dead_links(root, file)) dead.push_back(std::move(one));
    }
    std::ostringstream list;
    for (const std::string& one : dead) list << one << "\n";
    EXPECT_TRUE(dead.empty()) << "links that point at nothing:\n" << list.str();
}

// The check itself: a planted dead link or anchor is found; a live one and a link in code are not.
TEST(DocsLinks, APlantedDeadLinkOrAnchorIsFound) {
    const fs::path folder = fs::temp_directory_path() / "tclens_links_test";
    fs::create_directories(folder / "docs");
    std::ofstream(folder / "docs" / "there.md") << "# The GPU: one `path`\n## Keys\n## Keys\n";
    std::ofstream(folder / "page.md")
        << "# Top\n[live](docs/there.md#the-gpu-one-path) [again](docs/there.md#keys-1) "
           "[dead](docs/gone.md) [web](https://example.com) [self](#top) [lost](#bottom) "
           "[no heading](docs/there.md#keys-2) `[span](not/checked.md)`\n"
           "```\n[code](not/checked.md)\n```\n";
    EXPECT_EQ(
        dead_links(folder, folder / "page.md"),
        (std::vector<std::string>{"page.md: docs/gone.md", "page.md: #bottom (no such heading)",
                                  "page.md: docs/there.md#keys-2 (no such heading)"}));
    fs::remove_all(folder);
}

}  // namespace
}  // namespace tclens
