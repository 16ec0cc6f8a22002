// What the views share: the presets and their knobs, the offline flag, and re-rendering.

import { get, Offline } from "./api.js";
import { load, save } from "./store.js";

export const app = {
  presets: [], // [{name, description, players}] from GET /v1/rules
  knobSpecs: null, // knob name -> {kind, label, choices: [{value, label}], minimum, maximum} from GET /v1/rules
  knobs: load("knobs", () => ({})), // preset name -> every knob (GET /v1/rules/{preset}), kept for offline use
  layoutSize: {}, // players -> the month cards dealt to the layout (engine.json: the engine's RULES.md 4)
  offline: false,
  rerender: () => {},
  later: () => {}, // a re-render that waits for a tap in progress to end (a field's change)
  go: () => {},
};

export async function presetKnobs(name) {
  if (!app.knobs[name]) {
    app.knobs[name] = await get(`/v1/rules/${encodeURIComponent(name)}`);
    save("knobs", app.knobs);
  }
  return app.knobs[name];
}

// Run an API call; a service that cannot be reached sets the offline banner instead of throwing.
export async function reach(work) {
  try {
    const result = await work();
    if (app.offline) {
      app.offline = false;
      app.rerender();
    }
    return result;
  } catch (error) {
    if (error instanceof Offline) {
      app.offline = true;
      app.rerender();
      return undefined;
    }
    throw error;
  }
}

export function presetsFor(players) {
  return app.presets.filter((p) => p.players === players);
}
