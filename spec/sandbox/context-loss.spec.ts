/**
 * The context-loss part under NullEngine: the message while the context is gone, the host told
 * on its return, nothing drawn meanwhile while the simulation can still be stepped, and no
 * observer left behind.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { createRegistry } from "../../app/animators/registry";
import { CONTEXT_LOST_MESSAGE, ContextLossBehavior, type ContextNotice } from "../../app/sandbox/context-loss";
import { Sandbox } from "../../app/sandbox/sandbox";

function fakeNotice() {
  const seen: (string | null)[] = [];
  const notice: ContextNotice & { disposed: boolean } = {
    disposed: false,
    show: (m) => seen.push(m),
    hide: () => seen.push(null),
    dispose() {
      this.disposed = true;
    },
  };
  return { notice, seen };
}

describe("ContextLossBehavior", () => {
  let engine: NullEngine;
  let scene: Scene;
  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
  });
  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  it("shows the message while the context is gone, tells the host, and hides it when the context is back", () => {
    const { notice, seen } = fakeNotice();
    const calls: string[] = [];
    const part = new ContextLossBehavior(() => calls.push("restored"), notice);
    part.attach(scene);
    expect(part.isLost).toBe(false);
    engine.onContextLostObservable.notifyObservers(engine);
    expect(part.isLost).toBe(true);
    expect(seen).toEqual([CONTEXT_LOST_MESSAGE]);
    expect(CONTEXT_LOST_MESSAGE).toMatch(/graphics context was lost/);
    engine.onContextRestoredObservable.notifyObservers(engine);
    expect(part.isLost).toBe(false);
    expect(seen).toEqual([CONTEXT_LOST_MESSAGE, null]);
    expect(calls).toEqual(["restored"]);
    part.dispose();
    expect(notice.disposed).toBe(true);
  });

  it("removes its observers on detach (attached twice, it observes once)", () => {
    const before = [engine.onContextLostObservable.observers.length, engine.onContextRestoredObservable.observers.length];
    const calls: string[] = [];
    const part = new ContextLossBehavior(() => calls.push("restored"), null);
    part.attach(scene);
    part.attach(scene);
    engine.onContextLostObservable.notifyObservers(engine);
    expect(part.isLost).toBe(true);
    engine.onContextRestoredObservable.notifyObservers(engine);
    expect(calls).toEqual(["restored"]);
    part.detach();
    engine.onContextLostObservable.notifyObservers(engine);
    engine.onContextRestoredObservable.notifyObservers(engine);
    expect([calls, part.isLost]).toEqual([["restored"], false]);
    const live = (o: { observers: unknown[] }) => o.observers.filter((x) => !(x as { _willBeUnregistered?: boolean })._willBeUnregistered).length;
    expect([live(engine.onContextLostObservable), live(engine.onContextRestoredObservable)]).toEqual(before);
  });
});

describe("the host while the context is gone", () => {
  it("steps the simulation without drawing, draws again once the context is back, and goes on from where it was", async () => {
    const engine = new NullEngine();
    const sandbox = new Sandbox(engine, null, createRegistry());
    try {
      const api = sandbox.api();
      await sandbox.start("#tree=demo&method=procedural-wind", "", { renderLoop: false });
      api.wind({ speed: 20 });
      api.step(30);
      const render = jest.spyOn(sandbox.scene, "render");
      engine.onContextLostObservable.notifyObservers(engine);
      const before = api.probe();
      api.step(5);
      expect(render).not.toHaveBeenCalled();
      const held = api.probe();
      expect(held).not.toEqual(before); // a script's step() still advances the simulation
      engine.onContextRestoredObservable.notifyObservers(engine);
      api.step(1);
      expect(render).toHaveBeenCalledTimes(1);
      expect(api.probe()).not.toEqual(held);
      expect(api.stats().errors).toEqual([]);
    } finally {
      sandbox.dispose();
      engine.dispose();
    }
  });
});
