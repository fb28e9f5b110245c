#include "profiling/source/source_profile.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "kernels/sass_census/op_class.h"

namespace tclens::profiling {

void add_stalls(std::vector<StallSamples>& into, const std::vector<StallSamples>& add) {
    for (const StallSamples& stall : add) {
        auto found = std::find_if(into.begin(), into.end(),
                                  [&stall](const StallSamples& s) { return s.key == stall.key; });
        if (found == into.end()) {
            into.push_back(stall);
        } else {
            found->samples += stall.samples;
        }
    }
}

void sort_stalls(std::vector<StallSamples>& stalls) {
    std::stable_sort(stalls.begin(), stalls.end(),
                     [](const StallSamples& a, const StallSamples& b) {
                         return a.samples != b.samples ? a.samples > b.samples : a.key < b.key;
                     });
}

bool TotalsCheck::equal() const {
    return available && std::fabs(instruction_sum - range_total) < 0.5;
}

std::uint64_t SourceProfile::total_samples() const {
    std::uint64_t total = 0;
    for (const InstructionProfile& instruction : instructions) total += instruction.samples;
    return total;
}

bool SourceProfile::has_sass() const {
    return std::any_of(instructions.begin(), instructions.end(),
                       [](const InstructionProfile& i) { return !i.sass.empty(); });
}

bool SourceProfile::has_line_info() const {
    return std::any_of(instructions.begin(), instructions.end(),
                       [](const InstructionProfile& i) { return !i.frames.empty(); });
}

std::optional<kernels::InstructionMix> instruction_mix_of(const SourceProfile& profile) {
    if (!profile.has_sass()) return std::nullopt;
    kernels::InstructionMix mix;
    mix.arch = "recorded";
    std::set<std::string> functions;
    for (const InstructionProfile& instruction : profile.instructions) {
        if (instruction.opcode.empty()) continue;
        functions.insert(instruction.function);
        kernels::count_instruction(mix.counts, instruction.opcode);
    }
    mix.functions = static_cast<int>(functions.size());
    return mix;
}

std::string line_of(const std::string& text, int line) {
    if (line < 1) return "";
    std::size_t start = 0;
    for (int l = 1; l < line; ++l) {
        start = text.find('\n', start);
        if (start == std::string::npos) return "";
        ++start;
    }
    if (start > text.size()) return "";
    const std::size_t end = text.find('\n', start);
    std::string result = text.substr(start, end == std::string::npos ? end : end - start);
    if (!result.empty() && result.back() == '\r') result.pop_back();
    return result;
}

void aggregate_source_profile(SourceProfile& profile) {
    std::vector<StallSamples> kernel;
    for (SourceFile& file : profile.files) file.lines.clear();
    for (std::size_t i = 0; i < profile.instructions.size(); ++i) {
        const InstructionProfile& instruction = profile.instructions[i];
        add_stalls(kernel, instruction.stalls);
        for (SourceFile& file : profile.files) {
            // The innermost frame of the instruction in this file, if any.
            const auto frame =
                std::find_if(instruction.frames.begin(), instruction.frames.end(),
                             [&file](const SourceLocation& f) { return f.file == file.path; });
            if (frame == instruction.frames.end()) continue;
            auto line =
                std::lower_bound(file.lines.begin(), file.lines.end(), frame->line,
                                 [](const LineProfile& l, int number) { return l.line < number; });
            if (line == file.lines.end() || line->line != frame->line) {
                LineProfile fresh;
                fresh.line = frame->line;
                line = file.lines.insert(line, fresh);
            }
            line->samples += instruction.samples;
            add_stalls(line->stalls, instruction.stalls);
            line->executed += instruction.executed;
            line->shared_wavefronts += instruction.shared_wavefronts;
            line->shared_conflicts += instruction.shared_conflicts;
            line->global_sectors += instruction.global_sectors;
            line->instructions.push_back(i);
        }
    }
    for (SourceFile& file : profile.files) {
        for (LineProfile& line : file.lines) sort_stalls(line.stalls);
    }
    sort_stalls(kernel);
    std::uint64_t total = 0;
    for (const StallSamples& stall : kernel) total += stall.samples;
    profile.stalls.clear();
    for (const StallSamples& stall : kernel) {
        profile.stalls.push_back(
            {stall.key, stall.samples,
             total > 0 ? 100.0 * static_cast<double>(stall.samples) / static_cast<double>(total)
                       : 0.0});
    }
}

std::vector<std::size_t> hottest_instructions(const SourceProfile& profile, std::size_t count) {
    std::vector<std::size_t> order(profile.instructions.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&profile](std::size_t a, std::size_t b) {
        const InstructionProfile& x = profile.instructions[a];
        const InstructionProfile& y = profile.instructions[b];
        return x.samples != y.samples ? x.samples > y.samples : x.executed > y.executed;
    });
    if (order.size() > count) order.resize(count);
    return order;
}

}  // namespace tclens::profiling
