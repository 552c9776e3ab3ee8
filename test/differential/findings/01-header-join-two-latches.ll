; reduced from gen_cfg.py --seed 66
define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %n, ptr addrspace(1) %out) {
bb0:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb1
bb1:
  %v2 = phi i32 [ 1, %bb0 ], [ 2, %bb3 ], [ 1, %bb5 ]
  %c4 = icmp ult i32 %a, 1
  br i1 %c4, label %bb3, label %bb2
bb2:
  ret void
bb3:
  %c13 = icmp slt i32 %tid, 2
  br i1 %c13, label %bb1, label %bb5
bb5:
  br label %bb1
}

declare i32 @llvm.amdgcn.workitem.id.x()
