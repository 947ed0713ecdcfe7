/**
 * Wind primitives in the scene (Zioma 2007 §6.3.1): the kind, strength, radius and duration of the
 * next one, a button that makes the next click on the ground place it (a blast fires then; a fan
 * blows toward the tree), and the list of those placed, each with Move (the next click on the
 * ground moves it there; a fan turns to blow at the tree again) and Delete. The click is picked on the ground plane through the camera of
 * the view under the mouse; a click on the sky or the panel leaves the placement waiting.
 */
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { PointerInfo } from "@babylonjs/core/Events/pointerEvents";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import type { SandboxPanelApi, WindPrimitiveInfo, WindPrimitiveSpec } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { PRIMITIVE_PARAMS, towardOrigin } from "../../wind/primitives";
import { highlight, MUTED, TEXT, type Scope } from "../widgets";
import type { PanelSection } from "./section";

/** The panel's duration: 0 is "until removed" (the API's left-out duration). */
const DURATION = numberParam("Duration (0: until removed)", 0, 120, 0.5, 0, "s", "How long it acts from when it is placed; 0: until removed");

/** One line for a primitive in the list. */
function describe(p: WindPrimitiveInfo): string {
  const at = `(${p.x.toFixed(1)}, ${p.z.toFixed(1)})`;
  const extra = p.kind === "fan" ? `, toward ${p.direction.toFixed(0)}°` : "";
  const lasts = p.duration === null ? "until removed" : `${p.duration} s`;
  return `#${p.id} ${p.kind} at ${at}${extra}: ${p.strength} m/s, radius ${p.radius} m, ${lasts}, from t = ${p.start.toFixed(1)} s`;
}

/** `panelCovers(x)`: whether page x is on the panel (a click there is the panel's). */
export function primitivesSection(sb: SandboxPanelApi, scope: Scope, panelCovers: (x: number) => boolean): PanelSection {
  const next = { kind: PRIMITIVE_PARAMS.kind.default as WindPrimitiveSpec["kind"], strength: PRIMITIVE_PARAMS.strength.default, radius: PRIMITIVE_PARAMS.radius.default, duration: DURATION.default };
  /** What the next click on the ground does: place the next primitive, move primitive `id`, or nothing. */
  let placing: { move: number | null } | null = null;
  const set = (patch: Partial<typeof next>) => {
    Object.assign(next, patch);
    refresh();
  };
  scope.section("Wind primitives");
  scope.control("primitives.kind", PRIMITIVE_PARAMS.kind, () => next.kind, (v: string) => set({ kind: v as typeof next.kind }), { row: true });
  scope.control("primitives.strength", PRIMITIVE_PARAMS.strength, () => next.strength, (v: number) => set({ strength: v }));
  scope.control("primitives.radius", PRIMITIVE_PARAMS.radius, () => next.radius, (v: number) => set({ radius: v }));
  scope.control("primitives.duration", DURATION, () => next.duration, (v: number) => set({ duration: v }));
  const place = scope.button("primitives.place", "", () => {
    placing = placing?.move === null ? null : { move: null };
    refresh();
  });
  scope.bind(place, () => {
    const waiting = placing?.move === null;
    place.textBlock!.text = waiting ? "Click on the ground to place it (here: cancel)" : `Place a ${next.kind} with the mouse`;
    highlight(place, waiting);
  });
  scope.named.set("primitives.place.label", place.textBlock!);
  const list = scope.group("primitives-list");

  const build = () => {
    const items = sb.windPrimitives();
    const moving = placing?.move ?? null;
    const rebuilt = list.rebuild(JSON.stringify(items) + `#${moving}`, (g) => {
      if (items.length === 0) {
        g.text("None placed.", 12, MUTED, 20);
        return;
      }
      for (const p of items) {
        g.named.set(`primitive.${p.id}.label`, g.note(describe(p), 12, TEXT));
        g.choice(`primitive.${p.id}`, () => [{ value: "move", label: moving === p.id ? "Click on the ground…" : "Move" }, { value: "delete", label: "Delete" }], () => (moving === p.id ? "move" : ""), (v) => {
          if (v === "delete") {
            if (moving === p.id) placing = null;
            return sb.removeWindPrimitive(p.id);
          }
          placing = { move: p.id };
          build();
        }, true);
      }
    });
    if (!rebuilt) list.refresh();
  };
  function refresh(): void {
    scope.refresh();
    build();
  }
  build();

  // First among the scene's pointer observers: a click that places or moves is not also a branch pick.
  const tap: Observer<PointerInfo> | null = sb.scene.onPointerObservable.add((pi, state) => {
    // A click soon after another (the place button's) comes as a double tap: it is a click all the same.
    if (!placing || (pi.type !== PointerEventTypes.POINTERTAP && pi.type !== PointerEventTypes.POINTERDOUBLETAP)) return;
    const x = sb.scene.pointerX, y = sb.scene.pointerY;
    if (panelCovers(x)) return;
    const at = sb.groundAt(x, y);
    if (!at) return;
    state.skipNextObservers = true;
    const doing = placing;
    placing = null;
    try {
      if (doing.move === null) sb.windPrimitive({ kind: next.kind, x: at.x, z: at.z, strength: next.strength, radius: next.radius, duration: next.duration > 0 ? next.duration : null });
      else {
        const fan = sb.windPrimitives().find((p) => p.id === doing.move)?.kind === "fan";
        sb.moveWindPrimitive(doing.move, fan ? { ...at, direction: towardOrigin(at.x, at.z) } : at);
      }
    } catch {
      // Shown in the panel by the API.
    }
    refresh();
  }, undefined, true);
  return {
    on: ["primitives"],
    refresh,
    dispose: () => tap?.remove(),
  };
}
