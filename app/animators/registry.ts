/**
 * Every method the sandbox offers, in the order the panel lists them. A new method is a folder
 * under app/animators/ plus one line here (as webgpu-samples registers its samples).
 */
import { AnimatorRegistry } from "./animator";
import { restProvider } from "./rest/provider";
import { proceduralWindProvider } from "./procedural-wind/provider";
import { spectralBeamProvider } from "./spectral-beam/provider";
import { lsystemParticlesProvider } from "./lsystem-particles/provider";
import { massSpringProvider } from "./mass-spring/provider";
import { modalProvider } from "./modal/provider";
import { sphParticlesProvider } from "./sph-particles/provider";

export function createRegistry(): AnimatorRegistry {
  const r = new AnimatorRegistry();
  r.register(spectralBeamProvider);
  r.register(proceduralWindProvider);
  r.register(lsystemParticlesProvider);
  r.register(massSpringProvider);
  r.register(modalProvider);
  r.register(sphParticlesProvider);
  r.register(restProvider);
  return r;
}

/** The method shown when nothing else is asked for. */
export const DEFAULT_METHOD = "spectral-beam";
