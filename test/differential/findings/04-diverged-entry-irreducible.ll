; reduced from gen_cfg.py --seed 37
define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %n, ptr addrspace(1) %out) {
bb0:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c7 = and i32 1, 3
  switch i32 %c7, label %bb5 [ i32 0, label %bb6 ]
bb5:
  %c12 = icmp ult i32 42, %tid
  br i1 %c12, label %bb9, label %bb10
bb9:
  %v14 = phi i32 [ 1, %bb5 ], [ 2, %bb13 ]
  %c15 = icmp ne i32 %n, 7
  br i1 %c15, label %bb12, label %bb13
bb13:
  %c17 = icmp sgt i32 %a, 1
  br i1 %c17, label %bb11, label %bb9
bb11:
  br label %bb6
bb6:
  %c27 = and i32 %a, 3
  switch i32 %c27, label %bb16 [ i32 0, label %bb18 ]
bb18:
  br label %bb5
bb16:
  br label %bb10
bb10:
  br label %bb11
bb12:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
