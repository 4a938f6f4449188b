// A model with anywidget's front-end interface (@anywidget/types AnyModel: get, set, save_changes, on, off), as page
// source: what the posenc/widget tests render with (the widget test, and the MyST {anywidget} test).
export const FAKE_MODEL = `class FakeModel {
  constructor(state) { this.state = { ...state }; this.handlers = {}; this.saved = []; }
  get(k) { return this.state[k]; }
  set(k, v) { const old = JSON.stringify(this.state[k]); this.state[k] = v; if (old !== JSON.stringify(v)) for (const f of this.handlers['change:' + k] ?? []) f(); }
  save_changes() { this.saved.push(JSON.parse(JSON.stringify(this.state))); }
  on(e, f) { (this.handlers[e] ??= []).push(f); }
  off(e, f) { this.handlers[e] = (this.handlers[e] ?? []).filter((g) => g !== f); }
}`;
