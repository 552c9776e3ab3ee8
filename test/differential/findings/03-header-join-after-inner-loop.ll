; reduced from gen_cfg.py --seed 300
define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %n, ptr addrspace(1) %out) {
bb0:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb4
bb4:
  %v4 = phi i32 [ 1, %bb0 ], [ 1, %bb20 ], [ 5, %bb12 ]
  br label %bb12
bb12:
  %c23 = icmp slt i32 2, %b
  br i1 %c23, label %bb4, label %bb17
bb17:
  %c27 = icmp ne i32 1, 1
  br i1 %c27, label %bb5, label %bb18
bb18:
  %c32 = icmp ult i32 %tid, %n
  br i1 %c32, label %bb19, label %bb20
bb20:
  br label %bb4
bb19:
  br label %bb12
bb5:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
