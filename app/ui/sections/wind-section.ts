/**
 * The shared wind: speed and direction, its x, y (vertical) and z components (Barron 2006 §6.1:
 * one slider per axis), turbulence and gusts, a calm button, the Beaufort presets and the wind
 * timeline with its editor.
 */
import type { SandboxPanelApi, WindSettings } from "../../sandbox/api";
import { numberParam, type NumberParam } from "../../math/params";
import { WIND_PARAMS } from "../../wind/wind-field";
import { EXAMPLE_TIMELINES, formatTimeline, presetOf, WIND_PRESETS, type WindTimeline } from "../../wind/conditions";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";
import { timelineEditor } from "./timeline-editor";

/** Barron §6.1's wind sliders, one per axis, m/s: x and z edit speed and direction, y the vertical wind. */
const WIND_X = numberParam("Wind x", -WIND_PARAMS.speed.max, WIND_PARAMS.speed.max, 0.1, 0, "m/s", "The wind's x component: toward +x when positive");
const WIND_Y: NumberParam = { ...WIND_PARAMS.vertical, label: "Wind y (vertical)" };
const WIND_Z = numberParam("Wind z", -WIND_PARAMS.speed.max, WIND_PARAMS.speed.max, 0.1, 0, "m/s", "The wind's z component: toward +z when positive");

export function windSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("Wind");
  const w = () => sb.wind();
  const setting = (key: keyof WindSettings) => scope.control(`wind.${key}`, WIND_PARAMS[key], () => w()[key], (v: number) => sb.wind({ [key]: v }));
  setting("speed");
  setting("direction");
  scope.control("wind.x", WIND_X, () => windXZ(w()).x, (v: number) => sb.wind(horizontalWind(v, windXZ(w()).z, "x", w().direction)));
  scope.control("wind.vertical", WIND_Y, () => w().vertical, (v: number) => sb.wind({ vertical: v }));
  scope.control("wind.z", WIND_Z, () => windXZ(w()).z, (v: number) => sb.wind(horizontalWind(windXZ(w()).x, v, "z", w().direction)));
  setting("turbulence");
  setting("gust");
  scope.button("wind.calm", "Calm (reset wind)", () => sb.wind({ speed: 0, vertical: 0 }));
  scope.text("Beaufort presets", 12, MUTED, 20);
  scope.choice("wind.preset", () => WIND_PRESETS.map((p) => ({ value: p.id, label: p.label })), () => (sb.windTimeline() ? "" : presetOf(w().speed)?.id ?? ""), (id) => sb.windPreset(id));
  scope.text("Wind timeline", 12, MUTED, 20);
  scope.choice("wind.timeline", () => [{ value: "off", label: "No timeline (steady wind)" }, ...Object.keys(EXAMPLE_TIMELINES).map((n) => ({ value: n, label: `Timeline: ${n}` }))], () => timelineName(sb.windTimeline()), (v) => sb.windTimeline(v === "off" ? null : structuredClone(EXAMPLE_TIMELINES[v]) as WindTimeline));
  const editor = timelineEditor(sb, scope.group("timeline-editor"));
  return {
    on: ["wind", "windPlayed", "timeline"],
    refresh() {
      editor.refresh();
      scope.refresh();
    },
    frame: () => editor.frame(),
  };
}

/** The example timeline playing, "off", or "" for an edited one. */
function timelineName(tl: WindTimeline | null): string {
  if (!tl) return "off";
  const text = formatTimeline(tl);
  return Object.keys(EXAMPLE_TIMELINES).find((n) => formatTimeline(EXAMPLE_TIMELINES[n]) === text) ?? "";
}

/** The horizontal wind in Cartesian form, m/s (x toward +x, z toward +z). */
function windXZ(w: WindSettings): { x: number; z: number } {
  const a = (w.direction * Math.PI) / 180;
  return { x: clean(w.speed * Math.cos(a)), z: clean(w.speed * Math.sin(a)) };
}

/** Rounds away float noise (1e-15) so a slider reads 0, not -0.0000001. */
function clean(v: number): number {
  return Math.round(v * 1e6) / 1e6 + 0;
}

/**
 * Speed and direction from the wind's x and z components (Barron 2006 §6.1), direction 0 toward
 * +x and 90 toward +z. Past the speed limit the component being edited (`edited`) gives way, so the
 * other one stays where it was; at no horizontal wind the direction is kept.
 */
export function horizontalWind(x: number, z: number, edited: "x" | "z", direction: number): Pick<WindSettings, "speed" | "direction"> {
  const max = WIND_PARAMS.speed.max;
  if (Math.hypot(x, z) > max) {
    if (edited === "x") x = Math.sign(x) * Math.sqrt(Math.max(0, max * max - z * z));
    else z = Math.sign(z) * Math.sqrt(Math.max(0, max * max - x * x));
  }
  const speed = Math.min(max, Math.hypot(x, z));
  if (speed < 1e-9) return { speed: 0, direction };
  const deg = (Math.atan2(z, x) * 180) / Math.PI;
  return { speed, direction: clean((deg + 360) % 360) };
}
