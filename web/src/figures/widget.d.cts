// Types of require('posenc/widget') (widget.cjs): the ES module's namespace (widget.d.ts).
declare const widget: typeof import('./widget.js', { with: { 'resolution-mode': 'import' } });
export = widget;
