#include "kernels/user/kernel_ref.h"

#include <gtest/gtest.h>

namespace tclens::kernels::user {
namespace {

TEST(KernelRef, PathAlone) {
    auto ref = parse_kernel_ref("examples/matmul_3.cu");
    ASSERT_TRUE(ref) << ref.error();
    EXPECT_EQ(ref->path, "examples/matmul_3.cu");
    EXPECT_EQ(ref->entry, "");
    EXPECT_FALSE(ref->precision);
}

TEST(KernelRef, NameTypeAndBoth) {
    auto named = parse_kernel_ref("x.cu:launch_matmul_tensor");
    ASSERT_TRUE(named);
    EXPECT_EQ(named->path, "x.cu");
    EXPECT_EQ(named->entry, "launch_matmul_tensor");
    auto qualified = parse_kernel_ref("dir/x.cuh:ns::inner::launch");
    ASSERT_TRUE(qualified);
    EXPECT_EQ(qualified->path, "dir/x.cuh");
    EXPECT_EQ(qualified->entry, "ns::inner::launch");
    auto typed = parse_kernel_ref("x.cu:tf32");
    ASSERT_TRUE(typed);
    EXPECT_EQ(typed->entry, "");
    EXPECT_EQ(typed->precision, Precision::kTF32);
    auto both = parse_kernel_ref("a b/x.cu:ns::launch:bf16");
    ASSERT_TRUE(both);
    EXPECT_EQ(both->path, "a b/x.cu");
    EXPECT_EQ(both->entry, "ns::launch");
    EXPECT_EQ(both->precision, Precision::kBF16);
}

TEST(KernelRef, BadRefsSayWhatIsAllowed) {
    EXPECT_EQ(parse_kernel_ref("kernel.py").error(),
              "kernel 'kernel.py': not a CUDA file (the path must end in .cu or .cuh)");
    EXPECT_EQ(parse_kernel_ref("x.cu:9fn").error(),
              "kernel 'x.cu:9fn': '9fn' is neither a function name nor one of f32, tf32, f16, "
              "bf16");
    EXPECT_EQ(parse_kernel_ref("x.cu:fn:f64").error(),
              "kernel 'x.cu:fn:f64': 'f64' is not an input type (one of f32, tf32, f16, bf16)");
    EXPECT_NE(parse_kernel_ref("x.cu:").error().find("nothing after ':'"), std::string::npos);
    EXPECT_NE(parse_kernel_ref("dir/.cu").error().find("file name is empty"), std::string::npos);
    EXPECT_FALSE(parse_kernel_ref(""));
    EXPECT_FALSE(parse_kernel_ref("x.cu:a b"));
}

TEST(KernelRef, FileOrRegistryId) {
    EXPECT_TRUE(names_kernel_file("x.cu"));
    EXPECT_TRUE(names_kernel_file("x.cuh:launch"));
    EXPECT_TRUE(names_kernel_file("./x"));
    EXPECT_TRUE(names_kernel_file("x.cu:fn:bf16"));
    EXPECT_FALSE(names_kernel_file("wmma.f16"));
    EXPECT_FALSE(names_kernel_file("mma_cp_async.bf16"));
    EXPECT_FALSE(names_kernel_file("cublas.sgemm"));
}

TEST(KernelRef, DescriptorIdsStartWithYours) {
    EXPECT_EQ(user_kernel_id(*parse_kernel_ref("examples/matmul_3.cu")), "yours.matmul_3");
    EXPECT_EQ(user_kernel_id(*parse_kernel_ref("x.cu:ns::launch_a")), "yours.x.launch_a");
}

}  // namespace
}  // namespace tclens::kernels::user
