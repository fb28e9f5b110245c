#pragma once
// The "size" field of the panels that run one GEMM size (Profile, Source, Timeline): the MxNxK
// text as typed, the problem it parses to and, while it does not parse, why
// (kernels/problem_text.h). A bad `mnk=` setting is refused and changes nothing; bad typing stays
// in the field with its reason, and the last good problem stays the one a job runs.

#include <array>
#include <string>

#include "kernels/gemm.h"

namespace tclens::gui {

class SizeField {
  public:
    static constexpr const char* kDefaultText = "4096x4096x4096";
    explicit SizeField(const std::string& text = kDefaultText);

    // The panel's `mnk=VALUE` setting: "" and the new size, or "mnk='VALUE': <why>" and nothing
    // changed.
    std::string apply_setting(const std::string& text);
    // "size" and the text field on the current line (then SameLine).
    void draw();

    const kernels::GemmProblem& problem() const { return problem_; }
    // Why the typed text is no size; "" while it is one.
    const std::string& error() const { return error_; }
    const char* text() const { return buffer_.data(); }

  private:
    void take(const std::string& text);

    std::array<char, 64> buffer_{};
    kernels::GemmProblem problem_;  // the last text that parsed
    std::string error_;
};

}  // namespace tclens::gui
