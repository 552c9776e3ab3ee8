// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// vk_runner's vertex shader for render jobs: one triangle, from the vertex
// index alone, covering the whole viewport ((-1,-1), (3,-1), (-1,3) in clip
// space), so every pixel runs the fragment shader under test exactly once and
// no quad is cut by a triangle edge. Compiled at build time into
// fullscreen_vert.h (glslangValidator --vn).
#version 450

void main() {
  vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
