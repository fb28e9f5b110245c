// Every relative link of the project's Markdown (README.md, docs/, examples/, the results'
// READMEs) points at a file or folder that exists: a link `[text](path)` or `[text](path#anchor)`
// outside fenced code blocks, resolved against the folder of the file that holds it. Links with
// a scheme (https:, mailto:) and anchors within the same page are not checked.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
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

// The text of `file` without its fenced code blocks (``` ... ```), where brackets are code.
std::string prose_of(const fs::path& file) {
    std::ifstream in(file);
    std::string line, prose;
    bool in_code = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            in_code = !in_code;
            continue;
        }
        if (!in_code) prose += line + "\n";
    }
    return prose;
}

// "README.md: docs/images/tour/" for each relative link of `file` that points at nothing.
std::vector<std::string> dead_links(const fs::path& root, const fs::path& file) {
    static const std::regex link(R"(\]\(([^)\s]+)\))");
    static const std::regex scheme("^[a-z]+:");
    std::vector<std::string> dead;
    const std::string prose = prose_of(file);
    for (std::sregex_iterator it(prose.begin(), prose.end(), link), end; it != end; ++it) {
        const std::string target = (*it)[1];
        if (target.empty() || target[0] == '#' || std::regex_search(target, scheme)) continue;
        const std::string path = target.substr(0, target.find('#'));
        if (!fs::exists(file.parent_path() / path))
            dead.push_back(fs::relative(file, root).string() + ": " + target);
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

// The check itself: a planted dead link is found, a live one and a link in code are not.
TEST(DocsLinks, APlantedDeadLinkIsFound) {
    const fs::path folder = fs::temp_directory_path() / "tclens_links_test";
    fs::create_directories(folder / "docs");
    std::ofstream(folder / "docs" / "there.md") << "x\n";
    std::ofstream(folder / "page.md") << "[live](docs/there.md#a) [dead](docs/gone.md) "
                                         "[web](https://example.com) [self](#top)\n"
                                         "```\n[code](not/checked.md)\n```\n";
    EXPECT_EQ(dead_links(folder, folder / "page.md"),
              std::vector<std::string>{"page.md: docs/gone.md"});
    fs::remove_all(folder);
}

}  // namespace
}  // namespace tclens
