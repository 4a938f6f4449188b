// Types of posenc/widget (dist/widget.js): the anywidget front-end module (`export default { render }`).
/** The part of anywidget's model the widget uses (traits: figure, params, lang, theme, controls). */
export interface WidgetModel {
  get(key: string): any;
  set(key: string, value: any): void;
  save_changes(): void;
  on(event: string, callback: () => void): void;
  off(event: string, callback: () => void): void;
}
declare const widget: {
  /** Renders the figure the model's traits name into `el`; returns the cleanup function. */
  render(context: { model: WidgetModel; el: HTMLElement }): () => void;
};
export default widget;
