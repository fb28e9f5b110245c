// packaging/: the .deb that CPack builds from the release build (label package: built and run in
// build/, as tclens ships) installs into a scratch root (dpkg -x, a root without the build or
// source tree on its paths) and runs from there: its Depends were computed and name no sanitizer
// runtime, every
// installed file is where the desktop expects it, and the unpacked tclens finds its own assets
// (app/asset_paths.h), prints its version and renders a tour step (the tour is one of those
// assets) under the harness's Xvfb from another working folder.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;

const std::string kCpack = TCLENS_CPACK_COMMAND;
const std::string kCpackConfig = TCLENS_CPACK_CONFIG;

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The one .deb in `folder`, or "".
fs::path only_deb(const fs::path& folder) {
    fs::path found;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() != ".deb") continue;
        if (!found.empty()) return "";
        found = entry.path();
    }
    return found;
}

TEST(Package, DebInstallsIntoAScratchRootAndRunsFromThere) {
    for (const char* tool : {"dpkg-deb", "dpkg-shlibdeps", "xvfb-run"}) {
        ASSERT_TRUE(test::on_path(tool)) << tool << " is missing: scripts/dev.sh installs it";
    }
    const fs::path work = test::temp_path("package");
    fs::remove_all(work);
    fs::create_directories(work / "root");

    const test::CommandResult built = test::run_command(
        "'" + kCpack + "' --config '" + kCpackConfig + "' -B '" + (work / "deb").string() + "'");
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    const fs::path deb = only_deb(work / "deb");
    ASSERT_FALSE(deb.empty()) << "cpack wrote no single .deb into " << (work / "deb") << "\n"
                              << built.out;

    // Depends comes from dpkg-shlibdeps: the window and GL libraries, the C and C++ runtimes.
    const test::CommandResult depends =
        test::run_command("dpkg-deb -f '" + deb.string() + "' Depends");
    ASSERT_EQ(depends.exit_code, 0) << depends.err;
    for (const char* package : {"libc6", "libstdc++6", "libglfw3", "libopengl0"}) {
        EXPECT_NE(depends.out.find(package), std::string::npos)
            << "Depends lacks " << package << ": " << depends.out;
    }
    // What ships is no sanitizer build.
    for (const char* runtime : {"libasan", "libubsan", "liblsan", "libtsan"}) {
        EXPECT_EQ(depends.out.find(runtime), std::string::npos)
            << "Depends names a sanitizer runtime: " << depends.out;
    }

    const fs::path root = work / "root";
    const test::CommandResult unpacked =
        test::run_command("dpkg -x '" + deb.string() + "' '" + root.string() + "'");
    ASSERT_EQ(unpacked.exit_code, 0) << unpacked.err;
    const fs::path usr = root / "usr";
    for (const char* file :
         {"bin/tclens", "share/tclens/tour.json", "share/tclens/recordings/h200.json.gz",
          "share/applications/tclens.desktop", "share/icons/hicolor/scalable/apps/tclens.svg",
          "share/icons/hicolor/256x256/apps/tclens.png", "share/man/man1/tclens.1.gz"}) {
        EXPECT_TRUE(fs::is_regular_file(usr / file)) << "the package lacks /usr/" << file;
    }
    EXPECT_NE(read_text(usr / "share/applications/tclens.desktop").find("Exec=tclens"),
              std::string::npos);
    const test::PngFacts icon =
        test::inspect_png((usr / "share/icons/hicolor/256x256/apps/tclens.png").string());
    EXPECT_TRUE(icon.loaded && icon.width == 256 && icon.height == 256);
    const test::CommandResult man =
        test::run_command("gzip -dc '" + (usr / "share/man/man1/tclens.1.gz").string() + "'");
    EXPECT_NE(man.out.find(".TH TCLENS"), std::string::npos) << man.out.substr(0, 200);
    EXPECT_NE(man.out.find("screenshot"), std::string::npos)  // from --help's subcommands
        << "the man page does not list the subcommands";

    // From another folder, the unpacked binary finds the assets unpacked beside it.
    const std::string tclens = "cd / && '" + (usr / "bin/tclens").string() + "'";
    const test::CommandResult version = test::run_command(tclens + " --version");
    ASSERT_EQ(version.exit_code, 0) << version.err;
    EXPECT_NE(version.out.find("tclens "), std::string::npos) << version.out;
    const std::string assets = (usr / "share/tclens").lexically_normal().string();
    EXPECT_NE(version.out.find("assets: " + assets + "\n"), std::string::npos)
        << "expected assets: " << assets << " in\n"
        << version.out;

    const fs::path shot = work / "tour_step_1.png";
    // xvfb-run runs one program: the folder change goes inside a shell it runs.
    const test::CommandResult screenshot = test::run_under_xvfb(
        "sh -c \"" + tclens + " screenshot --tour-step 1 --size 960x600 --out '" + shot.string() +
        "'\"");
    ASSERT_EQ(screenshot.exit_code, 0) << screenshot.out << screenshot.err;
    const test::PngFacts png = test::inspect_png(shot.string());
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, 960);
    EXPECT_EQ(png.height, 600);
    EXPECT_GE(png.text_pixels, 400);  // the view and the caption banner, not a blank frame
    fs::remove_all(work);
}

}  // namespace
}  // namespace tclens
