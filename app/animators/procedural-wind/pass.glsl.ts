/**
 * GLSL of the procedural-wind per-branch pass (Zioma 2007 §6.4, §6.5.1): the simulation step per
 * branch, rendered into the branch data texture's own layout (state.ts) by app/animators/branch-pass.ts.
 * For the texel (b, j) at gl_FragCoord: j = 1 branch b's own rotation (§6.3.3's rules, twin.ts's
 * ownRotation line by line), j = 5, 6 its ancestors' concatenation (twin.ts's composeChain: every
 * ancestor's rotation evaluated afresh from the root down, no previous frame and no other texel),
 * j = 4 with its wind power; the other texels are copied from the static data. Inputs: the static
 * branch data (pwData), the pass's table (pwTable, pass.ts), the uniforms (pwFrame) and the wind
 * (branch-pass-wind.glsl.ts: the contract's turbulence texture and the primitives).
 */
import { MAX_CHAIN } from "../branch-pass";
import { BRANCH_PASS_WIND_DECLARATIONS, branchPassWindFunctions } from "../branch-pass-wind.glsl";
import { FRAME_VEC4S, TABLE_TEXELS, UNIFORM_VEC4S } from "./pass";
import {
  BRANCHES_PER_ROW, DELAY_SPACING, DELAY_TAPS, LEVEL_FREQUENCY, LEVEL_GAIN, MAX_BRANCH_ANGLE, REFERENCE_WIND_SPEED,
  TANH_CLAMP, TEXELS_PER_BRANCH, WIND_POWER_DELAY,
} from "./twin";

export const DATA_SAMPLER = "pwData";
export const TABLE_SAMPLER = "pwTable";
export const FRAME_UNIFORM = "pwFrame";

const f = (x: number): string => (Number.isInteger(x) ? `${x}.0` : `${x}`);
const floats = (xs: readonly number[]): string => `float[${xs.length}](${xs.map(f).join(", ")})`;

export const PROCEDURAL_WIND_PASS_FRAGMENT = /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
uniform highp sampler2D ${DATA_SAMPLER};
uniform highp sampler2D ${TABLE_SAMPLER};
uniform vec4 ${FRAME_UNIFORM}[${UNIFORM_VEC4S}];
${BRANCH_PASS_WIND_DECLARATIONS}
${branchPassWindFunctions(FRAME_UNIFORM, FRAME_VEC4S)}

const float PW_LEVEL_GAIN[4] = ${floats(LEVEL_GAIN)};
const float PW_LEVEL_FREQUENCY[4] = ${floats(LEVEL_FREQUENCY)};
const float PW_MAX_BRANCH = ${f(MAX_BRANCH_ANGLE)};
const float PW_REFERENCE_SPEED = ${f(REFERENCE_WIND_SPEED)};

vec4 pwStatic(int b, int j) {
  int row = b / ${BRANCHES_PER_ROW};
  return texelFetch(${DATA_SAMPLER}, ivec2((b - row * ${BRANCHES_PER_ROW}) * ${TEXELS_PER_BRANCH} + j, row), 0);
}
vec4 pwTab(int b, int j) {
  int row = b / ${BRANCHES_PER_ROW};
  return texelFetch(${TABLE_SAMPLER}, ivec2((b - row * ${BRANCHES_PER_ROW}) * ${TABLE_TEXELS} + j, row), 0);
}
int pwParent(int b) {
  return int(floor(pwStatic(b, 0).w + 0.5));
}

// §6.4.1's quaternion library (state.ts): from a rotation vector, concatenation, nlerp, rotation.
// sin and cos of a half-angle up to 0.75 by their series to float precision (a GPU's own may be
// coarser near 0: SwiftShader's cos was off by 1e-4), the built-ins beyond.
vec2 pwSinCos(float h) {
  if (abs(h) > 0.75) return vec2(sin(h), cos(h));
  float h2 = h * h;
  float s = h * (1.0 - h2 / 6.0 * (1.0 - h2 / 20.0 * (1.0 - h2 / 42.0 * (1.0 - h2 / 72.0))));
  float c = 1.0 - h2 / 2.0 * (1.0 - h2 / 12.0 * (1.0 - h2 / 30.0 * (1.0 - h2 / 56.0 * (1.0 - h2 / 90.0))));
  return vec2(s, c);
}
vec4 pwQuat(vec3 r) {
  float angle = length(r);
  if (angle == 0.0) return vec4(0.0, 0.0, 0.0, 1.0);
  vec2 sc = pwSinCos(0.5 * angle);
  return vec4(r * (sc.x / angle), sc.y);
}
vec4 pwMul(vec4 a, vec4 b) {
  return vec4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
vec4 pwNlerp(vec4 a, vec4 b, float k) {
  float sgn = dot(a, b) < 0.0 ? -1.0 : 1.0;
  vec4 q = a + (sgn * b - a) * k;
  return q * inversesqrt(dot(q, q));
}
vec3 pwRotate(vec4 q, vec3 v) {
  return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}
float pwTanh(float x) {
  return tanh(clamp(x, -${f(TANH_CLAMP)}, ${f(TANH_CLAMP)}));
}

// The wind at branch b's origin for tap k (0: now), twin.ts's branchWind.
vec3 pwWind(int b, int k) {
  vec3 p = pwStatic(b, 0).xyz + ${FRAME_UNIFORM}[7].xyz;
  float tk = max(0.0, ${FRAME_UNIFORM}[0].x - float(k) * ${f(DELAY_SPACING)});
  vec4 s0 = ${FRAME_UNIFORM}[4], s1 = ${FRAME_UNIFORM}[5];
  if (k > 0) {
    vec4 tap = ${FRAME_UNIFORM}[8 + k];
    s0 = vec4(s0.xy, tap.xy);
    s1 = vec4(tap.zw, s1.zw);
  }
  return bpWindAt(s0, s1, ${FRAME_UNIFORM}[6], p, tk);
}

// Calibrated (twin.ts's ownCalibrated).
vec4 pwOwnCalibrated(int b, out float power) {
  float t = ${FRAME_UNIFORM}[0].x;
  float inv = 1.0 / ${FRAME_UNIFORM}[0].w;
  vec3 w = pwWind(b, 0);
  float bs = length(w.xz);
  vec2 wd = ${FRAME_UNIFORM}[4].xy;
  if (bs > 1e-9) wd = w.xz / bs;
  vec4 c0 = pwTab(b, 0), c1 = pwTab(b, 1), c2 = pwTab(b, 2);
  float gx = bs * w.x, gz = bs * w.z;
  vec3 a = (c0.xyz * gx + c1.xyz * gz) * inv;
  float bend = length(a);
  vec3 tb = pwStatic(b, 2).xyz;
  float across = sqrt(tb.x * tb.x + tb.z * tb.z);
  if (w.y != 0.0 && across > 1e-6) {
    float k = 0.5 * (length(c0.xyz) + length(c1.xyz));
    float vn = w.y * across;
    float lift = (k * vn * abs(vn) * inv) / across;
    a.x += -tb.z * lift;
    a.z += tb.x * lift;
  }
  float amp = ${FRAME_UNIFORM}[2].z * bend;
  if (amp > 0.0) {
    float omega = c0.w / ${FRAME_UNIFORM}[2].w;
    float phase = pwStatic(b, 4).y;
    float phase2 = ${FRAME_UNIFORM}[3].x * c1.w;
    float facing = c2.x * wd.x + c2.y * wd.y;
    float pressed = max(0.0, -facing) * (1.0 - ${FRAME_UNIFORM}[2].x);
    float gain = amp * (1.0 + 0.5 * max(0.0, facing)) * (1.0 - 0.6 * pressed);
    float sa = gain * abs(facing) * (cos(omega * t + phase) + ${FRAME_UNIFORM}[2].y * cos(2.91 * omega * t + phase2));
    float sb = gain * (1.0 - abs(facing)) * sin(0.83 * omega * t + phase);
    vec3 tp = pwStatic(pwParent(b), 2).xyz;
    a += vec3(wd.y * sa + tp.x * sb, tp.y * sb, -wd.x * sa + tp.z * sb);
  }
  float angle = length(a);
  if (angle > 0.0) a *= (PW_MAX_BRANCH * pwTanh(angle / PW_MAX_BRANCH)) / angle;
  power = bs / PW_REFERENCE_SPEED;
  return pwQuat(a);
}

// Paper-literal (twin.ts's ownLiteral).
vec4 pwOwnLiteral(int b, out float power) {
  float t = ${FRAME_UNIFORM}[0].x;
  float delayed = 0.0, wsum = 0.0;
  for (int k = 0; k < ${DELAY_TAPS}; k++) {
    float wk = exp(-(float(k) * ${f(DELAY_SPACING)}) / ${f(WIND_POWER_DELAY)}) * (k == 0 || k == ${DELAY_TAPS - 1} ? 0.5 : 1.0);
    wsum += wk;
    vec3 wt = pwWind(b, k);
    delayed += wk * pow(length(wt.xz) / PW_REFERENCE_SPEED, 1.5);
  }
  vec4 s2 = pwStatic(b, 2);
  int lv = int(floor(s2.w + 0.5));
  vec3 w = pwWind(b, 0);
  float bs = length(w.xz);
  vec2 wd = ${FRAME_UNIFORM}[4].xy;
  if (bs > 1e-9) wd = w.xz / bs;
  float windPower = pow(bs / PW_REFERENCE_SPEED, 1.5);
  float delayedPower = delayed / wsum;
  vec4 c2 = pwTab(b, 2);
  float kRel = c2.z;
  float ampFactor = min(2.0, max(0.5, pow(kRel, -0.25)));
  float freqFactor = min(1.4, max(0.7, pow(kRel, 0.125)));
  float swayA = (${FRAME_UNIFORM}[2].z * PW_LEVEL_GAIN[lv] * ampFactor) / ${FRAME_UNIFORM}[0].w;
  float swayB = 0.6 * swayA;
  float omega = ${f(2 * Math.PI)} * ${FRAME_UNIFORM}[3].y * PW_LEVEL_FREQUENCY[lv] * freqFactor;
  float phase = pwStatic(b, 4).y;
  float phase2 = ${FRAME_UNIFORM}[3].x * pwTab(b, 1).w;
  float facing = c2.x * wd.x + c2.y * wd.y;
  float a = swayA * (cos(omega * t + phase) + ${FRAME_UNIFORM}[2].y * cos(2.91 * omega * t + phase2));
  float oldA = a;
  float pressed = -0.5 * a + swayA;
  float flap = oldA * (1.0 + 0.5 * max(0.0, facing));
  float pressAmount = pwTanh(delayedPower) * (1.0 - ${FRAME_UNIFORM}[2].x) * min(1.0, max(0.0, 1.0 - facing));
  a = (flap + (pressed - flap) * pressAmount) * windPower;
  vec3 tp = pwStatic(pwParent(b), 2).xyz;
  float downwind = tp.y * (c2.y * wd.x - c2.x * wd.y);
  float bb = swayB * (sin(omega * 0.83 * t + phase) + 0.5 * downwind) * windPower;
  a = PW_MAX_BRANCH * pwTanh(a / PW_MAX_BRANCH);
  bb = PW_MAX_BRANCH * pwTanh(bb / PW_MAX_BRANCH);
  vec4 q1 = pwQuat(vec3(wd.y * a, 0.0, -wd.x * a));
  float twistAngle = 0.3 * bb;
  vec4 q2 = pwQuat(tp * bb);
  vec3 tb = s2.xyz;
  vec4 q = pwQuat(tb * twistAngle);
  q2 = pwMul(q2, q);
  q = pwNlerp(q1, q2, 1.0 - abs(facing));
  float across = sqrt(tb.x * tb.x + tb.z * tb.z);
  if (w.y != 0.0 && across > 1e-6) {
    float vn = w.y * across;
    float lift = swayA * sign(vn) * pow(abs(vn) / PW_REFERENCE_SPEED, 1.5);
    lift = (PW_MAX_BRANCH * pwTanh(lift / PW_MAX_BRANCH)) / across;
    q1 = pwQuat(vec3(-tb.z * lift, 0.0, tb.x * lift));
    q = pwMul(q1, q);
  }
  power = windPower;
  return q;
}

// Branch b's own rotation, the short way (w >= 0); the trunk's from the uniforms (twin.ts's ownOrTrunk).
vec4 pwOwn(int b, out float power) {
  if (b == 0) {
    power = ${FRAME_UNIFORM}[3].z;
    return ${FRAME_UNIFORM}[1];
  }
  vec4 q;
  if (${FRAME_UNIFORM}[0].y > 0.5) q = pwOwnLiteral(b, power);
  else q = pwOwnCalibrated(b, power);
  return q.w < 0.0 ? -q : q;
}

// The ancestors' composite M_b(x) = Q x + t from the root down (twin.ts's composeChain, state.ts's composeOne).
void pwComposite(int b, out vec4 Q, out vec3 t) {
  int chain[${MAX_CHAIN}];
  int n = 0;
  int c = b;
  for (int g = 0; g < ${MAX_CHAIN}; g++) {
    chain[n] = c;
    n++;
    c = pwParent(c);
    if (c < 0) break;
  }
  Q = vec4(0.0, 0.0, 0.0, 1.0);
  t = vec3(0.0);
  for (int i = n - 1; i >= 1; i--) {
    int a = chain[i];
    float power;
    vec4 own = pwOwn(a, power);
    float k = 1.0 - pow(max(1.0 - pwTab(chain[i - 1], 2).w, 0.0), pwStatic(a, 3).w);
    vec4 R = vec4(own.xyz * k, 1.0 - k + own.w * k);
    R *= inversesqrt(dot(R, R));
    vec3 o = pwStatic(a, 0).xyz;
    t += pwRotate(Q, o - pwRotate(R, o));
    Q = pwMul(Q, R);
  }
}

void main(void) {
  ivec2 px = ivec2(gl_FragCoord.xy);
  int slot = px.x / ${TEXELS_PER_BRANCH};
  int j = px.x - slot * ${TEXELS_PER_BRANCH};
  int b = px.y * ${BRANCHES_PER_ROW} + slot;
  if (b >= int(${FRAME_UNIFORM}[0].z + 0.5)) {
    gl_FragColor = vec4(0.0);
    return;
  }
  vec4 v = pwStatic(b, j);
  float power;
  if (j == 1) {
    v = pwOwn(b, power);
  } else if (j == 4) {
    pwOwn(b, power);
    v.z = power;
  } else if (j == 5 || j == 6) {
    vec4 Q;
    vec3 t;
    pwComposite(b, Q, t);
    v = j == 5 ? Q : vec4(t, v.w);
  }
  gl_FragColor = v;
}
`;
