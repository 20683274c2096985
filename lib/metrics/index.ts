// Agreement and outcome metrics as docs/method.md (Metrics) defines them.
// Pure functions over counts and label lists: no database, no framework.

export * from "./estimate";
export * from "./rng";
export * from "./labels";
export * from "./confusion";
export * from "./kappa";
export * from "./agreement";
export * from "./majority";
export * from "./ground-truth";
export * from "./tie-sensitivity";
export * from "./human-agreement";
export * from "./krippendorff";
export * from "./share";
export * from "./wilson";
export * from "./failures";
export * from "./emulator-quality";
export * from "./agents";
export * from "./bootstrap";
export { sampleBinomial, sampleMultinomialInto, conditionalShares, multinomialChain, type MultinomialChain } from "./binomial";
