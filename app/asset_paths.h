#pragma once
// Where the data tclens ships is found at run time: the recordings, the tour (assets/ in the
// source tree; <prefix>/share/tclens/ once installed). Each program looks, in this order, in
//   1. <folder of the executable>/<TCLENS_INSTALLED_ASSETS>: the installed layout, by default
//      "../share/tclens" (<prefix>/bin/tclens beside <prefix>/share/tclens/, however the prefix
//      was chosen: `cmake --install build --prefix P`, the .deb's /usr, a folder it was
//      unpacked into);
//   2. <folder of the executable>/../../assets: a build folder inside the checkout (build/bin/);
//   3. TCLENS_ASSETS_DIR: the source tree this binary was built from.
// The first folder that holds tour.json (every layout ships it) is the assets folder, so an
// installed tclens works from any directory and never reads the build or source tree it came
// from when its own copy is there.

#include <string>

namespace tclens {

// The assets folder (normalised, absolute), or "" when none of the places holds one.
std::string assets_dir();

// assets_dir()/relative ("recordings/h200.json.gz", "tour.json") when that file exists, else "".
std::string asset_path(const std::string& relative);

}  // namespace tclens
