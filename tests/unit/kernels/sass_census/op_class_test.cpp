// Opcode classes: modifiers are ignored, look-alike opcodes stay apart, names are unique.

#include "kernels/sass_census/op_class.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tclens::kernels {
namespace {

TEST(OpClass, ClassOfIgnoresModifiers) {
    EXPECT_EQ(op_class_of("HMMA.16816.F32.BF16"), OpClass::kHmma);
    EXPECT_EQ(op_class_of("HMMA.1688.F32.TF32"), OpClass::kHmma);
    EXPECT_EQ(op_class_of("HGMMA.64x128x16.F32.BF16"), OpClass::kHgmma);
    EXPECT_EQ(op_class_of("IMMA.16832.S8.S8"), OpClass::kImma);
    EXPECT_EQ(op_class_of("FFMA"), OpClass::kFfma);
    EXPECT_EQ(op_class_of("FADD.FTZ"), OpClass::kFmulFadd);
    EXPECT_EQ(op_class_of("FMUL"), OpClass::kFmulFadd);
    EXPECT_EQ(op_class_of("LDS.U.128"), OpClass::kLdsLdsm);
    EXPECT_EQ(op_class_of("LDSM.16.MT88.4"), OpClass::kLdsLdsm);
    EXPECT_EQ(op_class_of("STS.128"), OpClass::kSts);
    EXPECT_EQ(op_class_of("LDG.E.128"), OpClass::kLdgLdgsts);
    EXPECT_EQ(op_class_of("LDGSTS.E.BYPASS.LTC128B.128"), OpClass::kLdgLdgsts);
    EXPECT_EQ(op_class_of("UTMALDG.2D"), OpClass::kUtmaldg);
    EXPECT_EQ(op_class_of("BAR.SYNC.DEFER_BLOCKING"), OpClass::kBar);
}

TEST(OpClass, OtherOpcodesHaveNoClass) {
    for (const char* opcode : {"IMAD.WIDE", "LDGDEPBAR", "STG.E", "LDC", "UTMASTG.2D", "HFMA2",
                               "FSETP.GEU.AND", "BRA", "", "hmma"}) {
        EXPECT_EQ(op_class_of(opcode), std::nullopt) << opcode;
    }
}

TEST(OpClass, LabelsAndKeysAreUnique) {
    std::set<std::string> labels, keys;
    for (int i = 0; i < kOpClassCount; ++i) {
        EXPECT_TRUE(labels.insert(op_class_label(static_cast<OpClass>(i))).second) << i;
        EXPECT_TRUE(keys.insert(op_class_key(static_cast<OpClass>(i))).second) << i;
    }
    EXPECT_STREQ(op_class_label(OpClass::kFmulFadd), "FMUL/FADD");
    EXPECT_STREQ(op_class_key(OpClass::kLdgLdgsts), "ldg_ldgsts");
    EXPECT_STREQ(op_class_key(OpClass::kTotal), "total");
}

}  // namespace
}  // namespace tclens::kernels
