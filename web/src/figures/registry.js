// @ts-check
// Every figure definition by name. The definitions hold no DOM code at module level, so this module loads in Node,
// in the compute worker and on the page alike.
import { L, tr, FigureError, describeParam } from './params.js';
import permutation from './defs/permutation.js';
import attention from './defs/attention.js';
import sinusoidal from './defs/sinusoidal.js';
import multiplicative from './defs/multiplicative.js';
import shaw from './defs/shaw.js';
import transformerXl from './defs/transformer-xl.js';
import t5 from './defs/t5.js';
import deberta from './defs/deberta.js';
import tupe from './defs/tupe.js';
import ropeRotation from './defs/rope-rotation.js';
import partialRotary from './defs/partial-rotary.js';
import ropeDecay from './defs/rope-decay.js';
import suDecay from './defs/su-decay.js';
import wavelengths from './defs/wavelengths.js';
import contextExtension from './defs/context-extension.js';
import configWavelengths from './defs/config-wavelengths.js';
import configSchedule from './defs/config-schedule.js';
import configDecay from './defs/config-decay.js';
import configScale from './defs/config-scale.js';
import configMrope from './defs/config-mrope.js';
import alibi from './defs/alibi.js';
import xpos from './defs/xpos.js';
import linearAttention from './defs/linear-attention.js';
import explorer from './defs/explorer.js';
import ropeClock from './defs/rope-clock.js';
import ropeWorked from './defs/rope-worked.js';
import ropeRelative from './defs/rope-relative.js';
import ntkBase from './defs/ntk-base.js';
import scalingWavelengths from './defs/scaling-wavelengths.js';
import ropeCompare from './defs/rope-compare.js';
import dualChunk from './defs/dual-chunk.js';
import ropeAxes from './defs/rope-axes.js';
import patchGrid from './defs/patch-grid.js';
import ropeAllocation from './defs/rope-allocation.js';
import learnedResize from './defs/learned-resize.js';
import ropePhasor from './defs/rope-phasor.js';
import evidenceExtension from './defs/evidence-extension.js';
import positionCodes from './defs/position-codes.js';
import researchBias from './defs/research-bias.js';
import baseTheta from './defs/base-theta.js';
import factorAdvisor from './defs/factor-advisor.js';
import yarnAttention from './defs/yarn-attention.js';
import modelLoss from './defs/model-loss.js';
import modelAttention from './defs/model-attention.js';
import trainShort from './defs/train-short.js';
import trainShortAttention from './defs/train-short-attention.js';

const all = [permutation, attention, sinusoidal, multiplicative, shaw, transformerXl, t5, deberta, tupe, ropeRotation, partialRotary,
  ropeDecay, suDecay, wavelengths, contextExtension, configWavelengths,
  configSchedule, configDecay, configScale, configMrope, ropeCompare, alibi, xpos, linearAttention, explorer,
  ropeClock, ropeWorked, ropeRelative, ntkBase, scalingWavelengths, patchGrid, ropeAllocation, ropeAxes, learnedResize, dualChunk, ropePhasor, evidenceExtension, positionCodes,
  researchBias, baseTheta, factorAdvisor, yarnAttention, modelLoss, modelAttention, trainShort, trainShortAttention];
/** Every definition by name. @type {Record<string, import('./params.js').FigureDef>} */
export const defs = Object.fromEntries(all.map((d) => [d.name, d]));

/** Every figure name, in the explainer's order. @type {readonly string[]} */
export const figureNames = Object.freeze(all.map((d) => d.name));

/** @param {string} name */
export function unknownFigure(name) {
  return new FigureError(L(`Unknown figure "${name}": attribute "figure" must be one of ${figureNames.join(', ')}.`,
    `未知的图 "${name}"：属性 "figure" 必须是 ${figureNames.join('、')} 之一。`), 'figure');
}

/** The definition of figure `name`. @param {string} name @returns {import('./params.js').FigureDef} @throws {FigureError} for an unknown name */
export function figureDef(name) {
  const d = Object.hasOwn(defs, name) ? defs[name] : null;
  if (!d) throw unknownFigure(name);
  return d;
}

/**
 * A figure's description: its title, one-line description and takeaway in English and Chinese, its parameters
 * (name, type, default, range or allowed values, label), and its tries ("try this": a setting and what to look for).
 * @param {string} name @returns {import('./params.js').FigureDescription} @throws {FigureError} for an unknown name
 */
export function describeFigure(name) {
  const d = figureDef(name);
  return { name, title: { ...d.title }, description: { ...d.description }, takeaway: { ...d.takeaway },
    params: Object.entries(d.params).map(([n, s]) => describeParam(n, s)),
    tries: (d.tries ?? []).map((t) => ({ params: { ...t.params }, look: { ...t.look } })) };
}

export { tr };
