// @ts-check
// The page's one worker: the figures' worker (web/src/figures/figures-worker.js: every <posenc-figure> computes here)
// serving, beside the figures, the named tasks of the site's live checks and tables (tasks.js) — one wasm instance,
// one worker start. The page's figures engine starts it (app.js → engine.js useSource) and posts the wasm module it
// compiled; the protocol is the figures worker's ({id, name, params} → {id, progress}… {id, result} | {id, error} |
// {id, cancelled}). The flag keeps figures-worker.js from listening on import (as in the standalone bundle), so that
// listen() gets the site's tasks.
import '../src/figures/standalone/flag.js';
import { listen } from '../src/figures/figures-worker.js';
import { tasks } from './tasks.js';

listen(tasks);
