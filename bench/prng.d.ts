/** A small deterministic generator (mulberry32): numbers in [0, 1), the same for the same seed. */
export declare function prng(seed: number): () => number;
