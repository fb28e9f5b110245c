// One SASS instruction line taken apart, as cuobjdump and nvdisasm print them.

#include "kernels/sass_census/sass_line.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(SassLine, ReadsOffsetPredicateOpcodeAndOperands) {
    const auto line = parse_sass_instruction(
        "        /*01a0*/              @!P0 LDSM.16.MT88.4 R24, [R22+UR5+0x800] ;   /* "
        "0x000e280008004200 */");
    ASSERT_TRUE(line.has_value());
    EXPECT_EQ(line->pc, 0x1a0u);
    EXPECT_EQ(line->predicate, "@!P0");
    EXPECT_EQ(line->opcode, "LDSM.16.MT88.4");
    EXPECT_EQ(line->operands, "R24, [R22+UR5+0x800]");
    EXPECT_EQ(sass_instruction_text(*line), "@!P0 LDSM.16.MT88.4 R24, [R22+UR5+0x800]");
}

TEST(SassLine, ReadsInstructionsWithoutOperandsOrSpaceBeforeTheSemicolon) {
    const auto exit = parse_sass_instruction("        /*0080*/                   EXIT ;");
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(exit->opcode, "EXIT");
    EXPECT_TRUE(exit->operands.empty());
    EXPECT_EQ(sass_instruction_text(*exit), "EXIT");
    const auto nop = parse_sass_instruction("        /*0a50*/                   NOP;");
    ASSERT_TRUE(nop.has_value());
    EXPECT_EQ(nop->opcode, "NOP");
    EXPECT_EQ(nop->pc, 0xa50u);
}

TEST(SassLine, SkipsEncodingsLabelsCommentsAndHeaders) {
    for (const char* text : {"                          /* 0x6513270e269e0d37 */",
                             ".L_x_0:", "\t//## File \"/a.cu\", line 3", "\t.section\t.text._Z1fv",
                             "        Function : _Z1fv", "", "/**/ MOV R1 ;", "/*0010*/ MOV R1, R2",
                             "/*00zz*/ MOV R1 ;"}) {
        EXPECT_FALSE(parse_sass_instruction(text).has_value()) << text;
    }
}

TEST(SassLine, SkipsTheBraceOfADualIssuePair) {
    const auto line = parse_sass_instruction("  /*0008*/   { IADD R0, R1, R2 ;");
    ASSERT_TRUE(line.has_value());
    EXPECT_EQ(line->opcode, "IADD");
}

// Found by fuzz_sass_text: "{{ NOP" read as opcode "{" and wrote back a listing that read
// differently.
TEST(SassLine, RefusesAnOpcodeThatDoesNotStartWithALetter) {
    for (const char* text : {"/*00d0*/ {{ NOP ;", "/*00d0*/ @P0 { NOP ;", "/*0010*/ 1MOV R1 ;"}) {
        EXPECT_FALSE(parse_sass_instruction(text).has_value()) << text;
    }
}

TEST(SassLine, RefusesAnOffsetLongerThanSixtyFourBits) {
    EXPECT_FALSE(parse_sass_instruction("/*00000000000000000*/ MOV R1, R2 ;").has_value());
    EXPECT_TRUE(parse_sass_instruction("/*ffffffffffffffff*/ MOV R1, R2 ;").has_value());
}

}  // namespace
}  // namespace tclens::kernels
