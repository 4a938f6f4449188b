// require('posenc/figures'): the module is an ES module. Node ≥ 20.19 / ≥ 22.12 can require() it (server-side
// rendering: nothing is defined there); older Node gets told to use import() instead of ERR_REQUIRE_ESM.
'use strict';
try {
  module.exports = require('./figures.js');
} catch (e) {
  if (!e || e.code !== 'ERR_REQUIRE_ESM') throw e;
  const err = new Error("require: posenc/figures is an ES module and this Node (" + process.version + ") cannot require() it. " +
    "Use `await import('posenc/figures')` (works in CommonJS too), or Node >= 20.19 / 22.12.");
  err.name = 'PosencError';
  err.param = 'require';
  throw err;
}
