// The exercise's experiments decoded from an emulated student kernel: it loads A, B and C into
// the instruction's registers through its own index mapping, the "hardware" computes D = A*B + C
// in the instruction's true layout (viz::fragment_layout), and the kernel stores D through its
// mapping. A correct mapping is the layout itself; a planted bug swaps two registers.
#include "kernels/user/fragment_exercise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <tuple>

#include "kernels/user/discovery.h"

namespace tclens::kernels::user {
namespace {

// (lane, reg) -> the matrix element the student's code moves through that register.
using Mapping = std::function<viz::MatrixCoord(viz::Operand, int lane, int reg)>;

Mapping true_mapping(const viz::FragmentLayout& layout) {
    auto slots = std::make_shared<std::map<std::tuple<int, int, int>, viz::MatrixCoord>>();
    for (const viz::OperandLayout& op : layout.operands) {
        for (const viz::LayoutElement& e : op.elements) {
            // 32-bit elements only here (tf32), so sub is always 0.
            (*slots)[{static_cast<int>(op.operand), e.lane, e.reg}] = {e.row, e.col};
        }
    }
    return [slots](viz::Operand op, int lane, int reg) {
        return slots->at({static_cast<int>(op), lane, reg});
    };
}

// Runs every experiment of `plan` through an emulated one-warp kernel with `student` mapping.
std::vector<std::vector<float>> emulate(const ExercisePlan& plan, const Mapping& student) {
    const viz::FragmentLayout layout = *viz::fragment_layout(plan.layout_id);
    const viz::OperandLayout& la = *layout.find(viz::Operand::A);
    const viz::OperandLayout& lb = *layout.find(viz::Operand::B);
    const viz::OperandLayout& lc = *layout.find(viz::Operand::C);
    std::vector<std::vector<float>> outputs;
    for (const ExerciseExperiment& x : plan.experiments) {
        // Registers as the student's loads fill them, read by the hardware in the true layout.
        std::vector<float> a(x.a.size()), b(x.b.size()), c(x.c.size());
        for (const viz::LayoutElement& e : la.elements) {
            const viz::MatrixCoord from = student(viz::Operand::A, e.lane, e.reg);
            a[e.row * plan.depth + e.col] = x.a[from.row * plan.depth + from.col];
        }
        for (const viz::LayoutElement& e : lb.elements) {
            const viz::MatrixCoord from = student(viz::Operand::B, e.lane, e.reg);
            b[e.row * plan.cols + e.col] = x.b[from.row * plan.cols + from.col];
        }
        for (const viz::LayoutElement& e : lc.elements) {
            const viz::MatrixCoord from = student(viz::Operand::C, e.lane, e.reg);
            c[e.row * plan.cols + e.col] = x.c[from.row * plan.cols + from.col];
        }
        std::vector<float> d = c;
        for (int m = 0; m < plan.rows; ++m) {
            for (int n = 0; n < plan.cols; ++n) {
                for (int k = 0; k < plan.depth; ++k) {
                    d[m * plan.cols + n] += a[m * plan.depth + k] * b[k * plan.cols + n];
                }
            }
        }
        // The store: D register (lane, reg) holds true element e; the student writes it to
        // student(D, lane, reg). Memory starts as c (an element not written keeps its value).
        std::vector<float> out = x.c;
        for (const viz::LayoutElement& e : lc.elements) {
            const viz::MatrixCoord to = student(viz::Operand::D, e.lane, e.reg);
            out[to.row * plan.cols + to.col] = d[e.row * plan.cols + e.col];
        }
        outputs.push_back(out);
    }
    return outputs;
}

TEST(FragmentExercise, PlanCoversEveryElementOnce) {
    const ExercisePlan plan = plan_exercise("mma.m16n8k8.tf32");
    EXPECT_EQ(plan.rows, 16);
    EXPECT_EQ(plan.cols, 8);
    EXPECT_EQ(plan.depth, 8);
    ASSERT_EQ(plan.experiments.size(), 1u + 128u + 64u + 1u);
    EXPECT_EQ(plan.experiments.front().operand, viz::Operand::C);
    EXPECT_EQ(plan.experiments[1].operand, viz::Operand::A);
    EXPECT_EQ(plan.experiments[129].operand, viz::Operand::B);
    EXPECT_EQ(plan.experiments.back().operand, viz::Operand::D);
    // Every value placed is a small integer, exact in tf32, f16 and bf16 (<= 256).
    for (const std::string& id : exercise_layout_ids()) {
        for (const ExerciseExperiment& x : plan_exercise(id).experiments) {
            for (const std::vector<float>* v : {&x.a, &x.b, &x.c}) {
                for (float f : *v) {
                    EXPECT_EQ(f, static_cast<float>(static_cast<int>(f))) << id;
                    EXPECT_LE(std::abs(f), 256.0f) << id;
                }
            }
        }
    }
}

TEST(FragmentExercise, CorrectMappingIsReportedCorrect) {
    for (const std::string id : {"mma.m16n8k8.tf32", "mma.m16n8k4.tf32"}) {
        const ExercisePlan plan = plan_exercise(id);
        const viz::FragmentLayout layout = *viz::fragment_layout(id);
        Mapping correct = true_mapping(layout);
        Mapping with_d = [correct](viz::Operand op, int lane, int reg) {
            return correct(op == viz::Operand::D ? viz::Operand::C : op, lane, reg);
        };
        const ExerciseReport report = decode_exercise(plan, emulate(plan, with_d));
        EXPECT_EQ(report.wrong, 0) << id << ": " << report.summary();
        EXPECT_TRUE(report.product_correct) << id;
        EXPECT_EQ(report.summary(),
                  "ok: every element of A, B and C goes where " + id + " puts it");
        ASSERT_EQ(report.operands.size(), 3u);
        // Each element carries its slot in the layout: A (1, 5) of m16n8k8.tf32 is lane 5, a2.
        if (id == std::string("mma.m16n8k8.tf32")) {
            const ExerciseElement& e = report.operands[0].elements[1 * 8 + 5];
            EXPECT_EQ(e.lane, 5);
            EXPECT_EQ(e.reg, 2);
        }
    }
}

TEST(FragmentExercise, SwappedARegistersAreReportedOnTheRightElements) {
    const ExercisePlan plan = plan_exercise("mma.m16n8k8.tf32");
    Mapping correct = true_mapping(*viz::fragment_layout("mma.m16n8k8.tf32"));
    // The planted bug of examples/exercise_mma_planted_bug.cu: a1 and a2 loaded from each
    // other's places.
    Mapping buggy = [correct](viz::Operand op, int lane, int reg) {
        if (op == viz::Operand::D) return correct(viz::Operand::C, lane, reg);
        if (op == viz::Operand::A && (reg == 1 || reg == 2)) return correct(op, lane, 3 - reg);
        return correct(op, lane, reg);
    };
    const ExerciseReport report = decode_exercise(plan, emulate(plan, buggy));
    const ExerciseOperand& a = report.operands[0];
    EXPECT_EQ(a.wrong, 64);
    EXPECT_EQ(report.operands[1].wrong, 0);
    EXPECT_EQ(report.operands[2].wrong, 0);
    for (const ExerciseElement& e : a.elements) {
        const bool upper_right = e.row < 8 && e.col >= 4;  // a[g][q + 4] -> (g + 8, q)
        const bool lower_left = e.row >= 8 && e.col < 4;   // a[g + 8][q] -> (g, q + 4)
        EXPECT_EQ(e.correct, !(upper_right || lower_left)) << e.row << "," << e.col;
        if (upper_right) {
            EXPECT_EQ(e.went_row, e.row + 8);
            EXPECT_EQ(e.went_col, e.col - 4);
            EXPECT_EQ(e.outcome, "went to (" + std::to_string(e.row + 8) + ", " +
                                     std::to_string(e.col - 4) + ")");
        }
        if (lower_left) {
            EXPECT_EQ(e.went_row, e.row - 8);
            EXPECT_EQ(e.went_col, e.col + 4);
        }
    }
    EXPECT_FALSE(report.product_correct);
    EXPECT_EQ(report.summary(),
              "64 of 128 A elements, 0 of 64 B elements, 0 of 128 C elements wrong; first: A "
              "(0, 4) went to (8, 0); a*b + c on mixed inputs is not exact");
}

TEST(FragmentExercise, BrokenBAndCMappingsAndLostElements) {
    const ExercisePlan plan = plan_exercise("mma.m16n8k8.tf32");
    Mapping correct = true_mapping(*viz::fragment_layout("mma.m16n8k8.tf32"));
    // B: b0 and b1 swapped; C loaded from the row below (wrapping), stored correctly.
    Mapping buggy = [correct](viz::Operand op, int lane, int reg) {
        if (op == viz::Operand::D) return correct(viz::Operand::C, lane, reg);
        if (op == viz::Operand::B) return correct(op, lane, 1 - reg);
        if (op == viz::Operand::C) {
            viz::MatrixCoord at = correct(op, lane, reg);
            at.row = (at.row + 1) % 16;
            return at;
        }
        return correct(op, lane, reg);
    };
    const ExerciseReport report = decode_exercise(plan, emulate(plan, buggy));
    EXPECT_EQ(report.operands[1].wrong, 64);
    // b[k][n] is read where b[k +- 4][n] belongs.
    const ExerciseElement& b01 = report.operands[1].elements[0 * 8 + 1];
    EXPECT_EQ(b01.outcome, "went to (4, 1)");
    EXPECT_EQ(report.operands[2].wrong, 128);
    // c[1][0] is loaded into the register of (0, 0) and stored there.
    const ExerciseElement& c10 = report.operands[2].elements[1 * 8 + 0];
    EXPECT_EQ(c10.outcome, "went to (0, 0)");

    // A kernel that writes nothing leaves c as it was: A and B elements are "lost".
    std::vector<std::vector<float>> untouched;
    for (const ExerciseExperiment& x : plan.experiments) untouched.push_back(x.c);
    const ExerciseReport idle = decode_exercise(plan, untouched);
    EXPECT_EQ(idle.operands[0].wrong, 128);
    EXPECT_EQ(idle.operands[0].elements[0].outcome, "lost: c stayed zero");
    EXPECT_EQ(idle.operands[2].wrong, 0);
    // NaN written everywhere.
    std::vector<std::vector<float>> nan(plan.experiments.size(),
                                        std::vector<float>(128, std::nanf("")));
    const ExerciseReport broken = decode_exercise(plan, nan);
    EXPECT_EQ(broken.wrong, 128 + 64 + 128);
    EXPECT_EQ(broken.operands[0].elements[0].outcome, "not a number at (0, 0) of c");
    EXPECT_EQ(broken.operands[2].elements[0].outcome, "lost: c at its place is not a number");
}

}  // namespace
}  // namespace tclens::kernels::user
