#include "viz/fragment_bug.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "common/text.h"

namespace tclens::viz {
namespace {

// Enough wrong tiles to see a pattern; the search for a value's source is per place of a tile.
constexpr std::int64_t kTilesExamined = 256;
constexpr double kAgreeing = 0.9;  // the share of wrong places a rule must explain

// A place of the C tile as the fragment holds it.
struct Slot {
    int lane = -1;
    int reg = -1;
};

// place (row * cols + col) -> (lane, reg) of the C operand; empty without one.
std::vector<Slot> slots_of(const OperandLayout& c) {
    std::vector<Slot> slots(static_cast<std::size_t>(c.rows) * c.cols);
    for (const LayoutElement& e : c.elements) {
        slots[static_cast<std::size_t>(e.row) * c.cols + e.col] = {e.lane, e.reg};
    }
    return slots;
}

// "0-7", "0, 8", "0-3, 8-11" for sorted, distinct numbers.
std::string ranges_text(const std::set<int>& numbers) {
    std::vector<std::string> parts;
    for (auto it = numbers.begin(); it != numbers.end();) {
        const int first = *it;
        int last = first;
        for (++it; it != numbers.end() && *it == last + 1; ++it) last = *it;
        parts.push_back(first == last ? std::to_string(first)
                                      : std::to_string(first) + "-" + std::to_string(last));
    }
    return common::join(parts, ", ");
}

// Where the places of `mask` (rows x cols) lie: "rows 8-15, every column", "rows 0-7, odd
// columns".
std::string places_text(const std::vector<bool>& mask, int rows, int cols) {
    std::set<int> in_rows, in_cols;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (!mask[static_cast<std::size_t>(r) * cols + c]) continue;
            in_rows.insert(r);
            in_cols.insert(c);
        }
    }
    const bool all_even =
        std::all_of(in_cols.begin(), in_cols.end(), [](int c) { return c % 2 == 0; });
    const bool all_odd =
        std::all_of(in_cols.begin(), in_cols.end(), [](int c) { return c % 2 == 1; });
    std::string columns = "columns " + ranges_text(in_cols);
    if (static_cast<int>(in_cols.size()) == cols) {
        columns = "every column";
    } else if (all_even && static_cast<int>(in_cols.size()) == (cols + 1) / 2) {
        columns = "even columns";
    } else if (all_odd && static_cast<int>(in_cols.size()) == cols / 2) {
        columns = "odd columns";
    }
    return "rows " + ranges_text(in_rows) + ", " + columns;
}

std::string tile_name(int rows, int cols) {
    return std::to_string(rows) + "x" + std::to_string(cols) + " tile";
}

// C's values as doubles, for one code path over float and double references.
template <typename Expected>
struct Matrices {
    const float* got;
    const Expected* expected;
    std::int64_t rows;
    std::int64_t cols;
    double tolerance;

    double got_at(std::int64_t r, std::int64_t c) const { return got[r * cols + c]; }
    double expected_at(std::int64_t r, std::int64_t c) const {
        return static_cast<double>(expected[r * cols + c]);
    }
    bool wrong_at(std::int64_t r, std::int64_t c) const {
        return is_wrong_element(got_at(r, c), expected_at(r, c), tolerance);
    }
};

template <typename Expected>
FoldedErrors fold(const Matrices<Expected>& m, const FragmentLayout& layout) {
    FoldedErrors folded;
    const OperandLayout* c = layout.find(Operand::C);
    if (c == nullptr) return folded;
    folded.layout_id = layout.id;
    folded.rows = c->rows;
    folded.cols = c->cols;
    folded.wrong.assign(static_cast<std::size_t>(c->rows) * c->cols, 0);
    for (std::int64_t tr = 0; tr + c->rows <= m.rows; tr += c->rows) {
        for (std::int64_t tc = 0; tc + c->cols <= m.cols; tc += c->cols) {
            ++folded.tiles;
            bool any = false;
            for (int r = 0; r < c->rows; ++r) {
                for (int col = 0; col < c->cols; ++col) {
                    if (!m.wrong_at(tr + r, tc + col)) continue;
                    ++folded.wrong[static_cast<std::size_t>(r) * c->cols + col];
                    any = true;
                }
            }
            folded.wrong_tiles += any ? 1 : 0;
        }
    }
    return folded;
}

// Whether block tile (ty, tx) of `m` holds the right values of block tile (sy, sx), on a few
// elements spread over it.
template <typename Expected>
bool holds_block(const Matrices<Expected>& m, int block_rows, int block_cols, std::int64_t ty,
                 std::int64_t tx, std::int64_t sy, std::int64_t sx) {
    for (int i = 0; i < 16; ++i) {
        const std::int64_t r = (i * 7 + 3) % block_rows;
        const std::int64_t c = (i * 5 + 1) % block_cols;
        const double got = m.got_at(ty * block_rows + r, tx * block_cols + c);
        if (is_wrong_element(got, m.expected_at(sy * block_rows + r, sx * block_cols + c),
                             m.tolerance))
            return false;
    }
    return true;
}

// The block rule: every wrong block tile wholly wrong and a copy of one other block tile, the
// same move for all of them.
template <typename Expected>
std::string block_bug(const Matrices<Expected>& m, int block_rows, int block_cols) {
    if (block_rows <= 0 || block_cols <= 0) return "";
    const std::int64_t grid_rows = m.rows / block_rows;
    const std::int64_t grid_cols = m.cols / block_cols;
    if (grid_rows * grid_cols < 2) return "";
    int transposed = 0, wrong_tiles = 0;
    std::map<std::pair<std::int64_t, std::int64_t>, int> shifts;
    for (std::int64_t ty = 0; ty < grid_rows; ++ty) {
        for (std::int64_t tx = 0; tx < grid_cols; ++tx) {
            std::int64_t wrong = 0;
            for (int r = 0; r < block_rows; ++r) {
                for (int c = 0; c < block_cols; ++c) {
                    wrong += m.wrong_at(ty * block_rows + r, tx * block_cols + c) ? 1 : 0;
                }
            }
            if (wrong == 0) continue;
            if (wrong * 4 < std::int64_t(block_rows) * block_cols * 3) return "";  // partly wrong
            ++wrong_tiles;
            if (tx < grid_rows && ty < grid_cols &&
                holds_block(m, block_rows, block_cols, ty, tx, tx, ty)) {
                ++transposed;
                continue;
            }
            for (const auto& [dy, dx] : std::vector<std::pair<int, int>>{
                     {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}) {
                const std::int64_t sy = ty + dy, sx = tx + dx;
                if (sy < 0 || sx < 0 || sy >= grid_rows || sx >= grid_cols) continue;
                if (holds_block(m, block_rows, block_cols, ty, tx, sy, sx)) {
                    ++shifts[{dy, dx}];
                    break;
                }
            }
        }
    }
    if (wrong_tiles == 0) return "";
    const std::string tile =
        "block tile " + std::to_string(block_rows) + "x" + std::to_string(block_cols);
    if (transposed >= wrong_tiles * kAgreeing) {
        return "each wrong " + tile +
               " holds the values of the block with x and y exchanged: blockIdx.x and "
               "blockIdx.y are swapped where C is stored";
    }
    for (const auto& [shift, count] : shifts) {
        if (count < wrong_tiles * kAgreeing) continue;
        std::vector<std::string> moves;
        const auto [dy, dx] = shift;
        if (dy != 0) moves.push_back(std::string("1 ") + (dy > 0 ? "down" : "up"));
        if (dx != 0) moves.push_back(std::string("1 ") + (dx > 0 ? "right" : "left"));
        return "each wrong " + tile + " holds the values of the block " +
               common::join(moves, " and ") + ": a wrong blockIdx offset";
    }
    return "";
}

// An exchange of two registers of the C fragment in every lane.
template <typename Expected>
std::string c_exchange_bug(const Matrices<Expected>& m, const FragmentLayout& layout,
                           const FoldedErrors& folded) {
    const OperandLayout* c = layout.find(Operand::C);
    if (c == nullptr || folded.wrong_tiles == 0) return "";
    const std::vector<Slot> slots = slots_of(*c);
    const std::size_t places = slots.size();
    // Where each wrong value came from, as (reg of the wrong place, reg of its source) of the same
    // lane; other sources count against the rule.
    std::map<std::pair<int, int>, std::int64_t> exchanges;
    std::int64_t wrong_places = 0;
    std::int64_t examined = 0;
    for (std::int64_t tr = 0; tr + c->rows <= m.rows && examined < kTilesExamined; tr += c->rows) {
        for (std::int64_t tc = 0; tc + c->cols <= m.cols && examined < kTilesExamined;
             tc += c->cols) {
            bool any = false;
            for (std::size_t p = 0; p < places; ++p) {
                const int r = static_cast<int>(p) / c->cols, col = static_cast<int>(p) % c->cols;
                if (!m.wrong_at(tr + r, tc + col)) continue;
                any = true;
                ++wrong_places;
                const double got = m.got_at(tr + r, tc + col);
                for (std::size_t q = 0; q < places; ++q) {
                    if (q == p || slots[q].lane != slots[p].lane) continue;
                    const int qr = static_cast<int>(q) / c->cols,
                              qc = static_cast<int>(q) % c->cols;
                    if (is_wrong_element(got, m.expected_at(tr + qr, tc + qc), m.tolerance))
                        continue;
                    ++exchanges[{slots[p].reg, slots[q].reg}];
                    break;
                }
            }
            examined += any ? 1 : 0;
        }
    }
    const std::string tile = tile_name(c->rows, c->cols);
    std::map<std::pair<int, int>, std::int64_t> pairs;  // the exchanges either way round
    for (const auto& [regs, count] : exchanges) {
        pairs[{std::min(regs.first, regs.second), std::max(regs.first, regs.second)}] += count;
    }
    for (const auto& [regs, count] : pairs) {
        if (count < wrong_places * kAgreeing) continue;
        const auto [low, high] = regs;
        std::vector<bool> first(places), second(places);
        for (std::size_t p = 0; p < places; ++p) {
            first[p] = slots[p].reg == low;
            second[p] = slots[p].reg == high;
        }
        return "C: every lane's c" + std::to_string(low) + " and c" + std::to_string(high) +
               " are exchanged (c" + std::to_string(low) + ": " +
               places_text(first, c->rows, c->cols) + "; c" + std::to_string(high) + ": " +
               places_text(second, c->rows, c->cols) + " of each " + tile + ")";
    }
    return "";
}

// Whole registers or whole lanes of the C fragment wrong.
std::string c_places_bug(const FragmentLayout& layout, const FoldedErrors& folded) {
    const OperandLayout* c = layout.find(Operand::C);
    if (c == nullptr || folded.wrong_tiles == 0) return "";
    const std::vector<Slot> slots = slots_of(*c);
    const std::size_t places = slots.size();
    const std::string tile = tile_name(c->rows, c->cols);
    // The places wrong in most wrong tiles, and the registers and lanes they make up.
    std::vector<bool> wrong(places);
    std::set<int> regs, lanes;
    for (std::size_t p = 0; p < places; ++p) {
        wrong[p] = folded.wrong[p] * 2 >= folded.wrong_tiles;
        if (!wrong[p]) continue;
        regs.insert(slots[p].reg);
        lanes.insert(slots[p].lane);
    }
    if (regs.empty()) return "";  // no place is wrong in most wrong tiles
    const auto covers = [&](auto&& in_set) {
        for (std::size_t p = 0; p < places; ++p) {
            if (wrong[p] != in_set(slots[p])) return false;
        }
        return true;
    };
    const std::string where =
        " (" + places_text(wrong, c->rows, c->cols) + " of each " + tile + ")";
    if (static_cast<int>(regs.size()) < c->regs_per_thread &&
        covers([&](const Slot& s) { return regs.count(s.reg) > 0; })) {
        return std::string("C: ") + (regs.size() == 1 ? "register " : "registers ") +
               common::join(regs, ", ", [](int reg) { return "c" + std::to_string(reg); }) +
               " of every lane " + (regs.size() == 1 ? "is" : "are") + " wrong" + where;
    }
    if (lanes.size() < 32 && covers([&](const Slot& s) { return lanes.count(s.lane) > 0; })) {
        return "C: lanes " + ranges_text(lanes) + " are wrong in every register" + where;
    }
    return "";
}

// place (row * cols + col) of an operand tile -> the place whose element it holds when every
// lane's registers `i` and `j` are exchanged (element `sub` of one for element `sub` of the other).
std::vector<int> exchanged_places(const OperandLayout& op, int i, int j) {
    std::vector<int> source(static_cast<std::size_t>(op.rows) * op.cols);
    for (std::size_t p = 0; p < source.size(); ++p) source[p] = static_cast<int>(p);
    std::map<std::tuple<int, int, int>, int> place_of;  // (lane, reg, sub) -> place
    for (const LayoutElement& e : op.elements)
        place_of[{e.lane, e.reg, e.sub}] = e.row * op.cols + e.col;
    for (const LayoutElement& e : op.elements) {
        if (e.reg != i && e.reg != j) continue;
        const auto other = place_of.find({e.lane, e.reg == i ? j : i, e.sub});
        if (other != place_of.end())
            source[static_cast<std::size_t>(e.row * op.cols + e.col)] = other->second;
    }
    return source;
}

// The A or B rule: C computed from the operand with two registers exchanged in every lane matches
// the wrong elements (a sample of them).
template <typename Expected>
std::string operand_bug(const Matrices<Expected>& m, const FragmentLayout& layout,
                        const GemmInputs& in) {
    std::vector<std::pair<std::int64_t, std::int64_t>> sample;  // wrong elements, spread over C
    std::int64_t wrong = 0;
    for (std::int64_t r = 0; r < m.rows; ++r)
        for (std::int64_t c = 0; c < m.cols; ++c) wrong += m.wrong_at(r, c) ? 1 : 0;
    if (wrong == 0) return "";
    const std::int64_t step = std::max<std::int64_t>(1, wrong / 64);
    std::int64_t seen = 0;
    for (std::int64_t r = 0; r < m.rows; ++r)
        for (std::int64_t c = 0; c < m.cols; ++c)
            if (m.wrong_at(r, c) && seen++ % step == 0) sample.push_back({r, c});
    for (const Operand which : {Operand::A, Operand::B}) {
        const OperandLayout* op = layout.find(which);
        if (op == nullptr || op->elem_bits > 32) continue;
        const bool is_a = which == Operand::A;
        // The operand's tile: A is rows x depth (op->rows x op->cols tiles), B depth x cols.
        const std::int64_t op_rows = is_a ? m.rows : in.depth;
        const std::int64_t op_cols = is_a ? in.depth : m.cols;
        if (op_rows % op->rows != 0 || op_cols % op->cols != 0) continue;
        const float* values = is_a ? in.a : in.b;
        for (int i = 0; i < op->regs_per_thread; ++i) {
            for (int j = i + 1; j < op->regs_per_thread; ++j) {
                const std::vector<int> source = exchanged_places(*op, i, j);
                const auto exchanged = [&](std::int64_t r, std::int64_t c) {
                    const int from =
                        source[static_cast<std::size_t>((r % op->rows) * op->cols + c % op->cols)];
                    return static_cast<double>(
                        values[(r - r % op->rows + from / op->cols) * op_cols + c - c % op->cols +
                               from % op->cols]);
                };
                std::size_t explained = 0;
                for (const auto& [r, c] : sample) {
                    double sum = 0;
                    for (std::int64_t k = 0; k < in.depth; ++k) {
                        sum += is_a ? exchanged(r, k) * in.b[k * m.cols + c]
                                    : double(in.a[r * in.depth + k]) * exchanged(k, c);
                    }
                    explained += is_wrong_element(m.got_at(r, c), sum, m.tolerance) ? 0 : 1;
                }
                if (explained < sample.size() * kAgreeing) continue;
                std::vector<bool> first(source.size()), second(source.size());
                for (const LayoutElement& e : op->elements) {
                    first[static_cast<std::size_t>(e.row * op->cols + e.col)] = e.reg == i;
                    second[static_cast<std::size_t>(e.row * op->cols + e.col)] = e.reg == j;
                }
                const std::string letter(1, operand_letter(which));
                const std::string lower(1, static_cast<char>(operand_letter(which) - 'A' + 'a'));
                return letter + ": every lane's " + lower + std::to_string(i) + " and " + lower +
                       std::to_string(j) + " are exchanged (" + lower + std::to_string(i) + ": " +
                       places_text(first, op->rows, op->cols) + "; " + lower + std::to_string(j) +
                       ": " + places_text(second, op->rows, op->cols) + " of each " +
                       tile_name(op->rows, op->cols) + ")";
            }
        }
    }
    return "";
}

// The block rule with the kernel's block tile, or, where it is not known (a kernel of yours),
// with square tiles of 16 to 128 elements a side, the first that explains the wrong elements.
template <typename Expected>
std::string any_block_bug(const Matrices<Expected>& m, int block_rows, int block_cols) {
    if (block_rows > 0 && block_cols > 0) return block_bug(m, block_rows, block_cols);
    for (const int side : {16, 32, 64, 128}) {
        if (std::string named = block_bug(m, side, side); !named.empty()) return named;
    }
    return "";
}

template <typename Expected>
std::string name_bug(const Matrices<Expected>& m, const FragmentLayout& layout, int block_rows,
                     int block_cols, const GemmInputs* inputs, FoldedErrors* folded_out) {
    FoldedErrors own;
    FoldedErrors& folded = folded_out != nullptr ? *folded_out : own;
    folded = fold(m, layout);
    if (const std::string block = any_block_bug(m, block_rows, block_cols); !block.empty()) {
        return block;
    }
    if (std::string exchange = c_exchange_bug(m, layout, folded); !exchange.empty()) {
        return exchange;
    }
    // An exchange in A or B says more than which places of C it leaves wrong.
    if (inputs != nullptr && inputs->a != nullptr && inputs->b != nullptr) {
        if (std::string operand = operand_bug(m, layout, *inputs); !operand.empty()) return operand;
    }
    return c_places_bug(layout, folded);
}

}  // namespace

FoldedErrors fold_errors(const float* got, const double* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const FragmentLayout& layout) {
    return fold(Matrices<double>{got, expected, rows, cols, tolerance}, layout);
}

FoldedErrors fold_errors(const float* got, const float* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const FragmentLayout& layout) {
    return fold(Matrices<float>{got, expected, rows, cols, tolerance}, layout);
}

std::string name_fragment_bug(const float* got, const double* expected, std::int64_t rows,
                              std::int64_t cols, double tolerance, const FragmentLayout& layout,
                              int block_rows, int block_cols, const GemmInputs* inputs,
                              FoldedErrors* folded) {
    return name_bug(Matrices<double>{got, expected, rows, cols, tolerance}, layout, block_rows,
                    block_cols, inputs, folded);
}

std::string name_fragment_bug(const float* got, const float* expected, std::int64_t rows,
                              std::int64_t cols, double tolerance, const FragmentLayout& layout,
                              int block_rows, int block_cols, const GemmInputs* inputs,
                              FoldedErrors* folded) {
    return name_bug(Matrices<float>{got, expected, rows, cols, tolerance}, layout, block_rows,
                    block_cols, inputs, folded);
}

}  // namespace tclens::viz
