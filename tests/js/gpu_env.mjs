// WebGPU for Node tests and the bench: the npm package `webgpu` (Dawn). Without a system Vulkan driver it uses the
// SwiftShader (CPU) Vulkan driver that Debian's Chromium bundles: the Vulkan loader must then be found through
// LD_LIBRARY_PATH, which the dynamic linker reads only at process start — so the script runs itself again with it set.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const CHROMIUM_LIB = '/usr/lib/chromium';
const systemDriver = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d']
  .some((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json')));

if (!systemDriver && !process.env.VK_ICD_FILENAMES && existsSync(`${CHROMIUM_LIB}/vk_swiftshader_icd.json`)) {
  const env = {
    ...process.env,
    VK_ICD_FILENAMES: `${CHROMIUM_LIB}/vk_swiftshader_icd.json`,
    LD_LIBRARY_PATH: [CHROMIUM_LIB, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  process.exit(r.status ?? 1);
}

/** The WebGPU entry point (like navigator.gpu) and its adapter, or nulls where none exists. */
export async function nodeWebgpu() {
  try {
    const { create } = await import('webgpu');
    const gpu = create([]);
    const adapter = await gpu.requestAdapter();
    return adapter ? { gpu, adapter } : { gpu: null, adapter: null };
  } catch {
    return { gpu: null, adapter: null };
  }
}
