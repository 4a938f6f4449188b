// Appended to the threads build's glue (CMakeLists.txt: --extern-post-js). Loaded by import() in a page or worker,
// the glue is a module and its `var createPosencThreads` stays local: publish the factory for the package's loader.
if (typeof module !== 'object' && typeof globalThis === 'object') globalThis.createPosencThreads = createPosencThreads;
