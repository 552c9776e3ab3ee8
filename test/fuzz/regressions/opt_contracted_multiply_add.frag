#version 450
// spirv-opt -O contracts x*0.01 - x*0.01 into Fma(x, 0.01, -(x*0.01)), which
// Vulkan allows without NoContraction: the output is the product's rounding
// error, not 0. The driver compares `opt -O`'s floats within a tolerance.
layout(location = 0) out vec4 color;
void main() {
  float f = gl_FragCoord.x * 0.01 - gl_FragCoord.x * 0.01;
  color = vec4(f, gl_FragCoord.y * 0.01 + f, 0.0, 1.0);
}
