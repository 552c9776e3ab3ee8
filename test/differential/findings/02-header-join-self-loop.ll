; reduced from gen_cfg.py --seed 401
define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %n, ptr addrspace(1) %out) {
bb0:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb1
bb1:
  %v2 = phi i32 [ 1, %bb0 ], [ 5, %bb10 ], [ 1, %bb1 ]
  %c21 = icmp slt i32 %tid, 2
  br i1 %c21, label %bb10, label %bb1
bb10:
  %c39 = icmp sgt i32 1, %n
  br i1 %c39, label %bb1, label %bb2
bb2:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
