// require('posenc'): the package is an ES module. Node ≥ 20.19 / ≥ 22.12 can require() it (this file hands over
// the Node entry); older Node cannot, and gets told to use import() instead of ERR_REQUIRE_ESM.
'use strict';
try {
  module.exports = require('./node.js');
} catch (e) {
  if (!e || e.code !== 'ERR_REQUIRE_ESM') throw e;
  const err = new Error("require: posenc is an ES module and this Node (" + process.version + ") cannot require() it. " +
    "Use `const { init } = await import('posenc')` (works in CommonJS too), or Node >= 20.19 / 22.12, where require('posenc') works.");
  err.name = 'PosencError';
  err.param = 'require';
  throw err;
}
