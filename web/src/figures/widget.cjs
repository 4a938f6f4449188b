// require('posenc/widget'): the anywidget module is an ES module for browsers (anywidget loads it as `_esm`). Node
// ≥ 20.19 / ≥ 22.12 can require() it (its namespace: { default: { render } }); older Node is told to use import().
'use strict';
try {
  module.exports = require('./widget.js');
} catch (e) {
  if (!e || e.code !== 'ERR_REQUIRE_ESM') throw e;
  const err = new Error("require: posenc/widget is an ES module and this Node (" + process.version + ") cannot require() it. " +
    "Use `await import('posenc/widget')`, or give anywidget the file itself (_esm = node_modules/posenc/dist/widget.js).");
  err.name = 'PosencError';
  throw err;
}
