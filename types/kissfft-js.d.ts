// kissfft-js 0.1.8 ships no types. Results are views into its asm.js heap, overwritten by the
// next call: copy them out (TOOLCHAIN.md). FFT.inverse is broken; see app/math/fft.ts.
declare module "kissfft-js" {
  export class FFT {
    constructor(size: number);
    forward(input: ArrayLike<number>): Float32Array | Float64Array;
    inverse(input: ArrayLike<number>): Float32Array | Float64Array;
    dispose(): void;
  }
  export class FFTR {
    constructor(size: number);
    forward(input: ArrayLike<number>): Float32Array | Float64Array;
    inverse(input: ArrayLike<number>): Float32Array | Float64Array;
    dispose(): void;
  }
}
