#pragma once
// File > Connect to GPU server... (docs/remote.md): where the GUI's worker, and so every GPU job,
// runs. A text field for [user@]host[:path to tclens], checked with worker::parse_remote_target
// before anything runs (a value ssh could read as an option, or one holding shell metacharacters,
// is one line in the dialog and nothing starts); the recent servers (recent_hosts.h), one click
// each; "This machine" to go back to a worker here; "Reconnect" for a fresh worker where it runs
// now. A switch stops the running and waiting jobs, then happens once none runs
// (request_worker_switch): the status bar says "querying the GPU..." until the new worker's hello,
// then names the host and its GPU.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/worker/client.h"

namespace tclens::gui {

struct AppContext;

class ConnectDialog {
  public:
    ConnectDialog();  // reads the recent servers

    // Inside the open File menu.
    void draw_menu_item();
    // Asks to run the worker on `host` ([user@]host[:path]), as typing it and Connect do: "" or
    // the one-line refusal, and then nothing changes. `tclens --set connect.to=HOST` calls it.
    std::string connect_to(const std::string& host);
    // Asks to run the worker on this machine again (`--set connect.to=` with no host).
    void connect_here();
    // Once per frame: the dialog while it is open, and the switch asked for once no job runs.
    void draw(AppContext& context);

    const std::vector<std::string>& recent() const { return recent_; }

  private:
    void switch_when_idle(AppContext& context);
    void draw_dialog(AppContext& context);

    std::vector<std::string> recent_;               // most recent first
    std::optional<worker::ClientOptions> pending_;  // a switch asked for, not yet made
    std::array<char, 512> host_{};
    std::string error_;  // why the last host was refused, one line
    bool open_requested_ = false;
};

}  // namespace tclens::gui
