// The WebGPU and abort types the public declarations mention, typed structurally: a consumer's TypeScript needs neither
// the DOM library nor WebGPU types (TypeScript 5.x's DOM library has none) to check them. `navigator.gpu`, Node's
// `webgpu` package and any AbortSignal fit these shapes; the implementation (device.ts) uses the full WebGPU types.

/** The WebGPU entry point: `navigator.gpu` in browsers, `create([])` of the npm package `webgpu` in Node. */
export interface WebGpuEntry {
  requestAdapter(options?: object): Promise<unknown>;
}

/** An AbortSignal, as far as posenc reads it. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
}

/** Cancellation and progress of one asynchronous call. */
export interface Control {
  /** Abort the call: the promise rejects with the signal's reason (an `AbortError` by default). */
  signal?: AbortSignalLike;
  /** Called with the finished fraction (0 … 1] after each chunk of a long computation. */
  progress?: (fraction: number) => void;
}
