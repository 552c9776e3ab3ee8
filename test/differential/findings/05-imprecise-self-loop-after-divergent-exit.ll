; reduced from gen_cfg.py --seed 18574
define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %n, ptr addrspace(1) %out) {
bb0:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c21 = icmp ne i32 %tid, %n
  br i1 %c21, label %bb13, label %bb14
bb13:
  %c28 = icmp slt i32 %b, 7
  br i1 %c28, label %bb19, label %bb18
bb18:
  ret void
bb19:
  br label %bb15
bb15:
  %c34 = icmp ult i32 1, 1
  br i1 %c34, label %bb14, label %bb12
bb12:
  br label %bb6
bb6:
  %v43 = phi i32 [ 1, %bb6 ], [ 42, %bb12 ]
  br label %bb6
bb14:
  br label %bb15
}

declare i32 @llvm.amdgcn.workitem.id.x()
