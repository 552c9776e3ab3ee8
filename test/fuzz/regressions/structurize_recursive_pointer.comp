#version 450
#extension GL_EXT_buffer_reference : require
// After spirv-opt -O: opt --structurize / --reconverge crashed (stack overflow in
// SPIRV-Tools' type manager) storing a phi of a buffer reference whose struct holds one
// (spirv-cross corpus, buffer-reference.nocompat.vk.comp).
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference) buffer Node { int value; Node next; };
layout(set = 0, binding = 0) buffer Root { Node head1; Node head2; };
void main() {
  Node n = head1;
  if (gl_WorkGroupID.x < 4u) n = head2;
  n.value = 20;
}
