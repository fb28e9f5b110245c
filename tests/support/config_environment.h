#pragma once
#include <stdlib.h>

#include <cstdlib>
#include <string>

namespace tclens::test {

// Sets (or with nullptr unsets) $XDG_CONFIG_HOME and $HOME for one test, and puts them back:
// where the app's config folder is (app/gui/shell/config_folder.h).
class ConfigEnvironment {
  public:
    ConfigEnvironment(const char* xdg, const char* home) {
        for (auto& [name, value, had] : saved_) {
            const char* now = std::getenv(name);
            had = now != nullptr;
            value = had ? now : "";
        }
        set("XDG_CONFIG_HOME", xdg);
        set("HOME", home);
    }
    ~ConfigEnvironment() {
        for (const auto& [name, value, had] : saved_) set(name, had ? value.c_str() : nullptr);
    }

  private:
    static void set(const char* name, const char* value) {
        if (value) {
            setenv(name, value, 1);
        } else {
            unsetenv(name);
        }
    }
    struct Saved {
        const char* name;
        std::string value;
        bool had;
    };
    Saved saved_[2] = {{"XDG_CONFIG_HOME", "", false}, {"HOME", "", false}};
};

}  // namespace tclens::test
