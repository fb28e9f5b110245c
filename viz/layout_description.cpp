#include "viz/layout_description.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "common/text.h"
#include "viz/warp.h"

namespace tclens::viz {

namespace {

bool is_type_token(std::string_view token) {
    static constexpr std::string_view kTypes[] = {"f16", "bf16", "tf32", "f32", "f64",  "s8",
                                                  "u8",  "s4",   "u4",   "s32", "e4m3", "e5m2",
                                                  "b16", "b8",   "b1",   "b32"};
    return std::find(std::begin(kTypes), std::end(kTypes), token) != std::end(kTypes);
}

// The elements of the holding lanes under study: coords[rank * count + e] is element e of the
// holder ranked `rank`.
struct ElementTable {
    int count = 0;
    std::vector<MatrixCoord> coords;
    const MatrixCoord& at(size_t rank, int e) const {
        return coords[rank * size_t(count) + size_t(e)];
    }
};

int element_index(const OperandLayout& operand, const LayoutElement& e) {
    return e.reg * elements_per_register(operand.elem_bits) + e.sub;
}

// The (reg, sub) slots of `lane`, in order.
std::vector<std::pair<int, int>> slots_of(const OperandLayout& operand, int lane) {
    std::vector<std::pair<int, int>> slots;
    for (const LayoutElement& e : operand.elements) {
        if (e.lane == lane) slots.push_back({e.reg, e.sub});
    }
    return slots;
}

// Rows per warp when every warp w of a warpgroup holds rows warp_rows * w onward with warp 0's
// pattern; 0 otherwise (and for a single warp).
int uniform_warp_rows(const OperandLayout& operand, int threads) {
    const int warps = threads / kWarpLanes;
    if (warps < 2 || operand.rows % warps != 0) return 0;
    const int warp_rows = operand.rows / warps;
    std::map<std::pair<int, int>, MatrixCoord> warp0;
    for (const LayoutElement& e : operand.elements) {
        if (e.lane < kWarpLanes) warp0[{e.lane, element_index(operand, e)}] = {e.row, e.col};
    }
    size_t seen = 0;
    for (const LayoutElement& e : operand.elements) {
        const int warp = e.lane / kWarpLanes;
        const auto it = warp0.find({e.lane % kWarpLanes, element_index(operand, e)});
        if (it == warp0.end() || it->second.row + warp * warp_rows != e.row ||
            it->second.col != e.col) {
            return 0;
        }
        ++seen;
    }
    return seen == warp0.size() * static_cast<size_t>(warps) ? warp_rows : 0;
}

struct Candidate {
    OperandSummary summary;
    int blocks = 0;
};

// Tries one group size; fills `out` and returns true when it gives a regular structure.
bool try_group_size(const ElementTable& table, size_t holders, int per_block, OperandSummary& out) {
    const int groups = table.count / per_block;
    int h = -1, w = -1;
    std::vector<BlockPlacement> blocks;
    std::vector<char> seen;
    for (int group = 0; group < groups; ++group) {
        int top = 1 << 30, left = 1 << 30, bottom = -1, right = -1;
        for (size_t r = 0; r < holders; ++r) {
            for (int j = 0; j < per_block; ++j) {
                const MatrixCoord& at = table.at(r, group * per_block + j);
                top = std::min(top, at.row);
                left = std::min(left, at.col);
                bottom = std::max(bottom, at.row);
                right = std::max(right, at.col);
            }
        }
        const int rows = bottom - top + 1, cols = right - left + 1;
        if (static_cast<size_t>(rows) * cols != holders * size_t(per_block)) return false;
        if (group == 0) {
            h = rows;
            w = cols;
        } else if (rows != h || cols != w) {
            return false;
        }
        seen.assign(static_cast<size_t>(rows) * cols, 0);
        for (size_t r = 0; r < holders; ++r) {
            for (int j = 0; j < per_block; ++j) {
                const MatrixCoord& at = table.at(r, group * per_block + j);
                char& cell = seen[size_t(at.row - top) * size_t(cols) + size_t(at.col - left)];
                if (cell) return false;
                cell = 1;
            }
        }
        blocks.push_back({top, left});
    }
    // Inside: rank r of a holder, element j of the group.
    for (const bool row_major : {true, false}) {
        const int line = row_major ? w : h;
        if (line % per_block != 0) continue;
        const int q = line / per_block;
        if (q * (row_major ? h : w) != static_cast<int>(holders)) continue;
        bool fits = true;
        for (int group = 0; group < groups && fits; ++group) {
            for (size_t r = 0; r < holders && fits; ++r) {
                for (int j = 0; j < per_block && fits; ++j) {
                    const MatrixCoord& at = table.at(r, group * per_block + j);
                    const int across = static_cast<int>(r) / q;
                    const int along = (static_cast<int>(r) % q) * per_block + j;
                    const int row = blocks[size_t(group)].row + (row_major ? across : along);
                    const int col = blocks[size_t(group)].col + (row_major ? along : across);
                    fits = at.row == row && at.col == col;
                }
            }
        }
        if (!fits) continue;
        out.per_block = per_block;
        out.block_rows = h;
        out.block_cols = w;
        out.blocks = blocks;
        out.row_major_inside = row_major;
        out.lanes_per_line = q;
        return true;
    }
    return false;
}

BlockOrder block_order(const OperandSummary& summary, int rows) {
    const int block_rows_count = summary.block_rows > 0 ? rows / summary.block_rows : 0;
    bool columns = block_rows_count > 0, rows_first = true;
    int blocks_per_row = 0;
    for (const BlockPlacement& b : summary.blocks) {
        if (b.row == 0) ++blocks_per_row;
    }
    for (size_t i = 0; i < summary.blocks.size(); ++i) {
        const int index = static_cast<int>(i);
        const BlockPlacement& b = summary.blocks[i];
        if (columns && (b.row != (index % block_rows_count) * summary.block_rows ||
                        b.col != (index / block_rows_count) * summary.block_cols)) {
            columns = false;
        }
        if (blocks_per_row == 0 || b.row != (index / blocks_per_row) * summary.block_rows ||
            b.col != (index % blocks_per_row) * summary.block_cols) {
            rows_first = false;
        }
    }
    if (summary.blocks.size() == 1) return BlockOrder::kColumnsOfBlocks;
    if (columns) return BlockOrder::kColumnsOfBlocks;
    if (rows_first) return BlockOrder::kRowsOfBlocks;
    return BlockOrder::kListed;
}

std::string range_text(int first, int last) {
    return first == last ? std::to_string(first)
                         : std::to_string(first) + ".." + std::to_string(last);
}

std::string holder_list(const std::vector<int>& holders) {
    if (holders.size() > 4) {
        const int step = holders[1] - holders[0];
        bool arithmetic = true;
        for (size_t i = 1; i < holders.size(); ++i) {
            arithmetic = arithmetic && holders[i] - holders[i - 1] == step;
        }
        if (arithmetic) {
            return std::to_string(holders[0]) + ", " + std::to_string(holders[1]) + ", ..., " +
                   std::to_string(holders.back());
        }
    }
    return common::join(holders, ", ", [](int lane) { return std::to_string(lane); });
}

// "lane 4g+t" style name of a holder's rank inside a block line pattern.
std::string inside_text(const OperandSummary& s, bool all_lanes, const char* lane_word) {
    const int q = s.lanes_per_line;
    const int p = s.per_block;
    const std::string who = all_lanes ? std::string(lane_word) + " " : "the holder ranked ";
    const std::string index = q == 1 ? "g" : (std::to_string(q) + "g+t");
    const std::string along = p == 1 ? (q == 1 ? "0" : "t")
                                     : (q == 1 ? "0.." + std::to_string(p - 1)
                                               : std::to_string(p) + "t.." + std::to_string(p) +
                                                     "t+" + std::to_string(p - 1));
    if (s.row_major_inside) {
        return "row-major inside: " + who + index + " holds row g, column" + (p > 1 ? "s " : " ") +
               along + " of the block";
    }
    return "column-major inside: " + who + index + " holds column g, row" + (p > 1 ? "s " : " ") +
           along + " of the block";
}

// Names the element groups: "one per register (a0, a1, a2, a3)", "one per 2 registers
// (c0-1, c2-3)", "one per 8 2-bit fields (e0 bits 0..15, e0 bits 16..31)".
std::string group_text(const OperandLayout& operand, const OperandSummary& s, bool tmem) {
    const int subs = elements_per_register(operand.elem_bits);
    const int bits = operand.elem_bits;
    const int groups = static_cast<int>(s.blocks.size());
    const std::string letter(1, static_cast<char>(operand_letter(operand.operand) - 'A' + 'a'));
    const std::string prefix = tmem ? "col " : letter;
    bool whole_registers = true;
    std::vector<std::string> names;  // of the first 4 groups
    for (int g = 0; g < groups; ++g) {
        const auto& first = s.slots[size_t(g * s.per_block)];
        const auto& last = s.slots[size_t(g * s.per_block + s.per_block - 1)];
        const bool whole = first.second == 0 && last.second == subs - 1 &&
                           s.per_block == (last.first - first.first + 1) * subs;
        whole_registers = whole_registers && whole;
        if (g >= 4) continue;
        std::string name = prefix + std::to_string(first.first);
        if (whole && last.first != first.first) name += "-" + std::to_string(last.first);
        if (!whole) {
            name += " bits " + range_text(first.second * bits, (last.second + 1) * bits - 1);
        }
        names.push_back(name);
    }
    const std::string listed = common::join(names, ", ") + (groups > 4 ? ", ..." : "");
    const std::string reg_word = tmem ? "TMEM column" : "register";
    if (whole_registers) {
        const int regs = s.per_block / subs;
        return "one per " + (regs == 1 ? reg_word : std::to_string(regs) + " " + reg_word + "s") +
               " (" + listed + ")";
    }
    const std::string unit = tmem ? "byte" : std::to_string(bits) + "-bit field";
    return "one per " + (s.per_block == 1 ? unit : std::to_string(s.per_block) + " " + unit + "s") +
           " (" + listed + ")";
}

// "bit 0 +8 rows, bit 1 +1 column, bits 2-4 +1, +2, +4 rows"
std::string steps_text(const std::vector<BitStep>& steps) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < steps.size();) {
        const BitStep& first = steps[i];
        if (!first.holds) {
            parts.push_back("bit " + std::to_string(first.bit) + " set holds nothing");
            ++i;
            continue;
        }
        const bool rows = first.cols == 0;
        size_t j = i + 1;
        while (j < steps.size() && steps[j].holds && steps[j].bit == steps[j - 1].bit + 1 &&
               (rows ? steps[j].cols == 0 && steps[j].rows == 2 * steps[j - 1].rows
                     : steps[j].rows == 0 && steps[j].cols == 2 * steps[j - 1].cols)) {
            ++j;
        }
        std::vector<std::string> steps_by;  // "+8", "+16": what each bit of the run adds
        for (size_t k = i; k < j; ++k) {
            const int amount = rows ? steps[k].rows : steps[k].cols;
            steps_by.push_back((amount >= 0 ? "+" : "") + std::to_string(amount));
        }
        std::string amounts = common::join(steps_by, ", ");
        std::string what;
        if (first.rows != 0 && first.cols != 0) {
            what = "+" + std::to_string(first.rows) + " rows and " + std::to_string(first.cols) +
                   " columns";
            amounts.clear();
        } else {
            what = rows ? " rows" : " columns";
        }
        const std::string bits_label =
            j - i > 1 ? "bits " + std::to_string(first.bit) + "-" + std::to_string(steps[j - 1].bit)
                      : "bit " + std::to_string(first.bit);
        parts.push_back(bits_label + " " + amounts + what);
        i = j;
    }
    return common::join(parts, ", ");
}

std::string order_text(const OperandSummary& s) {
    bool one_row = true, one_col = true;
    for (const BlockPlacement& b : s.blocks) {
        one_row = one_row && b.row == s.blocks.front().row;
        one_col = one_col && b.col == s.blocks.front().col;
    }
    if (s.order != BlockOrder::kListed && one_row != one_col) {
        return one_row ? "left-to-right" : "top-to-bottom";
    }
    switch (s.order) {
        case BlockOrder::kColumnsOfBlocks:
            return "top-to-bottom, then left-to-right";
        case BlockOrder::kRowsOfBlocks:
            return "left-to-right, then top-to-bottom";
        case BlockOrder::kListed:
            break;
    }
    return "in no simple order";
}

// What each register covers, for layouts without a regular structure.
std::string irregular_text(const OperandLayout& operand, int threads, bool tmem) {
    std::map<int, std::pair<MatrixCoord, MatrixCoord>> boxes;  // reg -> (top-left, bottom-right)
    for (const LayoutElement& e : operand.elements) {
        auto [it, inserted] = boxes.insert({e.reg, {{e.row, e.col}, {e.row, e.col}}});
        if (!inserted) {
            it->second.first.row = std::min(it->second.first.row, e.row);
            it->second.first.col = std::min(it->second.first.col, e.col);
            it->second.second.row = std::max(it->second.second.row, e.row);
            it->second.second.col = std::max(it->second.second.col, e.col);
        }
    }
    const std::string letter(1, static_cast<char>(operand_letter(operand.operand) - 'A' + 'a'));
    std::vector<std::string> covers;  // of the first 4 registers
    for (const auto& [reg, box] : boxes) {
        if (covers.size() == 4) break;
        covers.push_back((tmem ? "col " : letter) + std::to_string(reg) + " covers rows " +
                         range_text(box.first.row, box.second.row) + ", columns " +
                         range_text(box.first.col, box.second.col));
    }
    std::vector<std::string> firsts;  // of the first 6 lanes holding element 0 of register 0
    for (const LayoutElement& e : operand.elements) {
        if (e.reg != 0 || e.sub != 0) continue;
        firsts.push_back("lane " + std::to_string(e.lane) + " -> (" + std::to_string(e.row) + "," +
                         std::to_string(e.col) + ")");
        if (firsts.size() == 6 || e.lane + 1 >= threads) break;
    }
    return "no regular block structure; " + common::join(covers, "; ") +
           (boxes.size() > 4 ? "; ..." : "") + "; first elements: " + common::join(firsts, ", ");
}

}  // namespace

std::string operand_type(const FragmentLayout& layout, const OperandLayout& operand) {
    std::vector<std::string_view> types;
    const std::string_view ptx = layout.ptx;
    for (size_t begin = 0; begin <= ptx.size();) {
        size_t end = ptx.find_first_of(". ", begin);
        if (end == std::string_view::npos) end = ptx.size();
        if (is_type_token(ptx.substr(begin, end - begin))) {
            types.push_back(ptx.substr(begin, end - begin));
        }
        begin = end + 1;
    }
    const int slot = operand.operand == Operand::D   ? 0
                     : operand.operand == Operand::A ? 1
                     : operand.operand == Operand::B ? 2
                     : operand.operand == Operand::C ? 3
                                                     : 4;
    if (types.size() == 1 && slot < 4) return std::string(types[0]);
    if ((types.size() == 4 || types.size() == 3) && slot < static_cast<int>(types.size())) {
        return std::string(types[static_cast<size_t>(slot)]);
    }
    return "b" + std::to_string(operand.elem_bits);
}

namespace {

// Bit steps over all lanes (see the header); false when the operand is not of that kind.
bool try_bit_steps(const OperandLayout& operand, int threads, OperandSummary& s) {
    std::map<int, std::vector<std::pair<std::pair<int, int>, MatrixCoord>>> by_lane;
    for (const LayoutElement& e : operand.elements) {
        by_lane[e.lane].push_back({{e.reg, e.sub}, {e.row, e.col}});
    }
    if (by_lane.empty()) return false;
    std::vector<int> holders;
    for (const auto& [lane, list] : by_lane) holders.push_back(lane);
    const int h0 = holders.front();
    const std::vector<std::pair<int, int>> slots = slots_of(operand, h0);
    std::map<std::pair<int, int>, size_t> slot_rank;
    for (size_t i = 0; i < slots.size(); ++i) slot_rank[slots[i]] = i;
    for (const auto& [lane, list] : by_lane) {
        if (list.size() != slots.size()) return false;
        for (size_t i = 0; i < list.size(); ++i) {
            if (list[i].first != slots[i]) return false;
        }
    }
    const auto coord = [&](int lane, size_t rank) { return by_lane.at(lane)[rank].second; };
    const MatrixCoord base = coord(h0, 0);
    const std::pair<int, int> slot0 = slots.front();
    std::vector<BitStep> lane_steps, reg_steps, sub_steps;
    for (int bit = 0; (1 << bit) < threads; ++bit) {
        const int other = h0 ^ (1 << bit);
        if (by_lane.count(other)) {
            const MatrixCoord at = coord(other, 0);
            lane_steps.push_back({bit, true, at.row - base.row, at.col - base.col});
        } else {
            lane_steps.push_back({bit, false, 0, 0});
        }
    }
    const int max_reg = operand.regs_per_thread;
    for (int bit = 0; (1 << bit) < max_reg; ++bit) {
        const auto it = slot_rank.find({slot0.first ^ (1 << bit), slot0.second});
        if (it == slot_rank.end()) continue;
        const MatrixCoord at = coord(h0, it->second);
        reg_steps.push_back({bit, true, at.row - base.row, at.col - base.col});
    }
    for (int bit = 0; (1 << bit) < elements_per_register(operand.elem_bits); ++bit) {
        const auto it = slot_rank.find({slot0.first, slot0.second ^ (1 << bit)});
        if (it == slot_rank.end()) continue;
        const MatrixCoord at = coord(h0, it->second);
        sub_steps.push_back({bit, true, at.row - base.row, at.col - base.col});
    }
    const auto apply = [](const std::vector<BitStep>& steps, int flipped, MatrixCoord& at) {
        for (const BitStep& step : steps) {
            if (!(flipped & (1 << step.bit))) continue;
            if (!step.holds) return false;
            at.row += step.rows;
            at.col += step.cols;
        }
        return true;
    };
    const auto covered = [](const std::vector<BitStep>& steps, int flipped) {
        int mask = 0;
        for (const BitStep& step : steps) mask |= 1 << step.bit;
        return (flipped & ~mask) == 0;
    };
    for (const auto& [lane, list] : by_lane) {
        for (const auto& [slot, at] : list) {
            MatrixCoord want = base;
            const int lane_flip = lane ^ h0, reg_flip = slot.first ^ slot0.first;
            const int sub_flip = slot.second ^ slot0.second;
            if (!covered(reg_steps, reg_flip) || !covered(sub_steps, sub_flip)) return false;
            if (!apply(lane_steps, lane_flip, want) || !apply(reg_steps, reg_flip, want) ||
                !apply(sub_steps, sub_flip, want)) {
                return false;
            }
            if (want.row != at.row || want.col != at.col) return false;
        }
    }
    s.bit_steps = true;
    s.holders = holders;
    s.slots = slots;
    s.base_lane = h0;
    s.base = base;
    s.lane_steps = lane_steps;
    s.reg_steps = reg_steps;
    s.sub_steps = sub_steps;
    s.warp_rows = 0;
    return true;
}

}  // namespace

OperandSummary summarize_operand(const OperandLayout& operand, int threads) {
    OperandSummary summary;
    summary.warp_rows = uniform_warp_rows(operand, threads);
    const int lane_limit = summary.warp_rows > 0 ? kWarpLanes : threads;
    std::map<int, int> per_lane;
    for (const LayoutElement& e : operand.elements) {
        if (e.lane < lane_limit) ++per_lane[e.lane];
    }
    for (const auto& [lane, count] : per_lane) summary.holders.push_back(lane);
    if (per_lane.empty()) return summary;
    summary.slots = slots_of(operand, summary.holders.front());
    const int subs = elements_per_register(operand.elem_bits);
    std::vector<int> slot_rank(static_cast<size_t>(operand.regs_per_thread * subs), -1);
    for (size_t i = 0; i < summary.slots.size(); ++i) {
        slot_rank[size_t(summary.slots[i].first * subs + summary.slots[i].second)] = int(i);
    }
    std::vector<int> lane_rank(static_cast<size_t>(lane_limit), -1);
    for (size_t r = 0; r < summary.holders.size(); ++r)
        lane_rank[size_t(summary.holders[r])] = int(r);
    ElementTable table;
    table.count = int(summary.slots.size());
    table.coords.assign(summary.holders.size() * summary.slots.size(), MatrixCoord{-1, -1});
    bool same_slots = true;
    for (const LayoutElement& e : operand.elements) {
        if (e.lane >= lane_limit) continue;
        const int rank = slot_rank[size_t(e.reg * subs + e.sub)];
        if (rank < 0 || per_lane[e.lane] != table.count) {
            same_slots = false;
            break;
        }
        table.coords[size_t(lane_rank[size_t(e.lane)]) * size_t(table.count) + size_t(rank)] = {
            e.row, e.col};
    }
    // Fewest blocks first: the largest group size that works.
    Candidate best;
    for (int per_block = table.count; same_slots && per_block >= 1; --per_block) {
        if (table.count % per_block != 0) continue;
        OperandSummary candidate = summary;
        if (!try_group_size(table, summary.holders.size(), per_block, candidate)) continue;
        candidate.regular = true;
        best = {candidate, table.count / per_block};
        break;
    }
    if (best.summary.regular) {
        best.summary.order =
            block_order(best.summary, summary.warp_rows > 0 ? summary.warp_rows : operand.rows);
        return best.summary;
    }
    OperandSummary bits;
    if (try_bit_steps(operand, threads, bits)) return bits;
    return summary;
}

std::vector<LayoutElement> expand_summary(const OperandSummary& s, const OperandLayout& operand,
                                          int threads) {
    (void)operand;
    std::vector<LayoutElement> out;
    if (s.bit_steps) {
        for (const int lane : s.holders) {
            for (const auto& [reg, sub] : s.slots) {
                MatrixCoord at = s.base;
                const auto add = [&at](const std::vector<BitStep>& steps, int flipped) {
                    for (const BitStep& step : steps) {
                        if (flipped & (1 << step.bit)) {
                            at.row += step.rows;
                            at.col += step.cols;
                        }
                    }
                };
                add(s.lane_steps, lane ^ s.base_lane);
                add(s.reg_steps, reg ^ s.slots.front().first);
                add(s.sub_steps, sub ^ s.slots.front().second);
                out.push_back({lane, reg, sub, at.row, at.col});
            }
        }
        return out;
    }
    if (!s.regular) return out;
    const int warps = s.warp_rows > 0 ? threads / kWarpLanes : 1;
    const int q = s.lanes_per_line;
    for (int warp = 0; warp < warps; ++warp) {
        for (size_t r = 0; r < s.holders.size(); ++r) {
            const int lane = s.holders[r] + warp * kWarpLanes;
            for (size_t group = 0; group < s.blocks.size(); ++group) {
                for (int j = 0; j < s.per_block; ++j) {
                    const int across = static_cast<int>(r) / q;
                    const int along = (static_cast<int>(r) % q) * s.per_block + j;
                    const int row = s.blocks[group].row + (s.row_major_inside ? across : along) +
                                    warp * s.warp_rows;
                    const int col = s.blocks[group].col + (s.row_major_inside ? along : across);
                    const auto& slot = s.slots[group * size_t(s.per_block) + size_t(j)];
                    out.push_back({lane, slot.first, slot.second, row, col});
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const LayoutElement& a, const LayoutElement& b) {
        return std::tie(a.lane, a.reg, a.sub) < std::tie(b.lane, b.reg, b.sub);
    });
    return out;
}

std::string describe_operand(const FragmentLayout& layout, const OperandLayout& operand) {
    const bool tmem = layout.tmem_slots;
    const char* lane_word = tmem ? "TMEM lane" : "lane";
    std::string text(1, operand_letter(operand.operand));
    text += " (" + std::to_string(operand.rows) + "x" + std::to_string(operand.cols) + ", " +
            operand_type(layout, operand) + ", ";
    text += tmem ? std::to_string(operand.regs_per_thread) + " TMEM columns"
                 : common::count_text(operand.regs_per_thread, "register") + " per lane";
    text += "): ";
    const OperandSummary s = summarize_operand(operand, layout.threads);
    const int lanes_studied = s.warp_rows > 0 ? kWarpLanes : layout.threads;
    const bool all_lanes = static_cast<int>(s.holders.size()) == lanes_studied;
    if (s.warp_rows > 0) {
        text +=
            std::string(tmem ? "TMEM lanes 32w..32w+31 hold" : "warp w (lanes 32w..32w+31) holds") +
            " rows " + std::to_string(s.warp_rows) + "w.." + std::to_string(s.warp_rows) + "w+" +
            std::to_string(s.warp_rows - 1) + ", each group of 32 as follows; ";
    }
    if (!all_lanes && !s.bit_steps) {
        text += "only " + std::string(lane_word) + "s " + holder_list(s.holders) + " hold it; ";
    }
    if (s.regular) {
        const int blocks = static_cast<int>(s.blocks.size());
        text += blocks == 1
                    ? "one block of " + std::to_string(s.block_rows) + "x" +
                          std::to_string(s.block_cols) + "; "
                    : "split into " + std::to_string(blocks) + " blocks of " +
                          std::to_string(s.block_rows) + "x" + std::to_string(s.block_cols) + ", " +
                          group_text(operand, s, tmem) + ", " + order_text(s) + "; ";
        text += inside_text(s, all_lanes, lane_word);
    } else if (s.bit_steps) {
        const std::string reg_word = tmem ? "column" : "register";
        text += "no blocks; " + std::string(lane_word) + " " + std::to_string(s.base_lane) +
                "'s first element is (" + std::to_string(s.base.row) + "," +
                std::to_string(s.base.col) +
                ") and each index bit moves it by a fixed step: " + lane_word + " " +
                steps_text(s.lane_steps);
        if (!s.reg_steps.empty()) text += "; " + reg_word + " " + steps_text(s.reg_steps);
        if (!s.sub_steps.empty()) {
            text += "; " + std::string(tmem ? "byte " : "element-in-register ") +
                    steps_text(s.sub_steps);
        }
    } else {
        text += irregular_text(operand, layout.threads, tmem);
    }
    text += ".";
    if (!operand.note.empty()) text += " " + operand.note;
    return text;
}

}  // namespace tclens::viz
