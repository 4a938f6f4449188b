// @ts-check
// The page's code, imported by start.js once the page's worker is on its way: app.js (the figures, the sections, the
// formulas) and the scripts of two parts of §6 (the config reader, the model files), which index.html's sections
// loaded with <script> tags of their own. In this order: app.js runs up to its first await, then the other two (as
// when they were the page's later module scripts). A section's script goes here, not into its HTML: a <script> in
// the page joins start.js's chunk and would be evaluated before the worker starts (vite.config.js checks that).
import './app.js';
import './config-reader.js';
import './model-files.js';
