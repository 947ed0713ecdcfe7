/**
 * A part of the panel: it builds its controls once (and its groups when their keys change), and
 * refreshes them when one of the changes it shows happens.
 */
import type { SandboxChange, SandboxPanelApi } from "../../sandbox/api";
import type { Scope } from "../widgets";

export interface PanelSection {
  /** The changes this section shows. */
  readonly on: readonly SandboxChange[];
  /** Shows the state now. */
  refresh(): void;
  /** After every frame drawn: progress bars, the playhead (cheap; no allocation when nothing changed). */
  frame?(): void;
  /** Removes what it added outside its controls (observers). */
  dispose?(): void;
}

/** Makes a section in `scope` over the sandbox's panel API. */
export type SectionFactory = (sandbox: SandboxPanelApi, scope: Scope) => PanelSection;
