#pragma once
// Subcommands of `tclens`, one file each. Each add_* registers its subcommand on `app`; the
// subcommand's callback runs it and stores the process exit code in `exit_code`.

namespace CLI {
class App;
}

namespace tclens::cli {

void add_banks_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_device_command(CLI::App& app, int& exit_code);
void add_exercise_command(CLI::App& app, int& exit_code);
void add_kernels_command(CLI::App& app, int& exit_code);
void add_layout_command(CLI::App& app, int& exit_code);
void add_profile_command(CLI::App& app, int& exit_code);
void add_record_command(CLI::App& app, int& exit_code);
void add_source_command(CLI::App& app, int& exit_code);
void add_tilemap_command(CLI::App& app, int& exit_code);
void add_trace_command(CLI::App& app, int& exit_code);
void add_watch_command(CLI::App& app, int& exit_code);
void add_worker_command(CLI::App& app, int& exit_code);
void add_screenshot_command(CLI::App& app, int& exit_code);  // GUI builds only
void add_headless_command(CLI::App& app, int& exit_code);    // GUI or headless-GUI builds
void add_compare_command(CLI::App& app, int& exit_code);     // GUI or headless-GUI builds

}  // namespace tclens::cli
